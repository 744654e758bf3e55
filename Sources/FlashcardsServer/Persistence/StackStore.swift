import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// One stack's figures from its cards.
struct StackCardFigures {
    var cards = 0
    /// Cards in review state (queue 2).
    var inReview = 0
    /// Cards due before the ladder's cut-off (the end of the user's day at midnight).
    var ladderDue = 0
    /// Cards due before the FSRS cut-off (the end of the learner day at 04:00), by queue.
    var fsrsDue: [CardQueue: Int] = [:]
    /// The first review of one of its cards.
    var firstStudiedAt: Date?
    /// The last review of one of its cards.
    var lastStudiedAt: Date?
}

extension StudyStore {
    /// The user's stacks in creation order.
    func stacks(of userId: UUID) async throws -> [StackModel] {
        // Plain SQL read field by field: Fluent's reflection of 50 stacks was a fifth of a home
        // screen's CPU time.
        try await sql.raw("SELECT * FROM stacks WHERE user_id = \(bind: userId) ORDER BY id").all()
            .map { row in
                let stack = StackModel()
                try stack.read(from: PrefixedOutput(row: row, prefix: ""))
                return stack
            }
    }

    /// The figures of each stack in two statements that read indexes only: the counts per queue
    /// (`cards_stack_queue_due`), and the first and last review per stack (`cards_stack_reviewed`).
    func cardFigures(stackIds ids: [Int], ladderCutoff: Date, fsrsCutoff: Date) async throws
        -> [Int: StackCardFigures]
    {
        guard !ids.isEmpty else { return [:] }
        // One part per queue, so that each reads its queue's partial index (`cards_*_due`, ordered by
        // stack) instead of table rows sorted for grouping: 1.7 instead of 9 ms for 10,000 cards.
        var query: SQLQueryString = ""
        for queue in CardQueue.allCases {
            if queue != CardQueue.allCases.first { query = query + " UNION ALL " }
            query =
                query + """
                    SELECT stack_id, \(literal: queue.rawValue) AS queue, COUNT(*) AS cards,
                    SUM(CASE WHEN due_at < \(bind: ladderCutoff) THEN 1 ELSE 0 END) AS ladder_due,
                    SUM(CASE WHEN due_at < \(bind: fsrsCutoff) THEN 1 ELSE 0 END) AS fsrs_due
                    FROM cards WHERE queue = \(literal: queue.rawValue) AND stack_id IN (\(binds: ids)) GROUP BY stack_id
                    """
        }
        let rows = try await sql.raw(query).all(decoding: QueueRow.self)
        var figures: [Int: StackCardFigures] = [:]
        for row in rows {
            var stack = figures[row.stack_id, default: StackCardFigures()]
            stack.cards += row.cards
            stack.ladderDue += row.ladder_due
            let queue = try storedValue(CardQueue.self, row.queue, column: "cards.queue")
            if queue == .review { stack.inReview += row.cards }
            stack.fsrsDue[queue, default: 0] += row.fsrs_due
            figures[row.stack_id] = stack
        }
        let studied = try await sql.raw(
            """
            SELECT id, (SELECT MIN(first_reviewed_at) FROM cards WHERE cards.stack_id = stacks.id) AS first_at,
            (SELECT MAX(last_reviewed_at) FROM cards WHERE cards.stack_id = stacks.id) AS last_at
            FROM stacks WHERE id IN (\(binds: ids))
            """
        ).all(decoding: StudiedRow.self)
        for row in studied where figures[row.id] != nil {
            figures[row.id]!.firstStudiedAt = row.first_at
            figures[row.id]!.lastStudiedAt = row.last_at
        }
        return figures
    }
}

private struct QueueRow: Decodable {
    let stack_id: Int
    let queue: Int
    let cards: Int
    let ladder_due: Int
    let fsrs_due: Int
}

private struct StudiedRow: Decodable {
    let id: Int
    let first_at: Date?
    let last_at: Date?
}

/// A card's texts as an export writes them.
struct CardTextRow: Decodable {
    let question: String
    let answer: String
    let hint: String?
    let tags: String?
    let kind: String
    let variant: Int
    let format: String
}

extension StudyStore {
    /// The texts of stack `stackId`'s cards in creation order.
    func cardTexts(ofStack stackId: Int) async throws -> [CardTextRow] {
        try await sql.select()
            .columns("question", "answer", "hint", "tags", "kind", "variant", "format").from("cards")
            .where("stack_id", .equal, stackId).orderBy("id").all(decoding: CardTextRow.self)
    }

    /// The user's whole review log as the FSRS optimizer reads it (the columns it needs only).
    func optimizerReviews(of userId: UUID) async throws -> [OptimizerReview] {
        try await sql.raw(
            """
            SELECT id, card_id, reviewed_at, rating, scheduler, kind, undoes, seq FROM review_logs
            WHERE user_id = \(bind: userId)
            """
        ).all(decoding: OptimizerReview.self)
    }
}

/// A review as the FSRS optimizer reads it.
struct OptimizerReview: Decodable {
    let id: UUID
    let card_id: Int
    let reviewed_at: Date
    let rating: Int
    let scheduler: String
    let kind: String
    let undoes: UUID?
    let seq: Int
}

extension QueryBuilder where Model == CardModel {
    /// Only cards whose search text (lowercased question, answer and hint) contains `text`
    /// (lowercase) literally: LIKE with its wildcards escaped.
    @discardableResult
    func filter(searchTextContains text: String) -> Self {
        filter(.sql(embed: "search_text LIKE \(bind: "%" + LikePattern.escaped(text) + "%") ESCAPE '\\'"))
    }
}

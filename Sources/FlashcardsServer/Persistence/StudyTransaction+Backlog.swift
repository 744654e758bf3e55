import FlashcardsCore
import Foundation
import SQLKit

/// A review card as `BacklogSpreader` ranks it.
struct BacklogCard: Decodable {
    let id: Int
    let stability: Double?
    let difficulty: Double?
    let lastReviewedAt: Date?
    let due: Date

    enum CodingKeys: String, CodingKey {
        case id, stability, difficulty
        case lastReviewedAt = "last_reviewed_at"
        case due = "due_at"
    }
}

/// A card a spread moved, with its due time before.
struct BacklogMove: Decodable {
    let cardId: Int
    let scheduledDueAt: Date

    enum CodingKeys: String, CodingKey {
        case cardId = "card_id"
        case scheduledDueAt = "scheduled_due_at"
    }
}

/// The statements of `BacklogSpreader`, in its write transaction.
extension StudyTransaction {
    /// Claims learner day `day` for the stack's spread; false when it was claimed already.
    func claimSpreadDay(_ day: Int, stackId: Int) async throws -> Bool {
        let unclaimed: SQLQueryString = "(spread_day IS NULL OR spread_day <> \(bind: day))"
        return try await !sql.update("stacks").set("spread_day", to: day)
            .where("id", .equal, stackId).where(unclaimed)
            .returning("id").all().isEmpty
    }

    /// Review cards of the stack due before `end`.
    func reviewCount(stackId: Int, dueBefore end: Date) async throws -> Int {
        try await sql.raw(
            """
            SELECT COUNT(*) AS n FROM cards WHERE stack_id = \(bind: stackId) AND queue = \(literal: CardQueue.review.rawValue)
            AND due_at < \(bind: end)
            """
        ).first(decoding: CountRow.self)?.n ?? 0
    }

    /// The memory state of the stack's review cards due before `end`.
    func reviewPool(stackId: Int, dueBefore end: Date) async throws -> [BacklogCard] {
        try await sql.raw(
            """
            SELECT id, stability, difficulty, last_reviewed_at, due_at FROM cards
            WHERE stack_id = \(bind: stackId) AND queue = \(literal: CardQueue.review.rawValue) AND due_at < \(bind: end)
            """
        ).all(decoding: BacklogCard.self)
    }

    /// Review cards of the stack due in `start ..< end`, per 15-minute bucket.
    func reviewLoad(stackId: Int, from start: Date, to end: Date) async throws -> [(Date, Int)] {
        try await TimeBuckets.counts(
            table: "cards", column: "due_at",
            filter:
                "stack_id = \(bind: stackId) AND queue = \(literal: CardQueue.review.rawValue) AND due_at >= \(bind: start) AND due_at < \(bind: end)",
            sql: sql, bucket: bucket("due_at"))
    }

    /// Remembers, before `setDue` moves them, where each card of `cards` (with its due time now) goes
    /// when the day's cards are due from `start` on, one second apart. A card moved before whose move
    /// still holds (its due time is still where that move put it) keeps the due time it had before
    /// its first move: undoing the moves gives the schedule as the scheduler made it.
    func recordMoves(_ cards: [(id: Int, due: Date)], from start: Date, stackId: Int) async throws {
        var index = 0
        while index < cards.count {
            let chunk = Array(cards[index..<min(index + 200, cards.count)])
            let ids = chunk.map(\.id)
            let held = try await sql.raw(
                """
                SELECT m.card_id, m.scheduled_due_at FROM backlog_moves m JOIN cards c ON c.id = m.card_id
                WHERE m.card_id IN (\(binds: ids)) AND c.due_at = m.moved_to
                """
            ).all(decoding: BacklogMove.self)
            let scheduled = Dictionary(held.map { ($0.cardId, $0.scheduledDueAt) }, uniquingKeysWith: { a, _ in a })
            try await sql.raw("DELETE FROM backlog_moves WHERE card_id IN (\(binds: ids))").run()
            try await sql.insert(into: "backlog_moves")
                .columns("card_id", "stack_id", "scheduled_due_at", "moved_to")
                .rows(
                    chunk.enumerated().map { offset, card in
                        [
                            SQLBind(card.id), SQLBind(stackId), SQLBind(scheduled[card.id] ?? card.due),
                            SQLBind(start.addingTimeInterval(Double(index + offset))),
                        ] as [any SQLExpression]
                    }
                ).run()
            index += chunk.count
        }
    }

    /// Puts every card of the stack that a spread moved back to the due time the scheduler gave it,
    /// where the move still holds, and forgets the stack's moves. Returns how many cards moved back.
    @discardableResult
    func undoMoves(stackId: Int) async throws -> Int {
        let held: SQLQueryString =
            "SELECT m.card_id FROM backlog_moves m WHERE m.stack_id = \(bind: stackId) AND m.moved_to = cards.due_at"
        let moved = try await sql.raw(
            """
            UPDATE cards SET due_at = (SELECT m.scheduled_due_at FROM backlog_moves m WHERE m.card_id = cards.id)
            WHERE stack_id = \(bind: stackId) AND id IN (\(held)) RETURNING id
            """
        ).all().count
        try await sql.raw("DELETE FROM backlog_moves WHERE stack_id = \(bind: stackId)").run()
        return moved
    }

    /// Sets `due_at` of `ids` to `start`, `start + 1 s`, … in one statement per 200 cards.
    func setDue(_ ids: [Int], from start: Date) async throws {
        var index = 0
        while index < ids.count {
            let chunk = Array(ids[index..<min(index + 200, ids.count)])
            var cases: SQLQueryString = "CASE id"
            for (offset, id) in chunk.enumerated() {
                let due = start.addingTimeInterval(Double(index + offset))
                cases.appendInterpolation(" WHEN \(literal: id) THEN \(bind: due)" as SQLQueryString)
            }
            cases.appendLiteral(" END")
            try await sql.raw("UPDATE cards SET due_at = \(cases) WHERE id IN (\(binds: chunk))").run()
            index += chunk.count
        }
    }
}

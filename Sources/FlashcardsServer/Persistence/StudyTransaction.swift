import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// A write transaction's statements. `lockCards` is the stores' own; everything else is written once
/// in the extension.
protocol StudyTransaction: Sendable {
    /// The transaction's handle.
    var sql: any SQLDatabase { get }

    /// Locks the rows of these cards of `userId` (by `unique_id`, optionally only in `stackId`) until
    /// the transaction ends, in id order so that two transactions never wait for each other's cards
    /// crosswise. A transaction that reads a card to write the replay of its history must not start
    /// from a version another one is replacing. Run it before reading the cards. SQLite needs
    /// nothing: its write transactions run one at a time.
    func lockCards(_ uniqueIds: [UUID], of userId: UUID, in stackId: Int?) async throws

    /// `column` as its 15-minute bucket number (see `StudyStore.bucket`).
    func bucket(_ column: String) -> SQLQueryString

    /// The first of `count` consecutive card ids free for this transaction's inserts. `taken`: the
    /// ids `StudyStore.takeCardIds` gave before the transaction, which on PostgreSQL are the
    /// answer; on SQLite, whose transaction holds the write lock, the ones after the largest id now
    /// (the same unless a card was made in between).
    func takeCardIds(_ count: Int, taken: Int?) async throws -> Int
}

/// A write transaction that writes Fluent models too (`StudyStore.modelTransaction`).
protocol ModelTransaction: StudyTransaction {
    /// Fluent on the transaction's connection: every model written in the transaction is written here.
    var db: any Database { get }
}

/// The card a rating is about, as its transaction reads it.
struct RatedCard {
    let card: CardModel
    /// The card's highest arrival number in the log.
    let lastSeq: Int
    /// Whether the rating's review id is stored already.
    let knownReview: KnownReview?

    enum KnownReview {
        /// This review of this card: the rating was stored before.
        case same
        /// The id belongs to another user's or card's review.
        case other
    }

    /// A row of the card's columns with `last_seq` and `known_review` (1: this review of this card,
    /// 2: someone else's, null: unknown).
    init(_ row: any SQLRow) throws { try self.init(ColumnReader(row)) }

    init(_ row: ColumnReader) throws {
        card = try CardModel.read(row)
        lastSeq = try row.value("last_seq", as: Int.self)
        knownReview =
            switch try row.optional("known_review", as: Int.self) {
            case nil: nil
            case 1?: .same
            default: .other
            }
    }
}

extension StudyTransaction {
    /// The card with this path id in `stackId`, its last arrival number and whether `reviewId` is
    /// known (this review of this card, or someone else's), in one statement.
    func ratedCard(uniqueId: UUID, stackId: Int, userId: UUID, reviewId: UUID) async throws -> RatedCard? {
        guard
            let row = try await sql.raw(
                """
                SELECT cards.*, (SELECT COALESCE(MAX(seq), 0) FROM review_logs WHERE card_id = cards.id) AS last_seq,
                (SELECT CASE WHEN user_id = \(bind: userId) AND card_id = cards.id THEN 1 ELSE 2 END
                FROM review_logs WHERE id = \(key: reviewId)) AS known_review
                FROM cards WHERE unique_id = \(key: uniqueId) AND stack_id = \(key: stackId)
                """
            ).first()
        else { return nil }
        return try RatedCard(row)
    }

    /// The due times of the other cards of `card`'s note waiting in the review queue (`siblingDueTimes`).
    func siblingDues(of card: CardModel) async throws -> [Date] { try await siblingDueTimes(of: card, on: sql) }

    /// The card with this path id in `stackId`.
    func card(uniqueId: UUID, stackId: Int) async throws -> CardModel? {
        try await sql.raw("SELECT * FROM cards WHERE unique_id = \(key: uniqueId) AND stack_id = \(key: stackId)")
            .first().map(CardModel.read)
    }

    /// The user's cards with these path ids (in chunks of 500: bind limits).
    func cards(uniqueIds: [UUID], of userId: UUID) async throws -> [CardModel] {
        try await Self.chunked(uniqueIds) { chunk in
            try await sql.raw(
                "SELECT * FROM cards WHERE user_id = \(bind: userId) AND unique_id IN (\(binds: chunk))"
            ).all().map(CardModel.read)
        }
    }

    /// Every card of a stack.
    func cards(stackId: Int) async throws -> [CardModel] {
        try await sql.raw("SELECT * FROM cards WHERE stack_id = \(bind: stackId)").all().map(CardModel.read)
    }

    /// The user's stacks with these ids.
    func stacks(ids: [Int], of userId: UUID) async throws -> [StackModel] {
        guard !ids.isEmpty else { return [] }
        return try await sql.raw("SELECT * FROM stacks WHERE user_id = \(bind: userId) AND id IN (\(binds: ids))")
            .all().map { row in
                let stack = StackModel()
                try stack.read(from: PrefixedOutput(row: row, prefix: ""))
                return stack
            }
    }

    /// The user's stored FSRS parameter text, nil without.
    func parameters(of userId: UUID) async throws -> String? {
        try await storedParameters(of: userId, on: sql)
    }

    /// The log entries of one card.
    func reviewLogs(cardId: Int) async throws -> [ReviewLogModel] {
        try await sql.raw("SELECT * FROM review_logs WHERE card_id = \(bind: cardId)")
            .all(decodingFluent: ReviewLogModel.self)
    }

    /// The log entries of one stack.
    func reviewLogs(stackId: Int) async throws -> [ReviewLogModel] {
        try await sql.raw("SELECT * FROM review_logs WHERE stack_id = \(bind: stackId)")
            .all(decodingFluent: ReviewLogModel.self)
    }

    /// The log entries with these ids, whoever's they are (to tell duplicates from foreign ids).
    func reviewLogs(ids: [UUID]) async throws -> [ReviewLogModel] {
        try await Self.chunked(ids) { chunk in
            try await sql.raw("SELECT * FROM review_logs WHERE id IN (\(binds: chunk))")
                .all(decodingFluent: ReviewLogModel.self)
        }
    }

    /// A card's highest arrival number (0 without entries).
    func lastSeq(cardId: Int) async throws -> Int {
        try await sql.raw("SELECT COALESCE(MAX(seq), 0) AS n FROM review_logs WHERE card_id = \(bind: cardId)")
            .first(decoding: CountRow.self)?.n ?? 0
    }

    /// Appends `logs` with multi-row statements (500 rows each): one statement for a rating instead
    /// of Fluent's reflective per-model insert.
    func append(_ logs: [ReviewLogModel]) async throws {
        for start in stride(from: 0, to: logs.count, by: 500) {
            let rows = logs[start..<min(start + 500, logs.count)].map { log -> SQLQueryString in
                """
                (\(bind: log.id!), \(bind: log.userId), \(bind: log.cardId), \(bind: log.stackId), \(bind: log.reviewedAt),
                \(bind: log.rating), \(bind: log.scheduler), \(bind: log.stateBefore), \(bind: log.stateAfter),
                \(bind: log.durationMs), \(bind: log.kind), \(bind: log.undoes), \(bind: log.elapsedDays), \(bind: log.seq),
                \(bind: log.mode), \(bind: log.balancedDays))
                """
            }
            try await sql.raw(
                """
                INSERT INTO review_logs (\(unsafeRaw: ReviewLogModel.insertColumns)) VALUES 
                """ + rows.joined(separator: ", ")
            ).run()
        }
    }

    /// Writes the card's schedule (what a replay sets) in one statement.
    func saveSchedule(_ card: CardModel) async throws {
        try await sql.raw(
            """
            UPDATE cards SET due_at = \(bind: card.dueAt), level = \(bind: card.level),
            review_count = \(bind: card.reviewCount), queue = \(bind: card.queue), state = \(bind: card.state),
            step = \(bind: card.step), stability = \(bind: card.stability), difficulty = \(bind: card.difficulty),
            first_reviewed_at = \(bind: card.firstReviewedAt), last_reviewed_at = \(bind: card.lastReviewedAt)
            WHERE id = \(key: card.id!)
            """
        ).run()
    }

    /// Writes a stack's scheduler settings (and forgets its spread day).
    func saveSettings(_ stack: StackModel) async throws {
        try await sql.raw(
            """
            UPDATE stacks SET scheduler = \(bind: stack.scheduler), desired_retention = \(bind: stack.desiredRetention),
            learning_steps = \(bind: stack.learningSteps), relearning_steps = \(bind: stack.relearningSteps),
            new_cards_per_day = \(bind: stack.newCardsPerDay), reviews_per_day = \(bind: stack.reviewsPerDay),
            spread_day = \(bind: stack.spreadDay), name = \(bind: stack.name), color = \(bind: stack.color),
            hints_enabled = \(bind: stack.hintsEnabled), updated_at = \(bind: stack.updatedAt)
            WHERE id = \(key: stack.id!)
            """
        ).run()
    }

    /// Deletes a card; returns its review times (nil when it was gone already).
    func deleteCard(id: Int) async throws -> ReviewTimes? {
        guard
            let row = try await sql.raw(
                "DELETE FROM cards WHERE id = \(bind: id) RETURNING first_reviewed_at, last_reviewed_at"
            ).first()
        else { return nil }
        return ReviewTimes(
            first: try row.decode(column: "first_reviewed_at", as: Date?.self),
            last: try row.decode(column: "last_reviewed_at", as: Date?.self))
    }

    /// Keeps `milliseconds` as the stack's best match time when it beats the one kept (a tie does
    /// not). Returns the best time now and whether this game set it.
    func recordMatch(stackId: Int, milliseconds: Int) async throws -> (bestMs: Int, newBest: Bool) {
        let updated = try await sql.raw(
            """
            UPDATE stacks SET match_best_ms = \(bind: milliseconds) WHERE id = \(key: stackId)
            AND (match_best_ms IS NULL OR match_best_ms > \(bind: milliseconds)) RETURNING id
            """
        ).first()
        if updated != nil { return (milliseconds, true) }
        let row = try await sql.raw("SELECT match_best_ms FROM stacks WHERE id = \(key: stackId)").first()
        return (try row?.decode(column: "match_best_ms", as: Int?.self) ?? milliseconds, false)
    }

    /// Replaces the user's stored FSRS parameters.
    func storeParameters(_ row: SchedulerParametersModel) async throws {
        try await sql.raw("DELETE FROM scheduler_parameters WHERE user_id = \(bind: row.id!)").run()
        try await sql.raw(
            """
            INSERT INTO scheduler_parameters (user_id, parameters, optimized_at, log_loss, default_log_loss, reviews)
            VALUES (\(bind: row.id!), \(bind: row.parameters), \(bind: row.optimizedAt), \(bind: row.logLoss),
            \(bind: row.defaultLogLoss), \(bind: row.reviews))
            """
        ).run()
    }

    /// Runs `query` over chunks of at most 500 ids (bind limits of SQLite and PostgreSQL).
    static func chunked<ID: Sendable, T>(_ ids: [ID], _ query: ([ID]) async throws -> [T]) async throws -> [T] {
        var result: [T] = []
        var start = 0
        while start < ids.count {
            let end = min(start + 500, ids.count)
            result += try await query(Array(ids[start..<end]))
            start = end
        }
        return result
    }
}

extension ReviewLogModel {
    /// The columns a new log row is written with, in the order `StudyTransaction.append` and
    /// `PostgresNamedStatements.AppendReview` give them.
    static let insertColumns =
        "id, user_id, card_id, stack_id, reviewed_at, rating, scheduler, state_before, state_after, duration_ms, kind, undoes, elapsed_days, seq, mode, balanced_days"
}

/// The due times of the other cards of `card`'s note (a reversed pair, a cloze) that wait in the
/// review queue; none for a card of its own. The load balancer keeps a card off their days.
func siblingDueTimes(of card: CardModel, on sql: any SQLDatabase) async throws -> [Date] {
    guard let noteId = card.noteId else { return [] }
    return try await sql.raw(
        """
        SELECT due_at FROM cards WHERE note_id = \(bind: noteId) AND user_id = \(bind: card.userId)
        AND id <> \(key: card.id!) AND queue = \(literal: CardQueue.review.rawValue)
        """
    ).all(decoding: DueRow.self).map(\.due_at)
}

/// A due time read alone.
private struct DueRow: Decodable {
    let due_at: Date
}

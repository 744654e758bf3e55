import FlashcardsCore
import Fluent
import FluentPostgresDriver
import Foundation
import SQLKit
import Vapor

/// The queries and writes of learning: the account read with every request, the next card with its
/// counts, rating transactions, and the review log's appends and replays.
///
/// Two implementations, one per database: `SQLiteStudyStore` (statements on the calling thread
/// through `InlineSQLite`) and `PostgresStudyStore` (named, prepared statements). Services talk to
/// this protocol; nothing outside the stores knows the dialect. Statements both databases run alike
/// are written once, in the extensions below and in `StudyTransaction`.
protocol StudyStore: Sendable {
    /// The handle for statements outside a transaction.
    var sql: any SQLDatabase { get }
    /// The handle for statements that read many rows (whole stacks), streamed as they are produced.
    var bulk: any SQLDatabase { get }

    /// The first card of a stack by `order`, with the due count: one statement.
    func queueHead(stackId: Int, order: QueueOrder) async throws -> QueueHead

    /// Runs `body` in a write transaction, the one way anything writes more than one statement.
    /// On SQLite write transactions run one at a time (`SQLiteWriteGate`) and take the write lock up
    /// front; on PostgreSQL they run side by side, and `StudyTransaction.lockCards` orders the ones
    /// that replay the same cards.
    func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (any StudyTransaction) async throws -> T)
        async throws -> T

    /// `column` (a timestamp) as its 15-minute bucket number, Unix seconds / 900 floored
    /// (`TimeBuckets`).
    func bucket(_ column: String) -> SQLQueryString
}

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
}

/// The first card of a stack by its queue order, with the due count.
struct QueueHead: Sendable {
    /// The first card (also when today's caps hold it back).
    let card: CardModel?
    /// Its rank (FSRS only).
    let rank: QueueOrder.HeadRank?
    /// Due cards the caps let through, up to `QueueOrder.dueCountLimit`.
    let dueCount: Int

    /// The card to show.
    var shown: CardModel? { rank == .held ? nil : card }
    /// Cards are due, but today's caps hold them back.
    var held: Bool { rank == .held }

    static let empty = QueueHead(card: nil, rank: nil, dueCount: 0)
}

/// The account read with every authenticated request and, on routes of one stack, the caller's
/// stack and FSRS parameters, from the same statement.
struct AuthenticatedRow {
    let user: UserModel
    let stack: StackModel?
    let parameters: PreloadedParameters?
}

/// The caller's stored FSRS parameters as read with the account: `text` is nil when they have none.
struct PreloadedParameters: Sendable {
    let text: String?
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
}

// MARK: Statements outside a transaction

extension StudyStore {
    /// The account `userId` and, with `stackId`, the caller's stack of that id and their FSRS
    /// parameters: one primary-key lookup (a foreign stack id finds no stack).
    func authenticated(userId: UUID, stackId: UUID?) async throws -> AuthenticatedRow? {
        let extra: SQLQueryString
        if let stackId {
            extra =
                "\(unsafeRaw: AuthenticatedColumns.stackColumnList) FROM users"
                + " LEFT JOIN stacks ON stacks.user_id = users.id AND stacks.unique_id = \(key: stackId)"
        } else {
            extra = " FROM users"
        }
        guard let row = try await sql.raw("SELECT users.*\(extra) WHERE users.id = \(key: userId)").first() else {
            return nil
        }
        let user = UserModel()
        try user.read(from: PrefixedOutput(row: row, prefix: ""))
        guard stackId != nil else { return AuthenticatedRow(user: user, stack: nil, parameters: nil) }
        let parameters = PreloadedParameters(
            text: try row.decode(column: AuthenticatedColumns.parameters, as: String?.self))
        var stack: StackModel?
        if try !row.decodeNil(column: AuthenticatedColumns.stackPrefix + "id") {
            let model = StackModel()
            try model.read(from: PrefixedOutput(row: row, prefix: AuthenticatedColumns.stackPrefix))
            stack = model
        }
        return AuthenticatedRow(user: user, stack: stack, parameters: parameters)
    }

    /// The caller's stack with this id (a foreign one finds nothing).
    func stack(uniqueId: UUID, of userId: UUID) async throws -> StackModel? {
        // Plain SQL: every stack route starts here, and Fluent's query building cost more than the seek.
        guard
            let row = try await sql.raw(
                "SELECT * FROM stacks WHERE unique_id = \(key: uniqueId) AND user_id = \(key: userId)"
            )
            .first()
        else { return nil }
        let stack = StackModel()
        try stack.read(from: PrefixedOutput(row: row, prefix: ""))
        return stack
    }

    /// The user's stored FSRS parameter text, nil without.
    func parameters(of userId: UUID) async throws -> String? {
        try await sql.raw("SELECT parameters FROM scheduler_parameters WHERE user_id = \(bind: userId)")
            .first(decoding: ParametersRow.self)?.parameters
    }

    /// When the stack's first card falls due (nil for an empty stack): one seek on `cards_stack_due`.
    func firstDueAt(stackId: Int) async throws -> Date? {
        try await sql.raw("SELECT due_at FROM cards WHERE stack_id = \(key: stackId) ORDER BY due_at, id LIMIT 1")
            .first(decoding: DueRow.self)?.due_at
    }

    /// The counts behind an FSRS stack's daily limits, from the cards: one range of
    /// `cards_stack_reviewed`, read from the index alone (see `StackDayCounts`).
    func dayCounts(stackId: Int, since: Date) async throws -> StackDayCounts.Counts {
        try await StackDayCounts.count(stackId: stackId, since: since, on: sql)
    }
}

/// The column names of `StudyStore.authenticated`'s row.
private enum AuthenticatedColumns {
    static let stackPrefix = "stack__"
    static let parameters = "fsrs_parameters__"
    /// The stack's columns under prefixed names and the parameters, as SQL text made once (SQLite and
    /// PostgreSQL quote identifiers alike; the names are the models' own).
    static let stackColumnList =
        StackModel.keys.map { ", stacks.\"\($0.description)\" AS \"\(stackPrefix)\($0.description)\"" }.joined()
        + ", (SELECT parameters FROM scheduler_parameters WHERE user_id = users.id) AS \"\(parameters)\""
}

// MARK: Statements of a write transaction

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
        let known: RatedCard.KnownReview? =
            switch try row.decode(column: "known_review", as: Int?.self) {
            case nil: nil
            case 1?: .same
            default: .other
            }
        return RatedCard(
            card: try CardModel.read(row), lastSeq: try row.decode(column: "last_seq", as: Int.self),
            knownReview: known)
    }

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
        try await sql.raw("SELECT parameters FROM scheduler_parameters WHERE user_id = \(bind: userId)")
            .first(decoding: ParametersRow.self)?.parameters
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
                \(bind: log.durationMs), \(bind: log.kind), \(bind: log.undoes), \(bind: log.elapsedDays), \(bind: log.seq))
                """
            }
            try await sql.raw(
                """
                INSERT INTO review_logs (id, user_id, card_id, stack_id, reviewed_at, rating, scheduler, state_before,
                state_after, duration_ms, kind, undoes, elapsed_days, seq) VALUES 
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

private struct ParametersRow: Decodable { let parameters: String }
private struct DueRow: Decodable { let due_at: Date }

/// The row of a raw `SELECT COUNT(*) AS n …`.
struct CountRow: Decodable {
    let n: Int
}

extension Database {
    /// The database as SQLKit sees it: both drivers are SQL. The one place that casts.
    var sql: any SQLDatabase { self as! any SQLDatabase }
}

extension Application {
    /// The study store over `db` (a request's or a job's database): SQLite or PostgreSQL, decided here.
    func studyStore(on db: any Database) -> any StudyStore {
        if db is any PostgresDatabase { return PostgresStudyStore(db: db) }
        return SQLiteStudyStore(inline: inlineSQLite, driver: db)
    }
}

extension Request {
    /// The study store of this request.
    var studyStore: any StudyStore { application.studyStore(on: db) }
}

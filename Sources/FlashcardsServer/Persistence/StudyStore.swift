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

    /// Fluent on the same database, for single-statement model reads and writes.
    var db: any Database { get }

    /// Runs `body` in a write transaction, the one way anything writes more than one statement.
    /// On SQLite write transactions run one at a time (`SQLiteWriteGate`) and take the write lock up
    /// front; on PostgreSQL they run side by side, and `StudyTransaction.lockCards` orders the ones
    /// that replay the same cards. Never call it inside another write transaction (on SQLite the
    /// inner one would wait for the outer one's gate for ever): pass the transaction down instead.
    func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (any StudyTransaction) async throws -> T)
        async throws -> T

    /// `writeTransaction` for writes of Fluent models: the same gate and `BEGIN IMMEDIATE` on
    /// SQLite, but on a driver connection, whose Fluent database the transaction carries
    /// (`ModelTransaction.db`); the inline writer has none.
    func modelTransaction<T: Sendable>(_ body: @escaping @Sendable (any ModelTransaction) async throws -> T)
        async throws -> T

    /// The first of `count` consecutive card ids for rows an import inserts with their ids (their
    /// review log rows name them): PostgreSQL takes them from the sequence for good; SQLite gives
    /// the ones after the largest, which the import's transaction checks again
    /// (`StudyTransaction.takeCardIds(_:taken:)`).
    func takeCardIds(_ count: Int) async throws -> Int

    /// Appended to a claiming `SELECT … LIMIT 1` (the job queue's): skip rows another transaction
    /// has locked. PostgreSQL's `FOR UPDATE SKIP LOCKED`; nothing on SQLite, whose writers run one
    /// at a time.
    var skipLockedClause: SQLQueryString { get }

    /// Every review log row of a user as the FSRS optimizer reads it (`OptimizeJobHandler`): hundreds
    /// of thousands for a long history. SQLite's is the shared statement (`StackStore.swift`);
    /// PostgreSQL's decodes the rows without the driver's generic `Decodable` path.
    func optimizerReviews(of userId: UUID) async throws -> [OptimizerReview]

    /// The row `authenticated` decodes: the account, whether the token is revoked (with `tokenId`)
    /// and the caller's stack of `stackId` with the FSRS parameters (with `stackId`). The shared
    /// statement is `AuthenticatedColumns.row`; PostgreSQL runs the study routes' form (token and
    /// stack) by name.
    func authenticatedRow(userId: UUID, stackId: UUID?, tokenId: String?) async throws -> (any SQLRow)?

    /// Ratings written in one statement outside a transaction (`AppendedReviews`), where the store
    /// offers them: PostgreSQL, on which every statement of a transaction is a network round trip.
    /// Nil on SQLite, whose transactions run in the process.
    var appendedReviews: (any AppendedReviews)? { get }

    /// `column` (a timestamp) as its 15-minute bucket number, Unix seconds / 900 floored
    /// (`TimeBuckets`).
    func bucket(_ column: String) -> SQLQueryString

    /// Whole days of `column` (a timestamp) shifted by `shift` seconds: (Unix seconds + shift) /
    /// 86,400, floored (`LearnerDays`).
    func shiftedDay(_ column: String, shift: SQLQueryString) -> SQLQueryString
}

/// A rating that continues a card's schedule (`ReviewRecorder.appends`: every rating in a session),
/// written without a transaction. The card is read with its row version, the rating computed from it,
/// and the review, the card's new schedule and the stack's day counts are written in one statement
/// that applies only while the card's row is still that version. When another writer changed the
/// card in between, that statement writes nothing and the caller rates again with the card locked
/// (`locking`), from what that writer stored.
protocol AppendedReviews: Sendable {
    /// The card with this path id in `stackId` as `StudyTransaction.ratedCard` reads it, with its row
    /// version.
    func ratedCard(uniqueId: UUID, stackId: Int, userId: UUID, reviewId: UUID) async throws -> VersionedRatedCard?

    /// Appends `log` and writes `card`'s schedule (both as `ReviewRecorder.apply` left them) if the
    /// card's row is still `version`, and adjusts the stack's day counts by `change`
    /// (`StackDayCounts.apply`).
    func write(_ log: ReviewLogModel, card: CardModel, version: String, change: ReviewTimesChange) async throws
        -> AppendedReviewOutcome

    /// Runs `body` (a rating of a card of stack `stackId`, by `write` or in a transaction) while no
    /// other rating of that stack runs in this process. Two ratings of a stack that ran side by side
    /// would meet in the database: at its day counts (one row of the stack), and when they rate the
    /// same card, as a changed card rated again in `locking`. In this process they wait in order of
    /// arrival instead, without a connection; servers of several processes still meet there.
    func oneAtATime<T>(stack stackId: Int, _ body: () async throws -> T) async throws -> T

    /// Runs `body` in a transaction that first locks the card with this path id in its own statement
    /// (`StudyTransaction.lockCards`), so that the `AppendedReviews` it hands over read what the
    /// writer they waited for committed and write to a card no one else changes meanwhile. For a
    /// rating whose `write` met a changed card: `BEGIN`, the lock, the read, the write and `COMMIT`, the
    /// row locked for the last three, where a transaction replaying the card takes eight statements.
    func locking<T: Sendable>(
        card uniqueId: UUID, of userId: UUID, in stackId: Int,
        _ body: @escaping @Sendable (any AppendedReviews) async throws -> T
    ) async throws -> T
}

/// A rated card as `AppendedReviews` reads it: the card and its row version.
struct VersionedRatedCard {
    let rated: RatedCard
    /// The row version the write checks (PostgreSQL's `xmin`, as text).
    let version: String
}

/// What `AppendedReviews.write` did.
enum AppendedReviewOutcome {
    /// Written; the stack's day counts now kept, if it keeps any.
    case written(StackDayCounts.Counts?)
    /// Nothing written: another writer changed the card since it was read.
    case cardChanged
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

// MARK: Statements outside a transaction

extension StudyStore {
    /// The due times of the other cards of `card`'s note waiting in the review queue (`siblingDueTimes`).
    func siblingDues(of card: CardModel) async throws -> [Date] { try await siblingDueTimes(of: card, on: sql) }

    /// The account `userId` and, with `stackId`, the caller's stack of that id and their FSRS
    /// parameters: one primary-key lookup (a foreign stack id finds no stack).
    func authenticated(userId: UUID, stackId: UUID?, tokenId: String? = nil) async throws -> AuthenticatedRow? {
        guard let row = try await authenticatedRow(userId: userId, stackId: stackId, tokenId: tokenId) else {
            return nil
        }
        if tokenId != nil, try row.decode(column: AuthenticatedColumns.revoked, as: Bool.self) { return nil }
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

    func authenticatedRow(userId: UUID, stackId: UUID?, tokenId: String?) async throws -> (any SQLRow)? {
        try await AuthenticatedColumns.row(userId: userId, stackId: stackId, tokenId: tokenId, on: sql)
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
        try await storedParameters(of: userId, on: sql)
    }

    /// When the stack's first card falls due (nil for an empty stack): one seek on `cards_stack_due`.
    func firstDueAt(stackId: Int) async throws -> Date? {
        try await sql.raw("SELECT due_at FROM cards WHERE stack_id = \(key: stackId) ORDER BY due_at, id LIMIT 1")
            .first(decoding: DueRow.self)?.due_at
    }

    /// Up to `2 * perSide` answers of other cards of the stack, those due just before and just after
    /// `card` (two seeks on `cards_stack_due`, whatever the stack's size): distractor candidates
    /// for a quiz question, unrelated to the card but from its stack.
    func answers(near card: CardModel, perSide: Int) async throws -> [QuizOptions.Candidate] {
        let stackId = card.stackId
        // Plain ranges (no `OR`), so each is one seek in the index; a card due at the very same
        // moment may come twice, which `QuizOptions` drops as a repeated answer.
        let after = try await sql.raw(
            """
            SELECT id, answer, kind, format FROM cards WHERE stack_id = \(key: stackId) AND due_at >= \(bind: card.dueAt)
            AND id <> \(bind: card.id!) ORDER BY due_at, id LIMIT \(limit: perSide)
            """
        ).all(decoding: AnswerRow.self)
        let before = try await sql.raw(
            """
            SELECT id, answer, kind, format FROM cards WHERE stack_id = \(key: stackId) AND due_at <= \(bind: card.dueAt)
            AND id <> \(bind: card.id!) ORDER BY due_at DESC, id DESC LIMIT \(limit: perSide)
            """
        ).all(decoding: AnswerRow.self)
        // A true/false card's answer (`true`) and a cloze's extra notes are no answers to choose.
        return try (before + after).filter {
            $0.kind != CardKind.trueFalse.rawValue && $0.kind != CardKind.cloze.rawValue
        }
        // Shown as plain text, as the asked card's answer is (a rich one without its formatting).
        .map { row in
            let format = try storedValue(CardFormat.self, row.format, column: "cards.format")
            return QuizOptions.Candidate(
                cardID: Int64(row.id), answer: format.answerText(row.answer),
                markup: format == .markdown ? row.answer : nil)
        }
    }
}

/// The statement of `StudyStore.authenticated`: the account's columns under their own names, the
/// stack's under `stackPrefix`, the parameters and the token's revocation under their own.
enum AuthenticatedColumns {
    static let stackPrefix = "stack__"
    static let parameters = "fsrs_parameters__"
    static let revoked = "token_revoked__"
    /// The stack's columns under prefixed names and the parameters, as SQL text made once (SQLite and
    /// PostgreSQL quote identifiers alike; the names are the models' own).
    static let stackColumnList =
        StackModel.keys.map { ", stacks.\"\($0.description)\" AS \"\(stackPrefix)\($0.description)\"" }.joined()
        + ", (SELECT parameters FROM scheduler_parameters WHERE user_id = users.id) AS \"\(parameters)\""
    /// The account's columns by name (`users.*` would change the row type of a statement
    /// PostgreSQL keeps planned with a migration's column).
    static let userColumnList = UserModel.keys.map { "users.\"\($0.description)\"" }.joined(separator: ", ")

    /// The statement, one primary-key lookup (a foreign stack id finds no stack). `userId`,
    /// `stackId` and `tokenId` are SQL for the values: binds (`row`) or a named statement's
    /// parameters (`PostgresNamedStatements.AuthenticatedForStack`). Without `stackId` no stack is
    /// joined, without `tokenId` no revocation is read.
    static func statement<S: SQLText>(userId: S, stackId: S?, tokenId: S?) -> S {
        var text: S = .raw("SELECT " + userColumnList)
        if let tokenId {
            // A token revoked by logout: one probe of the revocation table's key, in the same statement.
            text = text + ", EXISTS (SELECT 1 FROM revoked_tokens WHERE id = " + tokenId + .raw(") AS \"\(revoked)\"")
        }
        if let stackId {
            let join: S = " FROM users LEFT JOIN stacks ON stacks.user_id = users.id AND stacks.unique_id = "
            text = text + .raw(stackColumnList) + join + stackId
        } else {
            text = text + " FROM users"
        }
        return text + " WHERE users.id = " + userId
    }

    /// The statement's row on `sql`, its values bound.
    static func row(userId: UUID, stackId: UUID?, tokenId: String?, on sql: any SQLDatabase) async throws
        -> (any SQLRow)?
    {
        let text: SQLQueryString = statement(
            userId: "\(key: userId)", stackId: stackId.map { "\(key: $0)" }, tokenId: tokenId.map { "\(bind: $0)" })
        return try await sql.raw(text).first()
    }
}

/// The user's stored FSRS parameter text on `sql`, nil without.
func storedParameters(of userId: UUID, on sql: any SQLDatabase) async throws -> String? {
    struct Row: Decodable { let parameters: String }
    return try await sql.raw("SELECT parameters FROM scheduler_parameters WHERE user_id = \(bind: userId)")
        .first(decoding: Row.self)?.parameters
}

private struct DueRow: Decodable { let due_at: Date }
private struct AnswerRow: Decodable {
    let id: Int
    let answer: String
    let kind: String
    let format: String
}

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

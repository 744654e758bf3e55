import FlashcardsCore
import Fluent
import FluentPostgresDriver
import Foundation
import SQLKit

/// The study store on PostgreSQL. Both next-card statements are prepared by name, once per
/// connection (`PostgresNamedStatements`): the driver sends every other statement as text that
/// PostgreSQL parses and plans on each run, and for next-card that planning cost more than the
/// statement. Write transactions run side by side; those that replay cards lock their rows first.
struct PostgresStudyStore: StudyStore {
    let db: any Database

    var sql: any SQLDatabase { db.sql }
    var bulk: any SQLDatabase { db.sql }

    var skipLockedClause: SQLQueryString { " FOR UPDATE SKIP LOCKED" }

    var appendedReviews: (any AppendedReviews)? { PostgresAppendedReviews(db: db) }

    func authenticatedRow(userId: UUID, stackId: UUID?, tokenId: String?) async throws -> (any SQLRow)? {
        guard let stackId, let tokenId else {
            return try await AuthenticatedColumns.row(userId: userId, stackId: stackId, tokenId: tokenId, on: sql)
        }
        return try await PostgresNamedStatements.rows(
            PostgresNamedStatements.AuthenticatedForStack(tokenId: tokenId, stackId: stackId, userId: userId), on: db
        ).first
    }

    func optimizerReviews(of userId: UUID) async throws -> [OptimizerReview] {
        // The driver's rows as SQLKit rows decode each value through `Decodable` (seconds of
        // event-loop time for 300,000 rows); its own typed decoding reads the binary values, here on
        // the compute pool (`runOffEventLoops`), so that a long history holds no event loop.
        let rows = try await PostgresNamedStatements.postgresBulkRows(
            PostgresNamedStatements.OptimizerReviews(userId: userId), on: db)
        return try await runOffEventLoops { _ in
            try rows.joined().map { row in
                let (id, cardId, reviewedAt, rating, scheduler, kind, undoes, seq) = try row.decode(
                    (UUID, Int, Date, Int, String, String, UUID?, Int).self, context: .default)
                return OptimizerReview(
                    id: id, card_id: cardId, reviewed_at: reviewedAt, rating: rating, scheduler: scheduler, kind: kind,
                    undoes: undoes, seq: seq)
            }
        }
    }

    func takeCardIds(_ count: Int) async throws -> Int { try await Self.sequenceIds(count, on: sql) }

    /// The first of `count` consecutive ids taken from the sequence of `cards.id` (one statement,
    /// so no other session's ids come in between).
    fileprivate static func sequenceIds(_ count: Int, on sql: any SQLDatabase) async throws -> Int {
        guard count > 0 else { return 1 }
        struct Row: Decodable { let id: Int }
        let sequence = "pg_get_serial_sequence('cards', 'id')"
        // Advance the sequence by `count` at once and take the block that ends there.
        let row = try await sql.raw(
            "SELECT setval(\(unsafeRaw: sequence), nextval(\(unsafeRaw: sequence)) + \(bind: count - 1)) AS id"
        ).first(decoding: Row.self)
        guard let last = row?.id else {
            throw JobFailure("Keine Kartennummern frei.", code: "ids_unavailable", userError: false)
        }
        return last - count + 1
    }

    func bucket(_ column: String) -> SQLQueryString { Self.bucket(column) }

    func shiftedDay(_ column: String, shift: SQLQueryString) -> SQLQueryString {
        "CAST(FLOOR((EXTRACT(EPOCH FROM \(ident: column)) + \(shift)) / 86400) AS BIGINT)"
    }

    fileprivate static func bucket(_ column: String) -> SQLQueryString {
        "CAST(FLOOR(EXTRACT(EPOCH FROM \(ident: column)) / \(literal: TimeBuckets.seconds)) AS BIGINT)"
    }

    func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (any StudyTransaction) async throws -> T)
        async throws -> T
    {
        try await modelTransaction { try await body($0) }
    }

    func modelTransaction<T: Sendable>(_ body: @escaping @Sendable (any ModelTransaction) async throws -> T)
        async throws -> T
    {
        try await Self.transaction(on: db) { try await body($0) }
    }

    /// A transaction on `db`, the wait for its pooled connection (and its `BEGIN`) counted in the
    /// pool metrics.
    fileprivate static func transaction<T: Sendable>(
        on db: any Database, _ body: @escaping @Sendable (Transaction) async throws -> T
    ) async throws -> T {
        let start = ServerMetrics.waitStarts()
        return try await db.transaction {
            ServerMetrics.databaseWaited(since: start, database: "postgres")
            return try await body(Transaction(sql: $0.sql, db: $0))
        }
    }

    struct Transaction: ModelTransaction {
        let sql: any SQLDatabase
        let db: any Database

        /// `SELECT … FOR UPDATE` in a statement of its own, so that the reads after it see what the
        /// transaction it waited for committed.
        func lockCards(_ uniqueIds: [UUID], of userId: UUID, in stackId: Int?) async throws {
            guard !uniqueIds.isEmpty else { return }
            let stackFilter: SQLQueryString = stackId.map { " AND stack_id = \(bind: $0)" } ?? ""
            try await sql.raw(
                "SELECT id FROM cards WHERE user_id = \(bind: userId) AND unique_id IN (\(binds: uniqueIds))"
                    + stackFilter + " ORDER BY id FOR UPDATE"
            ).run()
        }

        func bucket(_ column: String) -> SQLQueryString { PostgresStudyStore.bucket(column) }

        func takeCardIds(_ count: Int, taken: Int?) async throws -> Int {
            if let taken { return taken }
            return try await PostgresStudyStore.sequenceIds(count, on: sql)
        }
    }

    func queueHead(stackId: Int, order: QueueOrder) async throws -> QueueHead {
        let rows: [PostgresRow]
        let ranked: Bool
        switch order.rule {
        case .ladder:
            rows = try await PostgresNamedStatements.postgresRows(
                PostgresNamedStatements.LadderNext(stackId: stackId, cutoff: order.cutoff), on: db)
            ranked = false
        case .fsrs(let now, let reviewCap, let newCap):
            rows = try await PostgresNamedStatements.postgresRows(
                PostgresNamedStatements.FSRSNext(
                    stackId: stackId, cutoff: order.cutoff, now: now, reviewCap: reviewCap, newCap: newCap),
                on: db)
            ranked = true
        }
        guard let first = rows.first else { return .empty }
        let row = ColumnReader(first)
        let due = try row.value("due_count", as: Int.self)
        guard try row.optional("id", as: Int.self) != nil else { return QueueHead(card: nil, rank: nil, dueCount: due) }
        let rank = ranked ? QueueOrder.HeadRank(rawValue: try row.value("head_rank", as: Int.self)) : nil
        return QueueHead(card: try CardModel.read(row), rank: rank, dueCount: due)
    }
}

/// Ratings in two named statements, a read and a write, instead of a transaction's seven round trips
/// (`AppendedReviews`). The row version is `xmin`, the transaction that wrote the card's row: any
/// change of the row makes a new one. An `UPDATE` that waits for another transaction's change of the
/// row checks its condition again against the row that transaction committed, so of two ratings read
/// from the same version only the first is written; the other is rated again in `locking`. `db` is
/// the pool, or in `locking` the transaction's connection.
struct PostgresAppendedReviews: AppendedReviews {
    let db: any Database

    func ratedCard(uniqueId: UUID, stackId: Int, userId: UUID, reviewId: UUID) async throws -> VersionedRatedCard? {
        let rows = try await PostgresNamedStatements.postgresRows(
            PostgresNamedStatements.RatedCardRead(
                uniqueId: uniqueId, stackId: stackId, userId: userId, reviewId: reviewId),
            on: db)
        guard let first = rows.first else { return nil }
        let row = ColumnReader(first)
        return VersionedRatedCard(rated: try RatedCard(row), version: try row.value("row_version", as: String.self))
    }

    func write(_ log: ReviewLogModel, card: CardModel, version: String, change: ReviewTimesChange) async throws
        -> AppendedReviewOutcome
    {
        let rows = try await PostgresNamedStatements.rows(
            PostgresNamedStatements.AppendReview(log: log, card: card, version: version, change: change), on: db)
        guard let row = rows.first, try row.decode(column: "written", as: Int.self) == 1 else { return .cardChanged }
        return .written(try StackDayCounts.kept(in: row))
    }

    /// The process's ratings by stack id (stacks of several databases in one process, as in the
    /// tests, only share a gate when their ids are equal, which orders them and nothing more).
    private static let ratings = KeyedGate<Int>()

    func oneAtATime<T>(stack stackId: Int, _ body: () async throws -> T) async throws -> T {
        try await Self.ratings.run(stackId, body)
    }

    func locking<T: Sendable>(
        card uniqueId: UUID, of userId: UUID, in stackId: Int,
        _ body: @escaping @Sendable (any AppendedReviews) async throws -> T
    ) async throws -> T {
        try await PostgresStudyStore.transaction(on: db) { tx in
            try await tx.lockCards([uniqueId], of: userId, in: stackId)
            return try await body(PostgresAppendedReviews(db: tx.db))
        }
    }
}

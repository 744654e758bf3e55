import FlashcardsCore
import FluentPostgresDriver
import Foundation
import SQLKit

/// Statements of the learning path that PostgreSQL prepares once per connection and runs by name.
///
/// The driver sends every other statement as text, which PostgreSQL parses and plans on each run;
/// for next-card that planning cost more than running the statement (docs/benchmarks.md). The
/// server reuses the plan it cached for a named statement (after five runs, when that generic plan
/// is no costlier). Their rows name every column instead of `*`: a column added by a later
/// migration must not change the row type of a cached plan, which PostgreSQL refuses.
enum PostgresNamedStatements {
    /// The columns `CardModel.read` reads, as a select list for `alias`.
    static func cardColumns(_ alias: String) -> String {
        CardModel.columns.map { "\(alias).\($0)" }.joined(separator: ", ")
    }

    /// The rows of `statement` on `db`, which must be PostgreSQL. In a transaction `db` runs it on the
    /// transaction's connection, otherwise on one from the pool.
    static func rows(_ statement: some PostgresNamedStatement, on db: any Database) async throws -> [any SQLRow] {
        try await postgresRows(statement, on: db).map { $0.sql() }
    }

    /// `rows(_:on:)` as the driver's own rows, for typed decoding (`PostgresRow.decode`). For short
    /// results: each row comes through the driver's asynchronous sequence.
    static func postgresRows(_ statement: some PostgresNamedStatement, on db: any Database) async throws
        -> [PostgresRow]
    {
        try await withConnection(on: db) { connection in
            connection.eventLoop.makeFutureWithTask {
                var rows: [PostgresRow] = []
                for try await row in try await connection.execute(statement, logger: db.logger) {
                    rows.append(row)
                }
                return rows
            }
        }
    }

    /// The rows of a long result (a learner's whole review history), collected on the connection's
    /// event loop as each network read delivers them, in chunks (a single array's regrowth copied
    /// the whole result at once, 80 ms on the event loop for 300,000 rows). The asynchronous sequence
    /// of `postgresRows` switches tasks for every row: 300,000 rows kept an event loop busy for 3 s,
    /// and the requests it served waited 150–370 ms each meanwhile (docs/benchmarks.md). The
    /// statement is sent unnamed: its planning is nothing against its result.
    static func postgresBulkRows(_ statement: some PostgresNamedStatement, on db: any Database) async throws
        -> [[PostgresRow]]
    {
        let query = PostgresQuery(unsafeSQL: type(of: statement).sql, binds: try statement.makeBindings())
        return try await withConnection(on: db) { connection in
            let collected = CollectedRows()
            return connection.query(query, logger: db.logger) { collected.append($0) }.map { _ in collected.chunks }
        }
    }

    /// A connection of `db` (which must be PostgreSQL: the transaction's, or one from the pool) for
    /// `body`, its wait counted in the pool metrics.
    private static func withConnection<T: Sendable>(
        on db: any Database, _ body: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<T>
    ) async throws -> T {
        guard let postgres = db as? any PostgresDatabase else {
            throw NotPostgres()
        }
        let start = ServerMetrics.waitStarts()
        return try await postgres.withConnection { connection in
            ServerMetrics.databaseWaited(since: start, database: "postgres")
            return body(connection)
        }.get()
    }

    /// `StudyStore.authenticated` on a study route: the account, the token's revocation and the
    /// caller's stack with the FSRS parameters (`AuthenticatedColumns`). Every learning request
    /// starts with it; sent as text, PostgreSQL parsed and planned it each time, which took longer
    /// than running it (0.4 of 0.45 ms, docs/benchmarks.md).
    struct AuthenticatedForStack: PostgresNamedStatement {
        static let sql: String = AuthenticatedColumns.statement(userId: "$3", stackId: "$2", tokenId: "$1")

        let tokenId: String
        let stackId: UUID
        let userId: UUID

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(tokenId)
            bindings.append(stackId)
            bindings.append(userId)
            return bindings
        }
    }

    /// The ladder's next card: the count of due cards (up to `QueueOrder.dueCountLimit`) and the
    /// first due card.
    struct LadderNext: PostgresNamedStatement {
        static let sql = """
            SELECT counted.n AS due_count, head.* FROM (SELECT COUNT(*) AS n FROM (SELECT 1 FROM cards
            WHERE stack_id = $1 AND due_at < $2 LIMIT \(QueueOrder.dueCountLimit)) due) counted LEFT JOIN
            (SELECT \(cardColumns("cards")) FROM cards WHERE stack_id = $1 AND due_at < $2
            ORDER BY due_at, id LIMIT 1) head ON 1 = 1
            """

        let stackId: Int
        let cutoff: Date

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(stackId)
            bindings.append(cutoff)
            return bindings
        }
    }

    /// The FSRS next card (`QueueOrder`): the due cards today's caps let through, counted no further
    /// than the limit, and the first card of each queue ranked by `QueueOrder.HeadRank`.
    ///
    /// One branch per queue, each with its queue number written as a constant (`UNION ALL`), so
    /// that the planner sees which queue each branch reads and seeks it in `cards_stack_queue_due`.
    /// A `LATERAL` join over the queue numbers read them as a parameter: the cached generic plan
    /// then walked `cards_stack_due` and filtered by queue, every due card of a large stack for an
    /// empty queue (30 ms at 100,000 cards of one FSRS stack, docs/benchmarks.md).
    struct FSRSNext: PostgresNamedStatement {
        static let sql: String = {
            let (learning, review, new) = (
                CardQueue.learning.rawValue, CardQueue.review.rawValue, CardQueue.new.rawValue
            )
            func due(_ queue: Int, limit: String) -> String {
                "(SELECT 1 FROM cards WHERE stack_id = $1 AND queue = \(queue) AND due_at < $2 LIMIT \(limit))"
            }
            func head(_ queue: Int) -> String {
                """
                (SELECT \(cardColumns("cards")) FROM cards WHERE stack_id = $1 AND queue = \(queue) AND due_at < $2
                ORDER BY due_at, id LIMIT 1)
                """
            }
            return """
                SELECT counted.n AS due_count, head.* FROM (SELECT COUNT(*) AS n FROM (\(due(learning, limit: "\(QueueOrder.dueCountLimit)"))
                UNION ALL \(due(review, limit: "$4")) UNION ALL \(due(new, limit: "$5"))
                LIMIT \(QueueOrder.dueCountLimit)) due) counted LEFT JOIN (SELECT h.*, CASE h.queue
                WHEN \(learning) THEN CASE WHEN h.due_at <= $3 THEN \(QueueOrder.HeadRank.learningDue.rawValue)
                ELSE \(QueueOrder.HeadRank.learningLater.rawValue) END WHEN \(review) THEN $6
                WHEN \(new) THEN $7 END AS head_rank
                FROM (\(head(learning)) UNION ALL \(head(review)) UNION ALL \(head(new))) h
                ORDER BY head_rank, h.due_at, h.id LIMIT 1) head ON 1 = 1
                """
        }()

        let stackId: Int
        let cutoff: Date
        let now: Date
        let reviewCap: Int
        let newCap: Int

        func makeBindings() -> PostgresBindings {
            func rank(cap: Int) -> Int { (cap > 0 ? QueueOrder.HeadRank.allowed : .held).rawValue }
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(stackId)
            bindings.append(cutoff)
            bindings.append(now)
            bindings.append(reviewCap)
            bindings.append(newCap)
            bindings.append(rank(cap: reviewCap))
            bindings.append(rank(cap: newCap))
            return bindings
        }
    }
}

extension PostgresNamedStatements {
    /// The card a rating is about (`StudyTransaction.ratedCard`'s columns) with its row version,
    /// read outside a transaction (`PostgresAppendedReviews`).
    struct RatedCardRead: PostgresNamedStatement {
        static let sql = """
            SELECT \(cardColumns("cards")), cards.xmin::text AS row_version,
            (SELECT COALESCE(MAX(seq), 0) FROM review_logs WHERE card_id = cards.id) AS last_seq,
            (SELECT CASE WHEN user_id = $3 AND card_id = cards.id THEN 1 ELSE 2 END FROM review_logs WHERE id = $4)
            AS known_review FROM cards WHERE unique_id = $1 AND stack_id = $2
            """

        let uniqueId: UUID
        let stackId: Int
        let userId: UUID
        let reviewId: UUID

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(uniqueId)
            bindings.append(stackId)
            bindings.append(userId)
            bindings.append(reviewId)
            return bindings
        }
    }

    /// An appended rating in one statement (`PostgresAppendedReviews.write`): the card's schedule
    /// while its row is still the version read, the log row only if the card was written, then the
    /// stack's day counts as `StackDayCounts.apply` adjusts them. The stack's row is locked after the
    /// card's (its update waits for the card's through `EXISTS`), in the order every transaction
    /// takes them. `written` is 1 when the rating was stored, 0 when the card had changed.
    struct AppendReview: PostgresNamedStatement {
        static let sql: String = {
            // Parameters: $1 card id, $2 row version, $3…$12 the schedule, $13…$28 the log row
            // (`ReviewLogModel.insertColumns`), $29…$32 the review times before and after, $33
            // whether they changed.
            let scheduleColumns: [String] = [
                "due_at", "level", "review_count", "queue", "state", "step", "stability", "difficulty",
                "first_reviewed_at", "last_reviewed_at",
            ]
            var assignments: [String] = []
            for (offset, column) in scheduleColumns.enumerated() { assignments.append("\(column) = $\(offset + 3)") }
            let schedule = assignments.joined(separator: ", ")
            let logTypes: [String] = [
                "uuid", "uuid", "bigint", "bigint", "timestamptz", "bigint", "text", "text", "text", "bigint", "text",
                "uuid", "bigint", "bigint", "text", "bigint",
            ]
            var values: [String] = []
            for (offset, type) in logTypes.enumerated() { values.append("$\(offset + 13)::\(type)") }
            let logValues = values.joined(separator: ", ")
            let counts: String = StackDayCounts.adjustment(
                firstBefore: "$29::timestamptz", lastBefore: "$30::timestamptz", firstAfter: "$31::timestamptz",
                lastAfter: "$32::timestamptz")
            return """
                WITH card AS (UPDATE cards SET \(schedule) WHERE id = $1 AND xmin = $2::text::xid RETURNING id),
                logged AS (INSERT INTO review_logs (\(ReviewLogModel.insertColumns))
                SELECT \(logValues) FROM card),
                counted AS (UPDATE stacks SET \(counts)
                WHERE id = $16 AND $33::boolean AND EXISTS (SELECT 1 FROM card)
                RETURNING reviewed_since, reviewed_today, fresh_today)
                SELECT (SELECT COUNT(*) FROM card) AS written, counted.reviewed_since, counted.reviewed_today,
                counted.fresh_today FROM (SELECT 1) one LEFT JOIN counted ON TRUE
                """
        }()

        let log: ReviewLogModel
        let card: CardModel
        let version: String
        let change: ReviewTimesChange

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 33)
            bindings.append(card.id!)
            bindings.append(version)
            bindings.append(card.dueAt)
            bindings.append(card.level)
            bindings.append(card.reviewCount)
            bindings.append(card.queue)
            bindings.append(card.state)
            try bindings.append(card.step)
            try bindings.append(card.stability)
            try bindings.append(card.difficulty)
            try bindings.append(card.firstReviewedAt)
            try bindings.append(card.lastReviewedAt)
            bindings.append(log.id!)
            bindings.append(log.userId)
            bindings.append(log.cardId)
            bindings.append(log.stackId)
            bindings.append(log.reviewedAt)
            bindings.append(log.rating)
            bindings.append(log.scheduler)
            bindings.append(log.stateBefore)
            bindings.append(log.stateAfter)
            try bindings.append(log.durationMs)
            bindings.append(log.kind)
            try bindings.append(log.undoes)
            try bindings.append(log.elapsedDays)
            bindings.append(log.seq)
            bindings.append(log.mode)
            try bindings.append(log.balancedDays)
            try bindings.append(change.before.first)
            try bindings.append(change.before.last)
            try bindings.append(change.after.first)
            try bindings.append(change.after.last)
            bindings.append(change.changesTimes)
            return bindings
        }
    }
}

extension PostgresNamedStatements {
    /// A user's review log rows for the FSRS optimizer (`OptimizerReview`'s columns, in its order).
    struct OptimizerReviews: PostgresNamedStatement {
        static let sql =
            "SELECT id, card_id, reviewed_at, rating, scheduler, kind, undoes, seq FROM review_logs WHERE user_id = $1"

        let userId: UUID

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(userId)
            return bindings
        }
    }
}

/// A named statement sent to a database that is not PostgreSQL (a programming error: a 500).
private struct NotPostgres: Error {}

/// The rows `postgresBulkRows` collects. Only the connection's event loop touches them: the driver
/// calls its row closure there, one row after the other, and completes the query's future there.
private final class CollectedRows: @unchecked Sendable {
    static let chunkSize = 4_096
    private(set) var chunks: [[PostgresRow]] = []

    func append(_ row: PostgresRow) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(Self.chunkSize)
        }
        chunks[chunks.count - 1].append(row)
    }
}

/// A statement of `PostgresNamedStatements`: its rows are read as SQLKit rows.
protocol PostgresNamedStatement: PostgresPreparedStatement where Row == PostgresRow {}

extension PostgresNamedStatement {
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

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
        guard let postgres = db as? any PostgresDatabase else {
            throw NotPostgres()
        }
        let start = ServerMetrics.waitStarts()
        let rows = try await postgres.withConnection { connection in
            ServerMetrics.databaseWaited(since: start, database: "postgres")
            return connection.eventLoop.makeFutureWithTask {
                var rows: [PostgresRow] = []
                for try await row in try await connection.execute(statement, logger: db.logger) { rows.append(row) }
                return rows
            }
        }.get()
        return rows.map { $0.sql() }
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

/// A named statement sent to a database that is not PostgreSQL (a programming error: a 500).
private struct NotPostgres: Error {}

/// A statement of `PostgresNamedStatements`: its rows are read as SQLKit rows.
protocol PostgresNamedStatement: PostgresPreparedStatement where Row == PostgresRow {}

extension PostgresNamedStatement {
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

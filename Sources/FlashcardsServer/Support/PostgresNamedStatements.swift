import FluentPostgresDriver
import Foundation
import SQLKit

/// Statements of the learning path that PostgreSQL prepares once per connection and runs by name.
///
/// The driver sends every other statement as text, which PostgreSQL parses and plans on each run.
/// For next-card that planning cost more than running the statement: on a 100k-card stack
/// 0.23–0.44 ms (ladder) and 1.0–2.2 ms (FSRS queues) per request, against 0.02–0.04 ms once the
/// server reuses the plan it cached for the named statement (after five runs, when that generic
/// plan is no costlier; `EXPLAIN EXECUTE` shows the same index scans). Their rows name every
/// column instead of `*`: a column added by a later migration must not change the row type of a
/// cached plan, which PostgreSQL refuses.
enum PostgresNamedStatements {
    /// The columns `CardModel.read` reads, as a select list for `alias`.
    static func cardColumns(_ alias: String) -> String {
        CardModel.columns.map { "\(alias).\($0)" }.joined(separator: ", ")
    }

    /// The rows of `statement` when `db` is PostgreSQL; nil for other databases. In a transaction
    /// `db` runs it on the transaction's connection, otherwise on one from the pool.
    static func rows(_ statement: some PostgresNamedStatement, on db: any Database) async throws -> [any SQLRow]? {
        guard let postgres = db as? any PostgresDatabase else { return nil }
        let rows = try await postgres.withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                var rows: [PostgresRow] = []
                for try await row in try await connection.execute(statement, logger: db.logger) { rows.append(row) }
                return rows
            }
        }.get()
        return rows.map { $0.sql() }
    }

    /// The ladder's next card: the count of due cards (up to `StudyService.dueCountLimit`) and the
    /// first due card, as `StudyService`'s SQLite statement.
    struct LadderNext: PostgresNamedStatement {
        static let sql = """
            SELECT counted.n AS due_count, head.* FROM (SELECT COUNT(*) AS n FROM (SELECT 1 FROM cards
            WHERE stack_id = $1 AND due_at < $2 LIMIT \(StudyService.dueCountLimit)) due) counted LEFT JOIN
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
}

/// A statement of `PostgresNamedStatements`: its rows are read as SQLKit rows.
protocol PostgresNamedStatement: PostgresPreparedStatement where Row == PostgresRow {}

extension PostgresNamedStatement {
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

import Fluent
import SQLKit

extension Database {
    /// Runs `body` in a transaction that writes. On SQLite it begins with `BEGIN IMMEDIATE`, which
    /// takes the write lock up front: a deferred transaction that reads first and writes later can
    /// fail with SQLITE_BUSY when another connection writes in between, and that would reach the
    /// client as a 500 under concurrent ratings.
    func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        guard let sql = self as? any SQLDatabase, sql.dialect.name == "sqlite" else {
            return try await transaction(body)
        }
        return try await withConnection { connection in
            let sql = connection as! any SQLDatabase
            try await sql.raw("BEGIN IMMEDIATE").run()
            do {
                let result = try await body(connection)
                try await sql.raw("COMMIT").run()
                return result
            } catch {
                try? await sql.raw("ROLLBACK").run()
                throw error
            }
        }
    }
}

import Foundation
import SQLKit

/// What an operator's probes ask of the database: whether every migration of this build ran
/// (readiness), and the job queue's depth and ages (metrics).
struct OperationsStore {
    let sql: any SQLDatabase

    /// The number of migrations recorded in the database.
    func appliedMigrationCount() async throws -> Int {
        struct Row: Decodable { let n: Int }
        return try await sql.raw("SELECT COUNT(*) AS n FROM _fluent_migrations").first(decoding: Row.self)?.n ?? 0
    }

    /// Queued and running jobs per kind and status, with the oldest one's creation time.
    struct QueueRow: Decodable {
        let kind: String
        let status: String
        let n: Int
        let oldest: Date?
    }

    /// The jobs not yet finished, grouped by kind and status.
    func jobQueue() async throws -> [QueueRow] {
        try await sql.raw(
            """
            SELECT kind, status, COUNT(*) AS n, MIN(created_at) AS oldest FROM jobs
            WHERE status IN ('queued', 'running') GROUP BY kind, status
            """
        ).all(decoding: QueueRow.self)
    }
}

extension StudyStore {
    /// The operator probes' statements (through the driver).
    var operations: OperationsStore { OperationsStore(sql: db.sql) }
}

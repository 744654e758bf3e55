import Fluent
import SQLKit

/// On PostgreSQL the learning path counts due cards from the indexes alone (index-only scans), which
/// still read the table for every card on a page changed since the last vacuum, and rated cards are
/// exactly those. By default autovacuum waits until a fifth of the table has changed; after a
/// benchmark's ratings a vacuum halved the next-card statements (`pgbench`, docs/benchmarks.md). So
/// `cards` is
/// vacuumed once 1 % of it has changed (PostgreSQL 13 and later: also once 1 % was inserted).
/// SQLite has no such setting.
struct UpdateCardVacuumOften: AsyncMigration {
    var name: String { "005_UpdateCardVacuumOften" }

    /// The storage parameters set, with the server version each needs.
    static let settings: [(name: String, minimumVersion: Int)] = [
        ("autovacuum_vacuum_scale_factor", 0), ("autovacuum_vacuum_insert_scale_factor", 130_000),
    ]

    func prepare(on database: any Database) async throws {
        let sql = database.sql
        let names = try await supported(on: sql)
        guard !names.isEmpty else { return }
        let list = names.map { "\($0) = 0.01" }.joined(separator: ", ")
        try await sql.raw("ALTER TABLE cards SET (\(unsafeRaw: list))").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        let names = try await supported(on: sql)
        guard !names.isEmpty else { return }
        try await sql.raw("ALTER TABLE cards RESET (\(unsafeRaw: names.joined(separator: ", ")))").run()
    }

    /// The settings this database has: none on SQLite.
    private func supported(on sql: any SQLDatabase) async throws -> [String] {
        guard sql.dialect.name == "postgresql" else { return [] }
        struct Version: Decodable { let server_version_num: String }
        let version =
            try await sql.raw("SHOW server_version_num").first(decoding: Version.self)
            .flatMap { Int($0.server_version_num) } ?? 0
        return Self.settings.filter { version >= $0.minimumVersion }.map(\.name)
    }
}

import Fluent
import FluentSQLiteDriver
import Foundation
import SQLKit
import Vapor

/// What a database needs before the first migration: SQLite's journal mode and connection
/// settings, PostgreSQL's schema.
enum DatabaseSetup {
    /// Write-ahead logging lets readers proceed while a rating is written. `synchronous` and the busy
    /// handler belong to a connection, and the driver keeps exactly one per event loop.
    /// `busy_timeout` replaces the driver's busy handler, which retries without pause and so burns a
    /// core while another connection writes, with SQLite's sleeping one (1, 2, 5, 10 … ms, giving
    /// up after 10 s with an error instead of spinning forever). Checkpoints run in the background
    /// (`WALCheckpointer`), not inside a request's commit.
    static func prepareSQLiteFile(_ app: Application, synchronous mode: String) async throws {
        _ = try await app.db.sql.raw("PRAGMA journal_mode=WAL").all()
        for eventLoop in app.eventLoopGroup.makeIterator() {
            guard let db = app.databases.database(.sqlite, logger: app.logger, on: eventLoop) else { continue }
            try await db.sql.raw("PRAGMA synchronous=\(unsafeRaw: mode)").run()
            try await db.sql.raw("PRAGMA busy_timeout=10000").run()
            try await db.sql.raw("PRAGMA wal_autocheckpoint=0").run()
        }
    }

    /// A named schema keeps several deployments (or test runs) apart in one PostgreSQL database.
    static func createSchema(_ schema: String, on db: any Database) async throws {
        try await db.sql.raw("CREATE SCHEMA IF NOT EXISTS \(ident: schema)").run()
    }
}

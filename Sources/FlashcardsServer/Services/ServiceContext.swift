import Fluent
import Foundation
import SQLKit
import Vapor

/// What every service needs from a request: the database, the injected clock and ids, the
/// configuration and the password hasher. Services never reach for globals.
struct ServiceContext {
    let db: any Database
    /// The database for statements written out in SQL (`Request.sql`: inline connections on SQLite).
    let sql: any SQLDatabase
    private let inline: InlineSQLite?
    let now: Date
    let uuid: @Sendable () -> UUID
    let configuration: AppConfiguration
    let passwords: AsyncPasswordHasher
    let clientAddress: String?
    /// The caller's stack of the path, read together with the account (see `RequireUserMiddleware`).
    let preloadedStack: StackModel?
    /// The caller's FSRS parameters, read together with the account on stack routes.
    let preloadedParameters: PreloadedParameters?

    /// Which stacks' due counts last reached the limit, on an SQLite file (`SQLiteCappedCount`).
    var cappedCountHints: SQLiteCappedCount.Hints? { inline?.cappedCountHints }

    init(_ request: Request) {
        self.db = request.db
        self.sql = request.sql
        self.inline = request.application.inlineSQLite
        self.now = request.now
        self.uuid = request.application.serverEnvironment.uuid
        self.configuration = request.application.appConfiguration
        self.passwords = request.password.async
        self.clientAddress = request.remoteAddress?.ipAddress
        self.preloadedStack = request.preloadedStack
        self.preloadedParameters = request.preloadedParameters
    }

    /// A write transaction of statements written out in SQL (see `Database.writeTransaction`); on
    /// SQLite it runs on the inline writer.
    func sqlWriteTransaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T)
        async throws -> T
    {
        if let inline { return try await inline.writeTransaction(fallback: db.sql, body) }
        return try await db.writeTransaction { try await body($0.sql) }
    }
}

/// The row of a raw `SELECT COUNT(*) AS n …`.
struct CountRow: Decodable {
    let n: Int
}

extension Database {
    /// The database as SQLKit sees it, for statements written out in SQL (both drivers are SQL).
    var sql: any SQLDatabase { self as! any SQLDatabase }
}

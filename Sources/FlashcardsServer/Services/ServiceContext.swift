import Fluent
import Foundation
import SQLKit
import Vapor

/// What every service needs from a request: the database, the injected clock and ids, the
/// configuration and the password hasher. Services never reach for globals.
struct ServiceContext {
    let db: any Database
    let now: Date
    let uuid: @Sendable () -> UUID
    let configuration: AppConfiguration
    let passwords: AsyncPasswordHasher
    let clientAddress: String?
    /// The caller's stack of the path, read together with the account (see `RequireUserMiddleware`).
    let preloadedStack: StackModel?
    /// The caller's FSRS parameters, read together with the account on stack routes.
    let preloadedParameters: PreloadedParameters?

    init(_ request: Request) {
        self.db = request.db
        self.now = request.now
        self.uuid = request.application.serverEnvironment.uuid
        self.configuration = request.application.appConfiguration
        self.passwords = request.password.async
        self.clientAddress = request.remoteAddress?.ipAddress
        self.preloadedStack = request.preloadedStack
        self.preloadedParameters = request.preloadedParameters
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

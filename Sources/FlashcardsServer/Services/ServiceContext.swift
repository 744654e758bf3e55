import Fluent
import Foundation
import Vapor

/// What every service needs from a request: the databases, the injected clock and ids, the
/// configuration and the password hasher. Services never reach for globals.
struct ServiceContext {
    /// Fluent, for single-statement model reads and writes off the learning path.
    let db: any Database
    /// The learning path's statements and every write transaction (`StudyStore`).
    let store: any StudyStore
    let now: Date
    let uuid: @Sendable () -> UUID
    let configuration: AppConfiguration
    let passwords: AsyncPasswordHasher
    let clientAddress: String?

    /// The context of a background job: its database, the application's settings, no client.
    init(_ job: JobContext) {
        self.db = job.db
        self.store = job.store
        self.now = job.now()
        self.uuid = job.application.serverEnvironment.uuid
        self.configuration = job.application.appConfiguration
        self.passwords = job.application.password.async
        self.clientAddress = nil
    }

    init(_ request: Request) {
        self.db = request.db
        self.store = request.studyStore
        self.now = request.now
        self.uuid = request.application.serverEnvironment.uuid
        self.configuration = request.application.appConfiguration
        self.passwords = request.password.async
        self.clientAddress = ClientAddress.resolve(
            peer: request.remoteAddress?.ipAddress, forwardedFor: request.headers[.xForwardedFor],
            trusted: request.application.appConfiguration.trustedProxies)
    }
}

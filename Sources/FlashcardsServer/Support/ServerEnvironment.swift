import Foundation
import Vapor

/// What the server reaches for from the outside world: the clock and id generation. Injected so
/// tests can move time forward and fix ids (isowords' `ServerEnvironment`).
public struct ServerEnvironment: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// A fresh UUID.
    public var uuid: @Sendable () -> UUID

    /// Creates an environment.
    public init(now: @escaping @Sendable () -> Date, uuid: @escaping @Sendable () -> UUID) {
        self.now = now
        self.uuid = uuid
    }

    /// The real clock and random UUIDs.
    public static let live = ServerEnvironment(now: { Date() }, uuid: { UUID() })
}

extension Application {
    private struct EnvironmentKey: StorageKey { typealias Value = ServerEnvironment }
    private struct ConfigurationKey: StorageKey { typealias Value = AppConfiguration }

    /// The injected clock and id source.
    public var serverEnvironment: ServerEnvironment {
        get { storage[EnvironmentKey.self] ?? .live }
        set { storage[EnvironmentKey.self] = newValue }
    }

    /// The configuration the app was configured with.
    public var appConfiguration: AppConfiguration {
        get { storage[ConfigurationKey.self] ?? AppConfiguration() }
        set { storage[ConfigurationKey.self] = newValue }
    }
}

extension Request {
    /// The current time from the injected clock.
    var now: Date { application.serverEnvironment.now() }
}

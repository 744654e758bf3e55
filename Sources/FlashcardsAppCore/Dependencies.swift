import FlashcardsAPI
import Foundation

/// A signed-in session as an app keeps it between launches: the server, the token and the user.
public struct StoredSession: Codable, Sendable, Equatable {
    /// The server the token belongs to.
    public var server: URL
    /// The bearer token (a secret: an app keeps it in the Keychain).
    public var token: String
    /// The signed-in user as last seen.
    public var user: UserDTO

    /// Creates the value.
    public init(server: URL, token: String, user: UserDTO) {
        self.server = server
        self.token = token
        self.user = user
    }
}

/// Where the session's token lives: the Keychain on iOS and macOS (the app target implements
/// this with `SecItem…`), a private file elsewhere (``FileTokenStore``).
public protocol TokenStore: Sendable {
    /// The stored session, if any.
    func load() -> StoredSession?
    /// Keeps `session`, replacing any other.
    func save(_ session: StoredSession) throws
    /// Forgets the session.
    func clear() throws
}

/// A ``TokenStore`` in a file only its owner may read (mode 0600), for Linux and command-line apps.
public struct FileTokenStore: TokenStore {
    /// The file.
    public let file: URL

    /// A store in `file`.
    public init(file: URL) { self.file = file }

    public func load() -> StoredSession? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? FlashcardsJSON.makeDecoder().decode(StoredSession.self, from: data)
    }

    public func save(_ session: StoredSession) throws {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = try FlashcardsJSON.makeEncoder().encode(session)
        _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        try data.write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }

    public func clear() throws {
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
    }
}

/// The time as the view models see it (a test sets it).
public protocol AppClock: Sendable {
    /// Now.
    var now: Date { get }
}

/// The system's clock.
public struct SystemClock: AppClock {
    /// Creates the clock.
    public init() {}
    public var now: Date { Date() }
}

/// Something that is loaded from the server: the states every screen shows.
public enum LoadState<Value: Sendable>: Sendable {
    /// Not asked yet.
    case idle
    /// Asked; the answer is not in yet.
    case loading
    /// The answer.
    case loaded(Value)
    /// It failed; the message says why, for the learner.
    case failed(String)

    /// The value, when loaded.
    public var value: Value? {
        if case .loaded(let value) = self { return value }
        return nil
    }

    /// Whether an answer is awaited.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// The failure's message, if it failed.
    public var failure: String? {
        if case .failed(let message) = self { return message }
        return nil
    }
}

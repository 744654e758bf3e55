import Foundation

/// How long a mailed reset link works and how often one may be asked for
/// (`FLASHCARDS_PASSWORD_RESET_*`).
public struct PasswordResetSettings: Sendable, Equatable {
    /// Seconds a link works (`FLASHCARDS_PASSWORD_RESET_TTL_SECONDS`, 300…86,400; 30 minutes).
    public var lifetimeSeconds = 1_800
    /// Requests for one mail address within the window (`FLASHCARDS_PASSWORD_RESET_MAX_PER_MAIL`).
    public var maxPerMail = 3
    /// Requests from one client address within the window (`FLASHCARDS_PASSWORD_RESET_MAX_PER_IP`).
    public var maxPerClient = 20
    /// The window of both limits in seconds (`FLASHCARDS_PASSWORD_RESET_WINDOW_SECONDS`; one hour).
    public var windowSeconds = 3_600
    /// Pauses before the second and later sending attempts of a mail (seconds); a mail server
    /// that refuses for good (5xx) is not asked again.
    public var retryDelays: [TimeInterval] = [5, 30]

    /// The defaults.
    public init() {}

    init(values: [String: String], int: (String, ClosedRange<Int>) throws -> Int?) throws {
        if let value = try int("FLASHCARDS_PASSWORD_RESET_TTL_SECONDS", 300...86_400) { lifetimeSeconds = value }
        if let value = try int("FLASHCARDS_PASSWORD_RESET_MAX_PER_MAIL", 1...1_000) { maxPerMail = value }
        if let value = try int("FLASHCARDS_PASSWORD_RESET_MAX_PER_IP", 1...100_000) { maxPerClient = value }
        if let value = try int("FLASHCARDS_PASSWORD_RESET_WINDOW_SECONDS", 60...86_400) { windowSeconds = value }
    }
}

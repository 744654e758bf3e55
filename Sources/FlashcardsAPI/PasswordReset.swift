/// `GET /api/v1/auth/password-reset`: whether the server can mail reset links (it needs SMTP
/// settings), so a client shows the form only where it can work.
public struct PasswordResetStatus: Codable, Sendable, Hashable {
    /// True when the server has a mail server to send links with.
    public var available: Bool

    /// Creates the status.
    public init(available: Bool) {
        self.available = available
    }
}

/// `POST /api/v1/auth/password-reset`: mail a reset link to this address if it has an account.
/// The answer is the same 202 either way.
public struct PasswordResetRequest: Codable, Sendable, Hashable {
    /// The account's e-mail address (compared case-insensitively).
    public var mail: String
    /// The language of the mail: `de` (default) or `en`.
    public var language: String?

    /// Creates the request.
    public init(mail: String, language: String? = nil) {
        self.mail = mail
        self.language = language
    }
}

/// `POST /api/v1/auth/password-reset/confirm`: the token from the mailed link and a new password.
/// Answered with an ``AuthResponse``: the account is signed in, every older token stops working.
public struct PasswordResetConfirmation: Codable, Sendable, Hashable {
    /// The `token` of the link (43 characters, base64url).
    public var token: String
    /// The new password, 8…72 characters.
    public var newPassword: String

    /// Creates the request.
    public init(token: String, newPassword: String) {
        self.token = token
        self.newPassword = newPassword
    }
}

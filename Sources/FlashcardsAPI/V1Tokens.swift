import Foundation

/// What a personal access token may do (`docs/mcp.md`): `read` only reads; `write` also changes
/// the learner's stacks, cards and reviews. A token with `write` always has `read` too.
public enum TokenScope: String, Codable, Sendable, Hashable, CaseIterable {
    case read
    case write
}

/// A personal access token as its owner sees it (`GET /api/v1/me/tokens`); the secret itself is
/// shown once, when it is made (``CreatedAccessTokenDTO``).
public struct AccessTokenDTO: Codable, Sendable, Hashable {
    @LowercaseUUID public var id: UUID
    /// The name the learner gave it ("Claude auf dem Laptop").
    public var name: String
    /// `["read"]` or `["read", "write"]`.
    public var scopes: [TokenScope]
    /// The secret's first 12 characters (`fcpat_` and six more), to tell tokens apart.
    public var prefix: String
    public var createdAt: Date
    /// Nil: it never expires.
    @Nullable public var expiresAt: Date?
    /// Nil: never used.
    @Nullable public var lastUsedAt: Date?
    /// Nil: not revoked.
    @Nullable public var revokedAt: Date?

    public init(
        id: UUID, name: String, scopes: [TokenScope], prefix: String, createdAt: Date, expiresAt: Date?,
        lastUsedAt: Date?, revokedAt: Date?
    ) {
        self.id = id
        self.name = name
        self.scopes = scopes
        self.prefix = prefix
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}

/// `POST /api/v1/me/tokens`.
public struct CreateAccessTokenRequest: Codable, Sendable, Hashable {
    /// 1 to 100 characters.
    public var name: String
    /// `read`, or `read` and `write` (`write` alone means both).
    public var scopes: [TokenScope]
    /// 1 to 3650 days; nil: the token never expires.
    public var expiresInDays: Int?

    public init(name: String, scopes: [TokenScope], expiresInDays: Int? = nil) {
        self.name = name
        self.scopes = scopes
        self.expiresInDays = expiresInDays
    }
}

/// A new token: its description and, this once, its secret.
public struct CreatedAccessTokenDTO: Codable, Sendable, Hashable {
    public var token: AccessTokenDTO
    /// `fcpat_` and 43 characters of base64url; the server keeps only its hash.
    public var secret: String

    public init(token: AccessTokenDTO, secret: String) {
        self.token = token
        self.secret = secret
    }
}

/// One thing a token did (`GET /api/v1/me/tokens/{id}/activity`).
public struct TokenActivityDTO: Codable, Sendable, Hashable {
    public var at: Date
    /// A tool of the MCP server (`add_cards`) or a route of the API (`POST /api/v1/stacks`).
    public var action: String
    /// `mcp` or `api`.
    public var via: String
    /// What it touched, counted: `{"cards": 3}`.
    public var counts: [String: Int]

    public init(at: Date, action: String, via: String, counts: [String: Int]) {
        self.at = at
        self.action = action
        self.via = via
        self.counts = counts
    }
}

/// `GET /api/v1/oauth/client`: who asks for access, for the consent page.
public struct OAuthClientInfoDTO: Codable, Sendable, Hashable {
    /// The name the client registered with.
    public var name: String
    /// Where the learner is sent back to.
    public var redirectUri: String

    public init(name: String, redirectUri: String) {
        self.name = name
        self.redirectUri = redirectUri
    }
}

/// `POST /api/v1/oauth/authorize`: the learner's answer on the consent page, with the request's
/// OAuth parameters as the client sent them.
public struct OAuthAuthorizeRequest: Codable, Sendable, Hashable {
    public var clientId: String
    public var redirectUri: String
    public var codeChallenge: String
    /// `S256`.
    public var codeChallengeMethod: String
    /// `read`, `write` or both, space-separated; nil: read.
    public var scope: String?
    public var state: String?
    /// Allowed, or refused.
    public var approve: Bool

    public init(
        clientId: String, redirectUri: String, codeChallenge: String, codeChallengeMethod: String = "S256",
        scope: String? = nil, state: String? = nil, approve: Bool
    ) {
        self.clientId = clientId
        self.redirectUri = redirectUri
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
        self.scope = scope
        self.state = state
        self.approve = approve
    }
}

/// Where the consent page sends the learner: the client's address with the code (or the refusal).
public struct OAuthAuthorizeResponse: Codable, Sendable, Hashable {
    public var redirectTo: String

    public init(redirectTo: String) { self.redirectTo = redirectTo }
}

import FlashcardsAPI
import Fluent
import Foundation

/// A personal access token (`AccessTokenService`): the learner's own key for an assistant (MCP),
/// the SDK or the command line. Only the hash of its secret is kept.
final class AccessTokenModel: Model, @unchecked Sendable {
    static let schema = "access_tokens"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userId: UUID
    @Field(key: "name") var name: String
    /// `read` or `read write`.
    @Field(key: "scopes") var scopeText: String
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "prefix") var prefix: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "expires_at") var expiresAt: Date?
    @OptionalField(key: "last_used_at") var lastUsedAt: Date?
    @OptionalField(key: "revoked_at") var revokedAt: Date?

    init() {}

    init(
        id: UUID, userId: UUID, name: String, scopes: Set<TokenScope>, tokenHash: String, prefix: String,
        createdAt: Date, expiresAt: Date?
    ) {
        self.id = id
        self.userId = userId
        self.name = name
        self.scopeText = TokenScope.allCases.filter(scopes.contains).map(\.rawValue).joined(separator: " ")
        self.tokenHash = tokenHash
        self.prefix = prefix
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// The stored scopes; an unknown word is an error, not a silent read-only token.
    var scopes: Set<TokenScope> {
        get throws {
            try Set(
                scopeText.split(separator: " ").map { word in
                    guard let scope = TokenScope(rawValue: String(word)) else {
                        throw UnknownStoredValue(column: "access_tokens.scopes", value: scopeText)
                    }
                    return scope
                })
        }
    }

    /// Whether it still opens the account at `now`.
    func isActive(at now: Date) -> Bool {
        revokedAt == nil && (expiresAt.map { $0 > now } ?? true)
    }

    var dto: AccessTokenDTO {
        get throws {
            AccessTokenDTO(
                id: try requireID(), name: name, scopes: TokenScope.allCases.filter(try scopes.contains),
                prefix: prefix, createdAt: createdAt, expiresAt: expiresAt, lastUsedAt: lastUsedAt,
                revokedAt: revokedAt)
        }
    }
}

/// One thing a token did: an MCP tool or a write through the API, with what it touched, counted.
final class AccessTokenEventModel: Model, @unchecked Sendable {
    static let schema = "access_token_events"

    @ID(key: .id) var id: UUID?
    @Field(key: "token_id") var tokenId: UUID
    @Field(key: "at") var at: Date
    @Field(key: "action") var action: String
    /// `mcp` or `api`.
    @Field(key: "via") var via: String
    /// A JSON object of counts (`{"cards":3}`).
    @Field(key: "counts") var countsJSON: String

    init() {}

    init(id: UUID, tokenId: UUID, at: Date, action: String, via: String, counts: [String: Int]) {
        self.id = id
        self.tokenId = tokenId
        self.at = at
        self.action = action
        self.via = via
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        self.countsJSON = (try? encoder.encode(counts)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    var dto: TokenActivityDTO {
        get throws {
            let counts: [String: Int]
            do {
                counts = try JSONDecoder().decode([String: Int].self, from: Data(countsJSON.utf8))
            } catch {
                throw UnknownStoredValue(column: "access_token_events.counts", value: countsJSON)
            }
            return TokenActivityDTO(at: at, action: action, via: via, counts: counts)
        }
    }
}

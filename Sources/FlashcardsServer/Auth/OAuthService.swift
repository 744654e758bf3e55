import Crypto
import FlashcardsAPI
import Foundation
import JWTKit

/// OAuth 2.1 for MCP clients that discover how to sign in (`docs/mcp.md`, "OAuth"): a client
/// registers itself (RFC 7591), the learner allows it on a consent page, and the code (with PKCE
/// S256) is exchanged for a personal access token named after the client. Nothing of it is stored
/// but the token and the spent codes: a registration is a signed `client_id`, a code a signed,
/// short-lived, single-use value.
struct OAuthService {
    let context: ServiceContext
    let keys: JWTKeyCollection

    /// How long a code may wait for its exchange.
    static let codeLifetime: TimeInterval = 600
    /// How long the tokens clients get through OAuth work.
    static let tokenDays = 90

    /// An RFC 6749 error: its code (`invalid_grant` …) and a sentence.
    struct Failure: Error {
        let error: String
        let description: String
    }

    // MARK: Registration

    struct ClientPayload: JWTPayload {
        var typ: String
        var name: String
        var uris: [String]
        var iat: IssuedAtClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {
            guard typ == "oauth-client" else {
                throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "typ")
            }
        }
    }

    /// A registered client: its name and the addresses it may be sent back to.
    struct Client {
        let id: String
        let name: String
        let redirectURIs: [String]
    }

    /// Registers a client: its `client_id` carries its name and redirect addresses, signed.
    func register(name: String?, redirectURIs: [String]) async throws -> Client {
        guard (1...10).contains(redirectURIs.count) else {
            throw Failure(error: "invalid_redirect_uri", description: "redirect_uris must hold 1 to 10 addresses.")
        }
        for uri in redirectURIs where !Self.isAcceptable(redirectURI: uri) {
            throw Failure(
                error: "invalid_redirect_uri",
                description: "A redirect address must be https, or http on this machine (localhost): \(uri.prefix(200))"
            )
        }
        let name = String(TextCheck.trimmed(name ?? "").prefix(100))
        let client = ClientPayload(
            typ: "oauth-client", name: name.isEmpty ? "MCP-Client" : name, uris: redirectURIs,
            iat: IssuedAtClaim(value: context.now))
        return Client(id: try await keys.sign(client), name: client.name, redirectURIs: redirectURIs)
    }

    /// https anywhere; http only back to this machine (a desktop client's local listener); no fragments.
    static func isAcceptable(redirectURI: String) -> Bool {
        guard redirectURI.count <= 2_000, let url = URL(string: redirectURI), url.fragment == nil,
            let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased()
        else { return false }
        if scheme == "https" { return true }
        return scheme == "http" && ["localhost", "127.0.0.1", "[::1]", "::1"].contains(host)
    }

    /// The registered client `id`, whose addresses include `redirectURI`.
    func client(_ id: String, redirectURI: String) async throws -> Client {
        guard id.count < 4_096, let payload = try? await keys.verify(id, as: ClientPayload.self) else {
            throw Failure(error: "invalid_client", description: "Unknown client_id: register the client first.")
        }
        guard payload.uris.contains(redirectURI) else {
            throw Failure(error: "invalid_request", description: "redirect_uri is not one the client registered.")
        }
        return Client(id: id, name: payload.name, redirectURIs: payload.uris)
    }

    // MARK: Codes

    struct CodePayload: JWTPayload {
        var typ: String
        var sub: SubjectClaim
        /// SHA-256 of the client id, the redirect address and the PKCE challenge.
        var cid: String
        var uri: String
        var chal: String
        var scope: String
        var exp: ExpirationClaim
        var jti: IDClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {
            guard typ == "oauth-code" else { throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "typ") }
        }
    }

    /// The scopes asked for (`read`, `write`; none: read), as the token will have them.
    static func scopes(_ text: String?) throws -> [TokenScope] {
        var scopes: Set<TokenScope> = [.read]
        for word in (text ?? "").split(separator: " ") {
            guard let scope = TokenScope(rawValue: String(word)) else {
                throw Failure(error: "invalid_scope", description: "Scopes are read and write.")
            }
            scopes.insert(scope)
        }
        return TokenScope.allCases.filter(scopes.contains)
    }

    /// The learner allowed `client`: a code for its redirect address.
    func code(
        for userId: UUID, client: Client, redirectURI: String, challenge: String, method: String?, scopes: [TokenScope]
    ) async throws -> String {
        guard method == "S256" else {
            throw Failure(error: "invalid_request", description: "code_challenge_method must be S256.")
        }
        guard (43...128).contains(challenge.count) else {
            throw Failure(error: "invalid_request", description: "code_challenge must be 43 to 128 characters.")
        }
        let payload = CodePayload(
            typ: "oauth-code", sub: SubjectClaim(value: userId.uuidString.lowercased()),
            cid: RandomToken.hash(client.id), uri: redirectURI, chal: challenge,
            scope: scopes.map(\.rawValue).joined(separator: " "),
            exp: ExpirationClaim(value: context.now.addingTimeInterval(Self.codeLifetime)),
            jti: IDClaim(value: UUID().uuidString.lowercased()))
        return try await keys.sign(payload)
    }

    /// Exchanges a code for a personal access token: the code must be this client's, for this
    /// address, unexpired and unspent, and the verifier must hash to its challenge.
    func exchange(code: String, clientId: String, redirectURI: String, verifier: String) async throws
        -> (secret: String, scopes: [TokenScope], expiresIn: Int)
    {
        let invalid = Failure(error: "invalid_grant", description: "The code is invalid, expired or already used.")
        guard code.count < 4_096, let payload = try? await keys.verify(code, as: CodePayload.self),
            payload.exp.value > context.now, let userId = UUID(uuidString: payload.sub.value)
        else { throw invalid }
        guard payload.cid == RandomToken.hash(clientId), payload.uri == redirectURI else {
            throw Failure(error: "invalid_grant", description: "The code was issued to another client or address.")
        }
        let hashed = Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        guard (43...128).contains(verifier.count), hashed == payload.chal else {
            throw Failure(error: "invalid_grant", description: "code_verifier does not match the code_challenge.")
        }
        guard
            try await context.store.accounts.spendOnce(
                "oauth:" + payload.jti.value, expiresAt: payload.exp.value, now: context.now)
        else { throw invalid }
        let client = try await self.client(clientId, redirectURI: redirectURI)
        let scopes = try Self.scopes(payload.scope)
        let made = try await AccessTokenService(context: context).create(
            userId: userId, name: "\(client.name) (OAuth)", scopes: scopes, expiresInDays: Self.tokenDays)
        return (made.secret, scopes, Self.tokenDays * 86_400)
    }
}

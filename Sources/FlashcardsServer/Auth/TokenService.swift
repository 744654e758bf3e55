import Fluent
import Foundation
import JWTKit
import Vapor

/// The claims of our tokens: the user, expiry, issue time, the user's token version (raised by a
/// password change, which makes older tokens invalid) and the token's own id (`jti`, which logout
/// revokes; tokens issued before logout existed have none).
struct TokenPayload: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    /// Not before: the issue time (tokens issued before this claim existed have none).
    var nbf: NotBeforeClaim?
    var ver: Int
    var jti: IDClaim?

    /// Expiry is checked against the server's injected clock in ``TokenService/verify(_:now:)``.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// What a verified token says.
struct TokenClaims: Sendable {
    let userId: UUID
    let version: Int
    /// The token's id, nil for tokens issued before tokens had one.
    let tokenId: String?
    let expiresAt: Date
    /// When the token was issued: when its session signed in.
    let issuedAt: Date
}

/// Signs and verifies HS256 tokens with the configured or generated secret.
struct TokenService: Sendable {
    let keys: JWTKeyCollection
    let lifetime: TimeInterval

    /// Uses `secret` (at least 32 bytes).
    init(secret: String, lifetime: TimeInterval) async {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.keys = keys
        self.lifetime = lifetime
    }

    /// A token for `user`, valid from `now` for the configured lifetime.
    func issue(for user: UserModel, now: Date) async throws -> (token: String, expiresAt: Date) {
        let expiresAt = now.addingTimeInterval(lifetime)
        let payload = TokenPayload(
            sub: SubjectClaim(value: try user.requireID().uuidString.lowercased()),
            exp: ExpirationClaim(value: expiresAt),
            iat: IssuedAtClaim(value: now),
            nbf: NotBeforeClaim(value: now),
            ver: user.tokenVersion,
            jti: IDClaim(value: UUID().uuidString.lowercased()))
        return (try await keys.sign(payload), expiresAt)
    }

    /// Clocks of several instances may differ this much.
    static let clockLeeway: TimeInterval = 60

    /// The claims of a valid token; nil for anything else: expired, issued in the future or not yet
    /// valid (beyond the clocks' leeway), or naming no user.
    func verify(_ token: String, now: Date) async -> TokenClaims? {
        let latest = now.addingTimeInterval(Self.clockLeeway)
        guard let payload = try? await keys.verify(token, as: TokenPayload.self),
            payload.exp.value > now, payload.iat.value <= latest, (payload.nbf?.value ?? now) <= latest,
            let id = UUID(exactly: payload.sub.value)
        else { return nil }
        let tokenId = payload.jti.map(\.value).flatMap { $0.isEmpty || $0.utf8.count > 64 ? nil : $0 }
        return TokenClaims(
            userId: id, version: payload.ver, tokenId: tokenId, expiresAt: payload.exp.value,
            issuedAt: payload.iat.value)
    }

    /// The configured secret, or the one generated on first start and stored in the database so
    /// every instance sharing the database agrees on it. Never written to the repository.
    static func resolveSecret(configured: String?, database: any Database) async throws -> String {
        if let configured { return configured }
        let key = "jwt_secret"
        if let existing = try await ServerSettingModel.find(key, on: database) { return existing.value }
        var bytes = [UInt8](repeating: 0, count: 48)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = UInt8.random(in: .min ... .max, using: &generator) }
        let secret = Data(bytes).base64EncodedString()
        do {
            try await ServerSettingModel(key: key, value: secret).create(on: database)
            return secret
        } catch {
            // Another instance created it first: use theirs.
            guard let existing = try await ServerSettingModel.find(key, on: database) else { throw error }
            return existing.value
        }
    }
}

extension Application {
    private struct TokenServiceKey: StorageKey { typealias Value = TokenService }

    var tokens: TokenService {
        get {
            guard let service = storage[TokenServiceKey.self] else {
                fatalError("TokenService used before configure(_:) set it up")
            }
            return service
        }
        set { storage[TokenServiceKey.self] = newValue }
    }
}

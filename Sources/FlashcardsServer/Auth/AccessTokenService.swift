import FlashcardsAPI
import Fluent
import Foundation

/// Personal access tokens (`docs/mcp.md`): made, listed and revoked by their learner, looked up by
/// the hash of their secret on every request that carries one, and their activity (what each token
/// did) kept for the learner to see.
struct AccessTokenService {
    let context: ServiceContext

    /// Every secret starts with this, so a request's token is told from a session token at a glance.
    static let secretPrefix = "fcpat_"
    /// Active tokens a learner may hold at once.
    static let maximumActive = 50
    /// Events kept per token; older ones go when newer come.
    static let eventsKept = 500
    /// A token's last use is written at most this often (seconds), not on every request.
    static let lastUseResolution: TimeInterval = 60

    /// The learner's tokens, newest first (revoked ones too, so their activity stays visible).
    func list(userId: UUID) async throws -> [AccessTokenModel] {
        try await AccessTokenModel.query(on: context.db).filter(\.$userId == userId)
            .sort(\.$createdAt, .descending).all()
    }

    /// A new token and its secret (which is in this answer only).
    func create(userId: UUID, name: String, scopes: [TokenScope], expiresInDays: Int?) async throws
        -> (token: AccessTokenModel, secret: String)
    {
        let name = try Validate.text(name, field: "Der Name", max: 100)
        guard !scopes.isEmpty else {
            throw AppError.validation("Wähle mindestens eine Berechtigung: read oder write.")
        }
        guard Set(scopes).count == scopes.count else {
            throw AppError.validation("Jede Berechtigung darf nur einmal genannt werden: read, write.")
        }
        if let expiresInDays, !(1...3_650).contains(expiresInDays) {
            throw AppError.validation("expiresInDays muss zwischen 1 und 3650 liegen.")
        }
        let active = try await list(userId: userId).filter { $0.isActive(at: context.now) }.count
        guard active < Self.maximumActive else {
            throw AppError.refused(
                "Du hast schon \(Self.maximumActive) aktive Zugangstokens. Widerrufe zuerst eines.",
                code: "too_many_tokens")
        }
        let secret = Self.secretPrefix + RandomToken.make()
        // Write includes read.
        var granted = Set(scopes)
        granted.insert(.read)
        let token = AccessTokenModel(
            id: context.uuid(), userId: userId, name: name, scopes: granted, tokenHash: RandomToken.hash(secret),
            prefix: String(secret.prefix(12)), createdAt: context.now,
            expiresAt: expiresInDays.map { context.now.addingTimeInterval(TimeInterval($0) * 86_400) })
        try await token.create(on: context.db)
        return (token, secret)
    }

    /// The learner's token with this path id; another learner's is not found.
    func find(_ id: String?, userId: UUID) async throws -> AccessTokenModel {
        let notFound = AppError.notFound("Zugangstoken nicht gefunden.", code: "token_not_found")
        guard let id = id.flatMap(UUID.init(uuidString:)),
            let token = try await AccessTokenModel.query(on: context.db)
                .filter(\.$id == id).filter(\.$userId == userId).first()
        else { throw notFound }
        return token
    }

    /// Revokes the token from now on; revoking it again changes nothing.
    func revoke(_ token: AccessTokenModel) async throws {
        guard token.revokedAt == nil else { return }
        token.revokedAt = context.now
        try await token.save(on: context.db)
    }

    /// One page of what the token did, newest first.
    func activity(of token: AccessTokenModel, page: Int, perPage: Int) async throws
        -> (events: [AccessTokenEventModel], total: Int)
    {
        let tokenId = try token.requireID()
        let total = try await AccessTokenEventModel.query(on: context.db).filter(\.$tokenId == tokenId).count()
        let events = try await AccessTokenEventModel.query(on: context.db).filter(\.$tokenId == tokenId)
            .sort(\.$at, .descending).range((page - 1) * perPage..<(page * perPage)).all()
        return (events, total)
    }

    // MARK: Use

    /// The active token with this secret, its last use noted (at most once a minute); nil for an
    /// unknown, revoked or expired one.
    func authenticate(secret: String) async throws -> AccessTokenModel? {
        let body = secret.dropFirst(Self.secretPrefix.count)
        guard secret.hasPrefix(Self.secretPrefix), RandomToken.isWellFormed(String(body)),
            let token = try await AccessTokenModel.query(on: context.db)
                .filter(\.$tokenHash == RandomToken.hash(secret)).first(),
            token.isActive(at: context.now)
        else { return nil }
        if token.lastUsedAt.map({ context.now.timeIntervalSince($0) >= Self.lastUseResolution }) ?? true {
            token.lastUsedAt = context.now
            try await token.save(on: context.db)
        }
        return token
    }

    /// Notes that the token did `action`; the oldest events beyond ``eventsKept`` go.
    func record(tokenId: UUID, action: String, via: String, counts: [String: Int] = [:]) async throws {
        try await AccessTokenEventModel(
            id: context.uuid(), tokenId: tokenId, at: context.now, action: String(action.prefix(200)), via: via,
            counts: counts
        ).create(on: context.db)
        let query = AccessTokenEventModel.query(on: context.db).filter(\.$tokenId == tokenId)
        // Trimmed in steps of 50, so most recordings cost no delete.
        guard try await query.count() > Self.eventsKept + 50 else { return }
        if let cutoff = try await AccessTokenEventModel.query(on: context.db).filter(\.$tokenId == tokenId)
            .sort(\.$at, .descending).range(Self.eventsKept..<(Self.eventsKept + 1)).first()
        {
            try await AccessTokenEventModel.query(on: context.db).filter(\.$tokenId == tokenId)
                .filter(\.$at <= cutoff.at).delete()
        }
    }
}

import FlashcardsAPI
import Fluent
import SQLKit
import Vapor

/// Requires a valid token (raw or `Bearer`) of an existing account; everything else is a 401.
/// The account is loaded once per request, so a deleted account's tokens stop working at once.
/// `optional`: a request without an `Authorization` header passes as nobody's (one with a header
/// that is no valid token is still a 401, so an expired sign-in says so).
///
/// A personal access token (`fcpat_…`, ``AccessTokenService``) opens the same routes as a session
/// token, within its scopes and rate (``TokenRateLimiter``), and its writes are noted in its
/// activity; `personalTokens` says how a route group takes them.
struct RequireUserMiddleware: AsyncMiddleware {
    var optional = false
    var personalTokens = PersonalTokens.byMethod

    /// How a route group takes personal access tokens.
    enum PersonalTokens {
        /// Reading methods need `read`, the others `write`; writes are noted in the token's activity.
        case byMethod
        /// Refused (403 `session_required`): the account's own keys (password, tokens, deletion).
        case refused
        /// Only personal tokens, the route checks scopes and notes activity itself (MCP).
        case required
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let header = request.headers.first(name: .authorization) else {
            if optional { return try await next.respond(to: request) }
            throw AppError.unauthorized
        }
        var token = header.trimmingCharacters(in: .whitespaces)
        if token.lowercased().hasPrefix("bearer ") {
            token = String(token.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        guard !token.isEmpty, token.count < 4_096 else { throw AppError.unauthorized }
        if token.hasPrefix(AccessTokenService.secretPrefix) {
            return try await respond(to: request, personalToken: token, chainingTo: next)
        }
        guard personalTokens != .required else { throw AppError.invalidAccessToken }
        guard let claims = await request.application.tokens.verify(token, now: request.now) else {
            throw AppError.unauthorized
        }
        try await authenticate(request, userId: claims.userId, version: claims.version, tokenId: claims.tokenId)
        request.storage[CurrentTokenKey.self] = claims
        return try await next.respond(to: request)
    }

    /// Loads the account (and the path's stack with the FSRS parameters) for the request.
    private func authenticate(_ request: Request, userId: UUID, version: Int?, tokenId: String?) async throws {
        // Routes of one stack read the caller's stack and FSRS parameters in the same statement as
        // the account (database round trips less on every learning request); `StackService.find` and
        // `StudyService.scheduler` take them from there.
        let stackId = request.parameters.get("stackId").flatMap(UUID.init(uuidString:))
        guard
            let row = try await request.studyStore.authenticated(userId: userId, stackId: stackId, tokenId: tokenId),
            version.map({ row.user.tokenVersion == $0 }) ?? true
        else { throw AppError.unauthorized }
        request.storage[CurrentUserKey.self] = row.user
        if let parameters = row.parameters { request.storage[PreloadedParametersKey.self] = parameters }
        if let stack = row.stack { request.storage[PreloadedStackKey.self] = stack }
    }

    private func respond(to request: Request, personalToken secret: String, chainingTo next: any AsyncResponder)
        async throws -> Response
    {
        guard personalTokens != .refused else {
            throw AppError.forbidden(
                "Das geht nur angemeldet in der App, nicht mit einem Zugangstoken.", code: "session_required")
        }
        let service = AccessTokenService(context: ServiceContext(request))
        guard let token = try await service.authenticate(secret: secret) else { throw AppError.invalidAccessToken }
        let tokenId = try token.requireID()
        if let retryAfter = request.application.tokenRateLimiter.retryAfter(tokenId, now: request.now) {
            throw AppError.tooManyRequests(
                "Zu viele Anfragen mit diesem Zugangstoken. Bitte warte \(retryAfter) Sekunden.",
                retryAfter: retryAfter)
        }
        let reads = request.method == .GET || request.method == .HEAD
        if personalTokens == .byMethod, !reads, try !token.scopes.contains(.write) {
            throw AppError.tokenReadOnly
        }
        try await authenticate(request, userId: token.userId, version: nil, tokenId: nil)
        request.storage[CurrentAccessTokenKey.self] = token
        let response = try await next.respond(to: request)
        if personalTokens == .byMethod, !reads, response.status.code < 400 {
            let path = request.route.map { "/" + $0.path.map(\.description).joined(separator: "/") } ?? request.url.path
            try await service.record(tokenId: tokenId, action: "\(request.method.rawValue) \(path)", via: "api")
        }
        return response
    }
}

private struct CurrentUserKey: StorageKey { typealias Value = UserModel }
private struct CurrentTokenKey: StorageKey { typealias Value = TokenClaims }
private struct CurrentAccessTokenKey: StorageKey { typealias Value = AccessTokenModel }
private struct PreloadedStackKey: StorageKey { typealias Value = StackModel }
private struct PreloadedParametersKey: StorageKey { typealias Value = PreloadedParameters }

extension Request {
    /// The signed-in user; only valid behind ``RequireUserMiddleware``.
    var user: UserModel {
        get throws {
            guard let user = storage[CurrentUserKey.self] else { throw AppError.unauthorized }
            return user
        }
    }

    /// The signed-in user, if any (behind ``RequireUserMiddleware`` with `optional`).
    var optionalUser: UserModel? { storage[CurrentUserKey.self] }

    /// The caller's personal access token, when the request came with one.
    var accessToken: AccessTokenModel? { storage[CurrentAccessTokenKey.self] }

    /// The claims of the caller's session token; only valid behind ``RequireUserMiddleware`` and
    /// not for a personal access token.
    var tokenClaims: TokenClaims {
        get throws {
            guard let claims = storage[CurrentTokenKey.self] else { throw AppError.unauthorized }
            return claims
        }
    }

    /// The stack named by the path's `stackId`, when it is the caller's and was read with the account.
    var preloadedStack: StackModel? { storage[PreloadedStackKey.self] }

    /// The caller's FSRS parameters, when they were read with the account.
    var preloadedParameters: PreloadedParameters? { storage[PreloadedParametersKey.self] }
}

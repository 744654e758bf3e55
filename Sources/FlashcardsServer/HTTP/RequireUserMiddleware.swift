import Fluent
import SQLKit
import Vapor

/// Requires a valid token (raw or `Bearer`) of an existing account; everything else is a 401.
/// The account is loaded once per request, so a deleted account's tokens stop working at once.
/// `optional`: a request without an `Authorization` header passes as nobody's (one with a header
/// that is no valid token is still a 401, so an expired sign-in says so).
struct RequireUserMiddleware: AsyncMiddleware {
    var optional = false

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let header = request.headers.first(name: .authorization) else {
            if optional { return try await next.respond(to: request) }
            throw AppError.unauthorized
        }
        var token = header.trimmingCharacters(in: .whitespaces)
        if token.lowercased().hasPrefix("bearer ") {
            token = String(token.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        guard !token.isEmpty, token.count < 4_096,
            let claims = await request.application.tokens.verify(token, now: request.now)
        else { throw AppError.unauthorized }
        // Routes of one stack read the caller's stack and FSRS parameters in the same statement as
        // the account (database round trips less on every learning request); `StackService.find` and
        // `StudyService.scheduler` take them from there.
        let stackId = request.parameters.get("stackId").flatMap(UUID.init(uuidString:))
        guard
            let row = try await request.studyStore.authenticated(
                userId: claims.userId, stackId: stackId, tokenId: claims.tokenId),
            row.user.tokenVersion == claims.version
        else { throw AppError.unauthorized }
        request.storage[CurrentUserKey.self] = row.user
        request.storage[CurrentTokenKey.self] = claims
        if let parameters = row.parameters { request.storage[PreloadedParametersKey.self] = parameters }
        if let stack = row.stack { request.storage[PreloadedStackKey.self] = stack }
        return try await next.respond(to: request)
    }
}

private struct CurrentUserKey: StorageKey { typealias Value = UserModel }
private struct CurrentTokenKey: StorageKey { typealias Value = TokenClaims }
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

    /// The claims of the caller's token; only valid behind ``RequireUserMiddleware``.
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

import Fluent
import SQLKit
import Vapor

/// Requires a valid token (raw or `Bearer`) of an existing account; everything else is a 401.
/// The account is loaded once per request, so a deleted account's tokens stop working at once.
struct RequireUserMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let header = request.headers.first(name: .authorization) else { throw AppError.unauthorized }
        var token = header.trimmingCharacters(in: .whitespaces)
        if token.lowercased().hasPrefix("bearer ") {
            token = String(token.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        guard !token.isEmpty, token.count < 4_096,
            let claims = await request.application.tokens.verify(token, now: request.now),
            let user = try await request.db.sql.raw("SELECT * FROM users WHERE id = \(bind: claims.userId)").first()?
                .decode(fluentModel: UserModel.self),
            user.tokenVersion == claims.version
        else { throw AppError.unauthorized }
        request.storage[CurrentUserKey.self] = user
        return try await next.respond(to: request)
    }
}

private struct CurrentUserKey: StorageKey { typealias Value = UserModel }

extension Request {
    /// The signed-in user; only valid behind ``RequireUserMiddleware``.
    var user: UserModel {
        get throws {
            guard let user = storage[CurrentUserKey.self] else { throw AppError.unauthorized }
            return user
        }
    }
}

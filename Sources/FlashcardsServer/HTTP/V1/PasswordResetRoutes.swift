import FlashcardsAPI
import Vapor

/// `/api/v1/auth/password-reset*`: "Passwort vergessen?" (see ``PasswordResetService``).
struct PasswordResetRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.on(Endpoint.V1.passwordResetStatus, use: status)
        routes.on(Endpoint.V1.requestPasswordReset, use: request)
        routes.on(Endpoint.V1.confirmPasswordReset, use: confirm)
    }

    func status(_ req: Request) async throws -> Response {
        try jsonResponse(PasswordResetStatus(available: PasswordResetService(context: ServiceContext(req)).isAvailable))
    }

    /// 202 whether or not the address has an account; the mail goes out from a job.
    func request(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(PasswordResetRequest.self)
        try await PasswordResetService(context: ServiceContext(req)).request(
            mail: body.mail, language: body.language, sealKey: req.application.passwordResetSealKey)
        return Response(status: .accepted)
    }

    /// 200 with a token for the account: the new password is set and the user signed in.
    func confirm(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(PasswordResetConfirmation.self)
        let user = try await PasswordResetService(context: ServiceContext(req)).confirm(
            token: body.token, newPassword: body.newPassword)
        let issued = try await req.application.tokens.issue(for: user, now: req.now)
        return try jsonResponse(AuthResponse(token: issued.token, expiresAt: issued.expiresAt, user: user.dto))
    }
}

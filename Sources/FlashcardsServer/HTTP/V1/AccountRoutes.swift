import FlashcardsAPI
import Vapor

/// `/api/v1/auth/*` and `/api/v1/me*`.
struct AccountRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.on(Endpoint.V1.signup, use: signup)
        routes.on(Endpoint.V1.login, use: login)
        routes.on(Endpoint.V1.guest, use: guest)
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.me, use: show)
        authed.on(Endpoint.V1.updateMe, use: update)
        // The account's own keys: not with a personal access token.
        let session = routes.grouped(RequireUserMiddleware(personalTokens: .refused))
        session.on(Endpoint.V1.upgradeGuest, use: upgrade)
        session.on(Endpoint.V1.logout, use: logout)
        session.on(Endpoint.V1.deleteMe, use: delete)
        session.on(Endpoint.V1.changePassword, use: changePassword)
    }

    func signup(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(SignupRequest.self)
        let user = try await AccountService(context: ServiceContext(req)).signup(
            name: body.name, mail: body.mail, password: body.password, timeZone: body.timeZone)
        return try await authResponse(for: user, req: req, status: .created)
    }

    func login(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(LoginRequest.self)
        let user = try await AccountService(context: ServiceContext(req)).login(
            mail: body.mail, password: body.password)
        return try await authResponse(for: user, req: req, status: .ok)
    }

    func guest(_ req: Request) async throws -> Response {
        // The body is optional: no body is a guest in the server's default time zone.
        let body = (req.body.data?.readableBytes ?? 0) == 0 ? GuestRequest() : try req.decodeBody(GuestRequest.self)
        let user = try await AccountService(context: ServiceContext(req)).guest(
            timeZone: body.timeZone, language: body.language)
        return try await authResponse(for: user, req: req, status: .created)
    }

    func upgrade(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(UpgradeGuestRequest.self)
        let user = try await AccountService(context: ServiceContext(req)).upgrade(
            try req.user, name: body.name, mail: body.mail, password: body.password)
        return try await authResponse(for: user, req: req, status: .ok)
    }

    func logout(_ req: Request) async throws -> Response {
        try await AccountService(context: ServiceContext(req)).logout(try req.user, claims: try req.tokenClaims)
        return Response(status: .noContent)
    }

    func show(_ req: Request) async throws -> Response {
        try jsonResponse(try req.user.dto)
    }

    func update(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(UpdateUserRequest.self)
        let user = try await AccountService(context: ServiceContext(req)).update(
            try req.user, name: body.name, timeZone: body.timeZone)
        return try jsonResponse(user.dto)
    }

    func changePassword(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(ChangePasswordRequest.self)
        try await AccountService(context: ServiceContext(req)).changePassword(
            try req.user, current: body.currentPassword, new: body.newPassword,
            signedInAt: try req.tokenClaims.issuedAt)
        return Response(status: .noContent)
    }

    func delete(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(DeleteAccountRequest.self)
        try await AccountService(context: ServiceContext(req)).delete(try req.user, password: body.password)
        return Response(status: .noContent)
    }

}

/// A new session for `user`: a token and the account (password login, sign-up, a provider's sign-in).
func authResponse(for user: UserModel, req: Request, status: HTTPResponseStatus = .ok) async throws -> Response {
    let issued = try await req.application.tokens.issue(for: user, now: req.now)
    return try jsonResponse(
        AuthResponse(token: issued.token, expiresAt: issued.expiresAt, user: user.dto), status: status)
}

import FlashcardsAPI
import Vapor

/// `/api/v1/me/tokens*`: the learner's personal access tokens. Managed with the session only: a
/// token never makes or revokes tokens.
struct AccessTokenRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let session = routes.grouped(RequireUserMiddleware(personalTokens: .refused))
        session.on(Endpoint.V1.listTokens, use: list)
        session.on(Endpoint.V1.createToken, use: create)
        session.on(Endpoint.V1.revokeToken, use: revoke)
        session.on(Endpoint.V1.tokenActivity, use: activity)
    }

    func list(_ req: Request) async throws -> Response {
        let tokens = try await AccessTokenService(context: ServiceContext(req)).list(userId: try req.user.requireID())
        return try jsonResponse(try tokens.map { try $0.dto })
    }

    func create(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(CreateAccessTokenRequest.self)
        let made = try await AccessTokenService(context: ServiceContext(req)).create(
            userId: try req.user.requireID(), name: body.name, scopes: body.scopes, expiresInDays: body.expiresInDays)
        return try jsonResponse(CreatedAccessTokenDTO(token: try made.token.dto, secret: made.secret), status: .created)
    }

    func revoke(_ req: Request) async throws -> Response {
        let service = AccessTokenService(context: ServiceContext(req))
        try await service.revoke(
            try await service.find(req.parameters.get("tokenId"), userId: try req.user.requireID()))
        return Response(status: .noContent)
    }

    func activity(_ req: Request) async throws -> Response {
        let service = AccessTokenService(context: ServiceContext(req))
        let token = try await service.find(req.parameters.get("tokenId"), userId: try req.user.requireID())
        let page = try req.intQuery("page", default: 1, range: 1...1_000_000)
        let perPage = try req.intQuery("perPage", default: 20, range: 1...100)
        let result = try await service.activity(of: token, page: page, perPage: perPage)
        return try jsonResponse(
            PageDTO(items: try result.events.map { try $0.dto }, page: page, perPage: perPage, total: result.total))
    }
}

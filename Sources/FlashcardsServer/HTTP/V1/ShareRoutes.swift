import FlashcardsAPI
import Vapor

/// `/api/v1/stacks/{id}/share` (the owner's link) and `/api/v1/shared/{token}` (anyone with it).
struct ShareRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.shareLink, use: link)
        authed.on(Endpoint.V1.createShareLink, use: create)
        authed.on(Endpoint.V1.revokeShareLink, use: revoke)
        routes.on(Endpoint.V1.sharedStack, use: shared)
        authed.on(Endpoint.V1.copySharedStack, use: copy)
    }

    private func ownStack(_ req: Request) async throws -> (StackModel, ShareService) {
        let context = ServiceContext(req)
        let stack = try await StackService(context: context, user: try req.user).find(
            req.parameters.get("stackId"), preloaded: req.preloadedStack)
        return (stack, ShareService(context: context))
    }

    func link(_ req: Request) async throws -> Response {
        let (stack, shares) = try await ownStack(req)
        guard let link = try await shares.link(of: stack) else {
            throw AppError.notFound("Dieser Stapel wird nicht geteilt.", code: "share_not_found")
        }
        return try jsonResponse(link)
    }

    func create(_ req: Request) async throws -> Response {
        let (stack, shares) = try await ownStack(req)
        let (link, created) = try await shares.create(for: stack)
        return try jsonResponse(link, status: created ? .created : .ok)
    }

    func revoke(_ req: Request) async throws -> Response {
        let (stack, shares) = try await ownStack(req)
        try await shares.revoke(for: stack)
        return Response(status: .noContent)
    }

    /// Open to anyone with the link: no token needed, none looked at.
    func shared(_ req: Request) async throws -> Response {
        let page = try req.intQuery("page", default: 1, range: 1...1_000_000)
        let perPage = try req.intQuery("perPage", default: 50, range: 1...200)
        let stack = try await ShareService(context: ServiceContext(req)).shared(
            token: req.parameters.get("token"), page: page, perPage: perPage)
        return try jsonResponse(stack)
    }

    func copy(_ req: Request) async throws -> Response {
        let context = ServiceContext(req)
        let user = try req.user
        let copy = try await ShareService(context: context).copy(token: req.parameters.get("token"), for: user)
        let summary = try await StackService(context: context, user: user).counted(copy)
        return try jsonResponse(summary.dto, status: .created)
    }
}

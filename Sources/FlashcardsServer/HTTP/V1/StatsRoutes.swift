import FlashcardsAPI
import Vapor

/// Statistics: `GET /api/v1/stacks/{id}/stats`, `GET /api/v1/me/stats`, the retrievability pages
/// `…/stats/retrievability?page=1&perPage=50` and the FSRS figures `…/stats/memory`.
struct StatsRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.stackStats, use: stackStats)
        authed.on(Endpoint.V1.stackRetrievability, use: stackRetrievability)
        authed.on(Endpoint.V1.userStats, use: userStats)
        authed.on(Endpoint.V1.userRetrievability, use: userRetrievability)
        authed.on(Endpoint.V1.stackMemoryStats, use: stackMemory)
        authed.on(Endpoint.V1.userMemoryStats, use: userMemory)
    }

    func stackMemory(_ req: Request) async throws -> Response {
        let service = StatsService(context: ServiceContext(req), user: try req.user)
        return try jsonResponse(try await service.memory(try await scope(req)))
    }

    func userMemory(_ req: Request) async throws -> Response {
        let service = StatsService(context: ServiceContext(req), user: try req.user)
        return try jsonResponse(try await service.memory(.user))
    }

    private func scope(_ req: Request) async throws -> StatsService.Scope {
        let stack = try await StackService(context: ServiceContext(req), user: try req.user)
            .find(req.parameters.get("stackId"), preloaded: req.preloadedStack)
        return .stack(stack)
    }

    func stackStats(_ req: Request) async throws -> Response {
        let service = StatsService(context: ServiceContext(req), user: try req.user)
        return try jsonResponse(try await service.stats(try await scope(req)))
    }

    func userStats(_ req: Request) async throws -> Response {
        let service = StatsService(context: ServiceContext(req), user: try req.user)
        return try jsonResponse(try await service.stats(.user))
    }

    func stackRetrievability(_ req: Request) async throws -> Response {
        try await retrievability(req, scope: try await scope(req))
    }

    func userRetrievability(_ req: Request) async throws -> Response {
        try await retrievability(req, scope: .user)
    }

    private func retrievability(_ req: Request, scope: StatsService.Scope) async throws -> Response {
        let page = try req.intQuery("page", default: 1, range: 1...1_000_000)
        let perPage = try req.intQuery("perPage", default: 50, range: 1...200)
        let service = StatsService(context: ServiceContext(req), user: try req.user)
        return try jsonResponse(try await service.retrievability(scope, page: page, perPage: perPage))
    }
}

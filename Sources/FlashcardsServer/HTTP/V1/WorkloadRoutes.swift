import FlashcardsAPI
import Vapor

/// The workload forecast, "what if" simulations and the retention advice, per stack and over all
/// stacks: `/api/v1/stacks/{id}/workload`, `…/workload/simulate`, `…/retention-advice` and the same
/// under `/api/v1/me/`.
struct WorkloadRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.stackWorkload, use: stackWorkload)
        authed.on(Endpoint.V1.userWorkload, use: userWorkload)
        authed.on(Endpoint.V1.simulateStack, use: simulateStack)
        authed.on(Endpoint.V1.simulateUser, use: simulateUser)
        authed.on(Endpoint.V1.stackRetentionAdvice, use: stackAdvice)
        authed.on(Endpoint.V1.userRetentionAdvice, use: userAdvice)
    }

    private func stackScope(_ req: Request) async throws -> WorkloadService.Scope {
        let stack = try await StackService(context: ServiceContext(req), user: try req.user)
            .find(req.parameters.get("stackId"), preloaded: req.preloadedStack)
        return .stack(stack)
    }

    private func service(_ req: Request) throws -> WorkloadService {
        WorkloadService(context: ServiceContext(req), user: try req.user)
    }

    private func workload(_ req: Request, _ scope: WorkloadService.Scope) async throws -> Response {
        let days = try req.intQuery("days", default: 30, range: 1...365)
        return try jsonResponse(try await service(req).workload(scope, days: days))
    }

    private func simulate(_ req: Request, _ scope: WorkloadService.Scope) async throws -> Response {
        let changes = try req.decodeBody(SimulationRequest.self)
        return try jsonResponse(try await service(req).workload(scope, days: 30, changes: changes))
    }

    func stackWorkload(_ req: Request) async throws -> Response { try await workload(req, try await stackScope(req)) }

    func userWorkload(_ req: Request) async throws -> Response { try await workload(req, .user) }

    func simulateStack(_ req: Request) async throws -> Response { try await simulate(req, try await stackScope(req)) }

    func simulateUser(_ req: Request) async throws -> Response { try await simulate(req, .user) }

    func stackAdvice(_ req: Request) async throws -> Response {
        try jsonResponse(try await service(req).retentionAdvice(try await stackScope(req)))
    }

    func userAdvice(_ req: Request) async throws -> Response {
        try jsonResponse(try await service(req).retentionAdvice(.user))
    }
}

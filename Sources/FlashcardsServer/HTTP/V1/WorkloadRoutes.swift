import FlashcardsAPI
import Vapor

/// The workload forecast, "what if" simulations and the retention advice, per stack and over all
/// stacks: `/api/v1/stacks/{id}/workload`, `…/workload/simulate`, `…/retention-advice` and the same
/// under `/api/v1/me/`; breaks, postponing and advancing: `…/schedule/break`, `…/schedule/postpone`,
/// `…/schedule/advance`.
struct WorkloadRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.stackWorkload, use: stackWorkload)
        authed.on(Endpoint.V1.userWorkload, use: userWorkload)
        authed.on(Endpoint.V1.simulateStack, use: simulateStack)
        authed.on(Endpoint.V1.simulateUser, use: simulateUser)
        authed.on(Endpoint.V1.stackRetentionAdvice, use: stackAdvice)
        authed.on(Endpoint.V1.userRetentionAdvice, use: userAdvice)
        authed.on(Endpoint.V1.stackBreak, use: { try await self.planBreak($0, try await self.stackScope($0)) })
        authed.on(Endpoint.V1.userBreak, use: { try await self.planBreak($0, .user) })
        authed.on(
            Endpoint.V1.stackPostpone, use: { try await self.move($0, try await self.stackScope($0), later: true) })
        authed.on(Endpoint.V1.userPostpone, use: { try await self.move($0, .user, later: true) })
        authed.on(
            Endpoint.V1.stackAdvance, use: { try await self.move($0, try await self.stackScope($0), later: false) })
        authed.on(Endpoint.V1.userAdvance, use: { try await self.move($0, .user, later: false) })
    }

    private func reschedule(_ req: Request) throws -> RescheduleService {
        RescheduleService(context: ServiceContext(req), user: try req.user)
    }

    private func planBreak(_ req: Request, _ scope: WorkloadService.Scope) async throws -> Response {
        let request = try req.decodeBody(BreakRequest.self)
        return try jsonResponse(try await reschedule(req).planBreak(scope, request: request))
    }

    private func move(_ req: Request, _ scope: WorkloadService.Scope, later: Bool) async throws -> Response {
        let request = try req.decodeBody(RescheduleRequest.self)
        return try jsonResponse(try await reschedule(req).move(scope, request: request, later: later))
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

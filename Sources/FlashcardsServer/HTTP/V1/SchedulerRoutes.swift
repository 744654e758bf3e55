import FlashcardsAPI
import FlashcardsCore
import Vapor

/// `/api/v1/me/scheduler`: the user's FSRS parameters and their optimization (a job).
struct SchedulerRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.schedulerParameters, use: show)
        authed.on(Endpoint.V1.resetSchedulerParameters, use: reset)
        authed.on(Endpoint.V1.optimizeScheduler, use: optimize)
    }

    func show(_ req: Request) async throws -> Response {
        let user = try req.user
        guard let row = try await SchedulerParametersModel.find(try user.requireID(), on: req.db),
            let weights = row.weights
        else {
            return try jsonResponse(
                SchedulerParametersDTO(parameters: FSRSConfiguration.defaultParameters, isDefault: true))
        }
        return try jsonResponse(
            SchedulerParametersDTO(
                parameters: weights, isDefault: false, optimizedAt: row.optimizedAt, logLoss: row.logLoss,
                defaultLogLoss: row.defaultLogLoss, reviews: row.reviews))
    }

    /// Back to the default parameters.
    func reset(_ req: Request) async throws -> Response {
        let userId = try req.user.requireID()
        try await SchedulerParametersModel.find(userId, on: req.db)?.delete(on: req.db)
        return Response(status: .noContent)
    }

    /// Queues the optimization; follow it at `/api/v1/jobs/{id}`.
    func optimize(_ req: Request) async throws -> Response {
        let job = try await JobQueue(store: req.studyStore, now: req.now).enqueue(
            kind: OptimizeJobHandler.kind, userId: try req.user.requireID(), payload: OptimizeJobHandler.Payload())
        return try jsonResponse(job.dto, status: .accepted)
    }
}

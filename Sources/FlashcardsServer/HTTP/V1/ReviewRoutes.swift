import FlashcardsAPI
import Vapor

/// `POST /api/v1/reviews` (offline sync) and `POST /api/v1/stacks/{id}/cards/{cardId}/undo`.
struct ReviewRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.syncReviews, use: sync)
        authed.on(Endpoint.V1.undoReview, use: undo)
    }

    func sync(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(SyncReviewsRequest.self)
        let context = ServiceContext(req)
        let user = try req.user
        let result = try await ReviewService(context: context, user: user).sync(body.reviews)
        await OptimizeTrigger.note(result.inserted, of: try user.requireID(), context: context, logger: req.logger)
        return try jsonResponse(result)
    }

    func undo(_ req: Request) async throws -> Response {
        let context = ServiceContext(req)
        let user = try req.user
        let stack = try await StackService(context: context, user: user).find(
            req.parameters.get("stackId"), preloaded: req.preloadedStack)
        let body = req.hasBody ? try req.decodeBody(UndoRequest.self) : UndoRequest()
        let result = try await ReviewService(context: context, user: user)
            .undo(
                card: req.parameters.get("cardId"), in: stack, undoId: body.id, reviewId: body.reviewId,
                parameters: req.preloadedParameters)
        return try jsonResponse(result)
    }
}

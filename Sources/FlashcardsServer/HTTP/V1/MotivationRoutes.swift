import FlashcardsAPI
import Vapor

/// Progress without pressure: `/api/v1/me/settings`, `/me/progress`, `/me/rest-days/{date}`,
/// `/me/mystery-box`, `/leaderboards/daily` and the Web Push reminders (`/push/key`,
/// `/me/push-subscriptions`).
struct MotivationRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.on(Endpoint.V1.pushKey) { req in
            try jsonResponse(PushKeyDTO(publicKey: req.application.vapidKey.publicKeyBase64URL))
        }
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.addPushSubscription, use: addPushSubscription)
        authed.on(Endpoint.V1.removePushSubscription, use: removePushSubscription)
        authed.on(Endpoint.V1.settings, use: settings)
        authed.on(Endpoint.V1.updateSettings, use: updateSettings)
        authed.on(Endpoint.V1.progress, use: progress)
        authed.on(Endpoint.V1.addRestDay, use: addRestDay)
        authed.on(Endpoint.V1.removeRestDay, use: removeRestDay)
        authed.on(Endpoint.V1.openMysteryBox, use: openBox)
        authed.on(Endpoint.V1.dailyLeaderboard, use: leaderboard)
    }

    func settings(_ req: Request) async throws -> Response {
        try jsonResponse(try await SettingsService(context: ServiceContext(req), user: try req.user).settings())
    }

    func updateSettings(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(UpdateSettingsRequest.self)
        return try jsonResponse(
            try await SettingsService(context: ServiceContext(req), user: try req.user).update(body))
    }

    func progress(_ req: Request) async throws -> Response {
        try jsonResponse(try await MotivationService(context: ServiceContext(req), user: try req.user).progress())
    }

    func addRestDay(_ req: Request) async throws -> Response {
        try await MotivationService(context: ServiceContext(req), user: try req.user)
            .setRestDay(req.parameters.get("date") ?? "", rest: true)
        return Response(status: .noContent)
    }

    func removeRestDay(_ req: Request) async throws -> Response {
        try await MotivationService(context: ServiceContext(req), user: try req.user)
            .setRestDay(req.parameters.get("date") ?? "", rest: false)
        return Response(status: .noContent)
    }

    func openBox(_ req: Request) async throws -> Response {
        try jsonResponse(try await MotivationService(context: ServiceContext(req), user: try req.user).openBox())
    }

    func leaderboard(_ req: Request) async throws -> Response {
        let metric = try? req.query.get(String.self, at: "metric")
        return try jsonResponse(
            try await LeaderboardService(context: ServiceContext(req), user: try req.user).daily(metric: metric))
    }

    func addPushSubscription(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(PushSubscriptionRequest.self)
        try await PushSubscriptionService(context: ServiceContext(req), user: try req.user).add(body)
        return Response(status: .created)
    }

    func removePushSubscription(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(DeletePushSubscriptionRequest.self)
        try await PushSubscriptionService(context: ServiceContext(req), user: try req.user).remove(
            endpoint: body.endpoint)
        return Response(status: .noContent)
    }
}

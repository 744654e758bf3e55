import Crypto
import FlashcardsAPI
import Foundation
import Prometheus
import Vapor

/// What an operator's tools ask: readiness beside the liveness check (`/api/v1/health`), and
/// `/metrics` for Prometheus when `FLASHCARDS_METRICS_TOKEN` is set (docs/operations.md).
struct OperationsRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.grouped("api", "v1").on(Endpoint.V1.ready, use: ready)
        routes.get("metrics", use: metrics)
    }

    /// 200 when the database answers within two seconds and holds every migration of this build;
    /// 503 with the reason otherwise (a load balancer then sends no requests here).
    @Sendable func ready(req: Request) async throws -> Response {
        struct Status: Encodable {
            let status: String
            let reason: String?
        }
        let store = req.studyStore.operations
        do {
            let applied = try await withDeadline(.seconds(2)) { try await store.appliedMigrationCount() }
            guard applied >= Migrations.all.count else {
                return try jsonResponse(
                    Status(status: "unavailable", reason: "migrations pending"), status: .serviceUnavailable)
            }
            return try jsonResponse(Status(status: "ready", reason: nil))
        } catch {
            req.logger.warning("readiness: the database did not answer: \(error)")
            return try jsonResponse(
                Status(status: "unavailable", reason: "database unreachable"), status: .serviceUnavailable)
        }
    }

    /// The registry in Prometheus' text format, for the scraper that sends the configured bearer
    /// token; 404 when metrics are off (nothing tells a visitor they exist), 401 without the token.
    @Sendable func metrics(req: Request) async throws -> Response {
        guard let token = req.application.appConfiguration.metricsToken else { throw Abort(.notFound) }
        // Digests compare in constant time, so the answer's timing says nothing of the token.
        guard let sent = req.headers.bearerAuthorization?.token,
            SHA256.hash(data: Data(sent.utf8)) == SHA256.hash(data: Data(token.utf8))
        else { throw AppError.unauthorized }
        let rows = try await req.studyStore.operations.jobQueue()
        ServerMetrics.recordQueue(rows, now: Date(), kinds: req.application.jobs.kinds)
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "text", subType: "plain", parameters: ["version": "0.0.4"])
        headers.cacheControl = .init(noStore: true)
        return Response(status: .ok, headers: headers, body: .init(string: ServerMetrics.registry.emitToString()))
    }
}

/// Runs `body`, or fails when it takes longer than `limit`.
private func withDeadline<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T)
    async throws -> T
{
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw Abort(.serviceUnavailable)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

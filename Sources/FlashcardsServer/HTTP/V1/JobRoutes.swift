import FlashcardsAPI
import Fluent
import Foundation
import Vapor

/// `/api/v1/jobs/{id}`: progress of background jobs, by polling or as Server-Sent Events.
struct JobRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.job, use: show)
        authed.on(Endpoint.V1.jobEvents, use: events)
        authed.on(Endpoint.V1.cancelJob, use: cancel)
    }

    private func job(_ req: Request) async throws -> JobModel {
        try await JobQueue(store: req.studyStore, now: req.now).find(
            req.parameters.get("jobId"), userId: try req.user.requireID())
    }

    func show(_ req: Request) async throws -> Response {
        try jsonResponse(try await job(req).dto)
    }

    func cancel(_ req: Request) async throws -> Response {
        let queue = JobQueue(store: req.studyStore, now: req.now)
        return try jsonResponse(try await queue.cancel(try await job(req)).dto)
    }

    /// Sends the job as an event whenever it changes, until it has finished. The database is the
    /// source, so any instance can serve the stream of a job another instance runs. Browsers read
    /// it with `fetch` (an `EventSource` cannot send the Authorization header).
    func events(_ req: Request) async throws -> Response {
        let first = try await job(req)
        let jobId = try first.requireID()
        let db = req.db
        return eventStreamResponse { writer in
            var lastSent: Date?
            var lastBeat = Date()
            do {
                while true {
                    guard let job = try await JobModel.find(jobId, on: db) else { break }
                    if lastSent != job.updatedAt {
                        lastSent = job.updatedAt
                        try await writer.writeEvent("progress", job.dto)
                    } else if Date().timeIntervalSince(lastBeat) > 15 {
                        try await writer.writeBuffer(ByteBuffer(string: ": keep-alive\n\n"))
                        lastBeat = Date()
                    }
                    if try job.jobStatus.isFinished { break }
                    try await Task.sleep(nanoseconds: 250_000_000)
                }
                try await writer.write(.end)
            } catch {
                try? await writer.write(.end)
            }
        }
    }
}

import FlashcardsAPI
import Vapor

/// `/api/v1/imports` and `/api/v1/stacks/{id}/export` (`docs/import.md`).
struct ImportRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.previewImport, body: .stream, use: preview)
        authed.on(Endpoint.V1.startImport, body: .stream, use: start)
        authed.on(Endpoint.V1.exportStack, use: export)
    }

    func preview(_ req: Request) async throws -> Response {
        _ = try req.user
        let upload = try await ImportService.readUpload(req)
        return try jsonResponse(try await ImportService.preview(upload, application: req.application))
    }

    func start(_ req: Request) async throws -> Response {
        let user = try req.user
        let upload = try await ImportService.readUpload(req)
        let job = try await ImportJobHandler.enqueue(upload, user: user, context: ServiceContext(req))
        return try jsonResponse(job.dto, status: .accepted)
    }

    func export(_ req: Request) async throws -> Response {
        let context = ServiceContext(req)
        let stack = try await StackService(context: context, user: try req.user).find(req.parameters.get("stackId"))
        let text = req.queryText("format") ?? "csv"
        guard let format = ExportFormat(rawValue: text) else {
            throw AppError.validation("format muss csv, tsv oder apkg sein.")
        }
        guard format == .apkg else {
            return try await ExportService.delimited(stack, format: format, on: context.store.sql)
        }
        let user = try req.user
        let parameters = try await storedParameters(of: user.id!, on: context.store.sql)
        return try await ExportService.anki(
            stack, scheduler: SchedulerCache.scheduler(for: stack, user: user, parameters: parameters), db: req.db,
            now: context.now, threadPool: req.application.threadPool)
    }
}

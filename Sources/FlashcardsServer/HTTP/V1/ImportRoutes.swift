import FlashcardsAPI
import Fluent
import Vapor

/// `/api/v1/imports` and `/api/v1/stacks/{id}/export` (`docs/import.md`).
struct ImportRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.previewImport, body: .stream, use: preview)
        authed.on(Endpoint.V1.startImport, body: .stream, use: start)
        authed.on(Endpoint.V1.exportStack, use: export)
        authed.on(Endpoint.V1.backup, use: backup)
        authed.on(Endpoint.V1.restore, body: .stream, use: restore)
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
        let stack = try await StackService(context: context, user: try req.user).find(
            req.parameters.get("stackId"), preloaded: req.preloadedStack)
        let text = req.queryText("format") ?? "csv"
        guard let format = ExportFormat(rawValue: text) else {
            throw AppError.validation("format muss csv, tsv, apkg oder json sein.")
        }
        if format == .json {
            let document = try await BackupService.stackDocument(stack, store: context.store, now: context.now)
            return try BackupService.response(document, fileName: stack.name, zipped: false)
        }
        guard format == .apkg else {
            return try await ExportService.delimited(stack, format: format, store: context.store)
        }
        let user = try req.user
        let parameters = try await context.store.parameters(of: user.id!)
        return try await ExportService.anki(
            stack, scheduler: SchedulerCache.scheduler(for: stack, user: user, parameters: parameters),
            store: context.store,
            now: context.now, threadPool: req.application.threadPool)
    }

    /// The caller's whole account as a backup: JSON, or zipped (`format=zip`).
    func backup(_ req: Request) async throws -> Response {
        let user = try req.user
        let format = req.queryText("format") ?? "json"
        guard ["json", "zip"].contains(format) else { throw AppError.validation("format muss json oder zip sein.") }
        let now = ServiceContext(req).now
        let document = try await BackupService.accountDocument(of: user, store: req.studyStore, now: now)
        let day = FlashcardsJSON.string(from: now).prefix(10)
        return try BackupService.response(
            document, fileName: "Smart Flashcards Sicherung \(day)", zipped: format == "zip")
    }

    /// Queues the restore of a backup into the caller's account, which must have no stacks (409
    /// otherwise); 415 for a file that is no backup.
    func restore(_ req: Request) async throws -> Response {
        let user = try req.user
        let upload = try await ImportService.readUpload(req, backupOnly: true)
        let context = ServiceContext(req)
        let stacks = try await StackModel.query(on: req.db).filter(\.$userId == user.id!).count()
        guard stacks == 0 else {
            throw AppError.refused(
                "Eine Sicherung lässt sich nur in ein Konto ohne Stapel wiederherstellen. Lösche zuerst die Stapel oder lege ein neues Konto an.",
                code: "account_not_empty")
        }
        let job = try await ImportJobHandler.enqueue(upload, user: user, restore: true, context: context)
        return try jsonResponse(job.dto, status: .accepted)
    }
}

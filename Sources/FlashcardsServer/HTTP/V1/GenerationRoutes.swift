import FlashcardsAPI
import FlashcardsGeneration
import Fluent
import Vapor

/// `/api/v1/stacks/{id}/generations` and `/drafts`: cards from PDFs, photos, text and topics.
struct GenerationRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.on(Endpoint.V1.generationInfo, use: info)
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.startGeneration, body: .stream, use: start)
        authed.on(Endpoint.V1.listDrafts, use: drafts)
        authed.on(Endpoint.V1.acceptDrafts, use: accept)
        authed.on(Endpoint.V1.updateDraft, use: update)
        authed.on(Endpoint.V1.discardDraft, use: discard)
        authed.on(Endpoint.V1.createDraft, use: create)
        authed.on(Endpoint.V1.suggestDraft, use: suggest)
        authed.on(Endpoint.V1.generationSource, use: source)
    }

    private func service(_ req: Request) async throws -> GenerationService {
        let context = ServiceContext(req)
        let stack = try await StackService(context: context, user: try req.user).find(
            req.parameters.get("stackId"), preloaded: req.preloadedStack)
        return GenerationService(context: context, stack: stack)
    }

    /// Public: the page needs it to word itself before anyone signs in (the landing page too).
    func info(_ req: Request) async throws -> Response {
        let llm = req.application.appConfiguration.llm
        return try jsonResponse(
            GenerationInfoDTO(
                generator: llm == nil ? "offline" : "model", model: llm?.model, topics: llm != nil,
                maxUploadBytes: GenerationService.maximumUpload,
                topicBatchSize: llm?.cardsPerChunk ?? LLMConfiguration.defaultCardsPerChunk))
    }

    /// Multipart (`file`, `customInstructions`) for PDFs and photos; JSON (`text` or `topic`) otherwise.
    func start(_ req: Request) async throws -> Response {
        let service = try await service(req)
        let job: JobModel
        if req.headers.contentType?.type == "multipart" {
            let upload = try await GenerationService.readUpload(
                req, instructionsFields: ["customInstructions", "custom-instructions"])
            job = try await service.start(upload: upload, allowed: [.pdf, .png, .jpeg, .text], acceptAll: false)
        } else {
            try req.requireJSONBody()
            let body = try Request.decodeJSON(
                GenerationRequestDTO.self,
                from: try await req.collectBody(limit: 4 * 1_024 * 1_024, tooLarge: Abort(.payloadTooLarge)))
            job = try await service.start(request: body)
        }
        return try jsonResponse(job.dto, status: .accepted)
    }

    func drafts(_ req: Request) async throws -> Response {
        let service = try await service(req)
        var jobId: UUID?
        if let text = req.queryText("jobId") {
            // Present but empty is a mistake of the caller's, not "all drafts".
            guard let id = UUID(exactly: text) else { throw AppError.validation("jobId muss eine UUID sein.") }
            jobId = id
        }
        return try jsonResponse(try await service.drafts(jobId: jobId).map(\.dto))
    }

    func update(_ req: Request) async throws -> Response {
        let service = try await service(req)
        let draft = try await service.draft(req.parameters.get("draftId"))
        let body = try req.decodeBody(UpdateDraftRequest.self)
        return try jsonResponse(try await service.update(draft, question: body.question, answer: body.answer).dto)
    }

    func create(_ req: Request) async throws -> Response {
        let service = try await service(req)
        return try jsonResponse(
            try await service.create(try req.decodeBody(CreateDraftRequest.self)).dto, status: .created)
    }

    func suggest(_ req: Request) async throws -> Response {
        let service = try await service(req)
        let body = try req.decodeBody(DraftSuggestionRequest.self)
        return try jsonResponse(try await service.suggestion(passage: body.passage, jobId: body.jobId))
    }

    func source(_ req: Request) async throws -> Response {
        let service = try await service(req)
        return try jsonResponse(try await service.source(jobId: req.parameters.get("jobId")))
    }

    func discard(_ req: Request) async throws -> Response {
        let service = try await service(req)
        try await service.discard(try await service.draft(req.parameters.get("draftId")))
        return Response(status: .noContent)
    }

    func accept(_ req: Request) async throws -> Response {
        let service = try await service(req)
        let body = req.hasBody ? try req.decodeBody(AcceptDraftsRequest.self) : AcceptDraftsRequest()
        return try jsonResponse(
            AcceptDraftsResponse(accepted: try await service.accept(ids: body.ids, jobId: body.jobId)))
    }
}

/// Compatibility route 13: `POST /stack/{s}/createFromFile`. Runs the same pipeline in the request,
/// creates the cards directly and answers exactly 200 once they exist; when nothing could be made
/// it answers 4xx with a message saying why.
struct CreateFromFileRoute: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.grouped(RequireUserMiddleware())
            .on(Endpoint.Compat.createFromFile, body: .stream, use: createFromFile)
    }

    func createFromFile(_ req: Request) async throws -> Response {
        let context = ServiceContext(req)
        let stack = try await StackService(context: context, user: try req.user).find(
            req.parameters.get("stackId"), preloaded: req.preloadedStack)
        let upload = try await GenerationService.readUpload(req, instructionsFields: ["custom-instructions"])
        let service = GenerationService(context: context, stack: stack)
        let job = try await service.start(upload: upload, allowed: [.pdf], acceptAll: true)
        let jobId = try job.requireID()
        try await req.application.jobWorker.runNow(id: jobId)
        // Another worker may have claimed it first: wait for whoever runs it.
        var finished = try await JobModel.find(jobId, on: req.db)
        let deadline = Date().addingTimeInterval(600)
        while let current = finished, try !current.jobStatus.isFinished, Date() < deadline {
            try await Task.sleep(nanoseconds: 200_000_000)
            finished = try await JobModel.find(jobId, on: req.db)
        }
        guard let finished, finished.status == JobStatus.succeeded.rawValue else {
            let message = finished?.error ?? "Beim magischen Erstellen der Karten ist ein Fehler aufgetreten."
            let code = finished?.errorCode ?? "job_failed"
            if code.hasPrefix("user:") { throw AppError.validation(message) }
            throw AppError.unavailable(message, code: code)
        }
        let outcome = try? FlashcardsJSON.makeDecoder().decode(
            GenerationOutcome.self, from: Data((finished.result ?? "{}").utf8))
        let cardsCreated = outcome?.cardsCreated ?? 0
        return try jsonResponse(
            CreateFromFileResult(message: "\(cardsCreated) Karten erstellt", cardsCreated: cardsCreated))
    }

    /// The answer of route 13: the original clients only look at the status.
    struct CreateFromFileResult: Encodable {
        let message: String
        let cardsCreated: Int
    }
}

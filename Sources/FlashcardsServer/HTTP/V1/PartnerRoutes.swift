import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Foundation
import Vapor

/// `POST /api/v1/stacks/{id}/partner`: the study partner's answer as Server-Sent Events
/// (`sources`, then `delta`s as the model writes, then `done` with the answer as sanitised HTML,
/// or `error`). Refusals come before the stream, as JSON: 400, 404, and 409 `partner_needs_model`
/// on a server without a language model (the learner can bring their own through MCP instead).
struct PartnerRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.grouped(RequireUserMiddleware()).on(Endpoint.V1.askPartner, use: ask)
    }

    func ask(_ req: Request) async throws -> Response {
        let context = ServiceContext(req)
        let user = try req.user
        let stack = try await StackService(context: context, user: user)
            .find(req.parameters.get("stackId"), preloaded: req.preloadedStack)
        let body = try req.decodeBody(PartnerRequest.self)
        let settings = try await LearnerSettingsModel.find(for: try user.requireID(), on: req.db)
        let partner = StudyPartner(context: context, stack: stack, german: settings.language != "en")
        let question = try await partner.question(body)
        guard let llm = context.configuration.llm else {
            throw AppError.refused(
                "Der Lernpartner braucht ein Sprachmodell; auf diesem Server ist keins eingerichtet. "
                    + "Du kannst deinen eigenen KI-Assistenten über MCP verbinden (Einstellungen → KI-Assistenten).",
                code: "partner_needs_model")
        }
        let sources = try await partner.sources(for: question)
        let sourcesEvent = PartnerSourcesEvent(
            sources: sources.map { PartnerSourceDTO(cardId: $0.uniqueId, question: $0.question, answer: $0.answer) })
        // "More cards" answers with a sentence and the job whose drafts the draft editor shows.
        var queued: (jobId: UUID, sentence: String)?
        if question.action == .moreCards {
            let made = try await partner.moreCards(for: question)
            queued = (try made.job.requireID(), made.sentence)
        }
        let more = queued
        let messages = partner.messages(for: question, sources: sources)
        let german = partner.german
        let logger = req.logger

        return eventStreamResponse { writer in
            do {
                try await writer.writeEvent("sources", sourcesEvent)
                var answer = ""
                if let more {
                    answer = more.sentence
                    try await writer.writeEvent("delta", PartnerDeltaEvent(text: answer))
                } else {
                    for try await piece in ChatCompletionClient(configuration: llm).stream(messages: messages) {
                        answer += piece
                        try await writer.writeEvent("delta", PartnerDeltaEvent(text: piece))
                    }
                }
                try await writer.writeEvent(
                    "done", PartnerDoneEvent(html: RichText.html(answer), jobId: more?.jobId))
            } catch {
                logger.warning("study partner: \(String(describing: error))")
                try? await writer.writeEvent(
                    "error",
                    ErrorResponse(
                        message: german
                            ? "Das Sprachmodell antwortet gerade nicht. Versuch es gleich noch einmal."
                            : "The language model is not answering right now. Please try again in a moment.",
                        code: "model_unavailable"))
            }
            try? await writer.write(.end)
        }
    }
}

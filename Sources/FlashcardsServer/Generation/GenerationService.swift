import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Fluent
import Foundation
import Vapor

/// Starting generations and working with their drafts, for both APIs.
struct GenerationService {
    let context: ServiceContext
    let stack: StackModel

    /// The largest upload: 10 MB, as the original.
    static let maximumUpload = 10 * 1_024 * 1_024

    /// An upload read from a multipart body: the file's bytes and the custom instructions.
    struct Upload {
        let data: Data
        let customInstructions: String
    }

    /// Reads a multipart upload while it streams in (413 as soon as it is too large). The file name
    /// is never used.
    static func readUpload(_ req: Request, fileField: String = "file", instructionsFields: [String]) async throws
        -> Upload
    {
        let form = try await MultipartForm.read(req, fileField: fileField, maximumFile: maximumUpload)
        let instructions = instructionsFields.lazy.compactMap { form.text($0) }.first ?? ""
        return Upload(data: form.file, customInstructions: instructions)
    }

    /// Checks the upload's type by its content and queues the generation job.
    func start(upload: Upload, allowed: Set<ContentType>, acceptAll: Bool) async throws -> JobModel {
        let type: ContentType
        do {
            type = try ContentSniffer.sniff(upload.data)
        } catch {
            throw AppError.unsupportedMediaType(error.germanMessage)
        }
        guard allowed.contains(type) else {
            throw AppError.unsupportedMediaType("Es werden ausschließlich PDF-Dateien bis 10 MB angenommen.")
        }
        let instructions = try Validate.optionalText(upload.customInstructions, field: "Die Anweisungen", max: 2_000)
        return try await JobQueue(store: context.store, now: context.now).enqueue(
            kind: GenerationJobHandler.kind, userId: stack.userId,
            payload: GenerationPayload(
                stackId: stack.id!, source: "file", text: nil, customInstructions: instructions, acceptAll: acceptAll),
            input: upload.data)
    }

    /// Queues a generation from pasted text or a topic; `maximumCards` keeps at most that many drafts.
    func start(request: GenerationRequestDTO, maximumCards: Int? = nil) async throws -> JobModel {
        let instructions = try Validate.optionalText(
            request.customInstructions ?? "", field: "Die Anweisungen", max: 2_000)
        let payload: GenerationPayload
        // Checked whenever it is sent, as the document says, though only a topic uses it.
        let depth = request.depth ?? 1
        guard (1...20).contains(depth) else { throw AppError.validation("depth muss zwischen 1 und 20 liegen.") }
        if let topic = request.topic, !TextCheck.trimmed(topic).isEmpty {
            let topic = try Validate.text(topic, field: "Das Thema", max: 200)
            // How this server is set up decides, not the request: 409.
            guard context.configuration.llm != nil else {
                throw AppError.refused(GenerationError.topicNeedsModel.germanMessage, code: "topic_needs_model")
            }
            payload = GenerationPayload(
                stackId: stack.id!, source: "topic", text: topic,
                customInstructions: instructions, acceptAll: false, depth: depth, maximumCards: maximumCards)
        } else if let text = request.text {
            payload = GenerationPayload(
                stackId: stack.id!, source: "text", text: try Validate.text(text, field: "Der Text", max: 2_000_000),
                customInstructions: instructions, acceptAll: false)
        } else {
            throw AppError.validation("Gib einen Text oder ein Thema an.")
        }
        return try await JobQueue(store: context.store, now: context.now).enqueue(
            kind: GenerationJobHandler.kind, userId: stack.userId, payload: payload)
    }

    // MARK: Drafts

    /// The pending drafts of the stack (of one job, if given), in the order they were made.
    func drafts(jobId: UUID?) async throws -> [CardDraftModel] {
        let query = CardDraftModel.query(on: context.db)
            .filter(\.$stackId == stack.id!).filter(\.$status == "pending")
        if let jobId { query.filter(\.$jobId == jobId) }
        return try await query.sort(\.$createdAt).sort(\.$position).all()
    }

    func draft(_ id: String?) async throws -> CardDraftModel {
        guard let id = id.flatMap(UUID.init(uuidString:)),
            let draft = try await CardDraftModel.query(on: context.db)
                .filter(\.$id == id).filter(\.$stackId == stack.id!).filter(\.$status == "pending").first()
        else { throw AppError.notFound("Entwurf nicht gefunden.", code: "draft_not_found") }
        return draft
    }

    func update(_ draft: CardDraftModel, question: String?, answer: String?) async throws -> CardDraftModel {
        if let question {
            draft.question = try Validate.text(question, field: "Die Vorderseite", max: TextLimits.question)
        }
        if let answer { draft.answer = try Validate.text(answer, field: "Die Rückseite", max: TextLimits.answer) }
        try await draft.save(on: context.db)
        return draft
    }

    func discard(_ draft: CardDraftModel) async throws {
        draft.status = "discarded"
        try await draft.save(on: context.db)
    }

    /// Turns drafts into cards in one transaction; hints follow from a hint job.
    func accept(ids: [UUID]?, jobId: UUID?) async throws -> Int {
        var drafts = try await self.drafts(jobId: jobId)
        if let ids {
            let wanted = Set(ids)
            drafts = drafts.filter { wanted.contains($0.id!) }
            guard drafts.count == wanted.count else {
                throw AppError.notFound("Mindestens ein Entwurf wurde nicht gefunden.", code: "draft_not_found")
            }
        }
        guard !drafts.isEmpty else { return 0 }
        let chosen = drafts
        let stack = self.stack
        let now = context.now
        let uuid = context.uuid
        try await context.store.modelTransaction { tx in
            let db = tx.db
            for draft in chosen {
                try await CardModel.accepted(
                    draft, uniqueId: uuid(), stackId: stack.id!, userId: stack.userId, now: now
                )
                .create(on: db)
                draft.status = "accepted"
                try await draft.save(on: db)
            }
        }
        try await HintJobs.enqueueMissing(stackId: stack.id!, userId: stack.userId, store: context.store, now: now)
        return drafts.count
    }
}

extension CardDraftModel {
    var dto: DraftDTO {
        var alternative: DraftAlternativeDTO?
        if let alternativeQuestion, let alternativeAnswer {
            alternative = DraftAlternativeDTO(
                question: alternativeQuestion, answer: alternativeAnswer, kind: alternativeKind ?? "cloze")
        }
        return DraftDTO(
            id: id!, jobId: jobId, question: question, answer: answer, sourcePage: sourcePage, kind: kind,
            status: status, source: sourceText, alternative: alternative, duplicateOf: duplicateOf,
            cardKind: CardKind.ofDraft(question: question, answer: answer))
    }
}

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

    /// The longest passage the rules are asked about.
    static let maximumPassage = 4_000

    /// The rules' card for a passage the learner chose; with the job's language when it is known.
    func suggestion(passage: String, jobId: UUID?) async throws -> DraftSuggestionDTO {
        let passage = try Validate.text(passage, field: "Die Textstelle", max: Self.maximumPassage)
        var language: DocumentLanguage?
        if let jobId, let source = try await sourceRow(jobId) { language = DocumentLanguage(rawValue: source.language) }
        guard let card = TextToCards.suggestion(for: passage, language: language) else {
            return DraftSuggestionDTO(
                question: "", answer: String(passage.prefix(TextLimits.answer)), kind: DraftCard.Kind.manual.rawValue,
                cardKind: .basic)
        }
        return DraftSuggestionDTO(
            question: card.question, answer: card.answer, kind: card.kind.rawValue,
            cardKind: CardKind.ofDraft(question: card.question, answer: card.answer))
    }

    /// A pending draft the learner wrote, after the job's other drafts.
    func create(_ request: CreateDraftRequest) async throws -> CardDraftModel {
        let question = try Validate.text(request.question, field: "Die Vorderseite", max: TextLimits.question)
        let answer = try Validate.text(request.answer, field: "Die Rückseite", max: TextLimits.answer)
        let kind = try request.kind.map { text in
            guard let kind = DraftCard.Kind(rawValue: text) else {
                throw AppError.validation(
                    "kind muss einer von \(DraftCard.Kind.allCases.map(\.rawValue).joined(separator: ", ")) sein.")
            }
            return kind
        }
        if let page = request.sourcePage, page < 1 {
            throw AppError.validation("sourcePage muss mindestens 1 sein.")
        }
        let source = try request.source.map {
            try Validate.text($0, field: "Die Textstelle", max: Self.maximumPassage)
        }
        // Every draft belongs to a generation: the one whose source the passage is from.
        guard let jobId = request.jobId else { throw AppError.validation("jobId fehlt.") }
        _ = try await generationJob(jobId)
        let last = try await CardDraftModel.query(on: context.db).filter(\.$jobId == jobId).max(\.$position)
        let draft = DraftCard(
            question: question, answer: answer, sourcePage: request.sourcePage, kind: kind ?? .manual, source: source)
        let row = CardDraftModel(
            draft, jobId: jobId, userId: stack.userId, stackId: stack.id!, position: (last ?? -1) + 1,
            status: "pending", now: context.now)
        try await row.create(on: context.db)
        return row
    }

    /// The source of one of the stack's generations, each sentence marked with the drafts from it.
    func source(jobId: String?) async throws -> GenerationSourceDTO {
        guard let jobId = jobId.flatMap(UUID.init(uuidString:)) else {
            throw AppError.notFound("Auftrag nicht gefunden.", code: "job_not_found")
        }
        _ = try await generationJob(jobId)
        guard let row = try await sourceRow(jobId) else {
            throw AppError.notFound(
                "Zu diesem Auftrag ist kein Quelltext gespeichert (etwa bei einem Thema).", code: "source_not_found")
        }
        let drafts = try await CardDraftModel.query(on: context.db)
            .filter(\.$jobId == jobId).filter(\.$stackId == stack.id!).filter(\.$status != "discarded")
            .sort(\.$position).all()
        let outline = SourceOutline(cleanedPages: try row.sourcePages()).marked(with: drafts.map(\.sourceText))
        let sections = outline.sections.map { section in
            GenerationSourceDTO.Section(
                title: section.title, covered: section.covered,
                blocks: section.blocks.map { block in
                    GenerationSourceDTO.Block(
                        kind: "\(block.kind)", page: block.page, covered: block.covered,
                        sentences: block.sentences.map { sentence in
                            GenerationSourceDTO.Sentence(
                                text: sentence.text, covered: !sentence.drafts.isEmpty,
                                draftIds: sentence.drafts.map { drafts[$0] }.filter { $0.status == "pending" }
                                    .map { $0.id!.uuidString.lowercased() })
                        })
                })
        }
        return GenerationSourceDTO(
            jobId: jobId, origin: row.origin, language: row.language, sections: sections,
            sectionsWithoutDrafts: outline.sectionsWithoutDrafts().map(\.label))
    }

    /// The stored source of a job of this stack.
    private func sourceRow(_ jobId: UUID) async throws -> GenerationSourceModel? {
        try await GenerationSourceModel.query(on: context.db)
            .filter(\.$id == jobId).filter(\.$stackId == stack.id!).filter(\.$userId == stack.userId).first()
    }

    /// A generation job of the caller's for this stack; 404 otherwise.
    private func generationJob(_ id: UUID) async throws -> JobModel {
        let job = try await JobQueue(store: context.store, now: context.now).find(id.uuidString, userId: stack.userId)
        let payload = try? FlashcardsJSON.makeDecoder().decode(GenerationPayload.self, from: Data(job.payload.utf8))
        guard job.kind == GenerationJobHandler.kind, payload?.stackId == stack.id
        else { throw AppError.notFound("Auftrag nicht gefunden.", code: "job_not_found") }
        return job
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
            cardKind: cardKind, choices: choices)
    }
}

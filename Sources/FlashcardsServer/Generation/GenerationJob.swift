import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Fluent
import Foundation
import Vapor

/// The input of a generation job. Uploaded bytes travel separately (`job_inputs`).
struct GenerationPayload: Codable, Sendable {
    /// The stack's numeric id.
    var stackId: Int
    /// `file`, `text` or `topic`.
    var source: String
    /// The pasted text or the topic name.
    var text: String?
    /// The user's custom instructions; may be empty.
    var customInstructions: String
    /// Create cards at once instead of drafts (compatibility route 13).
    var acceptAll: Bool
    /// For a topic: the batch's level (1 = the basics).
    var depth: Int? = nil
    /// Drafts kept at most (the study partner's "5 more cards"); nil: what the generator makes.
    var maximumCards: Int? = nil
}

/// The result of a generation job.
struct GenerationOutcome: Codable, Sendable {
    var drafts: Int
    var cardsCreated: Int
    var language: String
    var warnings: [String]
    /// Pages read, for PDFs and photos.
    var pages: Int?
    /// Drafts that ask what a card of the stack already asks.
    var duplicates: Int
    /// `offline` or `model`.
    var generator: String
    /// The model's name when a model made the drafts.
    var model: String?
    /// The titles (or first words) of the source's sections no draft came from (absent in the
    /// results of jobs from before it was written).
    var sectionsWithoutCards: [String]? = nil

    /// Writes every field, `null` for absent ones, as everywhere in `/api/v1`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(drafts, forKey: .drafts)
        try container.encode(cardsCreated, forKey: .cardsCreated)
        try container.encode(language, forKey: .language)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(pages, forKey: .pages)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(generator, forKey: .generator)
        try container.encode(model, forKey: .model)
        try container.encode(sectionsWithoutCards ?? [], forKey: .sectionsWithoutCards)
    }
}

/// Runs the generation pipeline for a stack: extraction (poppler, tesseract), the offline
/// generator or the configured language model, then drafts (or cards).
///
/// Drafts are saved as the generator reports them final (`draftsMade`), so the review page shows
/// them while later pages are still read; a job that fails or is cancelled takes its drafts with
/// it. Compatibility route 13 (`acceptAll`) still creates all its cards in one transaction at the end.
struct GenerationJobHandler: JobHandler {
    static let kind = "generation"
    let llm: LLMConfiguration?

    func run(_ job: JobContext) async throws -> String? {
        let payload = try job.payload(GenerationPayload.self)
        guard let stack = try await StackModel.query(on: job.db).filter(\.$id == payload.stackId).first(),
            stack.userId == job.userId
        else { throw JobFailure("Der Stapel existiert nicht mehr.", code: "stack_not_found") }
        var existing = try await CardModel.query(on: job.db)
            .filter(\.$stackId == payload.stackId).sort(\.$id, .descending).limit(5_000).all(\.$question)
        if payload.source == "topic" {
            // A topic feed never repeats a card it proposed before, kept or not.
            existing += try await CardDraftModel.query(on: job.db)
                .filter(\.$stackId == payload.stackId).filter(\.$jobId != job.id)
                .sort(\.$createdAt, .descending).limit(2_000).all(\.$question)
        }
        let pipeline = GenerationPipeline(generator: GenerationPipeline.generator(for: llm))
        // A model writes in the learner's language; the offline rules in the material's (no lookup).
        let cardLanguage =
            llm == nil
            ? nil
            : DocumentLanguage(rawValue: try await LearnerSettingsModel.find(for: job.userId, on: job.db).language)
        var saved = 0
        var pages: Int?

        let result: GenerationResult
        do {
            switch payload.source {
            case "topic":
                try await job.report(JobProgressDTO(stage: "generating", message: "Karteikarten werden generiert …"))
                result = try await pipeline.run(
                    topic: payload.text ?? "", depth: payload.depth ?? 1,
                    customInstructions: payload.customInstructions, existingQuestions: existing,
                    cardLanguage: cardLanguage)
            default:
                let data =
                    payload.source == "text" ? Data((payload.text ?? "").utf8) : (try await job.input() ?? Data())
                var finished: GenerationResult?
                for try await event in pipeline.events(
                    data: data, customInstructions: payload.customInstructions, existingQuestions: existing,
                    cardLanguage: cardLanguage)
                {
                    switch event {
                    case .progress(.draftsMade(let drafts)):
                        guard !payload.acceptAll else { continue }
                        try await save(drafts, from: saved, payload: payload, job: job)
                        saved += drafts.count
                    case .progress(let step):
                        if case .pagesRead(_, let total) = step { pages = total }
                        if case .pagesRecognized(_, let total) = step { pages = total }
                        try await job.report(step.dto(cards: saved))
                    case .finished(let value):
                        finished = value
                    }
                }
                guard let finished else { throw CancellationError() }
                result = finished
            }
        } catch {
            // Also when the job was cancelled: the deletion runs in a task of its own, which the
            // job's cancellation does not reach.
            let db = job.db
            let jobId = job.id
            await Task { try? await CardDraftModel.query(on: db).filter(\.$jobId == jobId).delete() }.value
            if let error = error as? GenerationError {
                throw JobFailure(error.germanMessage, code: error.code, userError: error.isUserError)
            }
            throw error
        }
        let nothingMade = JobFailure(
            GenerationError.nothingGenerated.germanMessage, code: GenerationError.nothingGenerated.code)
        guard !result.cards.isEmpty else { throw nothingMade }

        try await job.report(
            JobProgressDTO(
                stage: "saving", cardsCreated: result.cards.count, message: "\(result.cards.count) Karten erstellt"))
        var remaining = Array(result.cards.dropFirst(saved))
        if let maximum = payload.maximumCards { remaining = Array(remaining.prefix(max(0, maximum - saved))) }
        let created: Int
        if payload.acceptAll {
            // Cards straight into the stack: none it already has.
            let fresh = remaining.filter { $0.duplicateOf == nil }
            guard !fresh.isEmpty else { throw nothingMade }
            try await save(fresh, from: 0, payload: payload, job: job, accepted: true)
            try await HintJobs.enqueueMissing(
                stackId: payload.stackId, userId: job.userId, store: job.store, now: job.now())
            created = fresh.count
        } else {
            try await save(remaining, from: saved, payload: payload, job: job)
            try await saveSource(of: result, payload: payload, job: job)
            created = 0
        }
        try await JobInputModel.query(on: job.db).filter(\.$id == job.id).delete()
        let outcome = GenerationOutcome(
            drafts: result.cards.count, cardsCreated: created, language: result.language.rawValue,
            warnings: result.warnings.map(\.germanText), pages: pages,
            duplicates: result.cards.filter { $0.duplicateOf != nil }.count,
            generator: llm == nil ? "offline" : "model",
            model: llm?.model, sectionsWithoutCards: result.sectionsWithoutCards)
        try await job.report(
            JobProgressDTO(
                stage: "done", cardsCreated: result.cards.count,
                message: payload.acceptAll
                    ? "\(created) Karten erstellt" : "\(result.cards.count) Karten zur Durchsicht erstellt"))
        return String(decoding: try FlashcardsJSON.makeEncoder().encode(outcome), as: UTF8.self)
    }

    /// Keeps the source the drafts came from for the review's source view (not for a topic).
    private func saveSource(of result: GenerationResult, payload: GenerationPayload, job: JobContext) async throws {
        guard let type = result.sourceType, !result.sourcePages.isEmpty else { return }
        try await GenerationSourceModel(
            jobId: job.id, userId: job.userId, stackId: payload.stackId,
            origin: type.isImage ? "image" : type.rawValue, language: result.language.rawValue,
            pages: result.sourcePages, now: job.now()
        ).create(on: job.db)
    }

    /// Saves drafts, numbered on from `first`, in one transaction: pending for review, or
    /// `accepted` together with their cards for route 13.
    private func save(
        _ drafts: [DraftCard], from first: Int, payload: GenerationPayload, job: JobContext, accepted: Bool = false
    ) async throws {
        guard !drafts.isEmpty else { return }
        let now = job.now()
        let jobId = job.id
        let userId = job.userId
        try await job.store.modelTransaction { tx in
            let db = tx.db
            for (offset, draft) in drafts.enumerated() {
                let row = CardDraftModel(
                    draft, jobId: jobId, userId: userId, stackId: payload.stackId, position: first + offset,
                    status: accepted ? "accepted" : "pending", now: now)
                if accepted {
                    try await CardModel.accepted(
                        row, uniqueId: UUID(), stackId: payload.stackId, userId: userId, now: now
                    ).create(on: db)
                }
                try await row.create(on: db)
            }
        }
    }
}

extension GenerationProgress {
    /// The persisted progress of a pipeline step, with the library's German text; `cards` is the
    /// number of drafts made so far.
    func dto(cards: Int) -> JobProgressDTO {
        var made = cards
        if case .cardsMade(let count) = self { made = count }
        return JobProgressDTO(stage: stage, current: current, total: total, cardsCreated: made, message: germanText)
    }
}

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
}

/// The result of a generation job.
struct GenerationOutcome: Codable, Sendable {
    var drafts: Int
    var cardsCreated: Int
    var language: String
    var warnings: [String]
}

/// Runs the generation pipeline for a stack: extraction (poppler, tesseract), the offline
/// generator or the configured language model, then drafts (or cards) in one transaction.
struct GenerationJobHandler: JobHandler {
    static let kind = "generation"
    let llm: LLMConfiguration?

    func run(_ job: JobContext) async throws -> String? {
        let payload = try job.payload(GenerationPayload.self)
        guard let stack = try await StackModel.query(on: job.db).filter(\.$id == payload.stackId).first(),
            stack.userId == job.userId
        else { throw JobFailure("Der Stapel existiert nicht mehr.", code: "stack_not_found") }
        let existing = try await CardModel.query(on: job.db)
            .filter(\.$stackId == payload.stackId).sort(\.$id, .descending).limit(5_000).all(\.$question)
        let pipeline = GenerationPipeline(generator: GenerationPipeline.generator(for: llm))

        let result: GenerationResult
        do {
            switch payload.source {
            case "topic":
                try await job.report(JobProgressDTO(stage: "generating", message: "Karteikarten werden generiert …"))
                result = try await pipeline.run(
                    topic: payload.text ?? "", customInstructions: payload.customInstructions,
                    existingQuestions: existing)
            default:
                let data =
                    payload.source == "text" ? Data((payload.text ?? "").utf8) : (try await job.input() ?? Data())
                var finished: GenerationResult?
                for try await event in pipeline.events(
                    data: data, customInstructions: payload.customInstructions, existingQuestions: existing)
                {
                    switch event {
                    case .progress(let step):
                        try await job.report(step.dto)
                    case .finished(let value):
                        finished = value
                    }
                }
                guard let finished else { throw CancellationError() }
                result = finished
            }
        } catch let error as GenerationError {
            throw JobFailure(error.germanMessage, code: error.code, userError: error.isUserError)
        }
        guard !result.cards.isEmpty else {
            throw JobFailure(
                GenerationError.nothingGenerated.germanMessage, code: GenerationError.nothingGenerated.code)
        }

        try await job.report(
            JobProgressDTO(
                stage: "saving", cardsCreated: result.cards.count, message: "\(result.cards.count) Karten erstellt"))
        let now = job.now()
        let jobId = job.id
        let userId = job.userId
        let created = try await job.db.transaction { db -> Int in
            var created = 0
            for (position, draft) in result.cards.enumerated() {
                let row = CardDraftModel()
                row.id = UUID()
                row.jobId = jobId
                row.userId = userId
                row.stackId = payload.stackId
                row.position = position
                row.question = String(draft.question.prefix(TextLimits.question))
                row.answer = String(draft.answer.prefix(TextLimits.answer))
                row.sourcePage = draft.sourcePage
                row.kind = draft.kind.rawValue
                row.status = payload.acceptAll ? "accepted" : "pending"
                row.createdAt = now
                try await row.create(on: db)
                if payload.acceptAll {
                    try await CardModel(
                        uniqueId: UUID(), stackId: payload.stackId, userId: userId, question: row.question,
                        answer: row.answer, hint: nil, now: now
                    ).create(on: db)
                    created += 1
                }
            }
            try await JobInputModel.query(on: db).filter(\.$id == jobId).delete()
            return created
        }
        if created > 0 {
            try await HintJobs.enqueueMissing(stackId: payload.stackId, userId: userId, db: job.db, now: now)
        }
        let outcome = GenerationOutcome(
            drafts: result.cards.count, cardsCreated: created, language: result.language.rawValue,
            warnings: result.warnings.map(\.germanText))
        try await job.report(
            JobProgressDTO(
                stage: "done", cardsCreated: result.cards.count,
                message: payload.acceptAll
                    ? "\(created) Karten erstellt" : "\(result.cards.count) Karten zur Durchsicht erstellt"))
        return String(decoding: try FlashcardsJSON.makeEncoder().encode(outcome), as: UTF8.self)
    }
}

extension GenerationProgress {
    /// The persisted progress of a pipeline step, with the library's German text.
    var dto: JobProgressDTO {
        var cards = 0
        if case .cardsMade(let count) = self { cards = count }
        return JobProgressDTO(stage: stage, current: current, total: total, cardsCreated: cards, message: germanText)
    }
}

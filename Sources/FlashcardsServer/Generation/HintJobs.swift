import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Fluent
import Foundation
import SQLKit

/// Hints for new and edited cards. Creating or editing a card queues one hint job for its stack
/// (unless one is already waiting); the job fills every card of the stack that has no hint yet.
/// Switching a stack's hints on queues one as well. No periodic scan of all cards.
enum HintJobs {
    struct Payload: Codable, Sendable {
        var stackId: Int
    }

    /// Queues a hint job for the stack unless hints are off for it or a job is already waiting.
    static func enqueueMissing(stackId: Int, userId: UUID, store: any StudyStore, now: Date) async throws {
        let db = store.db
        guard let stack = try await StackModel.find(stackId, on: db), stack.hintsEnabled else { return }
        let waiting = try await JobModel.query(on: db)
            .filter(\.$userId == userId).filter(\.$kind == HintJobHandler.kind).filter(\.$status == "queued")
            .all(\.$payload)
        let payload = Payload(stackId: stackId)
        let encoded = String(decoding: try FlashcardsJSON.makeEncoder().encode(payload), as: UTF8.self)
        guard !waiting.contains(encoded) else { return }
        _ = try await JobQueue(store: store, now: now).enqueue(
            kind: HintJobHandler.kind, userId: userId, payload: payload)
    }

    /// Queues a hint job for the stack when at least one of its cards still waits for a hint (no
    /// hint, and not one the user removed). One query, whatever the size of the stack.
    static func enqueueIfAnyMissing(stack: StackModel, store: any StudyStore, now: Date) async throws {
        let waiting = try await CardModel.query(on: store.db)
            .filter(\.$stackId == stack.id!).filter(\.$hint == nil).filter(\.$hintSource == nil)
            .field(\.$id).first()
        guard waiting != nil else { return }
        try await enqueueMissing(stackId: stack.id!, userId: stack.userId, store: store, now: now)
    }
}

/// Makes the missing hints of one stack, a batch at a time, each card at most once per job.
struct HintJobHandler: JobHandler {
    static let kind = "hint"
    let maker: any HintMaker

    func run(_ job: JobContext) async throws -> String? {
        let payload = try job.payload(HintJobs.Payload.self)
        var done = Set<Int>()
        var made = 0
        while true {
            // Hints switched off after the job was queued (or while it runs): stop, keep what exists.
            guard let stack = try await StackModel.find(payload.stackId, on: job.db), stack.hintsEnabled else { break }
            let cards = try await CardModel.query(on: job.db)
                .filter(\.$stackId == payload.stackId).filter(\.$userId == job.userId)
                .filter(\.$hint == nil).filter(\.$hintSource == nil)
                .sort(\.$id).limit(100).all()
                .filter { !done.contains($0.id!) }
            guard !cards.isEmpty else { break }
            for card in cards {
                done.insert(card.id!)
                let hint = try await maker.hint(question: card.question, answer: card.answer, language: nil)
                // Stored without a "Hinweis:" label and never cut inside a word.
                let clipped = HintText.clipped(HintText.withoutLabel(hint), to: TextLimits.hint)
                guard !clipped.isEmpty else { continue }
                // Only where the card still has no hint: the user may have written one meanwhile.
                try await job.store.jobs.setGeneratedHint(
                    clipped,
                    searchText: CardModel.searchText(question: card.question, answer: card.answer, hint: clipped),
                    onCard: card.id!)
                made += 1
            }
            try await job.report(
                JobProgressDTO(stage: "hints", current: made, message: "\(made) Hinweise erstellt"))
        }
        return #"{"hints":\#(made)}"#
    }
}

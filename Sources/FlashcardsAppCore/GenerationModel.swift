import FlashcardsAPI
import FlashcardsClient
import Foundation
import Observation

/// Cards from pasted text: the job with its progress, then its drafts to accept or discard.
@MainActor @Observable
public final class GenerationModel {
    /// Where the generation stands.
    public enum Phase: Equatable, Sendable {
        /// Nothing started.
        case idle
        /// The job runs; `message` is its German progress text ("Seite 12 von 80 gelesen").
        case running(message: String)
        /// The drafts are ready for review.
        case review
        /// The job failed or was refused; the message says why.
        case failed(String)
    }

    /// Where the generation stands.
    public private(set) var phase: Phase = .idle
    /// The drafts waiting for review.
    public private(set) var drafts: [DraftDTO] = []
    /// Cards made from accepted drafts in this model's life.
    public private(set) var accepted = 0

    private let stackId: UUID
    private let client: FlashcardsClient
    private let pollInterval: TimeInterval
    private var jobId: UUID?

    /// Generation into `stackId`; the job is polled every `pollInterval` seconds.
    public init(stackId: UUID, client: FlashcardsClient, pollInterval: TimeInterval = 0.5) {
        self.stackId = stackId
        self.client = client
        self.pollInterval = pollInterval
    }

    /// Makes drafts from `text` and waits for them, showing the job's progress.
    public func generate(text: String, instructions: String? = nil) async {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            phase = .failed("Füge zuerst einen Text ein.")
            return
        }
        phase = .running(message: JobProgressDTO.queued.message)
        do {
            let job = try await client.startGeneration(
                in: stackId, GenerationRequestDTO(text: text, customInstructions: instructions))
            jobId = job.id
            let done = try await client.waitForJob(job.id, interval: pollInterval) { job in
                let message = job.progress.message
                Task { @MainActor in
                    if case .running = self.phase { self.phase = .running(message: message) }
                }
            }
            jobId = nil
            if done.status == "cancelled" {
                phase = .idle
                return
            }
            guard done.status == "succeeded" else {
                phase = .failed(done.error ?? "Aus diesem Text ließen sich keine Karten machen.")
                return
            }
            drafts = try await client.drafts(in: stackId, jobId: job.id)
            phase = .review
        } catch {
            phase = .failed(UserFacingError.message(for: error))
        }
    }

    /// Whether the running job can be cancelled (the server has taken it).
    public var canCancel: Bool { jobId != nil }

    /// Stops a running generation (the view's "Abbrechen"); the model returns to idle once the
    /// server has stopped the job.
    public func cancel() async {
        guard let jobId, case .running = phase else { return }
        do {
            try await client.cancelJob(jobId)
        } catch {
            phase = .failed(UserFacingError.message(for: error))
        }
    }

    /// Makes cards of the chosen drafts (all when `ids` is nil); the rest stay for later.
    public func accept(_ ids: [UUID]? = nil) async {
        do {
            let answer = try await client.acceptDrafts(in: stackId, ids: ids ?? drafts.map(\.id))
            accepted += answer.accepted
            let taken = Set(ids ?? drafts.map(\.id))
            drafts.removeAll { taken.contains($0.id) }
        } catch {
            phase = .failed(UserFacingError.message(for: error))
        }
    }

    /// Discards one draft.
    public func discard(_ draft: DraftDTO) async {
        do {
            try await client.discardDraft(draft.id, in: stackId)
            drafts.removeAll { $0.id == draft.id }
        } catch {
            phase = .failed(UserFacingError.message(for: error))
        }
    }
}

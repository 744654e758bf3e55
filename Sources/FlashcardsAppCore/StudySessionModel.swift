import FlashcardsAPI
import FlashcardsClient
import Foundation
import Observation

/// Flip-and-rate through a stack's due cards. A rating that cannot reach the server is kept in the
/// ``OfflineReviewQueue`` (with the moment it was made) and the session says it is offline.
@MainActor @Observable
public final class StudySessionModel {
    /// What the screen shows.
    public enum Phase: Equatable, Sendable {
        /// Waiting for the server.
        case loading
        /// A card with its rating options.
        case card(CardDTO, [StudyOptionDTO])
        /// Nothing is due; `nextDueAt` says when the next card is.
        case finished(nextDueAt: Date?)
        /// No connection: the ratings so far are kept and sent later.
        case offline
        /// Something else failed; the message says what.
        case failed(String)
    }

    /// What the screen shows.
    public private(set) var phase: Phase = .loading
    /// Whether the answer side is shown.
    public private(set) var revealed = false
    /// Ratings made in this session (sent or queued).
    public private(set) var reviewed = 0
    /// Cards still due in the stack, as the server counts them.
    public private(set) var dueCount = 0
    /// A rating is being sent.
    public private(set) var isWorking = false

    /// The stack being learned.
    public let stackId: UUID
    private let sender: RatingSender

    /// A session over `stackId` with `client`; offline ratings go to `queue`.
    public init(stackId: UUID, client: FlashcardsClient, queue: OfflineReviewQueue, clock: any AppClock = SystemClock())
    {
        self.stackId = stackId
        sender = RatingSender(stackId: stackId, client: client, queue: queue, clock: clock)
    }

    /// Sends what waits in the queue, then asks for the next card (offline, that fails too, and
    /// the session says so).
    public func start() async {
        phase = .loading
        await sender.sendWaiting()
        do {
            show(try await sender.client.nextCard(in: stackId))
        } catch {
            fail(error)
        }
    }

    /// Shows the answer.
    public func reveal() {
        guard case .card = phase else { return }
        revealed = true
    }

    /// Rates the shown card with one of its options (only once the answer is shown).
    public func rate(_ rating: RatingKey) async {
        guard case .card(let card, let options) = phase, revealed, !isWorking,
            options.contains(where: { $0.rating == rating })
        else { return }
        isWorking = true
        defer { isWorking = false }
        do {
            switch try await sender.rate(card.id, rating, mode: .flashcards) {
            case .sent(let answer):
                reviewed += 1
                show(answer.next)
            case .queued:
                reviewed += 1
                phase = .offline
            }
        } catch {
            fail(error)
        }
    }

    /// The session so far, for its last screen.
    public var summary: SessionSummary {
        sender.summary(reviewed: reviewed, correct: nil)
    }

    private func show(_ next: StudyNextResponse) {
        dueCount = next.dueCount
        revealed = false
        sender.cardShown()
        if let card = next.card {
            phase = .card(card, next.options)
        } else {
            phase = .finished(nextDueAt: next.nextDueAt)
        }
    }

    private func fail(_ error: any Error) {
        phase = StudyFailure.phase(for: error, offline: .offline, failed: Phase.failed)
    }
}

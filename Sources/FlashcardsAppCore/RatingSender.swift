import FlashcardsAPI
import FlashcardsClient
import Foundation

/// How a study session sends a rating: to the server when it can be reached, else into the
/// ``OfflineReviewQueue`` with the moment it was made (the server replays it in order later).
/// Every study mode rates through this one path; it also keeps the session's times (when it began,
/// when the current card was shown).
@MainActor
final class RatingSender {
    /// What became of a rating.
    enum Outcome {
        /// The server has it; its answer carries the next card.
        case sent(RateResponse)
        /// No connection: kept in the queue.
        case queued
    }

    let stackId: UUID
    let client: FlashcardsClient
    let queue: OfflineReviewQueue
    let clock: any AppClock
    private let startedAt: Date
    private var shownAt: Date

    init(stackId: UUID, client: FlashcardsClient, queue: OfflineReviewQueue, clock: any AppClock) {
        self.stackId = stackId
        self.client = client
        self.queue = queue
        self.clock = clock
        startedAt = clock.now
        shownAt = clock.now
    }

    /// Sends the ratings that wait in the queue (before a session shows its first card).
    func sendWaiting() async {
        if queue.pendingCount > 0 { await queue.sync(using: client) }
    }

    /// A new card is on screen: its answer time starts now.
    func cardShown() { shownAt = clock.now }

    /// The session so far: `reviewed` ratings, `correct` of them right, the time since it began.
    func summary(reviewed: Int, correct: Int?) -> SessionSummary {
        SessionSummary(
            reviewed: reviewed, correct: correct, seconds: max(0, Int(clock.now.timeIntervalSince(startedAt))))
    }

    /// Rates `card` (shown since the last ``cardShown()``) in `mode`; the answer time is capped at a
    /// minute, as the web app does. Errors other than a lost connection are thrown.
    func rate(_ card: UUID, _ rating: RatingKey, mode: StudyMode) async throws -> Outcome {
        let reviewId = UUID()
        let reviewedAt = clock.now
        let durationMs = min(60_000, max(0, Int(reviewedAt.timeIntervalSince(shownAt) * 1000)))
        do {
            return .sent(
                try await client.rate(
                    card, in: stackId, rating: rating, reviewId: reviewId, durationMs: durationMs, mode: mode))
        } catch  where UserFacingError.isOffline(error) {
            try queue.enqueue(
                SyncReviewDTO(
                    id: reviewId, cardId: card, rating: rating, reviewedAt: reviewedAt, durationMs: durationMs,
                    mode: mode))
            return .queued
        }
    }
}

/// What a finished session shows: cards reviewed, how many were right (quiz and write), the time.
public struct SessionSummary: Equatable, Sendable {
    /// Ratings made (sent or queued).
    public var reviewed: Int
    /// Answers right on the first try; nil for flip-and-rate, where the learner judges.
    public var correct: Int?
    /// From the first card to now, in seconds.
    public var seconds: Int

    /// A summary of `reviewed` ratings, `correct` of them right, over `seconds`.
    public init(reviewed: Int, correct: Int?, seconds: Int) {
        self.reviewed = reviewed
        self.correct = correct
        self.seconds = seconds
    }

    /// Share of right answers, 0 … 1; nil without answers or for flip-and-rate.
    public var accuracy: Double? {
        guard let correct, reviewed > 0 else { return nil }
        return Double(correct) / Double(reviewed)
    }
}

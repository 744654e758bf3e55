import FlashcardsCore
import Fluent
import Foundation

/// One rating, appended and never changed; it goes only with its card or account.
/// The id is the client's review id when it sent one, which makes retries idempotent.
final class ReviewLogModel: Model, @unchecked Sendable {
    static let schema = "review_logs"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userId: UUID
    @Field(key: "card_id") var cardId: Int
    @Field(key: "stack_id") var stackId: Int
    @Field(key: "reviewed_at") var reviewedAt: Date
    @Field(key: "rating") var rating: Int
    @Field(key: "scheduler") var scheduler: String
    /// The card's schedule before the rating, as JSON (`StateJSON`).
    @Field(key: "state_before") var stateBefore: String
    /// The card's schedule after the rating, as JSON.
    @Field(key: "state_after") var stateAfter: String
    @OptionalField(key: "duration_ms") var durationMs: Int?
    /// `review`, or `undo` for an entry that cancels the review named in `undoes`.
    @Field(key: "kind") var kind: String
    /// For an undo: the review it cancels. Replay skips cancelled reviews.
    @OptionalField(key: "undoes") var undoes: UUID?
    /// Learner days since the card's previous review when the review was recorded (nil for a
    /// first review): statistics count reviews with at least one day as long-term reviews.
    @OptionalField(key: "elapsed_days") var elapsedDays: Int?
    /// The row's number among its card's rows, in arrival order: orders reviews of one card made at
    /// the very same instant (replay order is review time, then `seq`, then id).
    @Field(key: "seq") var seq: Int
    /// The study mode the review was made in (`StudyMode`).
    @Field(key: "mode") var mode: String
    /// The interval in days the load balancer chose for this review (`LoggedReview.balancedDays`).
    @OptionalField(key: "balanced_days") var balancedDays: Int?

    init() {}

    init(
        id: UUID, userId: UUID, cardId: Int, stackId: Int, reviewedAt: Date, rating: StudyRating, durationMs: Int?,
        mode: StudyMode = .flashcards
    ) {
        self.id = id
        self.userId = userId
        self.cardId = cardId
        self.stackId = stackId
        self.reviewedAt = reviewedAt
        self.rating = rating.storedValue
        self.scheduler = rating.scheduler.rawValue
        self.stateBefore = ""
        self.stateAfter = ""
        self.durationMs = durationMs
        self.kind = ReviewLogKind.review.rawValue
        self.mode = mode.rawValue
        self.seq = 0
    }
}

extension ReviewLogModel {
    /// The entry's kind; an unknown stored kind is `UnknownStoredValue`.
    var logKind: ReviewLogKind {
        get throws { try storedValue(ReviewLogKind.self, kind, column: "review_logs.kind") }
    }

    /// The rating as given, under the scheduler it was given with; an unknown scheduler name or
    /// rating is `UnknownStoredValue`.
    var storedRating: StudyRating {
        get throws { try StudyRating.stored(scheduler: scheduler, rating: rating) }
    }

    /// The entry as the replay reads it.
    var logged: LoggedReview {
        get throws {
            LoggedReview(
                id: id!, kind: try logKind, undoes: undoes, rating: try storedRating, reviewedAt: reviewedAt, seq: seq,
                balancedDays: balancedDays)
        }
    }
}

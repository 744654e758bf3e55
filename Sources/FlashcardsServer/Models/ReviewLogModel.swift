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
    /// The card's schedule before the rating, as JSON.
    @Field(key: "state_before") var stateBefore: String
    /// The card's schedule after the rating, as JSON.
    @Field(key: "state_after") var stateAfter: String
    @OptionalField(key: "duration_ms") var durationMs: Int?

    init() {}

    init(
        id: UUID, userId: UUID, cardId: Int, stackId: Int, reviewedAt: Date, rating: Int, scheduler: String,
        stateBefore: String, stateAfter: String, durationMs: Int?
    ) {
        self.id = id
        self.userId = userId
        self.cardId = cardId
        self.stackId = stackId
        self.reviewedAt = reviewedAt
        self.rating = rating
        self.scheduler = scheduler
        self.stateBefore = stateBefore
        self.stateAfter = stateAfter
        self.durationMs = durationMs
    }
}

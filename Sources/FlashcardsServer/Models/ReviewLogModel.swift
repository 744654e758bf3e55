import Fluent
import Foundation
import SQLKit

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
        self.kind = "review"
        self.seq = 0
    }
}

extension ReviewLogModel {
    /// Inserts `logs` with multi-row statements (500 rows each): one statement for a rating instead
    /// of Fluent's reflective per-model insert.
    static func insert(_ logs: [ReviewLogModel], on sql: any SQLDatabase) async throws {
        for start in stride(from: 0, to: logs.count, by: 500) {
            let rows = logs[start..<min(start + 500, logs.count)].map { log -> SQLQueryString in
                """
                (\(bind: log.id!), \(bind: log.userId), \(bind: log.cardId), \(bind: log.stackId), \(bind: log.reviewedAt),
                \(bind: log.rating), \(bind: log.scheduler), \(bind: log.stateBefore), \(bind: log.stateAfter),
                \(bind: log.durationMs), \(bind: log.kind), \(bind: log.undoes), \(bind: log.elapsedDays), \(bind: log.seq))
                """
            }
            try await sql.raw(
                """
                INSERT INTO review_logs (id, user_id, card_id, stack_id, reviewed_at, rating, scheduler, state_before,
                state_after, duration_ms, kind, undoes, elapsed_days, seq) VALUES 
                """ + rows.joined(separator: ", ")
            ).run()
        }
    }
}

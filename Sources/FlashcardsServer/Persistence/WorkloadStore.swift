import FlashcardsCore
import Foundation
import SQLKit

/// The statements of the workload forecast and the retention advice (`WorkloadService`): the cards of
/// FSRS stacks as the simulator starts from them, and the learner's recent answers (rating, time,
/// state), from which it learns how the learner answers.
struct WorkloadStore {
    let store: any StudyStore

    /// A card as the simulator needs it: stack, state, memory, last review and due time.
    struct CardRow: Decodable {
        let stack_id: Int
        let state: String
        let stability: Double?
        let difficulty: Double?
        let last_reviewed_at: Date?
        let due_at: Date
    }

    /// The cards of the stacks `stackIds`.
    func cards(stackIds: [Int]) async throws -> [CardRow] {
        guard !stackIds.isEmpty else { return [] }
        return try await store.bulk.raw(
            """
            SELECT stack_id, state, stability, difficulty, last_reviewed_at, due_at FROM cards
            WHERE stack_id IN (\(binds: stackIds))
            """
        ).allDecodedOffEventLoops(CardRow.self)
    }

    /// The learner's cards in the review queue due in `start` ..< `end`, counted per 15-minute bucket
    /// (`TimeBuckets`): the load the load balancer weighs (`LearnerLoad`).
    func reviewLoad(userId: UUID, from start: Date, to end: Date) async throws -> [(Date, Int)] {
        try await TimeBuckets.counts(
            table: "cards", column: "due_at",
            filter:
                "user_id = \(bind: userId) AND queue = \(literal: CardQueue.review.rawValue) AND due_at >= \(bind: start) AND due_at < \(bind: end)",
            sql: store.sql, bucket: store.bucket("due_at"))
    }

    /// A review card as breaks, postponing and advancing move it (`RescheduleService`).
    struct ReviewCardRow: Decodable {
        let id: Int
        let due_at: Date
        let last_reviewed_at: Date?
        let stability: Double?
    }

    /// The review cards of the stacks `stackIds` due before `end`.
    func reviewCards(stackIds: [Int], dueBefore end: Date) async throws -> [ReviewCardRow] {
        guard !stackIds.isEmpty else { return [] }
        return try await store.bulk.raw(
            """
            SELECT id, due_at, last_reviewed_at, stability FROM cards
            WHERE stack_id IN (\(binds: stackIds)) AND queue = \(literal: CardQueue.review.rawValue)
            AND due_at < \(bind: end)
            """
        ).allDecodedOffEventLoops(ReviewCardRow.self)
    }

    /// One answer of the log: FSRS rating (1 … 4), duration, the card's phase before it (0 learning or
    /// new, 1 review, 2 relearning) and whether it was the card's first answer (no elapsed days).
    struct AnswerRow: Decodable {
        let rating: Int
        let duration_ms: Int?
        let phase: Int
        let first: Int
    }

    /// The user's latest `limit` counted FSRS answers, newest first.
    func recentAnswers(of userId: UUID, limit: Int) async throws -> [AnswerRow] {
        try await store.bulk.raw(
            """
            SELECT rating, duration_ms,
            CASE WHEN state_before LIKE '%"state":"relearning"%' THEN 2
            WHEN state_before LIKE '%"state":"review"%' THEN 1 ELSE 0 END AS phase,
            CASE WHEN elapsed_days IS NULL THEN 1 ELSE 0 END AS first
            FROM review_logs
            WHERE user_id = \(bind: userId) AND kind = 'review' AND scheduler = 'fsrs'
            AND id NOT IN (SELECT undoes FROM review_logs WHERE user_id = \(bind: userId) AND kind = 'undo' AND undoes IS NOT NULL)
            ORDER BY reviewed_at DESC LIMIT \(bind: limit)
            """
        ).allDecodedOffEventLoops(AnswerRow.self)
    }
}

extension StudyStore {
    /// The workload's statements.
    var workload: WorkloadStore { WorkloadStore(store: self) }
}

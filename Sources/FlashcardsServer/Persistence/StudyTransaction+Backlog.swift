import FlashcardsCore
import Foundation
import SQLKit

/// A review card as `BacklogSpreader` ranks it.
struct BacklogCard: Decodable {
    let id: Int
    let stability: Double?
    let difficulty: Double?
    let lastReviewedAt: Date?
    let due: Date

    enum CodingKeys: String, CodingKey {
        case id, stability, difficulty
        case lastReviewedAt = "last_reviewed_at"
        case due = "due_at"
    }
}

/// The statements of `BacklogSpreader`, in its write transaction.
extension StudyTransaction {
    /// Claims learner day `day` for the stack's spread; false when it was claimed already.
    func claimSpreadDay(_ day: Int, stackId: Int) async throws -> Bool {
        let unclaimed: SQLQueryString = "(spread_day IS NULL OR spread_day <> \(bind: day))"
        return try await !sql.update("stacks").set("spread_day", to: day)
            .where("id", .equal, stackId).where(unclaimed)
            .returning("id").all().isEmpty
    }

    /// Review cards of the stack due before `end`.
    func reviewCount(stackId: Int, dueBefore end: Date) async throws -> Int {
        try await sql.raw(
            """
            SELECT COUNT(*) AS n FROM cards WHERE stack_id = \(bind: stackId) AND queue = \(literal: CardQueue.review.rawValue)
            AND due_at < \(bind: end)
            """
        ).first(decoding: CountRow.self)?.n ?? 0
    }

    /// The memory state of the stack's review cards due before `end`.
    func reviewPool(stackId: Int, dueBefore end: Date) async throws -> [BacklogCard] {
        try await sql.raw(
            """
            SELECT id, stability, difficulty, last_reviewed_at, due_at FROM cards
            WHERE stack_id = \(bind: stackId) AND queue = \(literal: CardQueue.review.rawValue) AND due_at < \(bind: end)
            """
        ).all(decoding: BacklogCard.self)
    }

    /// Review cards of the stack due in `start ..< end`, per 15-minute bucket.
    func reviewLoad(stackId: Int, from start: Date, to end: Date) async throws -> [(Date, Int)] {
        try await TimeBuckets.counts(
            table: "cards", column: "due_at",
            filter:
                "stack_id = \(bind: stackId) AND queue = \(literal: CardQueue.review.rawValue) AND due_at >= \(bind: start) AND due_at < \(bind: end)",
            sql: sql, bucket: bucket("due_at"))
    }

    /// Sets `due_at` of `ids` to `start`, `start + 1 s`, … in one statement per 200 cards.
    func setDue(_ ids: [Int], from start: Date) async throws {
        var index = 0
        while index < ids.count {
            let chunk = Array(ids[index..<min(index + 200, ids.count)])
            var cases: SQLQueryString = "CASE id"
            for (offset, id) in chunk.enumerated() {
                let due = start.addingTimeInterval(Double(index + offset))
                cases.appendInterpolation(" WHEN \(literal: id) THEN \(bind: due)" as SQLQueryString)
            }
            cases.appendLiteral(" END")
            try await sql.raw("UPDATE cards SET due_at = \(cases) WHERE id IN (\(binds: chunk))").run()
            index += chunk.count
        }
    }
}

import Fluent
import SQLKit

/// Frozen: the FSRS memory state on the card, and what next-card needs to honour the daily limits
/// with index seeks: `queue` (0 new, 1 learning/relearning, 2 review) leads the index
/// `cards_stack_queue_due (stack_id, queue, due_at, id)`, so "the next due review card" is one seek
/// whatever the stack's size; `cards_stack_last_review (stack_id, last_reviewed_at)` counts the
/// cards studied today. Existing (ladder) cards are backfilled from their review log.
struct UpdateCardAddMemoryState: AsyncMigration {
    var name: String { "002_UpdateCardAddMemoryState" }

    func prepare(on database: any Database) async throws {
        let columns: [(String, DatabaseSchema.DataType, [DatabaseSchema.FieldConstraint])] = [
            ("queue", .int, [.required, .sql(.default(0))]),
            ("state", .string, [.required, .sql(.default("new"))]),
            ("step", .int, []),
            ("stability", .double, []),
            ("difficulty", .double, []),
            ("first_reviewed_at", .datetime, []),
            ("last_reviewed_at", .datetime, []),
        ]
        for (name, type, constraints) in columns {
            try await database.schema("cards").field(
                .definition(name: .key(.string(name)), dataType: type, constraints: constraints)
            ).update()
        }
        let sql = database.sql
        // Ladder cards: reviewed ones count as learning below level 4 (intervals under a day), else review.
        try await sql.raw(
            """
            UPDATE cards SET
                first_reviewed_at = (SELECT MIN(r.reviewed_at) FROM review_logs r WHERE r.card_id = cards.id),
                last_reviewed_at = (SELECT MAX(r.reviewed_at) FROM review_logs r WHERE r.card_id = cards.id),
                state = CASE WHEN review_count = 0 THEN 'new' WHEN level < 4 THEN 'learning' ELSE 'review' END,
                queue = CASE WHEN review_count = 0 THEN 0 WHEN level < 4 THEN 1 ELSE 2 END
            """
        ).run()
        try await sql.create(index: "cards_stack_queue_due").on("cards")
            .column("stack_id").column("queue").column("due_at").column("id").run()
        try await sql.create(index: "cards_stack_last_review").on("cards")
            .column("stack_id").column("last_reviewed_at").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        try await sql.drop(index: "cards_stack_queue_due").run()
        try await sql.drop(index: "cards_stack_last_review").run()
        for name in ["queue", "state", "step", "stability", "difficulty", "first_reviewed_at", "last_reviewed_at"] {
            try await database.schema("cards").deleteField(.string(name)).update()
        }
    }
}

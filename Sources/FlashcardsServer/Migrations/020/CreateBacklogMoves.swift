import Fluent
import SQLKit

/// Frozen: the cards a backlog spread moved (`BacklogSpreader`), with the due time they had before
/// and the one the spread gave them, so that a changed daily limit can put them back and spread
/// again. A row whose card's due time is no longer `moved_to` is stale (the card was rated or
/// recomputed since) and is never applied.
struct CreateBacklogMoves: AsyncMigration {
    var name: String { "020_CreateBacklogMoves" }

    func prepare(on database: any Database) async throws {
        // The same column types as `cards.due_at`, so that `moved_to = cards.due_at` compares alike.
        try await database.schema("backlog_moves")
            .field("card_id", .int, .identifier(auto: false), .references("cards", "id", onDelete: .cascade))
            .field("stack_id", .int, .required, .references("stacks", "id", onDelete: .cascade))
            .field("scheduled_due_at", .datetime, .required)
            .field("moved_to", .datetime, .required)
            .create()
        try await database.sql.create(index: "backlog_moves_stack").on("backlog_moves").column("stack_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("backlog_moves").delete()
    }
}

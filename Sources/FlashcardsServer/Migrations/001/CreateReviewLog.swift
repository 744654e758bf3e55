import Fluent
import SQLKit

/// Frozen: the append-only review log.
struct CreateReviewLog: AsyncMigration {
    var name: String { "001_CreateReviewLog" }

    func prepare(on database: any Database) async throws {
        try await database.schema("review_logs")
            .id()
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("card_id", .int, .required, .references("cards", "id", onDelete: .cascade))
            .field("stack_id", .int, .required, .references("stacks", "id", onDelete: .cascade))
            .field("reviewed_at", .datetime, .required)
            .field("rating", .int, .required)
            .field("scheduler", .string, .required)
            .field("state_before", .string, .required)
            .field("state_after", .string, .required)
            .field("duration_ms", .int)
            .create()
        let sql = database.sql
        try await sql.create(index: "review_logs_card").on("review_logs").column("card_id").column("reviewed_at").run()
        try await sql.create(index: "review_logs_user").on("review_logs").column("user_id").column("reviewed_at").run()
        try await sql.create(index: "review_logs_stack").on("review_logs").column("stack_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("review_logs").delete()
    }
}

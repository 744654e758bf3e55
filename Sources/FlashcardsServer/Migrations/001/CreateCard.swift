import Fluent
import SQLKit

/// Frozen: cards with their ladder schedule. `cards_stack_due` serves the next-card query
/// (`stack_id = ? AND due_at < ? ORDER BY due_at, id LIMIT 1`) as one index seek.
struct CreateCard: AsyncMigration {
    var name: String { "001_CreateCard" }

    func prepare(on database: any Database) async throws {
        try await database.schema("cards")
            .field("id", .int, .identifier(auto: true))
            .field("unique_id", .uuid, .required)
            .field("stack_id", .int, .required, .references("stacks", "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("question", .string, .required)
            .field("answer", .string, .required)
            .field("hint", .string)
            .field("search_text", .string, .required)
            .field("due_at", .datetime, .required)
            .field("level", .int, .required)
            .field("review_count", .int, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "unique_id")
            .create()
        let sql = database.sql
        try await sql.create(index: "cards_stack_due").on("cards").column("stack_id").column("due_at").column("id")
            .run()
        try await sql.create(index: "cards_stack_id").on("cards").column("stack_id").column("id").run()
        try await sql.create(index: "cards_user_id").on("cards").column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("cards").delete()
    }
}

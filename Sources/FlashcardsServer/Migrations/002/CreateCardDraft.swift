import Fluent
import SQLKit

/// Frozen: generated cards waiting for the user to accept, edit or discard them.
struct CreateCardDraft: AsyncMigration {
    var name: String { "002_CreateCardDraft" }

    func prepare(on database: any Database) async throws {
        try await database.schema("card_drafts")
            .id()
            .field("job_id", .uuid, .required, .references("jobs", "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("stack_id", .int, .required, .references("stacks", "id", onDelete: .cascade))
            .field("position", .int, .required)
            .field("question", .string, .required)
            .field("answer", .string, .required)
            .field("hint", .string)
            .field("source_page", .int)
            .field("kind", .string, .required)
            .field("status", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
        try await database.sql.create(index: "card_drafts_stack")
            .on("card_drafts").column("stack_id").column("status").column("position").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("card_drafts").delete()
    }
}

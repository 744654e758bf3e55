import Fluent

/// Frozen: the source of a generation as the rules read it (cleaned pages as JSON), so that the
/// draft review shows it beside the drafts with what became a draft marked (`docs/generation.md`).
/// It goes with its job, its stack or its learner.
struct CreateGenerationSources: AsyncMigration {
    var name: String { "023_CreateGenerationSources" }

    func prepare(on database: any Database) async throws {
        try await database.schema("generation_sources")
            .field("job_id", .uuid, .identifier(auto: false), .references("jobs", "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("stack_id", .int, .required, .references("stacks", "id", onDelete: .cascade))
            .field("origin", .string, .required)
            .field("language", .string, .required)
            .field("pages", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("generation_sources").delete()
    }
}

import Fluent

/// Frozen: the source of a generation as the rules read it (cleaned pages as JSON), so that the
/// draft review shows it beside the drafts with what became a draft marked (`docs/generation.md`).
/// It goes with its job, its stack or its learner. A draft a model made keeps the kind of card it
/// becomes (`card_kind`: multiple choice, true/false, …) and a multiple-choice draft its wrong
/// options (`choices`, JSON).
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
        // SQLite adds one column per statement.
        try await database.schema("card_drafts").field("card_kind", .string).update()
        try await database.schema("card_drafts").field("choices", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("card_drafts").deleteField("choices").update()
        try await database.schema("card_drafts").deleteField("card_kind").update()
        try await database.schema("generation_sources").delete()
    }
}

import Fluent
import SQLKit

/// Frozen: the public catalogue. An entry is a published stack (one per stack) with its category,
/// language and a search text (name and description, lowercased); `hidden_at` is the operator's
/// verdict on a report. A report hides the entry for its reporter at once and waits in
/// `catalogue_reports` for the operator.
struct CreateCatalogue: AsyncMigration {
    var name: String { "017_CreateCatalogue" }

    func prepare(on database: any Database) async throws {
        try await database.schema("catalogue_entries")
            .field("id", .uuid, .identifier(auto: false))
            .field("stack_id", .int, .required, .references("stacks", "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("category", .string, .required)
            .field("language", .string, .required)
            .field("search_text", .string, .required)
            .field("official", .bool, .required)
            .field("published_at", .datetime, .required)
            .field("hidden_at", .datetime)
            .unique(on: "stack_id")
            .create()
        try await database.sql.create(index: "catalogue_entries_listing").on("catalogue_entries")
            .column("hidden_at").column("category").column("published_at").run()
        try await database.schema("catalogue_reports")
            .field("entry_id", .uuid, .required, .references("catalogue_entries", "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("reason", .string, .required)
            .field("note", .string)
            .field("created_at", .datetime, .required)
            .field("resolved_at", .datetime)
            .unique(on: "entry_id", "user_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("catalogue_reports").delete()
        try await database.schema("catalogue_entries").delete()
    }
}

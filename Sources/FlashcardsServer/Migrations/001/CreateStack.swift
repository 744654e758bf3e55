import Fluent
import SQLKit

/// Frozen: stacks, each owned by one user.
struct CreateStack: AsyncMigration {
    var name: String { "001_CreateStack" }

    func prepare(on database: any Database) async throws {
        try await database.schema("stacks")
            .field("id", .int, .identifier(auto: true))
            .field("unique_id", .uuid, .required)
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("color", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "unique_id")
            .create()
        try await database.sql.create(index: "stacks_user_id")
            .on("stacks").column("user_id").column("id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("stacks").delete()
    }
}

import Fluent
import SQLKit

/// Frozen: read-only links to a stack (`/app/shared/<token>`). The token is the key; a revoked
/// link keeps its row with `revoked_at`, so it never comes back to life.
struct CreateShareLinks: AsyncMigration {
    var name: String { "016_CreateShareLinks" }

    func prepare(on database: any Database) async throws {
        try await database.schema("share_links")
            .field("token", .string, .identifier(auto: false))
            .field("stack_id", .int, .required, .references("stacks", "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .field("revoked_at", .datetime)
            .create()
        try await database.sql.create(index: "share_links_stack").on("share_links").column("stack_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("share_links").delete()
    }
}

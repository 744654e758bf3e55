import Fluent
import SQLKit

/// Frozen: password reset links. Only the SHA-256 of a link's token is stored (hex); a row is
/// spent (`used_at`) by its use or by a newer request of the same account.
struct CreatePasswordReset: AsyncMigration {
    var name: String { "010_CreatePasswordReset" }

    func prepare(on database: any Database) async throws {
        try await database.schema("password_resets")
            .id()
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .field("used_at", .datetime)
            .unique(on: "token_hash")
            .create()
        try await database.sql.create(index: "password_resets_user").on("password_resets").column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("password_resets").delete()
    }
}

import Fluent
import SQLKit

/// Frozen: personal access tokens (`AccessTokenService`, `docs/mcp.md`). A token row keeps the
/// SHA-256 of its secret (the secret is random, so a fast hash is enough), its scopes (`read` or
/// `read write`), when it expires, was last used and was revoked; an event row is one thing a token
/// did (an MCP tool or an API write) with what it touched, counted (`counts`, a JSON object). A
/// draft remembers the card it became (`card_id`), so a card can name its source sentence.
struct CreateAccessTokens: AsyncMigration {
    var name: String { "022_CreateAccessTokens" }

    func prepare(on database: any Database) async throws {
        try await database.schema("access_tokens")
            .id()
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("scopes", .string, .required)
            .field("token_hash", .string, .required)
            .field("prefix", .string, .required)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime)
            .field("last_used_at", .datetime)
            .field("revoked_at", .datetime)
            .unique(on: "token_hash")
            .create()
        try await database.sql.create(index: "access_tokens_user").on("access_tokens").column("user_id").run()
        try await database.schema("access_token_events")
            .id()
            .field("token_id", .uuid, .required, .references("access_tokens", "id", onDelete: .cascade))
            .field("at", .datetime, .required)
            .field("action", .string, .required)
            .field("via", .string, .required)
            .field("counts", .string, .required)
            .create()
        try await database.sql.create(index: "access_token_events_token_at").on("access_token_events")
            .column("token_id").column("at").run()
        try await database.schema("card_drafts").field("card_id", .uuid).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("card_drafts").deleteField("card_id").update()
        try await database.schema("access_token_events").delete()
        try await database.schema("access_tokens").delete()
    }
}

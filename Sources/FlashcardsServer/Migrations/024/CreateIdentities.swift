import Fluent
import SQLKit

/// Frozen: sign-in with OpenID Connect (docs/oidc.md). `user_identities` links a provider's
/// subject to an account; `oidc_logins` holds a started sign-in (its state, nonce and PKCE
/// verifier) until the provider sends the learner back; `oidc_results` holds a finished one until
/// the web app fetches its session with a one-time code (or the learner confirms a link with the
/// account's password). `users.password_set` is false for an account made by a provider's sign-in,
/// whose password nobody knows.
struct CreateIdentities: AsyncMigration {
    var name: String { "024_CreateIdentities" }

    func prepare(on database: any Database) async throws {
        try await database.schema("user_identities")
            .id()
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("provider", .string, .required)
            .field("subject", .string, .required)
            .field("mail", .string)
            .field("created_at", .datetime, .required)
            .unique(on: "provider", "subject")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.raw("CREATE INDEX user_identities_user ON user_identities (user_id)").run()
        }
        try await database.schema("oidc_logins")
            .id()
            .field("state_hash", .string, .required)
            .field("provider", .string, .required)
            .field("nonce", .string, .required)
            .field("verifier", .string, .required)
            .field("expires_at", .datetime, .required)
            .unique(on: "state_hash")
            .create()
        try await database.schema("oidc_results")
            .id()
            .field("code_hash", .string, .required)
            .field("provider", .string, .required)
            .field("subject", .string, .required)
            .field("mail", .string)
            .field("user_id", .uuid, .references("users", "id", onDelete: .cascade))
            .field("link_user_id", .uuid, .references("users", "id", onDelete: .cascade))
            .field("expires_at", .datetime, .required)
            .unique(on: "code_hash")
            .create()
        try await database.schema("users").field("password_set", .bool, .required, .sql(.default(true))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("users").deleteField("password_set").update()
        try await database.schema("oidc_results").delete()
        try await database.schema("oidc_logins").delete()
        try await database.schema("user_identities").delete()
    }
}

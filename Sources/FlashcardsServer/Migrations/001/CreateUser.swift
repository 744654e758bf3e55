import Fluent

/// Frozen: accounts.
struct CreateUser: AsyncMigration {
    var name: String { "001_CreateUser" }

    func prepare(on database: any Database) async throws {
        try await database.schema("users")
            .id()
            .field("name", .string, .required)
            .field("mail", .string, .required)
            .field("mail_key", .string, .required)
            .field("password_hash", .string, .required)
            .field("time_zone", .string, .required)
            .field("token_version", .int, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "mail_key")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("users").delete()
    }
}

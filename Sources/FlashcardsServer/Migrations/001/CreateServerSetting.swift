import Fluent

/// Frozen: server-wide settings (the generated token secret).
struct CreateServerSetting: AsyncMigration {
    var name: String { "001_CreateServerSetting" }

    func prepare(on database: any Database) async throws {
        try await database.schema("server_settings")
            .field("key", .string, .identifier(auto: false))
            .field("value", .string, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("server_settings").delete()
    }
}

import Fluent
import SQLKit

/// Frozen: failed logins for the rate limit.
struct CreateLoginFailure: AsyncMigration {
    var name: String { "001_CreateLoginFailure" }

    func prepare(on database: any Database) async throws {
        try await database.schema("login_failures")
            .id()
            .field("key", .string, .required)
            .field("failed_at", .datetime, .required)
            .create()
        try await database.sql.create(index: "login_failures_key")
            .on("login_failures").column("key").column("failed_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("login_failures").delete()
    }
}

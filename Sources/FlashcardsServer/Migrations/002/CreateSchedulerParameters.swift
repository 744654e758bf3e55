import Fluent

/// Frozen: a user's fitted FSRS parameters (one row per user; absent means the defaults).
struct CreateSchedulerParameters: AsyncMigration {
    var name: String { "002_CreateSchedulerParameters" }

    func prepare(on database: any Database) async throws {
        try await database.schema("scheduler_parameters")
            .field("user_id", .uuid, .identifier(auto: false), .references("users", "id", onDelete: .cascade))
            .field("parameters", .string, .required)
            .field("optimized_at", .datetime, .required)
            .field("log_loss", .double)
            .field("default_log_loss", .double)
            .field("reviews", .int)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("scheduler_parameters").delete()
    }
}

import Fluent
import SQLKit

/// Frozen: persisted background jobs (card generation, hints, parameter optimization).
struct CreateJob: AsyncMigration {
    var name: String { "002_CreateJob" }

    func prepare(on database: any Database) async throws {
        try await database.schema("jobs")
            .id()
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("status", .string, .required)
            .field("payload", .string, .required)
            .field("progress", .string, .required)
            .field("result", .string)
            .field("error", .string)
            .field("error_code", .string)
            .field("attempts", .int, .required)
            .field("cancel_requested", .bool, .required)
            .field("locked_by", .string)
            .field("locked_until", .datetime)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .field("finished_at", .datetime)
            .create()
        let sql = database.sql
        try await sql.create(index: "jobs_claim").on("jobs").column("status").column("created_at").run()
        try await sql.create(index: "jobs_user").on("jobs").column("user_id").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("jobs").delete()
    }
}

/// Frozen: large job inputs (uploaded files), kept in the database so any instance can run the job.
struct CreateJobInput: AsyncMigration {
    var name: String { "002_CreateJobInput" }

    func prepare(on database: any Database) async throws {
        try await database.schema("job_inputs")
            .field("job_id", .uuid, .identifier(auto: false), .references("jobs", "id", onDelete: .cascade))
            .field("data", .data, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("job_inputs").delete()
    }
}

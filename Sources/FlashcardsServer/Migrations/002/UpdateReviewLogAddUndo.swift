import Fluent
import SQLKit

/// Frozen: undo without deleting from the append-only log. An undo is a row of its own
/// (`kind = 'undo'`, `undoes` = the review it cancels); replay skips cancelled reviews.
/// `elapsed_days` (learner days since the card's previous review, null for a first review) lets
/// statistics find long-term reviews in SQL. `seq` numbers a card's rows in arrival order: replay
/// orders by review time, and only reviews of the same card at the very same instant fall back to
/// it (then to the id). `review_logs_stack_time` serves per-stack statistics.
struct UpdateReviewLogAddUndo: AsyncMigration {
    var name: String { "002_UpdateReviewLogAddUndo" }

    func prepare(on database: any Database) async throws {
        let columns: [(String, DatabaseSchema.DataType, [DatabaseSchema.FieldConstraint])] = [
            ("kind", .string, [.required, .sql(.default("review"))]),
            ("undoes", .uuid, []),
            ("elapsed_days", .int, []),
            ("seq", .int, [.required, .sql(.default(0))]),
        ]
        for (name, type, constraints) in columns {
            try await database.schema("review_logs").field(
                .definition(name: .key(.string(name)), dataType: type, constraints: constraints)
            ).update()
        }
        let sql = database.sql
        try await sql.create(index: "review_logs_undoes").on("review_logs").column("undoes").run()
        try await sql.create(index: "review_logs_stack_time").on("review_logs").column("stack_id").column("reviewed_at")
            .run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        try await sql.drop(index: "review_logs_undoes").run()
        try await sql.drop(index: "review_logs_stack_time").run()
        for name in ["kind", "undoes", "elapsed_days", "seq"] {
            try await database.schema("review_logs").deleteField(.string(name)).update()
        }
    }
}

import Fluent
import SQLKit

/// On SQLite each FSRS queue gets its own partial index, `(stack_id, due_at, id) WHERE queue = n`
/// (`cards_new_due`, `cards_learning_due`, `cards_review_due`), in place of
/// `cards_stack_queue_due (stack_id, queue, due_at, id)`. Every card is in exactly one of them, so
/// they hold what the one index held; but a seek or a count in a queue now compares two key columns
/// instead of three, as the ladder's `cards_stack_due` does (fewer instructions under callgrind,
/// docs/benchmarks.md).
///
/// PostgreSQL keeps `cards_stack_queue_due`: its next-card statement is prepared once with the queue
/// as a value (`LATERAL` over the queue numbers), and a generic plan cannot choose a partial index
/// by a value it does not know.
struct UpdateCardIndexEachQueue: AsyncMigration {
    var name: String { "006_UpdateCardIndexEachQueue" }

    /// The partial indexes by queue number.
    static let indexes: [(name: String, queue: Int)] = [
        ("cards_new_due", 0), ("cards_learning_due", 1), ("cards_review_due", 2),
    ]

    func prepare(on database: any Database) async throws {
        let sql = database.sql
        guard sql.dialect.name == "sqlite" else { return }
        for (name, queue) in Self.indexes {
            try await sql.raw(
                "CREATE INDEX \(ident: name) ON cards (stack_id, due_at, id) WHERE queue = \(literal: queue)"
            ).run()
        }
        try await sql.drop(index: "cards_stack_queue_due").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        guard sql.dialect.name == "sqlite" else { return }
        try await sql.create(index: "cards_stack_queue_due").on("cards")
            .column("stack_id").column("queue").column("due_at").column("id").run()
        for (name, _) in Self.indexes {
            try await sql.drop(index: name).run()
        }
    }
}

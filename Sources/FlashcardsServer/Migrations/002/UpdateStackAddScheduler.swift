import Fluent
import SQLKit

/// Frozen: per-stack scheduler settings. Existing stacks keep the original ladder; the FSRS settings
/// get Anki's defaults (retention 0.90, steps 1 min + 10 min / 10 min, 20 new cards and 200 reviews a
/// day). `spread_day` remembers the learner day on which the backlog was last spread.
struct UpdateStackAddScheduler: AsyncMigration {
    var name: String { "002_UpdateStackAddScheduler" }

    func prepare(on database: any Database) async throws {
        // SQLite adds one column per ALTER TABLE, so every column is its own update.
        let columns: [(String, DatabaseSchema.DataType, [DatabaseSchema.FieldConstraint])] = [
            ("scheduler", .string, [.required, .sql(.default("ladder"))]),
            ("desired_retention", .double, [.required, .sql(.default(0.9))]),
            ("learning_steps", .string, [.required, .sql(.default("60,600"))]),
            ("relearning_steps", .string, [.required, .sql(.default("600"))]),
            ("new_cards_per_day", .int, [.required, .sql(.default(20))]),
            ("reviews_per_day", .int, [.required, .sql(.default(200))]),
            ("spread_day", .int, []),
        ]
        for (name, type, constraints) in columns {
            try await database.schema("stacks").field(
                .definition(name: .key(.string(name)), dataType: type, constraints: constraints)
            ).update()
        }
    }

    func revert(on database: any Database) async throws {
        for name in [
            "scheduler", "desired_retention", "learning_steps", "relearning_steps", "new_cards_per_day",
            "reviews_per_day", "spread_day",
        ] {
            try await database.schema("stacks").deleteField(.string(name)).update()
        }
    }
}

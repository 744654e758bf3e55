import Fluent

/// Frozen: a stack keeps the counts its FSRS daily limits need (cards reviewed since the start of
/// the learner's day, and of those the new ones) instead of counting them on every next-card
/// request; `reviewed_since` is the moment they count from, NULL until the first rating recounts.
struct UpdateStackAddDayCounts: AsyncMigration {
    var name: String { "004_UpdateStackAddDayCounts" }

    func prepare(on database: any Database) async throws {
        // SQLite adds one column per ALTER TABLE, so every column is its own update.
        let columns: [(String, DatabaseSchema.DataType, [DatabaseSchema.FieldConstraint])] = [
            ("reviewed_since", .datetime, []),
            ("reviewed_today", .int, [.required, .sql(.default(0))]),
            ("fresh_today", .int, [.required, .sql(.default(0))]),
        ]
        for (name, type, constraints) in columns {
            try await database.schema("stacks").field(
                .definition(name: .key(.string(name)), dataType: type, constraints: constraints)
            ).update()
        }
    }

    func revert(on database: any Database) async throws {
        for name in ["reviewed_since", "reviewed_today", "fresh_today"] {
            try await database.schema("stacks").deleteField(.string(name)).update()
        }
    }
}

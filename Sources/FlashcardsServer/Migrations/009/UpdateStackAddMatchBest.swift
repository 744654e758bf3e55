import Fluent

/// Frozen: the best time of the match game on a stack, in milliseconds (null until a first game).
struct UpdateStackAddMatchBest: AsyncMigration {
    var name: String { "009_UpdateStackAddMatchBest" }

    func prepare(on database: any Database) async throws {
        try await database.schema("stacks").field("match_best_ms", .int).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("stacks").deleteField("match_best_ms").update()
    }
}

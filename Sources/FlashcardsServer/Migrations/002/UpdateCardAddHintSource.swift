import Fluent

/// Frozen: who wrote a card's hint (`user` or `generated`), and whether a stack gets hints.
struct UpdateCardAddHintSource: AsyncMigration {
    var name: String { "002_UpdateCardAddHintSource" }

    func prepare(on database: any Database) async throws {
        try await database.schema("cards").field("hint_source", .string).update()
        try await database.schema("stacks").field("hints_enabled", .bool, .required, .sql(.default(true))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("stacks").deleteField("hints_enabled").update()
        try await database.schema("cards").deleteField("hint_source").update()
    }
}

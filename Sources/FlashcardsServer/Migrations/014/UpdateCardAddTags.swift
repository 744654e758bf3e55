import Fluent

/// A card's tags, space-separated as Anki stores them (imports and exports carry them).
struct UpdateCardAddTags: AsyncMigration {
    var name: String { "014_UpdateCardAddTags" }

    func prepare(on database: any Database) async throws {
        try await database.schema("cards").field("tags", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("cards").deleteField("tags").update()
    }
}

import Fluent

/// Frozen: a learner's bookmark on a card (the feed's swipe left), a filter of the card list.
struct UpdateCardAddBookmarked: AsyncMigration {
    var name: String { "008_UpdateCardAddBookmarked" }

    func prepare(on database: any Database) async throws {
        try await database.schema("cards").field(
            .definition(
                name: .key(.string("bookmarked")), dataType: .bool, constraints: [.required, .sql(.default(false))])
        ).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("cards").deleteField(.string("bookmarked")).update()
    }
}

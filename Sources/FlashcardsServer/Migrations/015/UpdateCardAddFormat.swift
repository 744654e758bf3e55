import Fluent

/// Frozen: how a card's texts are written, `plain` (every card until now) or `markdown` (the
/// rich-text subset with formulas, `RichText`).
struct UpdateCardAddFormat: AsyncMigration {
    var name: String { "015_UpdateCardAddFormat" }

    func prepare(on database: any Database) async throws {
        try await database.schema("cards").field(
            .definition(
                name: .key(.string("format")), dataType: .string, constraints: [.required, .sql(.default("plain"))])
        ).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("cards").deleteField(.string("format")).update()
    }
}

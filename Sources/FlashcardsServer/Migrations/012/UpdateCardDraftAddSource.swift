import Fluent
import SQLKit

/// What the draft review shows beside a draft: the source sentence it was made from, the same fact
/// as another kind of card (`alt_*`, for the user to switch to) and the question of a card already
/// in the stack that asks the same (`duplicate_of`).
struct UpdateCardDraftAddSource: AsyncMigration {
    var name: String { "012_UpdateCardDraftAddSource" }

    private static let columns = ["source_text", "alt_question", "alt_answer", "alt_kind", "duplicate_of"]

    func prepare(on database: any Database) async throws {
        for column in Self.columns {
            try await database.schema("card_drafts").field(.string(column), .string).update()
        }
    }

    func revert(on database: any Database) async throws {
        for column in Self.columns {
            try await database.schema("card_drafts").deleteField(.string(column)).update()
        }
    }
}

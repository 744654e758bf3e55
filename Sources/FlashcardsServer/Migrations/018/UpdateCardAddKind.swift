import Fluent
import SQLKit

/// Frozen: card kinds (`CardKind`). `kind` and `variant` say how the texts become sides (every card
/// until now is `basic`, variant 0); `note_id` joins the cards one note made (a reversed pair, the
/// gaps of a cloze); `choices` holds a multiple-choice card's wrong options as a JSON array.
struct UpdateCardAddKind: AsyncMigration {
    var name: String { "018_UpdateCardAddKind" }

    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite adds one column per ALTER TABLE.
        try await database.schema("cards").field(
            .definition(
                name: .key(.string("kind")), dataType: .string, constraints: [.required, .sql(.default("basic"))])
        ).update()
        try await database.schema("cards").field(
            .definition(name: .key(.string("variant")), dataType: .int, constraints: [.required, .sql(.default(0))])
        ).update()
        try await database.schema("cards").field("note_id", .string).update()
        try await database.schema("cards").field("choices", .string).update()
        // The siblings of a note are found by it (an edit changes them all).
        try await database.sql.create(index: "cards_note").on("cards").column("note_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.drop(index: "cards_note").run()
        for column in ["choices", "note_id", "variant", "kind"] {
            try await database.schema("cards").deleteField(.string(column)).update()
        }
    }
}

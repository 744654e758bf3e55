import Fluent

/// Frozen: the study mode a review was made in (`flashcards`, `quiz`, `write`, `feed`), so that
/// statistics and the optimizer can tell them apart. Existing rows were flip-and-rate reviews.
struct UpdateReviewLogAddMode: AsyncMigration {
    var name: String { "007_UpdateReviewLogAddMode" }

    func prepare(on database: any Database) async throws {
        try await database.schema("review_logs").field(
            .definition(
                name: .key(.string("mode")), dataType: .string, constraints: [.required, .sql(.default("flashcards"))])
        ).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("review_logs").deleteField(.string("mode")).update()
    }
}

import Fluent
import SQLKit

/// The FSRS daily limits count a stack's cards reviewed since the start of the learner's day and,
/// of those, the ones first reviewed today. With `first_reviewed_at` in the index the count reads
/// the index alone instead of one table row per card reviewed today, which at a few thousand
/// reviews a day was most of the cost of a next-card request.
struct UpdateCardCoverTodaysReviews: AsyncMigration {
    var name: String { "003_UpdateCardCoverTodaysReviews" }

    func prepare(on database: any Database) async throws {
        let sql = database.sql
        try await sql.create(index: "cards_stack_reviewed").on("cards")
            .column("stack_id").column("last_reviewed_at").column("first_reviewed_at").run()
        try await sql.drop(index: "cards_stack_last_review").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        try await sql.create(index: "cards_stack_last_review").on("cards")
            .column("stack_id").column("last_reviewed_at").run()
        try await sql.drop(index: "cards_stack_reviewed").run()
    }
}

import Fluent
import SQLKit

/// Frozen: load balancing and easy days (`LearnerLoad`). A review log row keeps the interval the
/// load balancer chose (`balanced_days`) so that a replay gives the same day; the learner's settings
/// say whether the balancer is on and how much each weekday should get (`easy_days`: seven letters,
/// Monday first, `n` normal, `r` reduced, `m` minimum); cards are found by learner, queue and due
/// time for the learner's daily load.
struct AddLoadBalancing: AsyncMigration {
    var name: String { "021_AddLoadBalancing" }

    func prepare(on database: any Database) async throws {
        try await database.schema("review_logs").field("balanced_days", .int).update()
        try await database.schema("learner_settings")
            .field(
                .definition(
                    name: .key(.string("load_balancing")), dataType: .bool,
                    constraints: [.required, .sql(.default(true))])
            ).update()
        try await database.schema("learner_settings")
            .field(
                .definition(
                    name: .key(.string("easy_days")), dataType: .string,
                    constraints: [.required, .sql(.default("nnnnnnn"))])
            ).update()
        try await database.sql.create(index: "cards_user_queue_due").on("cards")
            .column("user_id").column("queue").column("due_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.drop(index: "cards_user_queue_due").run()
        try await database.schema("learner_settings").deleteField("easy_days").update()
        try await database.schema("learner_settings").deleteField("load_balancing").update()
        try await database.schema("review_logs").deleteField("balanced_days").update()
    }
}

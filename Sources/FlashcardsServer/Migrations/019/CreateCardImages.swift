import Fluent
import SQLKit

/// Frozen: images on cards (`ImageService`). A card's Markdown shows one as
/// `![description](image:<id>)`; the row holds the re-encoded bytes (no metadata), their type and
/// size, and the learner who owns them (deleting the account deletes them).
struct CreateCardImages: AsyncMigration {
    var name: String { "019_CreateCardImages" }

    func prepare(on database: any Database) async throws {
        try await database.schema("card_images")
            .id()
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("media_type", .string, .required)
            .field("width", .int, .required)
            .field("height", .int, .required)
            .field("byte_count", .int, .required)
            .field("data", .data, .required)
            .field("created_at", .datetime, .required)
            .create()
        try await database.sql.create(index: "card_images_user").on("card_images").column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("card_images").delete()
    }
}

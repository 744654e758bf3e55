import Fluent
import SQLKit

/// Frozen: progress without pressure (issue 18). Guest accounts; a stack's description, icon and
/// favourite mark; the learner's settings (onboarding answers, daily goal, focus mode, reminders,
/// leaderboard opt-in, theme); the figures of finished days (a cache of what the review log says,
/// rebuilt whenever the log of those days changes); rest days; opened mystery boxes; achievements
/// (kept once earned); Web Push subscriptions; and revoked tokens (server-side logout).
struct CreateMotivation: AsyncMigration {
    var name: String { "013_CreateMotivation" }

    func prepare(on database: any Database) async throws {
        try await database.schema("users").field(
            .definition(
                name: .key(.string("is_guest")), dataType: .bool, constraints: [.required, .sql(.default(false))])
        ).update()
        try await database.schema("stacks").field(
            .definition(
                name: .key(.string("description")), dataType: .string, constraints: [.required, .sql(.default(""))])
        ).update()
        try await database.schema("stacks").field("icon", .string).update()
        try await database.schema("stacks").field(
            .definition(
                name: .key(.string("favorite")), dataType: .bool, constraints: [.required, .sql(.default(false))])
        ).update()

        try await database.schema("learner_settings")
            .field("user_id", .uuid, .identifier(auto: false), .references("users", "id", onDelete: .cascade))
            .field("language", .string, .required)
            .field("daily_goal", .int, .required)
            .field("focus_mode", .bool, .required)
            .field("reminders_enabled", .bool, .required)
            .field("reminder_time", .string, .required)
            .field("leaderboard_opt_in", .bool, .required)
            .field("theme", .string)
            .field("onboarding_done", .bool, .required)
            .field("purpose", .string)
            .field("minutes_per_day", .int)
            .field("interests", .string, .required)
            .field("last_reminded_day", .int)
            .field("cache_key", .string)
            .field("cache_through", .int)
            .field("cache_dirty_from", .datetime)
            .create()

        try await database.schema("motivation_days")
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("day", .int, .required)
            .field("figures", .string, .required)
            .compositeIdentifier(over: "user_id", "day")
            .create()
        try await database.schema("rest_days")
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("day", .int, .required)
            .compositeIdentifier(over: "user_id", "day")
            .create()
        try await database.schema("mystery_boxes")
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("day", .int, .required)
            .field("rarity", .string, .required)
            .field("xp", .int)
            .field("theme", .string)
            .field("opened_at", .datetime, .required)
            .compositeIdentifier(over: "user_id", "day")
            .create()
        try await database.schema("achievements")
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("earned_at", .datetime, .required)
            .compositeIdentifier(over: "user_id", "kind")
            .create()
        try await database.schema("push_subscriptions")
            .id()
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("endpoint", .string, .required)
            .field("p256dh", .string, .required)
            .field("auth", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "endpoint")
            .create()
        try await database.sql.create(index: "push_subscriptions_user").on("push_subscriptions").column("user_id")
            .run()
        try await database.schema("revoked_tokens")
            .field("id", .string, .identifier(auto: false))
            .field("expires_at", .datetime, .required)
            .create()
        try await database.sql.create(index: "revoked_tokens_expiry").on("revoked_tokens").column("expires_at").run()
    }

    func revert(on database: any Database) async throws {
        for table in [
            "revoked_tokens", "push_subscriptions", "achievements", "mystery_boxes", "rest_days", "motivation_days",
            "learner_settings",
        ] {
            try await database.schema(table).delete()
        }
        for field in ["favorite", "icon", "description"] {
            try await database.schema("stacks").deleteField(.string(field)).update()
        }
        try await database.schema("users").deleteField(.string("is_guest")).update()
    }
}

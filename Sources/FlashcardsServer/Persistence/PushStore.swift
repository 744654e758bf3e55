import Foundation
import SQLKit

/// The statements of Web Push: the learners' subscriptions and the daily reminders (who is due, the
/// claim of a reminder day). Both databases run them alike.
struct PushStore {
    let sql: any SQLDatabase

    /// A stored subscription.
    struct Subscription: Decodable {
        let id: UUID
        let endpoint: String
        let p256dh: String
        let auth: String
    }

    /// A learner with reminders on and at least one subscription.
    struct Candidate: Decodable {
        let user_id: UUID
        let time_zone: String
        let reminder_time: String
        let last_reminded_day: Int?
        let language: String
    }

    /// Deletes the subscription of this endpoint, whoever's it is.
    func deleteSubscription(endpoint: String) async throws {
        try await sql.delete(from: "push_subscriptions").where("endpoint", .equal, endpoint).run()
    }

    /// Deletes the subscription of this endpoint of `userId`'s.
    func deleteSubscription(endpoint: String, of userId: UUID) async throws {
        try await sql.delete(from: "push_subscriptions")
            .where("endpoint", .equal, endpoint).where("user_id", .equal, userId).run()
    }

    /// Deletes subscription `id`.
    func deleteSubscription(_ id: UUID) async throws {
        try await sql.delete(from: "push_subscriptions").where("id", .equal, id).run()
    }

    /// How many subscriptions `userId` keeps.
    func subscriptionCount(of userId: UUID) async throws -> Int {
        try await sql.raw("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = \(bind: userId)")
            .first(decoding: CountRow.self)?.n ?? 0
    }

    /// Stores a subscription (nothing when its endpoint is stored already).
    func addSubscription(id: UUID, userId: UUID, endpoint: String, p256dh: String, auth: String, now: Date)
        async throws
    {
        try await sql.insert(into: "push_subscriptions")
            .columns("id", "user_id", "endpoint", "p256dh", "auth", "created_at")
            .values(SQLBind(id), SQLBind(userId), SQLBind(endpoint), SQLBind(p256dh), SQLBind(auth), SQLBind(now))
            .ignoringConflicts(with: ["endpoint"])
            .run()
    }

    /// The subscriptions of `userId`.
    func subscriptions(of userId: UUID) async throws -> [Subscription] {
        try await sql.raw(
            "SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = \(bind: userId)"
        ).all(decoding: Subscription.self)
    }

    /// Learners with reminders on and a subscription.
    func reminderCandidates() async throws -> [Candidate] {
        try await sql.raw(
            """
            SELECT s.user_id AS user_id, u.time_zone AS time_zone, s.reminder_time AS reminder_time,
            s.last_reminded_day AS last_reminded_day, s.language AS language
            FROM learner_settings s JOIN users u ON u.id = s.user_id
            WHERE s.reminders_enabled = \(bind: true)
            AND EXISTS (SELECT 1 FROM push_subscriptions p WHERE p.user_id = s.user_id)
            """
        ).all(decoding: Candidate.self)
    }

    /// Whether `userId` reviewed since `start`.
    func studied(_ userId: UUID, since start: Date) async throws -> Bool {
        try await sql.raw(
            """
            SELECT COUNT(*) AS n FROM review_logs WHERE user_id = \(bind: userId)
            AND kind = 'review' AND reviewed_at >= \(bind: start)
            """
        ).first(decoding: CountRow.self)?.n ?? 0 > 0
    }

    /// Whether learner day `day` is a rest day of `userId`'s.
    func resting(_ userId: UUID, on day: Int) async throws -> Bool {
        try await sql.raw(
            "SELECT COUNT(*) AS n FROM rest_days WHERE user_id = \(bind: userId) AND day = \(bind: day)"
        ).first(decoding: CountRow.self)?.n ?? 0 > 0
    }

    /// Claims calendar day `day` for `userId`'s reminder: true for the one instance whose update
    /// matched.
    func claimReminderDay(_ day: Int, of userId: UUID) async throws -> Bool {
        struct Claimed: Decodable { let user_id: UUID }
        return try await !sql.raw(
            """
            UPDATE learner_settings SET last_reminded_day = \(bind: day)
            WHERE user_id = \(bind: userId)
            AND (last_reminded_day IS NULL OR last_reminded_day <> \(bind: day))
            RETURNING user_id
            """
        ).all(decoding: Claimed.self).isEmpty
    }
}

extension StudyStore {
    /// Web Push's statements for a learner's request.
    var push: PushStore { PushStore(sql: sql) }

    /// Web Push's statements for the reminder task, through the driver.
    var reminders: PushStore { PushStore(sql: db.sql) }
}

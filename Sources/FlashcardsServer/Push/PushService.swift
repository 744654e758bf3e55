import AsyncHTTPClient
import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import NIOCore
import NIOHTTP1
import SQLKit
import Vapor

/// Web Push subscriptions of a learner: stored as the browser gives them, checked before they are
/// kept (an https endpoint, a valid P-256 key and auth secret).
struct PushSubscriptionService {
    let context: ServiceContext
    let user: UserModel

    /// Subscriptions one learner may keep (one per browser and device).
    static let maximumPerUser = 10

    func add(_ request: PushSubscriptionRequest) async throws {
        let endpoint = try Self.validatedEndpoint(request.endpoint, allowHTTP: context.configuration.pushAllowHTTP)
        do {
            _ = try WebPushSubscriptionKeys(p256dh: request.keys.p256dh, auth: request.keys.auth)
        } catch {
            throw AppError.invalid(
                "Die Schlüssel des Push-Abonnements sind ungültig (\(error)).", code: "invalid_push_keys")
        }
        let sql = context.store.sql
        // A browser that subscribed under another account before now belongs to this one.
        try await sql.delete(from: "push_subscriptions").where("endpoint", .equal, endpoint).run()
        struct CountRow: Decodable { let n: Int }
        let count =
            try await sql.raw("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = \(bind: user.id!)")
            .first(decoding: CountRow.self)?.n ?? 0
        guard count < Self.maximumPerUser else {
            throw AppError.validation(
                "Es sind höchstens \(Self.maximumPerUser) Geräte für Erinnerungen möglich; entferne zuerst eines.")
        }
        try await sql.insert(into: "push_subscriptions")
            .columns("id", "user_id", "endpoint", "p256dh", "auth", "created_at")
            .values(
                SQLBind(context.uuid()), SQLBind(user.id!), SQLBind(endpoint), SQLBind(request.keys.p256dh),
                SQLBind(request.keys.auth), SQLBind(context.now)
            )
            .ignoringConflicts(with: ["endpoint"])
            .run()
    }

    func remove(endpoint: String) async throws {
        try await context.store.sql.delete(from: "push_subscriptions")
            .where("endpoint", .equal, endpoint).where("user_id", .equal, user.id!).run()
    }

    /// An endpoint push messages may be sent to: an absolute https URL with a host and no user
    /// info, at most 1,000 characters (http only when the configuration allows it, for tests).
    static func validatedEndpoint(_ text: String, allowHTTP: Bool) throws -> String {
        let message = "Der Endpunkt des Push-Abonnements muss eine https-Adresse sein."
        guard text.utf8.count <= 1_000, let url = URL(string: text), let host = url.host, !host.isEmpty,
            url.user == nil, url.password == nil
        else { throw AppError.validation(message) }
        guard url.scheme == "https" || (allowHTTP && url.scheme == "http") else { throw AppError.validation(message) }
        return text
    }
}

/// The server's VAPID key: configured, or made on first start and kept in the database so that
/// every instance signs with the same key (browsers bind a subscription to it).
enum VAPIDKeys {
    static func resolve(configured: String?, database: any Database) async throws -> VAPIDKey {
        if let configured { return try VAPIDKey(privateKeyBase64URL: configured) }
        let name = "vapid_private_key"
        if let existing = try await ServerSettingModel.find(name, on: database) {
            return try VAPIDKey(privateKeyBase64URL: existing.value)
        }
        let key = VAPIDKey()
        do {
            try await ServerSettingModel(key: name, value: key.privateKeyBase64URL).create(on: database)
            return key
        } catch {
            // Another instance made one first: use theirs.
            guard let existing = try await ServerSettingModel.find(name, on: database) else { throw error }
            return try VAPIDKey(privateKeyBase64URL: existing.value)
        }
    }
}

/// Sends the daily reminders: once a day per learner at their chosen time, only when reminders are
/// on, nothing was studied that day and it is no rest day. The day is claimed with one conditional
/// `UPDATE … RETURNING` before anything is sent, so several instances never send a reminder twice.
struct ReminderSender {
    let application: Application
    let key: VAPIDKey

    private var now: Date { application.serverEnvironment.now() }

    /// The payload of a reminder in the learner's language: an invitation, never a reproach.
    static func payload(language: String) -> [String: String] {
        let english = language == "en"
        return [
            "title": "Smart Flashcards",
            "body": english
                ? "Fancy a few cards? A few minutes are enough."
                : "Lust auf ein paar Karten? Ein paar Minuten reichen schon.",
            "url": "/app/home",
            "tag": "daily-reminder",
        ]
    }

    private struct Candidate: Decodable {
        let user_id: UUID
        let time_zone: String
        let reminder_time: String
        let last_reminded_day: Int?
        let language: String
    }

    /// Looks for due reminders and sends them; returns how many pushes were accepted.
    @discardableResult
    func sendDue() async throws -> Int {
        let sql = application.db.sql
        let candidates = try await sql.raw(
            """
            SELECT s.user_id AS user_id, u.time_zone AS time_zone, s.reminder_time AS reminder_time,
            s.last_reminded_day AS last_reminded_day, s.language AS language
            FROM learner_settings s JOIN users u ON u.id = s.user_id
            WHERE s.reminders_enabled = \(bind: true)
            AND EXISTS (SELECT 1 FROM push_subscriptions p WHERE p.user_id = s.user_id)
            """
        ).all(decoding: Candidate.self)
        var sent = 0
        for candidate in candidates {
            let zone = TimeZone(identifier: candidate.time_zone) ?? .gmt
            // Reminders count calendar days (midnight to midnight); practice counts learner days.
            let calendarDays = ActivityDays(timeZone: zone)
            let day = calendarDays.day(of: now)
            guard candidate.last_reminded_day != day, let time = ReminderTime(text: candidate.reminder_time),
                now
                    >= calendarDays.start(of: day).addingTimeInterval(
                        TimeInterval(time.hour * 3_600 + time.minute * 60))
            else { continue }
            let learner = ActivityDays(timeZone: zone, dayStartHour: MotivationService.dayStartHour)
            let learnerDay = learner.day(of: now)
            struct Flag: Decodable { let n: Int }
            let studied =
                try await sql.raw(
                    """
                    SELECT COUNT(*) AS n FROM review_logs WHERE user_id = \(bind: candidate.user_id)
                    AND kind = 'review' AND reviewed_at >= \(bind: learner.start(of: learnerDay))
                    """
                ).first(decoding: Flag.self)?.n ?? 0
            let resting =
                try await sql.raw(
                    "SELECT COUNT(*) AS n FROM rest_days WHERE user_id = \(bind: candidate.user_id) AND day = \(bind: learnerDay)"
                ).first(decoding: Flag.self)?.n ?? 0
            // Claim the day first: only the instance whose update matched sends, and a day with
            // practice or rest is claimed without a push, so none follows later that day.
            struct Claimed: Decodable { let user_id: UUID }
            let claimed = try await sql.raw(
                """
                UPDATE learner_settings SET last_reminded_day = \(bind: day)
                WHERE user_id = \(bind: candidate.user_id)
                AND (last_reminded_day IS NULL OR last_reminded_day <> \(bind: day))
                RETURNING user_id
                """
            ).all(decoding: Claimed.self)
            guard !claimed.isEmpty, studied == 0, resting == 0 else { continue }
            sent += try await push(Self.payload(language: candidate.language), to: candidate.user_id)
        }
        return sent
    }

    private struct SubscriptionRow: Decodable {
        let id: UUID
        let endpoint: String
        let p256dh: String
        let auth: String
    }

    /// Sends `payload` to every subscription of a learner; a subscription the push service says is
    /// gone (404, 410) is removed. Returns the pushes accepted.
    func push(_ payload: [String: String], to userId: UUID) async throws -> Int {
        let sql = application.db.sql
        let subscriptions = try await sql.raw(
            "SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = \(bind: userId)"
        ).all(decoding: SubscriptionRow.self)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = try encoder.encode(payload)
        var accepted = 0
        for subscription in subscriptions {
            do {
                let status = try await send(body, to: subscription)
                if status == 404 || status == 410 {
                    try await sql.delete(from: "push_subscriptions").where("id", .equal, subscription.id).run()
                } else if (200..<300).contains(status) {
                    accepted += 1
                } else {
                    application.logger.warning("push: \(subscription.endpoint) answered \(status)")
                }
            } catch {
                application.logger.warning("push: sending to \(subscription.endpoint) failed: \(error)")
            }
        }
        return accepted
    }

    /// One encrypted push (RFC 8291) with its VAPID authorization (RFC 8292); the HTTP status.
    private func send(_ body: Data, to subscription: SubscriptionRow) async throws -> Int {
        guard let url = URL(string: subscription.endpoint) else { return 410 }
        let keys = try WebPushSubscriptionKeys(p256dh: subscription.p256dh, auth: subscription.auth)
        let encrypted = try WebPushCrypto.encrypt(payload: body, to: keys)
        var request = HTTPClientRequest(url: subscription.endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Encoding", value: WebPushCrypto.contentEncoding)
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        // A reminder is worth delivering within the day only.
        request.headers.add(name: "TTL", value: "43200")
        request.headers.add(name: "Urgency", value: "normal")
        request.headers.add(
            name: "Authorization",
            value: try key.authorizationHeader(
                endpoint: url, subject: application.appConfiguration.vapidSubject, now: now))
        request.body = .bytes(ByteBuffer(bytes: encrypted))
        let response = try await application.http.client.shared.execute(request, timeout: .seconds(10))
        return Int(response.status.code)
    }
}

/// Runs `ReminderSender.sendDue()` every configured interval until the application stops.
final class ReminderLoop: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, Never>?

    func start(sender: ReminderSender, interval: TimeInterval) {
        lock.withLock {
            task = Task {
                while !Task.isCancelled {
                    do {
                        try await sender.sendDue()
                    } catch {
                        sender.application.logger.warning("reminders: \(error)")
                    }
                    try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                }
            }
        }
    }

    func stop() async {
        let running = lock.withLock {
            let current = task
            task = nil
            return current
        }
        running?.cancel()
        await running?.value
    }
}

extension Application {
    private struct VAPIDKeyKey: StorageKey { typealias Value = VAPIDKey }
    private struct ReminderLoopKey: StorageKey { typealias Value = ReminderLoop }

    /// The server's VAPID key (set up by `configure`).
    var vapidKey: VAPIDKey {
        get {
            guard let key = storage[VAPIDKeyKey.self] else { fatalError("vapidKey used before configure(_:)") }
            return key
        }
        set { storage[VAPIDKeyKey.self] = newValue }
    }

    var reminderLoop: ReminderLoop {
        if let loop = storage[ReminderLoopKey.self] { return loop }
        let loop = ReminderLoop()
        storage[ReminderLoopKey.self] = loop
        return loop
    }
}

/// Stops the reminder loop when the application shuts down.
struct ReminderLoopLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        await application.reminderLoop.stop()
    }
}

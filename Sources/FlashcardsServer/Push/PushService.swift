import AsyncHTTPClient
import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import NIOCore
import NIOHTTP1
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
        let push = context.store.push
        // A browser that subscribed under another account before now belongs to this one.
        try await push.deleteSubscription(endpoint: endpoint)
        guard try await push.subscriptionCount(of: user.id!) < Self.maximumPerUser else {
            throw AppError.validation(
                "Es sind höchstens \(Self.maximumPerUser) Geräte für Erinnerungen möglich; entferne zuerst eines.")
        }
        try await push.addSubscription(
            id: context.uuid(), userId: user.id!, endpoint: endpoint, p256dh: request.keys.p256dh,
            auth: request.keys.auth, now: context.now)
    }

    func remove(endpoint: String) async throws {
        try await context.store.push.deleteSubscription(endpoint: endpoint, of: user.id!)
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

    /// Looks for due reminders and sends them; returns how many pushes were accepted.
    @discardableResult
    func sendDue() async throws -> Int {
        let store = reminderStore
        let candidates = try await store.reminderCandidates()
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
            let studied = try await store.studied(candidate.user_id, since: learner.start(of: learnerDay))
            let resting = try await store.resting(candidate.user_id, on: learnerDay)
            // Claim the day first: only the instance whose update matched sends, and a day with
            // practice or rest is claimed without a push, so none follows later that day.
            let claimed = try await store.claimReminderDay(day, of: candidate.user_id)
            guard claimed, !studied, !resting else { continue }
            sent += try await push(Self.payload(language: candidate.language), to: candidate.user_id)
        }
        return sent
    }

    private var reminderStore: PushStore { application.studyStore(on: application.db).reminders }

    /// Sends `payload` to every subscription of a learner; a subscription the push service says is
    /// gone (404, 410) is removed. Returns the pushes accepted.
    func push(_ payload: [String: String], to userId: UUID) async throws -> Int {
        let store = reminderStore
        let subscriptions = try await store.subscriptions(of: userId)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = try encoder.encode(payload)
        var accepted = 0
        for subscription in subscriptions {
            do {
                let status = try await send(body, to: subscription)
                if status == 404 || status == 410 {
                    ServerMetrics.pushSent(result: "gone")
                    try await store.deleteSubscription(subscription.id)
                } else if (200..<300).contains(status) {
                    ServerMetrics.pushSent(result: "sent")
                    accepted += 1
                } else {
                    ServerMetrics.pushSent(result: "failed")
                    application.logger.warning("push: \(subscription.endpoint) answered \(status)")
                }
            } catch {
                ServerMetrics.pushSent(result: "failed")
                application.logger.warning("push: sending to \(subscription.endpoint) failed: \(error)")
            }
        }
        return accepted
    }

    /// One encrypted push (RFC 8291) with its VAPID authorization (RFC 8292); the HTTP status.
    private func send(_ body: Data, to subscription: PushStore.Subscription) async throws -> Int {
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

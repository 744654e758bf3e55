import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Signup, login (rate limited), profile, password change and account deletion.
struct AccountService {
    let context: ServiceContext

    /// Creates an account; the mail must not be taken (compared case-insensitively).
    func signup(name: String, mail: String, password: String, timeZone: String?) async throws -> UserModel {
        let name = try Validate.text(name, field: "Der Name", max: TextLimits.userName)
        let mail = try Validate.mail(mail)
        let password = try Validate.newPassword(password)
        let zone = try timeZone.map(Validate.timeZone) ?? context.configuration.defaultTimeZone
        // Sign-ups per client address and hour, so that no one fills the database with accounts.
        var limiter = LoginLimiter(context: context, limit: context.configuration.signupsPerHour, window: 3_600)
        limiter.refusal = {
            AppError.tooManyRequests(
                "Zu viele neue Konten von dieser Adresse. Bitte versuche es später erneut.", retryAfter: $0)
        }
        let keys = context.clientAddress.map { ["signup-ip:" + $0] } ?? []
        try await limiter.check(keys: keys)
        let key = UserModel.key(forMail: mail)
        if try await UserModel.query(on: context.db).filter(\.$mailKey == key).first() != nil {
            throw AppError.userAlreadyExists
        }
        let user = UserModel(
            id: context.uuid(), name: name, mail: mail, passwordHash: try await context.passwords.hash(password),
            timeZone: zone, createdAt: context.now)
        do {
            try await user.create(on: context.db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // Two signups raced for the same mail; the unique index decided.
            throw AppError.userAlreadyExists
        }
        try await limiter.recordFailure(keys: keys)
        return user
    }

    /// Checks mail and password. Failed attempts count per account and per client address; past
    /// the limit every attempt is refused with 429 until the window has passed.
    func login(mail: String, password: String) async throws -> UserModel {
        let key = try Validate.mailKey(mail)
        guard !password.isEmpty else { throw AppError.validation("Das Passwort darf nicht leer sein.") }
        // Two limits: per account (guessing one password) and, much higher, per client address
        // (trying many accounts), so that one client behind a shared address seldom locks out the
        // others; behind a proxy, FLASHCARDS_TRUSTED_PROXIES gives each client its own address.
        let account = LoginLimiter(context: context)
        var address = account
        address.limit = context.configuration.loginMaxFailuresPerAddress
        let accountKeys = ["mail:" + key]
        let addressKeys = context.clientAddress.map { ["ip:" + $0] } ?? []
        try await account.check(keys: accountKeys)
        try await address.check(keys: addressKeys)
        func failed() async throws {
            try await account.recordFailure(keys: accountKeys)
            try await address.recordFailure(keys: addressKeys)
        }
        guard let user = try await UserModel.query(on: context.db).filter(\.$mailKey == key).first() else {
            try await failed()
            throw AppError.userNotFound
        }
        guard password.utf8.count <= 1_024, try await context.passwords.verify(password, created: user.passwordHash)
        else {
            try await failed()
            throw AppError.wrongPassword
        }
        try await account.reset(key: accountKeys[0])
        return user
    }

    /// Guest accounts one address may make per hour.
    static let guestsPerHour = 20

    /// A guest account: a random friendly name, no mail, a password nobody knows. Limited per
    /// client address, since no mail stands behind it. With a `language` the name is made in it and
    /// the learner's settings start in it.
    func guest(timeZone: String?, language: String? = nil) async throws -> UserModel {
        let zone = try timeZone.map(Validate.timeZone) ?? context.configuration.defaultTimeZone
        if let language, !SettingsService.languages.contains(language) {
            throw AppError.validation("Die Sprache muss de oder en sein.")
        }
        var limiter = LoginLimiter(context: context, limit: Self.guestsPerHour, window: 3_600)
        limiter.refusal = {
            AppError.tooManyRequests(
                "Zu viele Gastkonten von dieser Adresse. Bitte versuche es später erneut.", retryAfter: $0)
        }
        let keys = context.clientAddress.map { ["guest-ip:" + $0] } ?? []
        try await limiter.check(keys: keys)
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<4).map { _ in String(UInt64.random(in: .min ... .max, using: &generator), radix: 36) }
            .joined()
        let id = context.uuid()
        let user = UserModel(
            id: id, name: GuestNames.make(language: language ?? "de", using: &generator), mail: "",
            passwordHash: try await context.passwords.hash(secret), timeZone: zone, createdAt: context.now)
        user.mailKey = "guest:" + id.uuidString.lowercased()
        user.isGuest = true
        try await context.store.modelTransaction { tx in
            let db = tx.db
            try await user.create(on: db)
            if let language {
                let settings = LearnerSettingsModel(userId: id)
                settings.language = language
                try await settings.create(on: db)
            }
        }
        try await limiter.recordFailure(keys: keys)
        return user
    }

    /// Gives a guest account a mail and a password (and a name, if given); every stack and review
    /// stays. Tokens issued to the guest stop working: the answer carries a new one.
    func upgrade(_ user: UserModel, name: String?, mail: String, password: String) async throws -> UserModel {
        guard user.isGuest else {
            throw AppError.refused("Dieses Konto hat bereits eine E-Mail-Adresse.", code: "not_a_guest")
        }
        let name = try name.map { try Validate.text($0, field: "Der Name", max: TextLimits.userName) }
        let mail = try Validate.mail(mail)
        let password = try Validate.newPassword(password)
        let key = UserModel.key(forMail: mail)
        if try await UserModel.query(on: context.db).filter(\.$mailKey == key).first() != nil {
            throw AppError.userAlreadyExists
        }
        if let name { user.name = name }
        user.mail = mail
        user.mailKey = key
        user.passwordHash = try await context.passwords.hash(password)
        user.isGuest = false
        user.tokenVersion += 1
        do {
            try await user.save(on: context.db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw AppError.userAlreadyExists
        }
        return user
    }

    /// Revokes the caller's token until it would have expired anyway. A token from before tokens
    /// had ids cannot be named, so all of the account's tokens are revoked instead.
    func logout(_ user: UserModel, claims: TokenClaims) async throws {
        guard let tokenId = claims.tokenId else {
            user.tokenVersion += 1
            try await user.save(on: context.db)
            return
        }
        try await context.store.accounts.revokeToken(tokenId, expiresAt: claims.expiresAt, now: context.now)
    }

    /// Changes name and/or time zone.
    func update(_ user: UserModel, name: String?, timeZone: String?) async throws -> UserModel {
        if let name { user.name = try Validate.text(name, field: "Der Name", max: TextLimits.userName) }
        if let timeZone { user.timeZone = try Validate.timeZone(timeZone) }
        try await user.save(on: context.db)
        return user
    }

    /// How long after signing in an account without a password of its own may set one: the
    /// sign-in with the provider stands for the current password.
    static let recentSignIn: TimeInterval = 10 * 60

    /// Sets a new password after checking the current one, or the first one of an account a
    /// provider's sign-in made (no current password, but a session signed in within
    /// `recentSignIn`: a token left open on a shared machine cannot give the account a password);
    /// raises the token version so every token issued before stops working.
    func changePassword(_ user: UserModel, current: String?, new: String, signedInAt: Date) async throws {
        let new = try Validate.newPassword(new)
        if user.passwordSet {
            guard let current, try await context.passwords.verify(current, created: user.passwordHash) else {
                throw AppError.wrongCurrentPassword
            }
        } else if context.now.timeIntervalSince(signedInAt) > Self.recentSignIn {
            throw AppError.forbidden(
                "Melde dich bitte erneut an: ein eigenes Passwort lässt sich nur in den ersten 10 Minuten nach der Anmeldung festlegen.",
                code: "reauthentication_required")
        }
        user.passwordHash = try await context.passwords.hash(new)
        user.passwordSet = true
        user.tokenVersion += 1
        try await user.save(on: context.db)
    }

    /// Deletes the account and, through the database's cascades, its stacks, cards and reviews.
    func delete(_ user: UserModel, password: String?) async throws {
        // A guest has no password to confirm with.
        if !user.isGuest {
            guard let password, try await context.passwords.verify(password, created: user.passwordHash) else {
                throw AppError.wrongCurrentPassword
            }
        }
        try await user.delete(on: context.db)
    }
}

/// The login rate limit, kept in the database so that all instances share it. Password reset
/// requests are counted the same way, with limits and keys of their own.
struct LoginLimiter {
    let context: ServiceContext
    /// Events per key within the window before ``check(keys:)`` refuses.
    var limit: Int
    /// The window in seconds.
    var window: Int
    /// The error for a refusal, given the seconds until the next attempt is allowed.
    var refusal: (Int) -> AppError = { AppError.tooManyAttempts(retryAfter: $0) }

    /// The login limit of the configuration.
    init(context: ServiceContext) {
        self.init(
            context: context, limit: context.configuration.loginMaxFailures,
            window: context.configuration.loginWindowSeconds)
    }

    init(context: ServiceContext, limit: Int, window: Int) {
        self.context = context
        self.limit = limit
        self.window = window
    }

    private var windowStart: Date {
        context.now.addingTimeInterval(-TimeInterval(window))
    }

    func check(keys: [String]) async throws {
        for key in keys {
            let failures = try await LoginFailureModel.query(on: context.db)
                .filter(\.$key == key).filter(\.$failedAt > windowStart)
                .sort(\.$failedAt, .descending)
                .limit(limit)
                .all()
            if failures.count >= limit, let oldest = failures.last {
                let free = oldest.failedAt.addingTimeInterval(TimeInterval(window))
                throw refusal(max(1, Int(free.timeIntervalSince(context.now).rounded(.up))))
            }
        }
    }

    func recordFailure(keys: [String]) async throws {
        for key in keys {
            try await LoginFailureModel(key: key, failedAt: context.now).create(on: context.db)
            // Forget what the window no longer needs, so the table stays small.
            try await LoginFailureModel.query(on: context.db)
                .filter(\.$key == key).filter(\.$failedAt <= windowStart).delete()
        }
    }

    func reset(key: String) async throws {
        try await LoginFailureModel.query(on: context.db).filter(\.$key == key).delete()
    }
}

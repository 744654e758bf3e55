import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// "Passwort vergessen?": a link by mail that sets a new password once.
///
/// A request makes a random 32-byte token, stores only its SHA-256 (`password_resets`, migration
/// 010) with an expiry, spends the account's earlier links, and queues the mail as a job, so a
/// slow or broken mail server never holds up the request. The answer is the same for every
/// address, with or without an account. Confirming spends the link with one conditional
/// `UPDATE … RETURNING` (a second use finds nothing), sets the password and raises the account's
/// token version, which ends every token issued before.
struct PasswordResetService {
    let context: ServiceContext

    static let unavailableMessage = "Passwort-Zurücksetzen ist auf diesem Server nicht eingerichtet."

    /// Whether this server can mail links.
    var isAvailable: Bool { context.configuration.mail != nil && context.configuration.publicURL != nil }

    /// Queues a link for the account with this mail address, if there is one. Requests count per
    /// address and per client whether or not an account exists, so neither the answer nor the
    /// limit tells which addresses have one.
    func request(mail: String, language: String?, sealKey: SymmetricKey) async throws {
        guard isAvailable else {
            throw AppError.unavailable(Self.unavailableMessage, code: "password_reset_unavailable")
        }
        let key = try Validate.mailKey(mail)
        guard key.count <= TextLimits.mail else {
            throw AppError.validation("Die E-Mail-Adresse darf höchstens \(TextLimits.mail) Zeichen lang sein.")
        }
        let language = try MailLanguage(wire: language)
        let settings = context.configuration.passwordReset
        let refusal: (Int) -> AppError = {
            AppError.tooManyRequests(
                "Zu viele Anfragen zum Zurücksetzen des Passworts. Bitte versuche es später erneut.", retryAfter: $0)
        }
        var perClient = LoginLimiter(context: context, limit: settings.maxPerClient, window: settings.windowSeconds)
        perClient.refusal = refusal
        var perMail = LoginLimiter(context: context, limit: settings.maxPerMail, window: settings.windowSeconds)
        perMail.refusal = refusal
        let clientKeys = context.clientAddress.map { ["reset-ip:" + $0] } ?? []
        let mailKeys = ["reset-mail:" + key]
        try await perClient.check(keys: clientKeys)
        try await perMail.check(keys: mailKeys)
        try await perClient.recordFailure(keys: clientKeys)
        try await perMail.recordFailure(keys: mailKeys)

        guard let user = try await UserModel.query(on: context.db).filter(\.$mailKey == key).first(),
            let userId = user.id
        else { return }
        let token = RandomToken.make()
        let now = context.now
        let resetId = context.uuid()
        let payload = PasswordResetMailHandler.Payload(
            resetId: resetId, sealedToken: try PasswordResetToken.seal(token, with: sealKey),
            language: language.rawValue)
        try await context.store.modelTransaction { tx in
            // A new link spends the earlier ones; links long past their expiry are forgotten.
            try await tx.accounts.addPasswordReset(
                id: resetId, userId: userId, tokenHash: RandomToken.hash(token), now: now,
                expiresAt: now.addingTimeInterval(TimeInterval(settings.lifetimeSeconds)))
            _ = try await JobQueue.enqueue(
                kind: PasswordResetMailHandler.kind, userId: userId, payload: payload, now: now, in: tx)
        }
    }

    /// Sets `newPassword` for the account of a valid, unused, unexpired `token` and spends it.
    /// Anything else about the token is one answer: 400 `invalid_reset_token`.
    func confirm(token: String, newPassword: String) async throws -> UserModel {
        let password = try Validate.newPassword(newPassword)
        guard RandomToken.isWellFormed(token) else { throw AppError.invalidResetToken }
        let hash = RandomToken.hash(token)
        let passwordHash = try await context.passwords.hash(password)
        let now = context.now
        let userId: UUID = try await context.store.writeTransaction { tx in
            guard let userId = try await tx.accounts.spendPasswordReset(tokenHash: hash, now: now) else {
                throw AppError.invalidResetToken
            }
            try await tx.accounts.setPassword(of: userId, hash: passwordHash)
            try await tx.accounts.spendPasswordResets(of: userId, now: now)
            return userId
        }
        guard let user = try await UserModel.find(userId, on: context.db) else { throw AppError.invalidResetToken }
        // Whoever could not sign in may have run into the login limit: the new password works at once.
        try await LoginLimiter(context: context).reset(key: "mail:" + user.mailKey)
        return user
    }
}

/// The languages of the mail.
enum MailLanguage: String, Sendable {
    case de, en

    /// `de` when absent; 400 for anything but `de` and `en`.
    init(wire: String?) throws {
        guard let wire else {
            self = .de
            return
        }
        guard let language = MailLanguage(rawValue: wire) else {
            throw AppError.validation("Die Sprache muss de oder en sein.")
        }
        self = language
    }
}

/// Reset tokens: `RandomToken`s, stored as `RandomToken.hash`.
enum PasswordResetToken {
    /// The token encrypted for the mail job's payload (AES-GCM under a key derived from the server's
    /// token secret), so that the jobs table never holds a usable token; the job wipes it once done.
    static func seal(_ token: String, with key: SymmetricKey) throws -> String {
        guard let combined = try AES.GCM.seal(Data(token.utf8), using: key).combined else {
            throw AppError.validation("internal: AES-GCM without a combined form")
        }
        return combined.base64EncodedString()
    }

    /// The token of ``seal(_:with:)``'s output; nil when it was sealed with another key or altered.
    static func open(_ sealed: String, with key: SymmetricKey) -> String? {
        guard let data = Data(base64Encoded: sealed), let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: key)
        else { return nil }
        return String(data: plain, encoding: .utf8)
    }

    /// The key that seals tokens, derived from the token secret (HKDF-SHA256).
    static func sealKey(secret: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(secret.utf8)), info: Data("password-reset-mail".utf8),
            outputByteCount: 32)
    }
}

extension Application {
    private struct PasswordResetSealKey: StorageKey { typealias Value = SymmetricKey }

    /// The key the password reset mail job's payload is sealed with (set up in `configure`).
    var passwordResetSealKey: SymmetricKey {
        get {
            guard let key = storage[PasswordResetSealKey.self] else {
                fatalError("passwordResetSealKey used before configure(_:) set it up")
            }
            return key
        }
        set { storage[PasswordResetSealKey.self] = newValue }
    }
}

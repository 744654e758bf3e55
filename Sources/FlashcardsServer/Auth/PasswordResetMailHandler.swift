import FlashcardsAPI
import Foundation
import SQLKit
import Vapor

/// The `password-reset-mail` job: mails the link of one reset request. It tries again after the
/// configured pauses when the mail server cannot be reached or answers "try later" (4xx), not after
/// a refusal for good (5xx); a mail that could not be sent fails the job with the reason, which is
/// logged too. A link spent or expired before the job ran is not mailed. The sealed token leaves
/// the job's payload when the job ends, however it ends.
struct PasswordResetMailHandler: JobHandler {
    static let kind = "password-reset-mail"

    struct Payload: Codable, Sendable {
        var resetId: UUID
        /// The token, sealed with the server's key (``PasswordResetToken/seal(_:with:)``).
        var sealedToken: String
        var language: String
    }

    let mail: MailConfiguration
    let publicURL: URL
    let settings: PasswordResetSettings

    func run(_ job: JobContext) async throws -> String? {
        do {
            let result = try await deliver(job)
            await wipePayload(job)
            return result
        } catch {
            await wipePayload(job)
            throw error
        }
    }

    private func deliver(_ job: JobContext) async throws -> String? {
        guard let payload = try? job.payload(Payload.self) else {
            throw JobFailure("Der Auftrag enthält keinen Link mehr.", code: "mail_payload_missing", userError: false)
        }
        guard let reset = try await job.store.jobs.passwordReset(payload.resetId, of: job.userId), !reset.spent,
            reset.expiresAt > job.now()
        else { return #"{"sent":false,"reason":"link spent or expired"}"# }
        guard let user = try await UserModel.find(job.userId, on: job.db) else {
            return #"{"sent":false,"reason":"account deleted"}"#
        }
        guard let token = PasswordResetToken.open(payload.sealedToken, with: job.application.passwordResetSealKey)
        else {
            throw JobFailure(
                "Der Link konnte nicht gelesen werden (anderer Schlüssel).", code: "mail_payload_unreadable",
                userError: false)
        }
        guard let recipient = MailAddress(user.mail) else {
            throw JobFailure(
                "Die E-Mail-Adresse des Kontos kann nicht beliefert werden.", code: "mail_address_unusable",
                userError: false)
        }
        let message = PasswordResetMail(
            language: try storedValue(MailLanguage.self, payload.language, column: "jobs.payload.language"),
            name: user.name,
            link: Self.link(base: publicURL, token: token), minutes: settings.lifetimeSeconds / 60
        ).message(from: mail.sender, to: recipient, date: job.now(), id: payload.resetId)
        let client = SMTPClient(configuration: mail)
        let logger = job.application.logger
        var attempt = 0
        while true {
            attempt += 1
            // Renews the job's lease, so a slow server does not let another instance send it again.
            try await job.report(
                JobProgressDTO(stage: "sending", current: attempt, message: "E-Mail wird gesendet (Versuch \(attempt))")
            )
            do {
                try await client.send(message)
                logger.info("password reset mail sent (job \(job.id), attempt \(attempt))")
                return #"{"sent":true,"attempts":\#(attempt)}"#
            } catch let error as SMTPError {
                let giveUp = error.isPermanent || attempt > settings.retryDelays.count
                logger.log(
                    level: giveUp ? .error : .warning,
                    "password reset mail (job \(job.id)) attempt \(attempt) failed: \(error)\(giveUp ? "; giving up" : "; trying again")"
                )
                if giveUp {
                    throw JobFailure(
                        "Die E-Mail konnte nach \(attempt) Versuch(en) nicht gesendet werden: \(error)",
                        code: "mail_failed", userError: false)
                }
                try await Task.sleep(nanoseconds: UInt64(settings.retryDelays[attempt - 1] * 1e9))
            }
        }
    }

    /// `<public URL>/app/reset?token=<token>` (the token is base64url: nothing to escape).
    static func link(base: URL, token: String) -> String {
        base.absoluteString + "/app/reset?token=" + token
    }

    private func wipePayload(_ job: JobContext) async {
        do {
            try await job.store.jobs.clearPayload(of: job.id)
        } catch {
            job.application.logger.error("could not clear the payload of job \(job.id): \(String(reflecting: error))")
        }
    }
}

/// The text of the reset mail, German or English.
struct PasswordResetMail {
    var language: MailLanguage
    var name: String
    var link: String
    var minutes: Int

    var subject: String {
        switch language {
        case .de: "Passwort zurücksetzen – Smart Flashcards"
        case .en: "Reset your password – Smart Flashcards"
        }
    }

    var body: String {
        switch language {
        case .de:
            """
            Hallo \(name),

            jemand (hoffentlich du) möchte das Passwort deines Smart-Flashcards-Kontos zurücksetzen.
            Mit diesem Link legst du ein neues fest. Er ist \(minutes) Minuten gültig und
            funktioniert nur einmal:

            \(link)

            Warst du das nicht? Dann ignoriere diese E-Mail einfach; dein Passwort bleibt, wie es ist.

            Smart Flashcards
            """
        case .en:
            """
            Hello \(name),

            someone (hopefully you) asked to reset the password of your Smart Flashcards account.
            This link lets you choose a new one. It works for \(minutes) minutes and only once:

            \(link)

            Not you? Then simply ignore this mail; your password stays as it is.

            Smart Flashcards
            """
        }
    }

    func message(from sender: MailAddress, to recipient: MailAddress, date: Date, id: UUID) -> MailMessage {
        MailMessage(
            from: sender, to: recipient, subject: subject, body: body, date: date,
            messageID: "reset-" + id.uuidString.lowercased())
    }
}

import FlashcardsAPI
import FlashcardsClient
import Foundation

/// What went wrong, in words a learner understands (German, the product's first language, or
/// English), from any error the SDK throws.
public enum UserFacingError {
    /// The sentence for `error`. The server's own German message is used where it names the rule
    /// that was broken; network and session problems get the app's own words.
    public static func message(for error: any Error, english: Bool = false) -> String {
        guard let error = error as? FlashcardsError else {
            return english
                ? "Something went wrong. Please try again." : "Etwas ist schiefgelaufen. Bitte versuche es erneut."
        }
        switch error {
        case .transport:
            return english
                ? "No connection to the server. Check your internet connection."
                : "Keine Verbindung zum Server. Prüfe deine Internetverbindung."
        case .unauthorized(let body) where body?.code == "user_not_found" || body?.code == "wrong_password":
            return english ? "Wrong e-mail or password." : "E-Mail-Adresse oder Passwort stimmen nicht."
        case .unauthorized:
            return english
                ? "Your session has ended. Please sign in again."
                : "Deine Sitzung ist abgelaufen. Bitte melde dich erneut an."
        case .rateLimited(let seconds, _):
            let wait = seconds ?? 30
            return english
                ? "Too many attempts. Please wait \(wait) seconds."
                : "Zu viele Versuche. Bitte warte \(wait) Sekunden."
        default:
            if !english, let message = error.response?.message, !message.isEmpty { return message }
            return english
                ? "Something went wrong. Please try again." : "Etwas ist schiefgelaufen. Bitte versuche es erneut."
        }
    }

    /// Whether `error` means the server could not be reached (so work can wait for the connection).
    public static func isOffline(_ error: any Error) -> Bool {
        if case .transport = error as? FlashcardsError { return true }
        return false
    }
}

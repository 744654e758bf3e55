import FlashcardsAPI
import Vapor

/// Every error the services raise on purpose. One middleware turns them into
/// `{"message", "code"}` with the right status; the original API's messages are kept verbatim.
public enum AppError: Error, Equatable, Sendable {
    /// Input that breaks a rule; the message says which in German.
    case validation(String)
    /// Input that breaks a rule its schema cannot state (a key that is no point on its curve):
    /// German message and a code of its own; 400.
    case invalid(String, code: String)
    /// The body is not the JSON the route expects.
    case malformedBody(String)
    /// Missing, expired, forged or malformed token.
    case unauthorized
    /// A personal access token that is unknown, expired or revoked (or a route that takes only those
    /// got none): 401 with the code `invalid_token`.
    case invalidAccessToken
    /// A personal access token with only `read` tried to write: 403 `token_read_only`.
    case tokenReadOnly
    /// The caller is known but may not do this (German message and a code): 403.
    case forbidden(String, code: String)
    /// Login: no account with that mail.
    case userNotFound
    /// Login: the password does not match.
    case wrongPassword
    /// A password sent to confirm a change of the signed-in account (new password, deletion) does
    /// not match: 403 with the code `wrong_password` (the token itself is fine).
    case wrongCurrentPassword
    /// Signup: the mail is taken.
    case userAlreadyExists
    /// The stack does not exist for this caller.
    case stackNotFound
    /// The card does not exist for this caller (or nothing is due, on the compatibility route).
    case cardNotFound
    /// Too many failed logins; retry after the given seconds.
    case tooManyAttempts(retryAfter: Int)
    /// Too many requests of another kind (password reset mails); German message, retry after the seconds.
    case tooManyRequests(String, retryAfter: Int)
    /// Password reset: the link's token is unknown, expired or already used.
    case invalidResetToken
    /// Sign-in with a provider: the one-time code is unknown, used or expired: 401 `oidc_state_invalid`.
    case invalidSignIn
    /// A client-made id already belongs to something else.
    case conflict(String)
    /// An upload over its limit (in MB).
    case uploadTooLarge(megabytes: Int)
    /// An upload of a type we do not take; the message says which we take.
    case unsupportedMediaType(String)
    /// A needed service (a tool, the language model) is unavailable; the message says which.
    case unavailable(String, code: String)
    /// Something else of the caller's is missing (a job, a draft): German message and a code.
    case notFound(String, code: String)
    /// The request is valid but not possible in the current state (a box before its challenges are
    /// done, an upgrade of an account that is no guest): German message and a code; 409.
    case refused(String, code: String)

    /// The status on the primary API (`/api/v1`).
    var status: HTTPResponseStatus { status(compatibility: false) }

    /// The status on one of the two surfaces. The original API answers every login and sign-up
    /// refusal with 400 (its iOS app shows its login-failed text only on 400); the primary API
    /// answers a rejected credential with 401 and a taken mail with 409, so that a 400 always
    /// means a request its document refuses.
    func status(compatibility: Bool) -> HTTPResponseStatus {
        switch self {
        case .userNotFound, .wrongPassword: compatibility ? .badRequest : .unauthorized
        case .userAlreadyExists: compatibility ? .badRequest : .conflict
        case .invalidResetToken, .invalidSignIn: .unauthorized
        case .wrongCurrentPassword, .tokenReadOnly, .forbidden: .forbidden
        case .validation, .invalid, .malformedBody: .badRequest
        case .unauthorized, .invalidAccessToken: .unauthorized
        case .stackNotFound, .cardNotFound, .notFound: .notFound
        case .tooManyAttempts, .tooManyRequests: .tooManyRequests
        case .conflict, .refused: .conflict
        case .uploadTooLarge: .payloadTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .unavailable: .serviceUnavailable
        }
    }

    var body: ErrorResponse {
        switch self {
        case .validation(let message): ErrorResponse(message: message, code: "validation_failed")
        case .malformedBody(let message): ErrorResponse(message: message, code: "malformed_json")
        case .unauthorized:
            ErrorResponse(message: "Nicht angemeldet oder Sitzung abgelaufen.", code: "unauthorized")
        case .invalidAccessToken:
            ErrorResponse(
                message: "Das Zugangstoken ist ungültig, abgelaufen oder widerrufen.", code: "invalid_token")
        case .tokenReadOnly:
            ErrorResponse(
                message: "Dieses Zugangstoken darf nur lesen. Für Änderungen braucht es die Berechtigung write.",
                code: "token_read_only")
        case .userNotFound: ErrorResponse(message: "USER_NOT_FOUND", code: "user_not_found")
        case .wrongPassword, .wrongCurrentPassword: ErrorResponse(message: "WRONG_PASSWORD", code: "wrong_password")
        case .userAlreadyExists: ErrorResponse(message: "USER_ALREADY_EXISTS", code: "user_already_exists")
        case .stackNotFound: ErrorResponse(message: "Stack not found", code: "stack_not_found")
        case .cardNotFound: ErrorResponse(message: "Card not found", code: "card_not_found")
        case .tooManyAttempts:
            ErrorResponse(
                message: "Zu viele fehlgeschlagene Anmeldungen. Bitte versuche es später erneut.",
                code: "too_many_attempts")
        case .tooManyRequests(let message, _): ErrorResponse(message: message, code: "too_many_attempts")
        case .invalidResetToken:
            ErrorResponse(
                message:
                    "Der Link zum Zurücksetzen ist ungültig, abgelaufen oder wurde schon benutzt. Bitte fordere einen neuen an.",
                code: "invalid_reset_token")
        case .invalidSignIn:
            ErrorResponse(
                message: "Die Anmeldung ist abgelaufen oder wurde schon verwendet. Bitte melde dich erneut an.",
                code: "oidc_state_invalid")
        case .conflict(let message): ErrorResponse(message: message, code: "conflict")
        case .notFound(let message, let code), .refused(let message, let code), .invalid(let message, let code),
            .forbidden(let message, let code):
            ErrorResponse(message: message, code: code)
        case .uploadTooLarge(let megabytes):
            ErrorResponse(
                message: "Die Datei ist zu groß. Erlaubt sind höchstens \(megabytes) MB.", code: "payload_too_large")
        case .unsupportedMediaType(let message): ErrorResponse(message: message, code: "unsupported_media_type")
        case .unavailable(let message, let code): ErrorResponse(message: message, code: code)
        }
    }
}

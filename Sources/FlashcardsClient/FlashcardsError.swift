import FlashcardsAPI
import Foundation

/// What can go wrong talking to a Smart Flashcards server, typed so an app can react to each case.
public enum FlashcardsError: Error, Sendable, Equatable {
    /// 401: no token, or it expired or was revoked. Sign in again.
    case unauthorized(ErrorResponse?)
    /// 404: the stack or card does not exist for this account (`code` says which).
    case notFound(ErrorResponse?)
    /// 400: the input broke a rule; `message` says which (German).
    case invalid(ErrorResponse?)
    /// 429: too many failed logins; try again after this many seconds.
    case rateLimited(retryAfter: Int?, ErrorResponse?)
    /// 413: the body was too large.
    case tooLarge(ErrorResponse?)
    /// Any other non-success status.
    case http(status: Int, ErrorResponse?)
    /// The server could not be reached or the connection broke.
    case transport(String)
    /// The server answered with something this client does not understand.
    case decoding(String)
    /// An import was refused because of its file: where and why (nothing was imported).
    case importRefused(ImportProblemDTO)
    /// A background job failed (`code` and German `message` from the job).
    case jobFailed(code: String?, message: String?)

    /// The server's error body, if it sent one.
    public var response: ErrorResponse? {
        switch self {
        case .unauthorized(let body), .notFound(let body), .invalid(let body), .tooLarge(let body): body
        case .rateLimited(_, let body): body
        case .http(_, let body): body
        case .transport, .decoding, .importRefused, .jobFailed: nil
        }
    }

    /// The stable error code (`stack_not_found`, `wrong_password`, `back_empty`, …), if any.
    public var code: String? {
        switch self {
        case .importRefused(let problem): problem.code
        case .jobFailed(let code, _): code
        default: response?.code
        }
    }

    /// Classifies a non-success response.
    static func from(status: Int, body: Data, retryAfter: String?) -> FlashcardsError {
        let error = try? FlashcardsJSON.makeDecoder().decode(ErrorResponse.self, from: body)
        switch status {
        case 400: return .invalid(error)
        case 401: return .unauthorized(error)
        case 404: return .notFound(error)
        case 413: return .tooLarge(error)
        case 429: return .rateLimited(retryAfter: retryAfter.flatMap { Int($0) }, error)
        default: return .http(status: status, error)
        }
    }
}

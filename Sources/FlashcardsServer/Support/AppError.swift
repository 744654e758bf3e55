import AsyncKit
import FlashcardsAPI
import FluentSQLiteDriver
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
        case .invalidResetToken: .unauthorized
        case .wrongCurrentPassword: .forbidden
        case .validation, .invalid, .malformedBody: .badRequest
        case .unauthorized: .unauthorized
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
        case .conflict(let message): ErrorResponse(message: message, code: "conflict")
        case .notFound(let message, let code), .refused(let message, let code), .invalid(let message, let code):
            ErrorResponse(message: message, code: code)
        case .uploadTooLarge(let megabytes):
            ErrorResponse(
                message: "Die Datei ist zu groß. Erlaubt sind höchstens \(megabytes) MB.", code: "payload_too_large")
        case .unsupportedMediaType(let message): ErrorResponse(message: message, code: "unsupported_media_type")
        case .unavailable(let message, let code): ErrorResponse(message: message, code: code)
        }
    }
}

/// Renders every error as `{"message", "code"}`: our own errors as defined, Vapor's aborts and
/// decoding errors as 4xx, and anything unexpected as a 500 that leaks nothing but is logged.
struct ErrorRenderingMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch is RouteNotFound where request.method != .OPTIONS {
            // A path the router knows under other methods: 405 with those methods, not 404.
            let allowed = RouteMethods.allowed(for: request)
            guard !allowed.isEmpty else { return Self.response(for: Abort(.notFound), request: request) }
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .allow, value: allowed.map(\.rawValue).joined(separator: ", "))
            return Self.response(for: Abort(.methodNotAllowed, headers: headers), request: request)
        } catch {
            return Self.response(for: error, request: request)
        }
    }

    static func response(for error: any Error, request: Request) -> Response {
        let status: HTTPResponseStatus
        let body: ErrorResponse
        var headers = HTTPHeaders()
        switch error {
        case let error as AppError:
            status = error.status(compatibility: !request.url.path.hasPrefix("/api/"))
            body = error.body
            if case .tooManyAttempts(let seconds) = error {
                headers.replaceOrAdd(name: .retryAfter, value: "\(seconds)")
            }
            if case .tooManyRequests(_, let seconds) = error {
                headers.replaceOrAdd(name: .retryAfter, value: "\(seconds)")
            }
        case let error as DecodingError:
            status = .badRequest
            body = ErrorResponse(message: describe(error), code: "malformed_json")
        case let error as any AbortError:
            status = error.status
            headers = error.headers
            body = ErrorResponse(message: message(for: error), code: code(for: error.status))
        case let error where isDatabaseBusy(error):
            // Another process kept SQLite locked past the 10 s wait: nothing was written, so the
            // request can simply be sent again.
            status = .serviceUnavailable
            headers.replaceOrAdd(name: .retryAfter, value: "1")
            body = ErrorResponse(
                message: "Die Datenbank ist gerade belegt. Bitte versuche es gleich noch einmal.", code: "database_busy"
            )
        default:
            status = .internalServerError
            body = ErrorResponse(message: "Interner Serverfehler.", code: "internal_error")
            request.logger.report(error: error)
        }
        if status.code >= 500, !(error is AppError) {
            request.logger.error("\(request.method) \(request.url.path) failed: \(String(reflecting: error))")
        }
        let response = Response(status: status, headers: headers)
        do {
            try response.content.encode(body, using: FlashcardsJSON.makeEncoder())
        } catch {
            response.body = .init(string: #"{"message":"Interner Serverfehler.","code":"internal_error"}"#)
            response.headers.contentType = .json
        }
        return response
    }

    /// A lock held by another SQLite connection, from the driver or the inline connections, or no
    /// free driver connection in time (a long write transaction holds it).
    private static func isDatabaseBusy(_ error: any Error) -> Bool {
        if error is ConnectionPoolTimeoutError { return true }
        if let error = error as? InlineSQLiteError { return error.isLocked }
        guard let error = error as? SQLiteError else { return false }
        return switch error.reason {
        case .busy, .busyTimeout, .busyInRecovery, .busyInSnapshot, .locked: true
        default: false
        }
    }

    private static func message(for error: any AbortError) -> String {
        switch error.status {
        case .payloadTooLarge: "Die Anfrage ist zu groß."
        case .notFound: "Nicht gefunden."
        case .methodNotAllowed: "Diese Methode ist hier nicht erlaubt."
        case .uriTooLong: "Die Adresse ist zu lang (höchstens \(RequestLimitsMiddleware.maximumURI / 1_024) KB)."
        case .requestHeaderFieldsTooLarge:
            "Die Kopfzeilen sind zu groß (höchstens \(RequestLimitsMiddleware.maximumHeaders / 1_024) KB)."
        case .unsupportedMediaType: "Dieser Inhaltstyp wird nicht unterstützt."
        case .badRequest: "Ungültige Anfrage: \(error.reason)"
        default: error.reason
        }
    }

    private static func code(for status: HTTPResponseStatus) -> String {
        switch status {
        case .payloadTooLarge: "payload_too_large"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .uriTooLong: "uri_too_long"
        case .requestHeaderFieldsTooLarge: "headers_too_large"
        case .unsupportedMediaType: "unsupported_media_type"
        case .unauthorized: "unauthorized"
        case .badRequest: "bad_request"
        default: "http_\(status.code)"
        }
    }

    /// A German message naming the field, without echoing the whole body.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "" : keys.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            let name = parent.isEmpty ? key.stringValue : parent + "." + key.stringValue
            return "Das Feld '\(name)' fehlt."
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "Das Feld '\(path(context))' hat den falschen Typ."
        case .dataCorrupted(let context):
            let where_ = path(context)
            return where_.isEmpty
                ? "Der Inhalt ist kein gültiges JSON." : "Das Feld '\(where_)' hat einen ungültigen Wert."
        @unknown default:
            return "Der Inhalt ist kein gültiges JSON."
        }
    }
}

extension Request {
    /// Decodes a JSON body, turning an empty or malformed body into a clear 400 and a body of
    /// another type into a 415.
    func decodeBody<T: Decodable>(_ type: T.Type) throws -> T {
        try requireJSONBody()
        return try Self.decodeJSON(T.self, from: body.data ?? ByteBuffer())
    }

    /// A JSON route takes `application/json` (or a `+json` type) and nothing else: another declared
    /// type is a 415, and so is none on `/api/v1`. The original clients always declare JSON; a
    /// missing type stays accepted on their routes, as the original backend took it.
    func requireJSONBody() throws {
        // No body: the decoder says what is missing (400); only a body has a type to check. A body
        // still streaming in has no data yet: its length or transfer encoding announces it.
        let announced =
            headers.first(name: .transferEncoding) != nil
            || (headers.first(name: .contentLength).flatMap(Int.init) ?? 0) > 0
        guard hasBody || (body.data == nil && announced) else { return }
        guard let type = headers.contentType else {
            if url.path.hasPrefix("/api/") {
                throw AppError.unsupportedMediaType("Der Inhalt muss JSON sein (Content-Type: application/json).")
            }
            return
        }
        let subType = type.subType.lowercased()
        guard type.type.lowercased() == "application", subType == "json" || subType.hasSuffix("+json") else {
            throw AppError.unsupportedMediaType("Der Inhalt muss JSON sein (Content-Type: application/json).")
        }
    }

    /// Decodes JSON bytes with the shared conventions; empty or malformed input is a clear 400.
    static func decodeJSON<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        guard buffer.readableBytes > 0 else { throw AppError.malformedBody("Der Inhalt der Anfrage fehlt.") }
        do {
            return try FlashcardsJSON.makeDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            // Well-formed JSON naming a value a wire enum does not have (`"scheduler": "sm2"`) is a
            // validation failure, as it was while those fields were strings checked by the services;
            // the standard library's raw-value decoding says so in its description.
            if case .dataCorrupted(let context) = error, !context.codingPath.isEmpty,
                context.underlyingError == nil, context.debugDescription.hasPrefix("Cannot initialize ")
            {
                throw AppError.validation(ErrorRenderingMiddleware.describe(error))
            }
            throw AppError.malformedBody(ErrorRenderingMiddleware.describe(error))
        }
    }

    /// Collects a streamed body of at most `limit` bytes; a longer one is refused with `tooLarge`
    /// (413) and never held in memory. The rest of an oversized body is still read (and dropped)
    /// before the answer: a handler that stops reading leaves the body in the connection, so the
    /// client can neither finish sending nor use the connection for its next request.
    func collectBody(limit: Int, tooLarge: any Error = AppError.uploadTooLarge(megabytes: 10)) async throws
        -> ByteBuffer
    {
        var collected = ByteBuffer()
        var oversized = false
        for try await chunk in body {
            var chunk = chunk
            if oversized { continue }
            guard collected.readableBytes + chunk.readableBytes <= limit else {
                oversized = true
                collected = ByteBuffer()
                continue
            }
            collected.writeBuffer(&chunk)
        }
        if oversized { throw tooLarge }
        return collected
    }

    /// Whether the request carries a non-empty body.
    var hasBody: Bool { (body.data?.readableBytes ?? 0) > 0 }
}

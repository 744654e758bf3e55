import AsyncKit
import FlashcardsAPI
import FluentSQLiteDriver
import Vapor

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

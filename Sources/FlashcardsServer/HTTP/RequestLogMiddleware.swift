import Foundation
import Vapor

/// The outermost middleware: every response, errors included, carries its request's id as the
/// `X-Request-Id` header, and every request gets one log line at `info` with that id (`request-id`
/// in text logs, `request_id` in JSON logs), so a learner's report or a proxy's log leads to the
/// server's lines. The line names the route's pattern (`/api/v1/stacks/:stackId`), never the path
/// or query as sent, which can hold ids and tokens.
///
/// Vapor takes the id from the request's own `X-Request-Id` (a proxy's) or makes a UUID. An id a
/// client sent that is longer than 128 characters or holds other than letters, digits, `-`, `_` and
/// `.` is replaced by a new one, in the header and in the log lines alike.
struct RequestLogMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let id = Self.usable(request.id)
        if id != request.id { request.logger[metadataKey: "request-id"] = .string(id) }
        let start = ContinuousClock.now
        let response = try await next.respond(to: request)
        response.headers.replaceOrAdd(name: .xRequestId, value: id)
        if request.logger.logLevel <= .info {
            let route = request.route.map { "/" + $0.path.map(\.description).joined(separator: "/") } ?? "(no route)"
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            let milliseconds = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
            request.logger.info(
                "\(request.method.rawValue) \(route) \(response.status.code)",
                metadata: [
                    "status": .stringConvertible(response.status.code),
                    "duration_ms": .string(String(format: "%.2f", milliseconds)),
                ])
        }
        return response
    }

    static func usable(_ id: String) -> String {
        let allowed =
            !id.isEmpty && id.count <= 128
            && id.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
            }
        return allowed ? id : UUID().uuidString
    }
}

import Vapor

/// Refuses a request line or header block that is longer than any client of ours sends, with the
/// status that says so (414, 431) instead of working on it. Beyond 80 KiB per field SwiftNIO's HTTP
/// parser stops first and closes the connection without an answer (its limit is fixed).
struct RequestLimitsMiddleware: AsyncMiddleware {
    /// The longest path with query (8 KiB, what common proxies allow).
    static let maximumURI = 8 * 1_024
    /// The largest header block, names and values together (16 KiB).
    static let maximumHeaders = 16 * 1_024

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.url.string.utf8.count > Self.maximumURI {
            throw Abort(.uriTooLong)
        }
        let headerBytes = request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        if headerBytes > Self.maximumHeaders {
            throw Abort(.requestHeaderFieldsTooLarge)
        }
        return try await next.respond(to: request)
    }
}

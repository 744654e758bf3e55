import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Foundation
import Vapor

/// Encodes every JSON response with the shared conventions (ISO-8601 dates with milliseconds).
func jsonResponse<T: Encodable>(_ value: T, status: HTTPResponseStatus = .ok) throws -> Response {
    let response = Response(status: status)
    response.headers.contentType = .json
    response.body = .init(data: try FlashcardsJSON.makeEncoder().encode(value))
    return response
}

/// A JSON answer written from a `JSONValue`, members in the order given (MCP's and OAuth's documents).
func jsonResponse(_ value: JSONValue, status: HTTPResponseStatus = .ok) -> Response {
    var headers = HTTPHeaders()
    headers.contentType = .json
    return Response(status: status, headers: headers, body: .init(string: value.text))
}

extension Request {
    /// The query parameter `name`, nil when absent. A URL without a query skips Vapor's query
    /// decoder, which cost a measurable share of every study request even then (docs/benchmarks.md).
    func queryText(_ name: String) -> String? {
        guard let text = url.query, !text.isEmpty else { return nil }
        return query[String.self, at: name]
    }

    /// A whole-number query parameter within `range`; absent gives `default`, anything else a 400.
    func intQuery(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = queryText(name), !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw AppError.validation(
                "\(name) muss eine ganze Zahl von \(range.lowerBound) bis \(range.upperBound) sein.")
        }
        return number
    }
}

/// A Server-Sent Events answer (job progress, the study partner): unbuffered by proxies, never
/// cached; `body` writes the events and the end.
func eventStreamResponse(_ body: @escaping @Sendable (any AsyncBodyStreamWriter) async throws -> Void) -> Response {
    let response = Response(status: .ok)
    response.headers.replaceOrAdd(name: .contentType, value: "text/event-stream; charset=utf-8")
    response.headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
    response.headers.replaceOrAdd(name: "X-Accel-Buffering", value: "no")
    response.body = .init(asyncStream: body)
    return response
}

extension AsyncBodyStreamWriter {
    /// Writes the event `name` with `value` as its JSON data.
    func writeEvent(_ name: String, _ value: some Encodable) async throws {
        let json = String(decoding: try FlashcardsJSON.makeEncoder().encode(value), as: UTF8.self)
        try await writeBuffer(ByteBuffer(string: "event: \(name)\ndata: \(json)\n\n"))
    }
}

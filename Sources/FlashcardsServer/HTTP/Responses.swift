import FlashcardsAPI
import FlashcardsCore
import Foundation
import Vapor

/// Encodes every JSON response with the shared conventions (ISO-8601 dates with milliseconds).
func jsonResponse<T: Encodable>(_ value: T, status: HTTPResponseStatus = .ok) throws -> Response {
    let response = Response(status: status)
    response.headers.contentType = .json
    response.body = .init(data: try FlashcardsJSON.makeEncoder().encode(value))
    return response
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

import FlashcardsAPI
import Foundation
import Vapor

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

import FlashcardsAPI
import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// Builds the original API's stack documents, which carry every card of a stack. These are the
/// largest responses the server sends (a 100,000-card stack is about 35 MB of JSON), so they are
/// written straight from the rows of one indexed query into the response buffer: no models, no
/// intermediate value per card. The output decodes to the same `CompatStack` values the Codable
/// types describe (tested against them).
enum CompatRendering {
    /// A stack just created, without cards.
    static func emptyStack(_ stack: StackModel) -> CompatStack {
        CompatStack(
            id: stack.id!, uniqueId: stack.uniqueId.uuidString.lowercased(), name: stack.name, color: stack.color,
            cards: [])
    }

    /// `GET /stack/{id}`: one stack with all its cards.
    static func response(stack: StackModel, on sql: any SQLDatabase) async throws -> Response {
        var writer = CompatJSONWriter()
        try await writer.appendStack(stack, on: sql)
        return writer.response()
    }

    /// `GET /stack`: every stack of the caller with all its cards, one index range per stack.
    static func response(stacks: [StackModel], on sql: any SQLDatabase) async throws -> Response {
        var writer = CompatJSONWriter()
        writer.raw("[")
        for (index, stack) in stacks.enumerated() {
            if index > 0 { writer.raw(",") }
            try await writer.appendStack(stack, on: sql)
        }
        writer.raw("]")
        return writer.response()
    }
}

/// A JSON writer for the compatibility documents: appends to one growing buffer.
struct CompatJSONWriter {
    private(set) var buffer = ByteBufferAllocator().buffer(capacity: 4_096)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    mutating func raw(_ text: StaticString) {
        buffer.writeStaticString(text)
    }

    mutating func int(_ value: Int) {
        buffer.writeString(String(value))
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest as UTF-8.
    mutating func string(_ value: String) {
        buffer.writeInteger(UInt8(ascii: "\""))
        var utf8 = value
        utf8.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                switch byte {
                case 0x22: buffer.writeStaticString("\\\"")
                case 0x5C: buffer.writeStaticString("\\\\")
                case 0x0A: buffer.writeStaticString("\\n")
                case 0x0D: buffer.writeStaticString("\\r")
                case 0x09: buffer.writeStaticString("\\t")
                default:
                    buffer.writeStaticString("\\u00")
                    buffer.writeInteger(Self.hexDigits[Int(byte >> 4)])
                    buffer.writeInteger(Self.hexDigits[Int(byte & 0x0F)])
                }
                start = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start...])))
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    /// Appends `{"id",…,"cards":[…]}` for `stack`, reading its cards' columns in id order.
    mutating func appendStack(_ stack: StackModel, on sql: any SQLDatabase) async throws {
        raw("{\"id\":")
        int(stack.id!)
        raw(",\"uniqueId\":")
        string(stack.uniqueId.uuidString.lowercased())
        raw(",\"name\":")
        string(stack.name)
        raw(",\"color\":")
        string(stack.color)
        raw(",\"cards\":[")
        // The row callback runs once per row, in order, before `run` returns; the box only carries
        // the buffer through the `@Sendable` closure.
        let box = NIOLockedValueBox((writer: self, first: true, error: (any Error)?.none))
        buffer = ByteBuffer()  // the box holds the only reference, so appends never copy
        try await sql.select()
            .columns("id", "unique_id", "question", "answer", "hint", "due_at", "level")
            .from(CardModel.schema)
            .where("stack_id", .equal, stack.id!)
            .orderBy("id")
            .run { row in
                box.withLockedValue { state in
                    guard state.error == nil else { return }
                    do {
                        if !state.first { state.writer.raw(",") }
                        state.first = false
                        try state.writer.appendCard(row)
                    } catch {
                        state.error = error
                    }
                }
            }
        let state = box.withLockedValue { $0 }
        if let error = state.error { throw error }
        self = state.writer
        raw("]}")
    }

    /// One card as the original serialised it: no options outside `card/next`, hint `""` for none.
    private mutating func appendCard(_ row: any SQLRow) throws {
        let id = try row.decode(column: "id", as: Int.self)
        raw("{\"id\":")
        int(id)
        raw(",\"uniqueId\":")
        string(try row.decode(column: "unique_id", as: UUID.self).uuidString.lowercased())
        raw(",\"question\":")
        string(try row.decode(column: "question", as: String.self))
        raw(",\"answer\":")
        string(try row.decode(column: "answer", as: String.self))
        raw(",\"hint\":")
        string(try row.decode(column: "hint", as: String?.self) ?? "")
        raw(",\"difficultyAndDurations\":[],\"maturity\":{\"id\":")
        int(id)
        raw(",\"maturity\":")
        string(FlashcardsJSON.string(from: try row.decode(column: "due_at", as: Date.self)))
        raw(",\"level\":")
        int(try row.decode(column: "level", as: Int.self))
        raw("}}")
    }

    func response() -> Response {
        let response = Response(status: .ok)
        response.headers.contentType = .json
        response.body = .init(buffer: buffer)
        return response
    }
}

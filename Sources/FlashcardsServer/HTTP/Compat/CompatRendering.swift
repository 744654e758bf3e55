import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// Builds the original API's stack documents, which carry every card of a stack. These are the
/// largest responses the server sends (tens of megabytes for a 100,000-card stack), so they are
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
        var writer = JSONBufferWriter()
        try await writer.appendStack(stack, on: sql)
        return writer.response()
    }

    /// `GET /stack`: every stack of the caller with all its cards, one index range per stack.
    static func response(stacks: [StackModel], on sql: any SQLDatabase) async throws -> Response {
        var writer = JSONBufferWriter()
        writer.raw("[")
        for (index, stack) in stacks.enumerated() {
            if index > 0 { writer.raw(",") }
            try await writer.appendStack(stack, on: sql)
        }
        writer.raw("]")
        return writer.response()
    }
}

/// The compatibility documents, written with `JSONBufferWriter`.
extension JSONBufferWriter {
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
            .columns("id", "unique_id", "question", "answer", "hint", "due_at", "level", "kind", "variant", "format")
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

    /// One card as the original serialised it: no options outside `card/next`, hint `""` for none;
    /// as `CardModel.compat` shows it (a rich card's texts without their formatting, a card of
    /// another kind its sides).
    private mutating func appendCard(_ row: any SQLRow) throws {
        let id = try row.decode(column: "id", as: Int.self)
        let format = try storedValue(
            CardFormat.self, try row.decode(column: "format", as: String.self), column: "cards.format")
        let kind = try storedValue(CardKind.self, try row.decode(column: "kind", as: String.self), column: "cards.kind")
        var question = try row.decode(column: "question", as: String.self)
        var answer = try row.decode(column: "answer", as: String.self)
        if kind != .basic || format != .plain {
            let sides = CardSides(
                kind: kind, variant: try row.decode(column: "variant", as: Int.self), question: question,
                answer: answer,
                format: format)
            question = format.plainText(sides.question)
            answer = format.plainText(sides.answer)
        }
        raw("{\"id\":")
        int(id)
        raw(",\"uniqueId\":")
        string(try row.decode(column: "unique_id", as: UUID.self).uuidString.lowercased())
        raw(",\"question\":")
        string(question)
        raw(",\"answer\":")
        string(answer)
        raw(",\"hint\":")
        string(try row.decode(column: "hint", as: String?.self).map(format.plainText) ?? "")
        raw(",\"difficultyAndDurations\":[],\"maturity\":{\"id\":")
        int(id)
        raw(",\"maturity\":")
        string(FlashcardsJSON.string(from: try row.decode(column: "due_at", as: Date.self)))
        raw(",\"level\":")
        int(try row.decode(column: "level", as: Int.self))
        raw("}}")
    }
}

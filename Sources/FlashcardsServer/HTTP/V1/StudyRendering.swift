import FlashcardsAPI
import Foundation
import Vapor

/// The learning path's answers (`study/next`, `study/rate`), written with `JSONBufferWriter`:
/// `JSONEncoder` took a large share of a next-card's server time (docs/benchmarks.md). Same fields and values as the
/// Codable encoding of the DTOs, `null` for absent ones (tested against it).
enum StudyRendering {
    static func response(_ next: StudyNextResponse) -> Response {
        var writer = JSONBufferWriter()
        writer.studyNext(next)
        return writer.response()
    }

    static func response(_ rated: RateResponse) -> Response {
        var writer = JSONBufferWriter()
        writer.raw("{\"card\":")
        writer.card(rated.card)
        writer.raw(",\"next\":")
        writer.studyNext(rated.next)
        writer.raw("}")
        return writer.response()
    }
}

extension JSONBufferWriter {
    /// `StudyNextResponse`.
    mutating func studyNext(_ next: StudyNextResponse) {
        raw("{\"card\":")
        optional(next.card) { $0.card($1) }
        raw(",\"options\":[")
        for (index, option) in next.options.enumerated() {
            if index > 0 { raw(",") }
            raw("{\"rating\":")
            string(option.rating.rawValue)
            raw(",\"id\":")
            int(option.id)
            raw(",\"label\":")
            string(option.label)
            raw(",\"color\":")
            string(option.color)
            raw(",\"intervalSeconds\":")
            int(option.intervalSeconds)
            raw(",\"intervalText\":")
            string(option.intervalText)
            raw("}")
        }
        raw("],\"dueCount\":")
        int(next.dueCount)
        raw(",\"nextDueAt\":")
        optional(next.nextDueAt) { $0.date($1) }
        raw("}")
    }

    /// `CardDTO`.
    mutating func card(_ card: CardDTO) {
        raw("{\"id\":")
        string(card.id.uuidString.lowercased())
        raw(",\"stackId\":")
        string(card.stackId.uuidString.lowercased())
        raw(",\"question\":")
        string(card.question)
        raw(",\"answer\":")
        string(card.answer)
        raw(",\"hint\":")
        optional(card.hint) { $0.string($1) }
        raw(",\"dueAt\":")
        date(card.dueAt)
        raw(",\"level\":")
        int(card.level)
        raw(",\"createdAt\":")
        date(card.createdAt)
        raw(",\"updatedAt\":")
        date(card.updatedAt)
        raw(",\"state\":")
        optional(card.state) { $0.string($1.rawValue) }
        raw(",\"stability\":")
        optional(card.stability) { $0.double($1) }
        raw(",\"difficulty\":")
        optional(card.difficulty) { $0.double($1) }
        raw(",\"lastReviewedAt\":")
        optional(card.lastReviewedAt) { $0.date($1) }
        raw(",\"reviewCount\":")
        optional(card.reviewCount) { $0.int($1) }
        raw(",\"step\":")
        optional(card.step) { $0.int($1) }
        raw(",\"firstReviewedAt\":")
        optional(card.firstReviewedAt) { $0.date($1) }
        raw(",\"number\":")
        optional(card.number) { $0.int($1) }
        raw(card.bookmarked ? ",\"bookmarked\":true" : ",\"bookmarked\":false")
        raw(",\"format\":")
        string(card.format.rawValue)
        raw(",\"rendered\":")
        optional(card.rendered) { writer, rendered in
            writer.raw("{\"question\":")
            writer.string(rendered.question)
            writer.raw(",\"answer\":")
            writer.string(rendered.answer)
            writer.raw(",\"hint\":")
            writer.optional(rendered.hint) { $0.string($1) }
            writer.raw("}")
        }
        raw(",\"kind\":")
        string((card.kind ?? .basic).rawValue)
        raw(",\"variant\":")
        int(card.variant ?? 0)
        raw(",\"noteId\":")
        optional(card.noteId) { $0.string($1) }
        raw(",\"choices\":")
        optional(card.choices) { writer, choices in
            writer.raw("[")
            for (index, choice) in choices.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.string(choice)
            }
            writer.raw("]")
        }
        raw(",\"shown\":")
        optional(card.shown) { writer, shown in
            writer.raw("{\"question\":")
            writer.string(shown.question)
            writer.raw(",\"answer\":")
            writer.string(shown.answer)
            writer.raw(",\"expected\":")
            writer.string(shown.expected)
            writer.raw("}")
        }
        raw("}")
    }
}

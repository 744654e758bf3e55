import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FlashcardsAPI
@testable import FlashcardsServer

/// The shared date format of every API.
@Suite("JSON dates")
struct JSONCodingTests {
    @Test("every millisecond a client sends comes back unchanged")
    func millisecondsRoundTrip() throws {
        for second in ["2026-11-19T17:52:10", "1999-12-31T23:59:59", "2038-01-19T03:14:07"] {
            for millisecond in 0..<1_000 {
                let digits = String(millisecond)
                let text = second + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
                let date = try #require(FlashcardsJSON.date(from: text))
                #expect(FlashcardsJSON.string(from: date) == text)
            }
        }
    }

    @Test("dates are rounded to the nearest millisecond and written in UTC")
    func rounding() throws {
        let base = try #require(FlashcardsJSON.date(from: "2026-06-13T15:51:05Z"))
        #expect(FlashcardsJSON.string(from: base) == "2026-06-13T15:51:05.000Z")
        #expect(FlashcardsJSON.string(from: base.addingTimeInterval(0.123_4)) == "2026-06-13T15:51:05.123Z")
        #expect(FlashcardsJSON.string(from: base.addingTimeInterval(0.123_6)) == "2026-06-13T15:51:05.124Z")
        #expect(FlashcardsJSON.string(from: base.addingTimeInterval(0.999_7)) == "2026-06-13T15:51:06.000Z")
        #expect(FlashcardsJSON.string(from: Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
        let zone = try #require(FlashcardsJSON.date(from: "2026-06-13T17:51:05.5+02:00"))
        #expect(FlashcardsJSON.string(from: zone) == "2026-06-13T15:51:05.500Z")
    }
}

@Suite("JSON dates, written directly")
struct JSONDateWritingTests {
    @Test("dates from 1970 to 9999 are written as the format style writes them")
    func sameAsFormatStyle() {
        var generator = SplitMix64(seed: 20_261_122)
        var milliseconds: [Double] = [0, 1, 999, 86_399_999, 86_400_000, 951_782_400_000, 253_402_300_799_999]
        // Leap days, the turns of centuries and of 400-year eras, month ends.
        for text in ["2000-02-29", "2100-02-28", "2100-03-01", "2400-02-29", "1972-12-31", "9999-12-31"] {
            if let date = FlashcardsJSON.date(from: text + "T23:59:59.999Z") {
                milliseconds.append((date.timeIntervalSince1970 * 1_000).rounded())
            }
        }
        for _ in 0..<20_000 {
            milliseconds.append((generator.nextUnit() * 253_402_300_799_999).rounded())
        }
        for value in milliseconds {
            let date = Date(timeIntervalSince1970: value / 1_000)
            let expected = FlashcardsJSON.formatted((date.timeIntervalSince1970 * 1_000).rounded())
            guard FlashcardsJSON.string(from: date) == expected else {
                Issue.record("\(value) ms: \(FlashcardsJSON.string(from: date)), not \(expected)")
                return
            }
        }
    }
}

@Suite("Learning answers written directly")
struct StudyRenderingTests {
    /// Cards with every optional field absent and present, text that needs escaping, and numbers
    /// that Swift and `JSONEncoder` might write differently.
    static func cards() throws -> [CardDTO] {
        let due = try #require(FlashcardsJSON.date(from: "2026-06-13T15:51:05.123Z"))
        let plain = CardDTO(
            id: UUID(), stackId: UUID(), question: "Was ist ein Kondensator?", answer: "Ein Bauteil.", hint: nil,
            dueAt: due, level: 0, createdAt: due.addingTimeInterval(-86_400), updatedAt: due)
        let texts = [
            "Anführungszeichen \" und \\ Backslash / Schrägstrich", "Zeile\nZeile\r\n\tTab \u{1} \u{1F} \u{7F}",
            "Ümlaute äöüß, Emoji 🧠, Formel ∑ x² ≤ 10", "",
        ]
        var cards = [plain]
        for (index, text) in texts.enumerated() {
            cards.append(
                CardDTO(
                    id: UUID(), stackId: UUID(), question: text, answer: text.uppercased(), hint: text, dueAt: due,
                    level: index, createdAt: due, updatedAt: due.addingTimeInterval(0.999), state: .review,
                    stability: [0.001, 1e-7, 9.977995708203709, 36_500, 123_456_789.125][index],
                    difficulty: [1, 10, 5.5, 7.123456789012345, 2][index], lastReviewedAt: due.addingTimeInterval(-60),
                    reviewCount: index * 7, step: index.isMultiple(of: 2) ? index : nil,
                    firstReviewedAt: due.addingTimeInterval(-86_400.5), number: 1 + index * 1_000_003))
        }
        // A card of another kind: its note, choices and sides.
        let sides = CardSides(
            kind: .multipleChoice, variant: 0, question: texts[0], answer: texts[1], format: .markdown)
        cards.append(
            CardDTO(
                id: UUID(), stackId: UUID(), question: texts[0], answer: texts[1], hint: nil, dueAt: due, level: 0,
                createdAt: due, updatedAt: due, format: .markdown,
                rendered: RenderedCardDTO(question: sides.question, answer: sides.answer, hint: nil),
                kind: .multipleChoice, variant: 2, noteId: "0f6d8c1e-4f0b-4c55-9a3b-1df3f5b0c0aa",
                choices: [texts[2], "\"", ""], shown: CardSidesDTO(sides)))
        return cards
    }

    static func options() -> [StudyOptionDTO] {
        [
            StudyOptionDTO(
                rating: .again, id: 11, label: "Nochmal", color: "#EF4444", intervalSeconds: 60,
                intervalText: "1 Minute"),
            StudyOptionDTO(
                rating: .easy, id: 14, label: "Einfach \"schnell\"", color: "#0EA5E9", intervalSeconds: 52_345,
                intervalText: "1 Tag"),
        ]
    }

    /// The written body and `JSONEncoder`'s, parsed: equal objects, and the body decodes to `value`.
    func expectSame<Value: Codable & Equatable>(_ value: Value, written response: Response) throws {
        let written = try #require(response.body.data)
        let encoded = try FlashcardsJSON.makeEncoder().encode(value)
        let writtenObject = try #require(try JSONSerialization.jsonObject(with: written) as? NSDictionary)
        let encodedObject = try #require(try JSONSerialization.jsonObject(with: encoded) as? NSDictionary)
        #expect(writtenObject == encodedObject, "\(String(decoding: written, as: UTF8.self))")
        #expect(try FlashcardsJSON.makeDecoder().decode(Value.self, from: written) == value)
        #expect(response.headers.contentType == .json)
    }

    @Test("study/next and study/rate answers are what JSONEncoder writes")
    func sameAsEncoder() throws {
        let cards = try Self.cards()
        let due = cards[0].dueAt
        var answers = [
            StudyNextResponse(card: nil, options: [], dueCount: 0, nextDueAt: nil),
            StudyNextResponse(card: nil, options: [], dueCount: 0, nextDueAt: due),
        ]
        for card in cards {
            answers.append(StudyNextResponse(card: card, options: Self.options(), dueCount: 1_000, nextDueAt: nil))
        }
        for answer in answers {
            try expectSame(answer, written: StudyRendering.response(answer))
        }
        for card in cards {
            let rated = RateResponse(card: card, next: answers[1])
            try expectSame(rated, written: StudyRendering.response(rated))
        }
    }
}

@Suite("Compatibility stacks written directly")
struct CompatRenderingTests {
    @Test(
        "GET /stack/{id} writes what JSONEncoder writes for the stack's CompatStack",
        arguments: TestDatabase.available)
    func sameAsEncoder(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Zeichen \"ÄÖÜ\" \\ / 🧠", color: "#123456")
                let sql = try #require(app.db as? any SQLDatabase)
                let model = try #require(try await StackModel.query(on: app.db).first())
                /// The written document and `JSONEncoder`'s for the same cards, parsed.
                func compare() async throws {
                    let written = try #require(
                        try await CompatRendering.response(stack: model, on: sql).body.data)
                    let cards = try await CardModel.query(on: app.db).filter(\.$stackId == model.id!).sort(\.$id).all()
                    let value = CompatStack(
                        id: model.id!, uniqueId: model.uniqueId.uuidString.lowercased(), name: model.name,
                        color: model.color, cards: try cards.map { try $0.compat() })
                    let encoded = try FlashcardsJSON.makeEncoder().encode(value)
                    let writtenObject = try JSONSerialization.jsonObject(with: written) as? NSDictionary
                    let encodedObject = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
                    #expect(
                        writtenObject != nil && writtenObject == encodedObject,
                        "\(String(decoding: written, as: UTF8.self))")
                    #expect(try FlashcardsJSON.makeDecoder().decode(CompatStack.self, from: written) == value)
                }
                // No cards yet.
                try await compare()
                let texts = [
                    "Anführungszeichen \" und \\ Backslash / Schrägstrich", "Zeile\nZeile\r\n\tTab \u{1} \u{1F} \u{7F}",
                    "Ümlaute äöüß, Emoji 🧠, Formel ∑ x² ≤ 10", "<b>kein HTML</b> & &amp;",
                ]
                var ids: [UUID] = []
                for (index, text) in texts.enumerated() {
                    // Every other card without a hint (written as "" in this API).
                    let card = try await client.createCard(
                        in: stack.id, question: text, answer: texts[(index + 1) % texts.count],
                        hint: index.isMultiple(of: 2) ? nil : text)
                    ids.append(card.id)
                }
                // A rated card: another due date (with milliseconds) and level.
                _ = try await client.rate(ids[1], in: stack.id, rating: .good)
                // A rich card (its texts without their formatting, as this API's clients show plain
                // text) and a cloze (its sides, the gap hidden).
                _ = try await client.createCard(
                    in: stack.id, question: "**Fett** und $x^2$", answer: "- eins\n- zwei", hint: "_kursiv_",
                    format: .markdown)
                _ = try await client.createCard(
                    in: stack.id, question: "Die {{c1::Zellmembran}} umgibt die Zelle.", answer: "", kind: .cloze)
                try await compare()
            }
        }
    }
}

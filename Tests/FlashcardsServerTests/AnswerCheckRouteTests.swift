import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// `POST /api/v1/stacks/{id}/study/check` (Write mode): a typed answer against the card's, with the
/// rating it counts as in the stack's scheduler; nothing is written.
@Suite("Typed answers")
struct AnswerCheckRouteTests {
    @Test("verdicts, diff and ratings in both schedulers; nothing written", arguments: TestDatabase.available)
    func check(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let fsrs = try await client.createStack(name: "Biologie", color: "#000000")
                let card = try await client.createCard(
                    in: fsrs.id, question: "Kraftwerk der Zelle?", answer: "Mitochondrium")
                let right = try await client.check("  mitochondrium. ", for: card.id, in: fsrs.id)
                #expect(right.verdict == .correct && right.rating == .good && right.expected == "Mitochondrium")
                let typo = try await client.check("Mitochondirum", for: card.id, in: fsrs.id)
                #expect(typo.verdict == .close && typo.rating == .hard && typo.ratingIfRight == .good)
                #expect(typo.diff.contains { $0.kind == .extra } && typo.diff.contains { $0.kind == .missing })
                let wrong = try await client.check("Ribosom", for: card.id, in: fsrs.id)
                #expect(wrong.verdict == .wrong && wrong.rating == .again)

                let ladder = try await client.createStack(name: "Vokabeln", color: "#000000", scheduler: .ladder)
                let word = try await client.createCard(in: ladder.id, question: "Übung", answer: "exercise")
                #expect(try await client.check("EXERCISE", for: word.id, in: ladder.id).rating == .easy)
                #expect(try await client.check("exercse", for: word.id, in: ladder.id).rating == .medium)
                #expect(try await client.check("dog", for: word.id, in: ladder.id).rating == .hard)
                let umlaut = try await client.createCard(in: ladder.id, question: "practice", answer: "Übung")
                #expect(try await client.check("Ubung", for: umlaut.id, in: ladder.id).verdict == .close)
                #expect(
                    try await client.check("Ubung", for: umlaut.id, in: ladder.id, ignoreDiacritics: true).verdict
                        == .correct)

                // A card of another stack is not found; nothing was rated by any check.
                await #expect(throws: FlashcardsError.self) {
                    _ = try await client.check("x", for: card.id, in: ladder.id)
                }
                #expect(try await ReviewLogModel.query(on: app.db).count() == 0)
                #expect(try await client.card(card.id, in: fsrs.id).reviewCount == 0)
            }
        }
    }
}

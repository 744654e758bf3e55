import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// `GET /api/v1/stacks/{id}/study/quiz`: the next due card as a multiple-choice question, rated
/// through `study/rate` in the quiz mode.
@Suite("Quiz questions")
struct QuizTests {
    @Test(
        "the next card's answer among three of the stack's other answers, rated as a quiz",
        arguments: TestDatabase.available)
    func question(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Geschichte", color: "#000000")
                let empty = try await client.quiz(in: stack.id)
                #expect(empty.card == nil && empty.choices.isEmpty && empty.correctIndex == nil)
                let answers = ["1789", "1492", "Ribosom", "1848", "1918", "Napoleon", "1789", "1871"]
                for (index, answer) in answers.enumerated() {
                    _ = try await client.createCard(in: stack.id, question: "Frage \(index)", answer: answer)
                    clock.advance(by: 1)
                }
                let next = try await client.nextCard(in: stack.id)
                let quiz = try await client.quiz(in: stack.id)
                let card = try #require(quiz.card)
                #expect(card.id == next.card?.id && card.answer == "1789")
                let correct = try #require(quiz.correctIndex)
                #expect(quiz.choices.count == 4 && !quiz.fewerChoices && quiz.choices[correct] == "1789")
                // Distinct choices, the answer once, numbers among numbers.
                #expect(Set(quiz.choices).count == 4)
                #expect(quiz.choices.allSatisfy { AnswerKind(of: $0) == .numeric })
                #expect(quiz.ratingIfRight == .good && quiz.ratingIfWrong == .again)
                #expect(quiz.dueCount == next.dueCount)
                // Asked again before an answer: the same question (the card may have gained a hint).
                let again = try await client.quiz(in: stack.id)
                #expect(again.card?.id == card.id && again.choices == quiz.choices)
                #expect(again.correctIndex == quiz.correctIndex)

                let rated = try await client.rate(card.id, in: stack.id, rating: quiz.ratingIfRight, mode: .quiz)
                #expect(rated.card.reviewCount == 1)
                let log = try #require(try await ReviewLogModel.query(on: app.db).first())
                #expect(try log.mode == "quiz" && log.storedRating == .fsrs(.good))
            }
        }
    }

    @Test(
        "rich answers among the choices come with their HTML, plain ones and the asked card's own without",
        arguments: TestDatabase.available)
    func renderedChoices(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Physik", color: "#000000")
                let asked = try await client.createCard(
                    in: stack.id, question: "Kinetische Energie?", answer: "$E_{kin}=\\frac{1}{2}mv^2$",
                    format: .markdown)
                clock.advance(by: 1)
                _ = try await client.createCard(
                    in: stack.id, question: "Ruheenergie?", answer: "$E=mc^2$", format: .markdown)
                clock.advance(by: 1)
                _ = try await client.createCard(in: stack.id, question: "Einheit der Energie?", answer: "Joule")
                clock.advance(by: 1)
                _ = try await client.createCard(
                    in: stack.id, question: "Impuls?", answer: "**p** = m·v", format: .markdown)
                let quiz = try await client.quiz(in: stack.id)
                #expect(quiz.card?.id == asked.id)
                let correct = try #require(quiz.correctIndex)
                #expect(quiz.renderedChoices.count == quiz.choices.count && quiz.choices.count == 4)
                // The words stay for clients that show text; the HTML of each rich distractor goes along.
                for (index, choice) in quiz.choices.enumerated() {
                    let rendered = quiz.renderedChoices[index]
                    switch choice {
                    case _ where index == correct: #expect(rendered == nil)
                    case "Joule": #expect(rendered == nil)
                    case "E=mc^2": #expect(rendered == "<p><span class=\"math\">E=mc^2</span></p>")
                    case "p = m·v": #expect(rendered == "<p><strong>p</strong> = m·v</p>")
                    default: Issue.record("unexpected choice \(choice)")
                    }
                }

                // A rich multiple-choice card's own wrong options are rendered as written.
                let own = try await client.createStack(name: "Formeln", color: "#000000")
                _ = try await client.createCard(
                    in: own.id, question: "Fläche eines Kreises?", answer: "$\\pi r^2$", format: .markdown,
                    kind: .multipleChoice, choices: ["$2\\pi r$", "$\\pi d$"])
                let choiceQuiz = try await client.quiz(in: own.id)
                let right = try #require(choiceQuiz.correctIndex)
                #expect(choiceQuiz.renderedChoices[right] == nil)
                #expect(
                    Set(choiceQuiz.renderedChoices.compactMap { $0 })
                        == ["<p><span class=\"math\">2\\pi r</span></p>", "<p><span class=\"math\">\\pi d</span></p>"])
            }
        }
    }

    @Test("a ladder stack's keys; a small stack gives fewer choices", arguments: TestDatabase.available)
    func smallLadderStack(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Vokabeln", color: "#000000", scheduler: .ladder)
                _ = try await client.createCard(in: stack.id, question: "Hund", answer: "dog")
                let alone = try await client.quiz(in: stack.id)
                #expect(alone.choices == ["dog"] && alone.correctIndex == 0 && alone.fewerChoices)
                _ = try await client.createCard(in: stack.id, question: "Katze", answer: "cat")
                _ = try await client.createCard(in: stack.id, question: "Hündin", answer: "Dog!")
                let quiz = try await client.quiz(in: stack.id)
                // "Dog!" is the answer again, not a distractor.
                #expect(quiz.choices.sorted() == ["cat", "dog"] && quiz.fewerChoices)
                #expect(quiz.ratingIfRight == .easy && quiz.ratingIfWrong == .hard)
            }
        }
    }
}

import Foundation
import Testing

@testable import FlashcardsCore

@Suite("Study modes: typed answers and quiz options")
struct StudyModesTests {
    // Verdicts, diffs, normalised texts and answer kinds, case by case: Fixtures/answer-check.json
    // (SharedFixtureTests, and the web app's port under Node).

    @Test("a verdict's rating and distance: a typo is close (Hard) at its distance")
    func verdicts() {
        let typo = AnswerCheck.check("Mitochondirum", against: "Mitochondrium")
        #expect(typo.verdict == .close && typo.verdict.rating == .hard && typo.distance == 2)
        #expect(AnswerCheck.Verdict.correct.rating == .good && AnswerCheck.Verdict.wrong.rating == .again)
    }

    @Test("a diff reassembles both texts: same + extra is the typed one, same + missing the answer")
    func diff() {
        for (typed, expected) in [
            ("Photosynthese", "Fotosynthese"), ("abc", "xyz"), ("Ein langer Satz.", "Ein kurzer Satz"),
        ] {
            let diff = AnswerCheck.diff(typed, expected)
            #expect(diff.filter { $0.kind != .missing }.map(\.text).joined() == typed)
            #expect(
                diff.filter { $0.kind != .extra }.map(\.text).joined().lowercased() == expected.lowercased())
        }
    }

    @Test("very long answers are compared without running away")
    func longAnswers() {
        let answer = String(repeating: "Die Atmungskette liegt in der inneren Mitochondrienmembran. ", count: 300)
        #expect(answer.count > 17_000)
        #expect(AnswerCheck.check(answer, against: answer).verdict == .correct)
        var typo = answer
        typo.removeLast(40)
        #expect(AnswerCheck.check(typo, against: answer).verdict == .close)
        let other = String(repeating: "x", count: 20_000)
        let result = AnswerCheck.check(other, against: answer)
        #expect(result.verdict == .wrong && result.distance == nil)
        // Beyond the diff's edit limit both texts are shown whole.
        #expect(result.diff.map(\.kind) == [.extra, .missing])
    }

    private func candidates(_ answers: [String]) -> [QuizOptions.Candidate] {
        answers.enumerated().map { QuizOptions.Candidate(cardID: Int64($0.offset + 10), answer: $0.element) }
    }

    @Test("distractors are other answers of the same kind and length, never the answer twice")
    func distractors() {
        let pool = candidates([
            "1492", "Mitochondrium", "1789", "mitochondrium!", "Ribosom", "1848", "1789", "Golgi-Apparat",
            "Im Zellkern liegt die DNA der Zelle.", "1918", "", "Chloroplast",
        ])
        let question = QuizOptions.question(answer: "1789", candidates: pool, seed: 7)
        #expect(question.options.count == 4 && !question.isShort)
        #expect(question.options[question.correctIndex] == "1789")
        #expect(question.options.filter { $0 == "1789" }.count == 1)
        #expect(Set(question.options).count == 4)
        // Numbers among numbers.
        #expect(question.options.allSatisfy { AnswerKind(of: $0) == .numeric })
        #expect(question.sources[question.correctIndex] == nil)
        #expect(question.sources.compactMap { $0 }.count == 3)

        let term = QuizOptions.question(answer: "Mitochondrium", candidates: pool, seed: 7)
        let distractors = term.options.enumerated().filter { $0.offset != term.correctIndex }.map(\.element)
        #expect(!distractors.contains { AnswerCheck.normalized($0) == "mitochondrium" })
        #expect(distractors.allSatisfy { AnswerKind(of: $0) == .term })
    }

    @Test("a small stack gives fewer options and says so; an empty one only the answer")
    func smallStacks() {
        let question = QuizOptions.question(answer: "Zellkern", candidates: candidates(["Ribosom"]), seed: 1)
        #expect(question.options.count == 2 && question.isShort)
        let alone = QuizOptions.question(answer: "Zellkern", candidates: [], seed: 1)
        #expect(alone.options == ["Zellkern"] && alone.correctIndex == 0 && alone.isShort)
    }

    @Test("the same inputs give the same question, whatever the candidates' order; seeds move the answer")
    func repeatable() {
        let pool = candidates(["Ribosom", "Zellkern", "Lysosom", "Vakuole", "Zellwand", "Plastid", "Zentriol"])
        let first = QuizOptions.question(answer: "Golgi", candidates: pool, seed: 42)
        #expect(QuizOptions.question(answer: "Golgi", candidates: pool.reversed(), seed: 42) == first)
        let positions = Set(
            (0..<40).map { QuizOptions.question(answer: "Golgi", candidates: pool, seed: $0).correctIndex })
        #expect(positions == [0, 1, 2, 3])
        #expect(QuizOptions.rating(correctOnFirstTry: true) == .good)
        #expect(QuizOptions.rating(correctOnFirstTry: false) == .again)
    }
}

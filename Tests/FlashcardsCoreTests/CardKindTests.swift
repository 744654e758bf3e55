import FlashcardsCore
import Testing

@Suite("Card kinds: cloze gaps, blanks, sides and the checks of each kind")
struct CardKindTests {
    @Test("cloze gaps with numbers, answers and hints; broken markers stay text")
    func clozeGaps() {
        let text =
            "{{c1::Berlin}} ist die Hauptstadt von {{c2::Deutschland::Land}}, {{c1::seit 1990}}. {{c::x}} {{c3:y}} {{c4::offen"
        let gaps = Cloze.gaps(in: text)
        #expect(gaps.map(\.number) == [1, 2, 1])
        #expect(gaps.map(\.answer) == ["Berlin", "Deutschland", "seit 1990"])
        #expect(gaps.map(\.hint) == [nil, "Land", nil])
        #expect(Cloze.numbers(in: text) == [1, 2])
        #expect(Cloze.answer(of: text, number: 1) == "Berlin, seit 1990")
        #expect(Cloze.numbers(in: "keine Lücke {{c0::null}} {{c1000::zu groß}}").isEmpty)
    }

    // The sides of each kind: Fixtures/card-sides.json (SharedFixtureTests, and the web app's port).

    @Test("each kind's variants: a reversed pair, one card per cloze number, one otherwise")
    func variants() {
        #expect(CardKind.reversed.variants(question: "x") == [0, 1])
        #expect(CardKind.cloze.variants(question: "{{c3::a}} {{c1::b}} {{c3::c}}") == [1, 3])
        #expect(CardKind.trueFalse.variants(question: "x") == [0])
        #expect(CardKind.cloze.makesSeveralCards && !CardKind.multipleChoice.makesSeveralCards)
    }

    @Test("what each kind refuses")
    func problems() {
        #expect(CardKind.basic.problem(question: "a", answer: "b", choices: nil) == nil)
        #expect(CardKind.basic.problem(question: "a", answer: "", choices: nil) != nil)
        #expect(CardKind.basic.problem(question: "a", answer: "b", choices: ["c"]) != nil)
        #expect(CardKind.cloze.problem(question: "ohne Lücke", answer: "", choices: nil) != nil)
        #expect(CardKind.cloze.problem(question: "{{c1:: }} leer", answer: "", choices: nil) != nil)
        #expect(CardKind.cloze.problem(question: "{{c1::da}}", answer: "", choices: nil) == nil)
        let many = (1...51).map { "{{c\($0)::x}}" }.joined(separator: " ")
        #expect(CardKind.cloze.problem(question: many, answer: "", choices: nil) != nil)
        #expect(CardKind.trueFalse.problem(question: "a", answer: "true", choices: nil) == nil)
        #expect(CardKind.trueFalse.problem(question: "a", answer: "wahr", choices: nil) != nil)
        #expect(CardKind.multipleChoice.problem(question: "a", answer: "b", choices: ["c", "d"]) == nil)
        #expect(CardKind.multipleChoice.problem(question: "a", answer: "b", choices: nil) != nil)
        #expect(CardKind.multipleChoice.problem(question: "a", answer: "b", choices: []) != nil)
        #expect(CardKind.multipleChoice.problem(question: "a", answer: "b", choices: ["B"]) != nil)
        #expect(CardKind.multipleChoice.problem(question: "a", answer: "b", choices: ["c", " c "]) != nil)
        #expect(CardKind.multipleChoice.problem(question: "a", answer: "b", choices: ["c", ""]) != nil)
        #expect(
            CardKind.multipleChoice.problem(question: "a", answer: "b", choices: Array(repeating: "x", count: 8)) != nil
        )
        #expect(CardKind.fillBlank.problem(question: "ohne __ Lücke", answer: "x", choices: nil) != nil)
        #expect(CardKind.fillBlank.problem(question: "mit ___ Lücke", answer: "x", choices: nil) == nil)
    }

    @Test("a multiple-choice question uses the card's own options, repeatably; true/false has two")
    func ownOptions() {
        let question = QuizOptions.question(answer: "4", ownChoices: ["3", "5", "22", "7", "8"], seed: 42)
        #expect(question.options.count == 4 && question.options[question.correctIndex] == "4")
        #expect(Set(question.options).count == 4)
        #expect(question.options.allSatisfy { ["4", "3", "5", "22", "7", "8"].contains($0) })
        #expect(QuizOptions.question(answer: "4", ownChoices: ["3", "5", "22", "7", "8"], seed: 42) == question)
        let positions = Set(
            (0..<40).map { QuizOptions.question(answer: "4", ownChoices: ["3"], seed: UInt64($0)).correctIndex })
        #expect(positions == [0, 1])
        let truth = QuizOptions.trueFalseQuestion(isTrue: false)
        #expect(truth.options == ["Wahr", "Falsch"] && truth.correctIndex == 1)
    }
}

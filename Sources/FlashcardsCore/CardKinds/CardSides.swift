import Foundation

/// What a learner sees of a card and what their answer is checked against, made from its kind,
/// variant and stored texts. The sides are written in the card's format (a rich card's sides are
/// Markdown as well); `expected` is always plain text.
public struct CardSides: Sendable, Hashable {
    /// The front.
    public var question: String
    /// The back.
    public var answer: String
    /// The answer a typed reply (Write) or a chosen option (Quiz) is checked against.
    public var expected: String

    /// The words a true/false card shows for its truth (German, the product's first language; a
    /// client in another language shows its own words for `answer` `true`/`false`).
    public static func truthWord(_ isTrue: Bool) -> String { isTrue ? "Wahr" : "Falsch" }

    /// The sides of a card.
    public init(kind: CardKind, variant: Int, question: String, answer: String, format: CardFormat) {
        let bold = format == .markdown
        switch kind {
        case .basic, .multipleChoice:
            self.question = question
            self.answer = answer
            self.expected = format.answerText(answer)
        case .reversed:
            let flipped = variant == 1
            self.question = flipped ? answer : question
            self.answer = flipped ? question : answer
            self.expected = format.answerText(self.answer)
        case .cloze:
            self.question = Cloze.side(of: question, asking: variant, revealed: false, bold: bold)
            let revealed = Cloze.side(of: question, asking: variant, revealed: true, bold: bold)
            let extra = answer.trimmingCharacters(in: .whitespacesAndNewlines)
            self.answer = extra.isEmpty ? revealed : revealed + "\n\n" + extra
            self.expected = format.answerText(Cloze.answer(of: question, number: variant))
        case .trueFalse:
            self.question = question
            self.answer = CardSides.truthWord(answer == "true")
            self.expected = self.answer
        case .fillBlank:
            self.question = question
            self.answer = FillBlank.filled(question, with: answer, bold: bold)
            self.expected = format.answerText(answer)
        }
    }
}

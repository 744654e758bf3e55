/// What an answer looks like: the Quiz mode picks distractors of the same kind, and the Write mode
/// accepts no near miss of a number (1788 is not almost 1789).
public enum AnswerKind: Sendable, Hashable {
    /// A number, a year, a date or an amount ("1789", "3,5 kg").
    case numeric
    /// One or two words.
    case term
    /// A phrase or sentence.
    case phrase

    /// The kind of `answer`.
    public init(of answer: String) {
        let text = AnswerCheck.normalized(answer)
        let digits = text.filter(\.isNumber).count
        let letters = text.filter(\.isLetter).count
        if digits > 0, digits >= letters {
            self = .numeric
        } else {
            self = text.split(separator: " ").count <= 2 ? .term : .phrase
        }
    }
}

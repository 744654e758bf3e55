import Foundation

/// What kind of card a card is: how its two stored texts (`question`, `answer`) and its choices
/// become the sides a learner sees and the answer a typed or chosen reply is checked against.
public enum CardKind: String, Codable, Sendable, CaseIterable {
    /// Question on the front, answer on the back.
    case basic
    /// Basic and reversed: two cards of one note, variant 0 asks the question, variant 1 the answer.
    case reversed
    /// `question` is a text with gaps `{{c1::answer}}` or `{{c1::answer::hint}}`; one card per gap
    /// number (the variant is the number); `answer` holds optional extra notes for the back.
    case cloze
    /// `question` is a statement, `answer` is `true` or `false`.
    case trueFalse
    /// `answer` is the right option, the card's choices are the wrong ones.
    case multipleChoice
    /// `question` has one blank (three or more underscores), `answer` is what fills it.
    case fillBlank

    /// Kinds whose one note makes several cards (their texts are edited together).
    public var makesSeveralCards: Bool { self == .reversed || self == .cloze }

    /// The variants a note of this kind makes from `question`: both sides for a reversed note,
    /// one per gap number for a cloze, a single card otherwise.
    public func variants(question: String) -> [Int] {
        switch self {
        case .reversed: [0, 1]
        case .cloze: Cloze.numbers(in: question)
        default: [0]
        }
    }

    /// The kind of card a generated draft becomes: a sentence with a blank (the offline generator's
    /// cloze and fact drafts, `TextToCards.gap`) is a fill-in-the-blank card, anything else basic.
    public static func ofDraft(question: String, answer: String) -> CardKind {
        FillBlank.blank(in: question) != nil && !answer.isEmpty ? .fillBlank : .basic
    }

    /// The stored answer of a true/false card for `isTrue`.
    public static func truth(_ isTrue: Bool) -> String { isTrue ? "true" : "false" }

    /// The fewest and most wrong options of a multiple-choice card.
    public static let choiceRange = 1...7
    /// The longest option of a multiple-choice card, in characters.
    public static let choiceLength = 500

    /// Why a card of this kind cannot be made of these texts (German, the product's first
    /// language); nil when it can. `question` and `answer` are already trimmed and checked for
    /// length; `choices` are the wrong options (only multiple choice has them).
    public func problem(question: String, answer: String, choices: [String]?) -> String? {
        if self != .multipleChoice, choices.map({ !$0.isEmpty }) ?? false {
            return "choices gibt es nur bei Multiple-Choice-Karten."
        }
        switch self {
        case .basic, .reversed:
            return answer.isEmpty ? "Die Rückseite darf nicht leer sein." : nil
        case .cloze:
            let numbers = Cloze.numbers(in: question)
            if numbers.isEmpty {
                return "Ein Lückentext braucht mindestens eine Lücke wie {{c1::Antwort}}."
            }
            if numbers.count > Cloze.maximumGaps {
                return "Ein Lückentext darf höchstens \(Cloze.maximumGaps) Lücken haben."
            }
            if Cloze.gaps(in: question).contains(where: { $0.answer.trimmingCharacters(in: .whitespaces).isEmpty }) {
                return "Eine Lücke darf nicht leer sein."
            }
            return nil
        case .trueFalse:
            return answer == "true" || answer == "false" ? nil : "Bei Wahr/Falsch ist answer true oder false."
        case .multipleChoice:
            if answer.isEmpty { return "Die richtige Antwort darf nicht leer sein." }
            guard let choices, CardKind.choiceRange.contains(choices.count) else {
                return "Eine Multiple-Choice-Karte braucht 1 bis 7 falsche Antworten (choices)."
            }
            var seen: Set<String> = [AnswerCheck.normalized(answer, ignoringDiacritics: false)]
            for choice in choices {
                let text: String
                switch TextCheck.checked(choice, max: CardKind.choiceLength, required: true) {
                case .success(let checked): text = checked
                case .failure(.empty): return "Eine falsche Antwort darf nicht leer sein."
                case .failure(.tooLong):
                    return "Eine Antwort darf höchstens \(CardKind.choiceLength) Zeichen lang sein."
                case .failure: return "Eine Antwort darf kein NUL-Zeichen enthalten."
                }
                guard seen.insert(AnswerCheck.normalized(text, ignoringDiacritics: false)).inserted else {
                    return "Jede Antwort darf nur einmal vorkommen."
                }
            }
            return nil
        case .fillBlank:
            if answer.isEmpty { return "Die fehlende Antwort darf nicht leer sein." }
            return FillBlank.blank(in: question) == nil
                ? "Ein Satz zum Ergänzen braucht eine Lücke aus drei Unterstrichen (___)." : nil
        }
    }
}

/// The gaps of a cloze text: `{{c1::answer}}` or `{{c1::answer::hint}}`, as Anki writes them.
public enum Cloze {
    /// The most gap numbers one text may have (each makes a card).
    public static let maximumGaps = 50

    /// One gap.
    public struct Gap: Sendable, Hashable {
        /// Its number (`c3` → 3); gaps with the same number are asked together.
        public var number: Int
        /// The hidden text.
        public var answer: String
        /// The hint shown in the gap, if any.
        public var hint: String?
        /// Where the whole `{{…}}` is in the text.
        public var range: Range<String.Index>
    }

    /// Every gap of `text` in order. A marker without a number, without `::` or without its closing
    /// braces stays text; braces inside a gap (`{{c1::a {{b}} c}}`, MathJax) belong to it.
    public static func gaps(in text: String) -> [Gap] {
        var gaps: [Gap] = []
        var cursor = text.startIndex
        while let open = text.range(of: "{{c", range: cursor..<text.endIndex) {
            guard let close = closingBraces(in: text[open.upperBound...]) else { break }
            let inner = text[open.upperBound..<close.lowerBound]
            let digits = inner.prefix { $0.isASCII && $0.isNumber }
            let rest = inner.dropFirst(digits.count)
            if let number = Int(digits), (1...999).contains(number), rest.hasPrefix("::") {
                let body = rest.dropFirst(2)
                var answer = String(body)
                var hint: String?
                if let split = body.range(of: "::") {
                    answer = String(body[..<split.lowerBound])
                    hint = String(body[split.upperBound...])
                }
                gaps.append(Gap(number: number, answer: answer, hint: hint, range: open.lowerBound..<close.upperBound))
                cursor = close.upperBound
            } else {
                cursor = text.index(after: open.lowerBound)
            }
        }
        return gaps
    }

    /// The `}}` that closes a gap, skipping nested `{{…}}`.
    private static func closingBraces(in text: Substring) -> Range<String.Index>? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("{{") {
                depth += 1
                index = text.index(index, offsetBy: 2)
            } else if text[index...].hasPrefix("}}") {
                if depth == 0 { return index..<text.index(index, offsetBy: 2) }
                depth -= 1
                index = text.index(index, offsetBy: 2)
            } else {
                index = text.index(after: index)
            }
        }
        return nil
    }

    /// The gap numbers of `text`, ascending, each once.
    public static func numbers(in text: String) -> [Int] {
        Array(Set(gaps(in: text).map(\.number))).sorted()
    }

    /// `text` with the gaps of `number` hidden (`[…]`, or `[hint]`) or, when `revealed`, shown
    /// (in bold when `bold`); every other gap shows its answer.
    public static func side(of text: String, asking number: Int, revealed: Bool, bold: Bool) -> String {
        var result = ""
        var cursor = text.startIndex
        for gap in gaps(in: text) {
            result += text[cursor..<gap.range.lowerBound]
            if gap.number != number {
                result += gap.answer
            } else if revealed {
                result += bold ? "**\(gap.answer)**" : gap.answer
            } else {
                result += "[\(gap.hint ?? "…")]"
            }
            cursor = gap.range.upperBound
        }
        result += text[cursor...]
        return result
    }

    /// What a learner types or picks for the gaps of `number` (several gaps joined by ", ").
    public static func answer(of text: String, number: Int) -> String {
        gaps(in: text).filter { $0.number == number }.map(\.answer).joined(separator: ", ")
    }
}

/// The blank of a fill-in-the-blank card: the first run of three or more underscores.
public enum FillBlank {
    /// Where the blank is, or nil when there is none.
    public static func blank(in text: String) -> Range<String.Index>? {
        guard let start = text.range(of: "___") else { return nil }
        var end = start.upperBound
        while end < text.endIndex, text[end] == "_" { end = text.index(after: end) }
        return start.lowerBound..<end
    }

    /// `text` with its blank filled by `answer` (in bold when `bold`).
    public static func filled(_ text: String, with answer: String, bold: Bool) -> String {
        guard let blank = blank(in: text) else { return text }
        return text.replacingCharacters(in: blank, with: bold ? "**\(answer)**" : answer)
    }
}

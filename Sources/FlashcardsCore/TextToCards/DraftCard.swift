import Foundation

/// A card proposed by a generator, before the user accepts it into a stack.
public struct DraftCard: Sendable, Codable, Hashable {
    /// How a draft came about; the review list and the quality figures group by it.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// "X ist …" / "X is …" and glossary entries.
        case definition
        /// A heading or an introducing sentence followed by bullet points.
        case list
        /// A sentence that names several items after a colon ("Man unterscheidet drei Arten: …").
        case enumeration
        /// A cloze of a number or a year in a sentence.
        case fact
        /// A cloze of a key term in a sentence.
        case cloze
        /// Made by a language model.
        case model
        /// Written by the learner from a passage of the source (from the rules' suggestion or not).
        case manual
    }

    /// The front of the card: a question, or a sentence with a gap (`TextToCards.gap`).
    public var question: String
    /// The back of the card: short and whole.
    public var answer: String
    /// The page of the source document the card was taken from (1-based), when known.
    public var sourcePage: Int?
    /// Which rule or generator made the card.
    public var kind: Kind
    /// The sentence (or heading) of the source the card was made from, when known.
    public var source: String?
    /// The same fact as another kind of card (a definition as a cloze), for the user to switch to.
    public var alternative: Alternative?
    /// The question of a card already in the stack that asks the same, when there is one.
    public var duplicateOf: String?
    /// The kind of card it becomes when a model said so (multiple choice, true/false); nil: the
    /// texts decide (`CardKind.ofDraft`).
    public var cardKind: CardKind?
    /// A multiple-choice draft's wrong options.
    public var choices: [String]?

    /// Another card of the same fact.
    public struct Alternative: Sendable, Codable, Hashable {
        /// Its front.
        public var question: String
        /// Its back.
        public var answer: String
        /// Its kind.
        public var kind: Kind

        /// Creates an alternative.
        public init(question: String, answer: String, kind: Kind) {
            self.question = question
            self.answer = answer
            self.kind = kind
        }
    }

    /// Creates a draft card.
    public init(
        question: String, answer: String, sourcePage: Int? = nil, kind: Kind, source: String? = nil,
        alternative: Alternative? = nil
    ) {
        self.question = question
        self.answer = answer
        self.sourcePage = sourcePage
        self.kind = kind
        self.source = source
        self.alternative = alternative
    }
}

/// The text of one page of a source document.
public struct SourcePage: Sendable, Codable, Hashable {
    /// 1-based page number as printed by the PDF tools.
    public var number: Int
    /// The page's text, lines separated by `\n`.
    public var text: String

    /// Creates a page.
    public init(number: Int, text: String) {
        self.number = number
        self.text = text
    }
}

/// The languages the offline generator understands.
public enum DocumentLanguage: String, Sendable, Codable, CaseIterable {
    /// German.
    case de
    /// English.
    case en
}

/// Detects whether a document is German or English by counting frequent function words.
public enum LanguageDetector {
    private static let german: Set<String> = [
        "der", "die", "das", "und", "ist", "nicht", "ein", "eine", "zu", "den", "von", "mit", "sich", "des",
        "auf", "für", "im", "dem", "werden", "wird", "sind", "auch", "bei", "einer", "man", "oder", "wenn",
    ]
    private static let english: Set<String> = [
        "the", "and", "is", "of", "to", "in", "a", "that", "are", "for", "with", "as", "by", "this", "be",
        "it", "an", "on", "which", "from", "or", "can", "when", "each",
    ]

    /// The language of `text`; German wins ties because the product is German first.
    public static func detect(_ text: String) -> DocumentLanguage {
        var de = 0
        var en = 0
        for word in text.lowercased().split(whereSeparator: { !$0.isLetter }) {
            let token = String(word)
            if german.contains(token) { de += 1 }
            if english.contains(token) { en += 1 }
        }
        return en > de ? .en : .de
    }
}

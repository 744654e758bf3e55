import FlashcardsCore
import Foundation

/// The kinds of card a language model is asked for, each with a schema of its own.
public enum ModelCardKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A question and its answer.
    case basic
    /// A sentence of the text with one gap (`_____`) and what fills it.
    case cloze
    /// A question, its right answer and three wrong but plausible ones from the text.
    case multipleChoice
    /// A statement and whether it is true.
    case trueFalse

    /// The kind of card a draft of this kind becomes.
    public var cardKind: CardKind {
        switch self {
        case .basic: .basic
        case .cloze: .fillBlank
        case .multipleChoice: .multipleChoice
        case .trueFalse: .trueFalse
        }
    }
}

/// Parses and validates a model's card JSON against `ModelCardSchema`.
public enum ModelCardParser {
    /// A card as the model sent it, before screening.
    public struct RawCard: Sendable, Hashable {
        /// What kind of card it is (`basic` when the model did not say).
        public var kind: ModelCardKind = .basic
        /// The question, the cloze's sentence with its gap, or the true/false statement.
        public var question: String
        /// The answer: what fills the gap, the right option, or `true`/`false`.
        public var answer: String
        /// The page the model named, if any.
        public var page: Int?
        /// A multiple-choice card's wrong options.
        public var distractors: [String] = []
        /// The words of the text the card was made from, as the model quoted them.
        public var quote: String?
    }

    /// Why output did not validate.
    public enum Failure: Error, Sendable, Hashable {
        /// Not parseable as JSON (also truncated output).
        case notJSON
        /// JSON, but not an object with a `cards` array.
        case wrongShape
    }

    /// The cards in `content`. Items that miss a kind's fields are counted in `invalidItems` and left
    /// out; the whole output fails when it is not JSON of the schema's shape.
    public static func parse(_ content: String) -> Result<(cards: [RawCard], invalidItems: Int), Failure> {
        var text = content.trimmingCharacters(in: .whitespacesAndNewlines)
        // Models like to wrap JSON in Markdown fences.
        if text.hasPrefix("```") {
            text = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
            if let fence = text.range(of: "```", options: .backwards) { text = String(text[..<fence.lowerBound]) }
        }
        guard let start = text.firstIndex(where: { $0 == "{" || $0 == "[" }) else { return .failure(.notJSON) }
        text = String(text[start...])
        guard let data = text.data(using: .utf8),
            let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return .failure(.notJSON) }
        let items: [Any]
        if let object = json as? [String: Any], let cards = object["cards"] as? [Any] {
            items = cards
        } else if let array = json as? [Any] {
            // The original's assistant answered with a bare array; accept that shape too.
            items = array
        } else {
            return .failure(.wrongShape)
        }
        var cards: [RawCard] = []
        var invalid = 0
        for item in items {
            guard let object = item as? [String: Any], let card = card(object) else {
                invalid += 1
                continue
            }
            cards.append(card)
        }
        if cards.isEmpty && invalid > 0 { return .failure(.wrongShape) }
        return .success((cards, invalid))
    }

    /// One item by its kind; nil when a field its kind needs is missing.
    private static func card(_ object: [String: Any]) -> RawCard? {
        let kind: ModelCardKind
        if let named = object["kind"] as? String {
            guard let known = ModelCardKind(rawValue: named) else { return nil }
            kind = known
        } else {
            kind =
                object["statement"] != nil
                ? .trueFalse : object["text"] != nil ? .cloze : object["distractors"] != nil ? .multipleChoice : .basic
        }
        let page = (object["page"] as? Int) ?? (object["page"] as? Double).map { Int($0) }
        let quote = object["quote"] as? String
        switch kind {
        case .basic, .multipleChoice:
            guard let question = object["question"] as? String, let answer = object["answer"] as? String else {
                return nil
            }
            let distractors = (object["distractors"] as? [Any])?.compactMap { $0 as? String } ?? []
            guard kind == .basic || !distractors.isEmpty else { return nil }
            return RawCard(
                kind: kind, question: question, answer: answer, page: page, distractors: distractors, quote: quote)
        case .cloze:
            guard let text = (object["text"] ?? object["question"]) as? String, let answer = object["answer"] as? String
            else { return nil }
            return RawCard(kind: kind, question: text, answer: answer, page: page, quote: quote)
        case .trueFalse:
            guard let statement = (object["statement"] ?? object["question"]) as? String else { return nil }
            let truth: Bool
            switch object["answer"] {
            case let value as Bool: truth = value
            case let value as String where ["true", "wahr", "richtig"].contains(value.lowercased()): truth = true
            case let value as String where ["false", "falsch"].contains(value.lowercased()): truth = false
            default: return nil
            }
            return RawCard(kind: kind, question: statement, answer: CardKind.truth(truth), page: page, quote: quote)
        }
    }

    /// The draft a raw card becomes after screening as untrusted text, or nil when it would be a
    /// broken card of its kind: a gap that is not exactly one, or whose answer stands in the
    /// sentence; fewer than two distinct wrong options; a statement that is a question.
    public static func draft(_ card: RawCard, sourcePage: Int?) -> DraftCard? {
        // Markup or the prompt's own words in a card are a small model's noise ("</h3> <h3>", "quote:").
        let texts = [card.question, card.answer] + card.distractors
        guard !texts.contains(where: { $0.contains("</") || $0.contains("<h") || $0.lowercased().contains("quote:") })
        else { return nil }
        let quote = card.quote.flatMap { CardQuality.cleanUntrusted($0, maximumLength: 300) }
        var draft: DraftCard
        switch card.kind {
        case .basic:
            guard
                let screened = CardQuality.screen(question: card.question, answer: card.answer, sourcePage: sourcePage)
            else { return nil }
            draft = screened
        case .cloze:
            guard
                let text = CardQuality.cleanUntrusted(card.question, maximumLength: CardQuality.maximumQuestionLength),
                let gap = gapRange(in: text)
            else { return nil }
            let sentence = text.replacingCharacters(in: gap, with: TextToCards.gap)
            guard let screened = CardQuality.screen(question: sentence, answer: card.answer, sourcePage: sourcePage),
                screened.question.range(of: screened.answer, options: .caseInsensitive) == nil
            else { return nil }
            draft = screened
        case .multipleChoice:
            guard
                var screened = CardQuality.screen(question: card.question, answer: card.answer, sourcePage: sourcePage)
            else { return nil }
            var seen: Set<String> = [screened.answer.lowercased()]
            let wrong = card.distractors.compactMap { CardQuality.cleanUntrusted($0, maximumLength: 200) }
                .filter { seen.insert($0.lowercased()).inserted }
            guard wrong.count >= 2 else { return nil }
            screened.choices = Array(wrong.prefix(CardKind.choiceRange.upperBound))
            draft = screened
        case .trueFalse:
            guard let statement = CardQuality.cleanUntrusted(card.question, maximumLength: 300),
                statement.split(separator: " ").count >= 4, !statement.hasSuffix("?"),
                // "truefalse, true, false, …": the kind's words, not a statement about the text.
                !statement.lowercased().split(whereSeparator: { !$0.isLetter }).contains(where: {
                    ["true", "false", "truefalse", "wahr", "falsch"].contains(String($0))
                })
            else { return nil }
            draft = DraftCard(question: statement, answer: card.answer, sourcePage: sourcePage, kind: .model)
        }
        draft.cardKind = card.kind.cardKind
        draft.source = quote
        return draft
    }

    /// The one run of three or more underscores in a cloze's sentence; nil when there is none or more.
    static func gapRange(in text: String) -> Range<String.Index>? {
        var found: Range<String.Index>?
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == "_" else {
                index = text.index(after: index)
                continue
            }
            let end = text[index...].firstIndex { $0 != "_" } ?? text.endIndex
            if text.distance(from: index, to: end) >= 3 {
                if found != nil { return nil }
                found = index..<end
            }
            index = end
        }
        return found
    }
}

/// The JSON schema the model must follow, sent as `response_format` (structured output) and in the
/// repair request. Tight on purpose: with grammar-constrained decoding (llama.cpp) the bounds are what
/// make a small model close its strings and its array instead of running into `max_tokens`, and the
/// member order (question before answer) is the order in which the model writes them. Each kind of
/// card has an object of its own (`anyOf` when several are asked for), named by its `kind`.
public enum ModelCardSchema {
    /// The longest question the model may write (the screen accepts `CardQuality.maximumQuestionLength`).
    public static let maximumQuestionLength = 200
    /// The longest answer the model may write (the screen accepts `CardQuality.maximumAnswerLength`).
    public static let maximumAnswerLength = 250
    /// The longest quote of the source: about twenty words, and short enough that three cards with
    /// their quotes end well before `max_tokens`.
    public static let maximumQuoteLength = 120
    /// The longest gap answer or option.
    public static let maximumOptionLength = 100

    /// Card text: no control characters (a grammar would otherwise let raw line breaks into JSON strings,
    /// which is invalid JSON), no quotes or backslashes (nothing to escape), no braces or brackets (a
    /// small model "closing" its JSON inside a string), at most `maximum` characters.
    public static func answerPattern(maximum: Int) -> String {
        #"^[^\x00-\x1f"\\{}\[\]]{1,"# + String(maximum) + "}$"
    }

    /// A question: the same characters, no "?" inside, and one "?" at the end (a question, and only one).
    public static func questionPattern(maximum: Int) -> String {
        #"^[^\x00-\x1f"\\{}\[\]?]{2,"# + String(maximum - 1) + #"}\?$"#
    }

    /// A sentence with exactly one gap of five underscores.
    public static func clozePattern(maximum: Int) -> String {
        let part = #"[^\x00-\x1f"\\{}\[\]_]"#
        return "^" + part + "{1," + String(maximum / 2 - 20) + "}_____" + part + "{0," + String(maximum / 2 - 20) + "}$"
    }

    /// A statement: no "?" and a full stop at the end (a character class: llama-cpp-python's grammar
    /// converter refuses the escape `\.`, and a grammar that does not parse crashed its server).
    public static func statementPattern(maximum: Int) -> String {
        #"^[^\x00-\x1f"\\{}\[\]?]{10,"# + String(maximum - 1) + "}[.]$"
    }

    /// The schema: an object with `cards`, 1 to `maximumCards` cards of the given kinds, each with an
    /// optional integer `page` and, with `quotes`, the words of the text it was made from. Asked for
    /// basic cards only without quotes, a card is `question`, `answer` and `page`, as before kinds.
    public static func schema(maximumCards: Int = 15, kinds: [ModelCardKind] = [.basic], quotes: Bool = false)
        -> JSONValue
    {
        let kinds = kinds.isEmpty ? [.basic] : kinds
        let objects = kinds.map { object(for: $0, named: kinds != [.basic], quotes: quotes) }
        let items: JSONValue = objects.count == 1 ? objects[0] : ["anyOf": .array(objects)]
        return [
            "type": "object",
            "properties": [
                "cards": ["type": "array", "minItems": 1, "maxItems": .integer(max(1, maximumCards)), "items": items]
            ],
            "required": ["cards"],
            "additionalProperties": false,
        ]
    }

    /// One kind's object, its members in the order the model should write them.
    private static func object(for kind: ModelCardKind, named: Bool, quotes: Bool) -> JSONValue {
        let text = { (maximum: Int, pattern: String) -> JSONValue in
            ["type": "string", "minLength": 1, "maxLength": .integer(maximum), "pattern": .string(pattern)]
        }
        var members: [JSONValue.Member] = []
        if named { members.append(.init("kind", ["enum": [.string(kind.rawValue)]])) }
        let question = text(maximumQuestionLength, questionPattern(maximum: maximumQuestionLength))
        let option = text(maximumOptionLength, answerPattern(maximum: maximumOptionLength))
        switch kind {
        case .basic:
            members += [
                .init("question", question),
                .init("answer", text(maximumAnswerLength, answerPattern(maximum: maximumAnswerLength))),
            ]
        case .cloze:
            members += [
                .init("text", text(maximumQuestionLength, clozePattern(maximum: maximumQuestionLength))),
                .init("answer", option),
            ]
        case .multipleChoice:
            members += [
                .init("question", question), .init("answer", option),
                .init("distractors", ["type": "array", "minItems": 3, "maxItems": 3, "items": option]),
            ]
        case .trueFalse:
            members += [
                .init("statement", text(maximumQuestionLength, statementPattern(maximum: maximumQuestionLength))),
                .init("answer", ["enum": ["true", "false"]]),
            ]
        }
        if quotes {
            members.append(.init("quote", text(maximumQuoteLength, answerPattern(maximum: maximumQuoteLength))))
        }
        let required = members.map { JSONValue.string($0.key) }
        members.append(.init("page", ["type": "integer"]))
        return [
            "type": "object", "properties": .object(members), "required": .array(required),
            "additionalProperties": false,
        ]
    }

    /// Card JSON in the schema's shape, e.g. for an example.
    public static func cards(_ cards: [(question: String, answer: String, page: Int?)]) -> String {
        let items: [JSONValue] = cards.map { card in
            var members: [JSONValue.Member] = [
                .init("question", .string(card.question)), .init("answer", .string(card.answer)),
            ]
            if let page = card.page { members.append(.init("page", .integer(page))) }
            return .object(members)
        }
        return JSONValue.object([.init("cards", .array(items))]).text
    }

    /// The schema as compact JSON text, for prompts.
    public static func text(maximumCards: Int = 15, kinds: [ModelCardKind] = [.basic], quotes: Bool = false) -> String {
        schema(maximumCards: maximumCards, kinds: kinds, quotes: quotes).text
    }
}

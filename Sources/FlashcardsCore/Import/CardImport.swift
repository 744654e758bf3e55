/// Cards read from an imported file, checked against the same rules as a card typed in, before
/// anything is written: an import is all or nothing, and a refused one says where and why.
public enum CardImport {
    /// The most cards one import may bring.
    public static let maximumCards = 200_000
    /// The most characters of a card's tags together (space-separated, as Anki stores them).
    public static let maximumTagText = 1_000

    /// A card to create.
    public struct Card: Sendable, Hashable {
        public var question: String
        public var answer: String
        public var hint: String?
        public var tags: [String]
        /// How the texts are written (a file's are plain; a copied stack keeps its cards').
        public var format: CardFormat
        /// Its kind (a file's cards are basic; a copied stack keeps its cards').
        public var kind: CardKind
        /// Which card of its note it is (`CardKind`).
        public var variant: Int
        /// The note it shares with its siblings (a reversed pair, a cloze's gaps); nil for one card.
        public var noteId: String?
        /// A multiple-choice card's wrong options.
        public var choices: [String]?

        /// The sides a learner will see (what a preview shows).
        public var sides: CardSides {
            CardSides(kind: kind, variant: variant, question: question, answer: answer, format: format)
        }

        public init(
            question: String, answer: String, hint: String? = nil, tags: [String] = [], format: CardFormat = .plain,
            kind: CardKind = .basic, variant: Int = 0, noteId: String? = nil, choices: [String]? = nil
        ) {
            self.kind = kind
            self.variant = variant
            self.noteId = noteId
            self.choices = choices
            self.question = question
            self.answer = answer
            self.hint = hint
            self.tags = tags
            self.format = format
        }
    }

    /// What a file holds: the cards that passed the rules and the first `problemLimit` problems.
    public struct Reading: Sendable, Hashable {
        public var cards: [Card]
        public var problems: [ImportProblem]
        /// Rows that broke a rule (more than `problems` may list).
        public var rejected: Int
    }

    /// The cards of a table read from CSV/TSV, by its mapping (or `mapping`), and every row that
    /// breaks a rule (the first `problemLimit` of them listed).
    public static func read(
        _ table: DelimitedText.Table, mapping given: DelimitedText.Mapping? = nil, problemLimit: Int = 20
    ) -> Reading {
        let mapping = given ?? table.mapping
        let used = [mapping.front, mapping.back] + [mapping.hint, mapping.tags].compactMap { $0 }
        guard mapping.front != mapping.back, Set(used).count == used.count,
            used.allSatisfy({ $0 >= 0 && $0 < max(table.columns, 2) })
        else { return Reading(cards: [], problems: [ImportProblem(.badMapping)], rejected: 0) }
        guard !table.rows.isEmpty else { return Reading(cards: [], problems: [ImportProblem(.noCards)], rejected: 0) }
        guard table.rows.count <= maximumCards else {
            return Reading(cards: [], problems: [ImportProblem(.tooManyCards)], rejected: 0)
        }
        var reading = Reading(cards: [], problems: [], rejected: 0)
        reading.cards.reserveCapacity(table.rows.count)
        for (index, row) in table.rows.enumerated() {
            let line = table.lines[index]
            func field(_ column: Int?) -> String? { column.flatMap { $0 < row.count ? row[$0] : nil } }
            do throws(ImportProblem) {
                guard let front = field(mapping.front), let back = field(mapping.back) else {
                    throw ImportProblem(.missingColumn, line: line)
                }
                reading.cards.append(
                    try card(
                        question: front, answer: back, hint: field(mapping.hint), tags: field(mapping.tags), line: line)
                )
            } catch {
                reading.rejected += 1
                if reading.problems.count < problemLimit { reading.problems.append(error) }
            }
        }
        return reading
    }

    /// One card from its texts, checked as the card form checks them (trimmed, not empty, within
    /// ``TextLimits``); `line` or `note` says where it came from.
    /// A cloze (`kind`) may have an empty answer (its extra notes).
    public static func card(
        question: String, answer: String, hint: String?, tags: String?, line: Int? = nil, note: Int64? = nil,
        kind: CardKind = .basic
    ) throws(ImportProblem) -> Card {
        func checked(_ text: String, max: Int, required: Bool, _ field: ImportProblem.Field) throws(ImportProblem)
            -> String
        {
            switch TextCheck.checked(text, max: max, required: required) {
            case .success(let value): return value
            case .failure(let problem): throw ImportProblem(.text(field, problem), line: line, note: note)
            }
        }
        let question = try checked(question, max: TextLimits.question, required: true, .front)
        let answer = try checked(answer, max: TextLimits.answer, required: kind != .cloze, .back)
        let hint = try checked(hint ?? "", max: TextLimits.hint, required: false, .hint)
        let tags = self.tags(tags ?? "")
        guard tags.joined(separator: " ").count <= maximumTagText else {
            throw ImportProblem(.text(.tags, .tooLong), line: line, note: note)
        }
        return Card(question: question, answer: answer, hint: hint.isEmpty ? nil : hint, tags: tags, kind: kind)
    }

    /// Tags from text: split at white space, commas and semicolons, each once, in order.
    public static func tags(_ text: String) -> [String] {
        var seen = Set<String>()
        return text.split(whereSeparator: { $0.isWhitespace || $0 == "," || $0 == ";" }).map(String.init)
            .filter { !$0.unicodeScalars.contains("\u{0}") && seen.insert($0).inserted }
    }
}

/// Why an import was refused, and where: the line of a CSV/TSV file or the note of an Anki
/// package. `code` is stable for programs; `germanMessage` is what the server says.
public struct ImportProblem: Error, Sendable, Hashable {
    /// A card's field.
    public enum Field: String, Sendable, Hashable {
        case front, back, hint, tags
    }

    public enum Reason: Sendable, Hashable {
        /// A field is empty, too long or holds a NUL character.
        case text(Field, TextCheck.Problem)
        /// A row has no column for the front or the back.
        case missingColumn
        /// The mapping names the same column twice or one the file does not have.
        case badMapping
        /// A quoted field that never ends, or text right after its closing quote.
        case unterminatedQuote, textAfterQuote
        /// The file holds no card at all.
        case noCards
        /// More than ``CardImport/maximumCards``.
        case tooManyCards
        /// Any other reason, with its code and German message (the Anki reader's).
        case other(code: String, message: String)
    }

    public var reason: Reason
    /// The file's line (1-based), for CSV/TSV.
    public var line: Int?
    /// The Anki note id, for packages.
    public var note: Int64?

    public init(_ reason: Reason, line: Int? = nil, note: Int64? = nil) {
        self.reason = reason
        self.line = line
        self.note = note
    }

    /// The problem of a row that cannot be read.
    public init(_ error: DelimitedText.ParseError) {
        switch error.reason {
        case .unterminatedQuote: self.init(.unterminatedQuote, line: error.line)
        case .textAfterQuote: self.init(.textAfterQuote, line: error.line)
        }
    }

    /// The stable code, e.g. `front_empty`, `missing_column`.
    public var code: String {
        switch reason {
        case .text(let field, let problem): "\(field.rawValue)_\(problem.rawValue)"
        case .missingColumn: "missing_column"
        case .badMapping: "bad_mapping"
        case .unterminatedQuote: "unterminated_quote"
        case .textAfterQuote: "text_after_quote"
        case .noCards: "no_cards"
        case .tooManyCards: "too_many_cards"
        case .other(let code, _): code
        }
    }

    /// The field a text problem is about.
    public var field: Field? {
        if case .text(let field, _) = reason { return field }
        return nil
    }

    /// E.g. "Zeile 12: Die Rückseite ist leer."
    public var germanMessage: String {
        let prefix = line.map { "Zeile \($0): " } ?? note.map { "Notiz \($0): " } ?? ""
        return prefix + germanReason
    }

    private var germanReason: String {
        switch reason {
        case .text(let field, let problem):
            let name =
                switch field {
                case .front: "Die Vorderseite"
                case .back: "Die Rückseite"
                case .hint: "Der Hinweis"
                case .tags: "Die Schlagwörter"
                }
            let plural = field == .tags
            switch problem {
            case .empty: return "\(name) \(plural ? "sind" : "ist") leer."
            case .tooLong:
                let limit =
                    switch field {
                    case .front: TextLimits.question
                    case .back: TextLimits.answer
                    case .hint: TextLimits.hint
                    case .tags: CardImport.maximumTagText
                    }
                return "\(name) \(plural ? "sind" : "ist") länger als \(limit) Zeichen."
            case .invalidCharacters: return "\(name) \(plural ? "enthalten" : "enthält") ungültige Zeichen."
            }
        case .missingColumn: return "Die Zeile hat keine Spalte für Vorder- und Rückseite."
        case .badMapping: return "Die Spaltenzuordnung passt nicht zur Datei."
        case .unterminatedQuote: return "Ein Feld in Anführungszeichen wird nicht geschlossen."
        case .textAfterQuote: return "Nach einem schließenden Anführungszeichen folgt noch Text."
        case .noCards: return "Die Datei enthält keine Karten."
        case .tooManyCards:
            return "Eine Datei darf höchstens \(germanNumber(CardImport.maximumCards)) Karten enthalten."
        case .other(_, let message): return message
        }
    }
}

/// `n` with German thousands separators: 200.000.
public func germanNumber(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { grouped.append(".") }
        grouped.append(digit)
    }
    return (n < 0 ? "-" : "") + grouped
}

/// The rules of a user's text: trimmed, within a limit, no NUL character (PostgreSQL cannot store
/// it); shared by forms, the API and imports.
public enum TextCheck {
    public enum Problem: String, Error, Sendable, Hashable {
        case empty
        case tooLong = "too_long"
        case invalidCharacters = "invalid"
    }

    /// `value` trimmed, or why it breaks the rules (`required`: it may not be empty). The length is
    /// that of `value` as sent, in Unicode code points, as JSON Schema's `maxLength` counts.
    public static func checked(_ value: String, max: Int, required: Bool) -> Result<String, Problem> {
        let trimmed = trimmed(value)
        if required, trimmed.isEmpty { return .failure(.empty) }
        // Code points are counted only when the bytes could exceed the limit (a code point is at
        // least one byte): an import checks hundreds of thousands of texts.
        if value.utf8.count > max, value.unicodeScalars.count > max { return .failure(.tooLong) }
        if trimmed.utf8.contains(0) { return .failure(.invalidCharacters) }
        return .success(trimmed)
    }

    /// `value` without white space and line breaks at either end: Unicode's White_Space (as
    /// Foundation's `whitespacesAndNewlines`) and the separators U+001C…U+001F, so that a text is
    /// blank exactly when the OpenAPI document's `\S` (a regular expression's white space) finds
    /// nothing in it.
    public static func trimmed(_ value: String) -> String {
        func isPlain(_ byte: UInt8?) -> Bool { byte.map { $0 > 0x20 && $0 < 0x7F } ?? true }
        if isPlain(value.utf8.first), isPlain(value.utf8.last) { return value }
        let scalars = value.unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isWhitespace || (0x1C...0x1F).contains(scalar.value)
        }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = scalars.lastIndex(where: { !isSpace($0) })!
        return String(scalars[start...end])
    }
}

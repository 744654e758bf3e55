import Foundation

/// A structural piece of a cleaned document.
public struct TextBlock: Sendable, Hashable {
    /// What the block is.
    public enum Kind: Sendable, Hashable {
        /// A title line (Markdown `#`, or a short line standing on its own).
        case heading
        /// Running text, wrapped lines joined.
        case paragraph
        /// One bullet or numbered item.
        case bullet
    }

    /// What the block is.
    public var kind: Kind
    /// The block's text on one line.
    public var text: String
    /// The page the block starts on.
    public var page: Int
}

/// Splits cleaned pages into headings, paragraphs and bullet items, and paragraphs into sentences.
public enum TextStructure {
    private static let bulletMarks: Set<Character> = [
        "-", "•", "*", "–", "·", "▪", "◦", "‣", "●", "○", "■", "□", "➢", "→",
    ]
    private static let danglingWords: Set<String> = [
        "und", "oder", "der", "die", "das", "des", "den", "dem", "ein", "eine", "einer", "eines", "einen", "von",
        "zu", "mit", "für", "auf", "in", "im", "an", "am", "bei", "aus", "als", "wie", "nach", "über", "unter",
        "and", "or", "the", "a", "an", "of", "to", "with", "for", "on", "at", "by", "from", "as", "into", "is",
    ]

    /// The blocks of a document, in reading order; paragraphs continue across page breaks.
    public static func blocks(of pages: [SourcePage]) -> [TextBlock] {
        struct Line {
            var text: String
            var page: Int
        }
        var lines: [Line?] = []  // nil marks a blank line
        for page in pages {
            // Blank lines around a page's text (left by removed headers/footers) are not paragraph
            // breaks: a sentence may run on to the next page.
            var pageLines = page.text.components(separatedBy: "\n")
            while let first = pageLines.first, first.trimmingCharacters(in: .whitespaces).isEmpty {
                pageLines.removeFirst()
            }
            while let last = pageLines.last, last.trimmingCharacters(in: .whitespaces).isEmpty {
                pageLines.removeLast()
            }
            for raw in pageLines {
                let text = raw.trimmingCharacters(in: .whitespaces)
                lines.append(text.isEmpty ? nil : Line(text: text, page: page.number))
            }
            // Page breaks are not paragraph breaks: a sentence may run on.
        }
        let longLines = lines.compactMap { $0?.text.count }.filter { $0 >= 30 }.sorted()
        let typical = longLines.isEmpty ? 60 : longLines[longLines.count / 2]

        var blocks: [TextBlock] = []
        var current: TextBlock? = nil
        func flush() {
            if let block = current, !block.text.isEmpty { blocks.append(block) }
            current = nil
        }
        var lastPage = lines.first??.page
        for index in lines.indices {
            // A new page after a finished sentence starts a new block, so that cards keep their page.
            if let line = lines[index], line.page != lastPage {
                if let block = current, let end = block.text.last, ".!?:".contains(end) { flush() }
                lastPage = line.page
            }
            guard let line = lines[index] else {
                // OCR sets an empty line inside a sentence where the photo's lines were far apart:
                // a paragraph that has not ended goes on when the next line continues it in lower case.
                let following = lines[index...].lazy.compactMap { $0 }.first
                if let block = current, block.kind == .paragraph, let end = block.text.last, !".!?:".contains(end),
                    let following, following.text.first?.isLowercase == true, bulletText(following.text) == nil
                {
                    continue
                }
                flush()
                continue
            }
            let text = line.text
            if text.hasPrefix("#") {
                flush()
                let title = String(text.drop(while: { $0 == "#" })).trimmingCharacters(in: .whitespaces)
                blocks.append(TextBlock(kind: .heading, text: title, page: line.page))
                continue
            }
            // "2. Stelle und Instanz" on a line of its own between empty lines: a numbered heading.
            let afterBlank = index == 0 || lines[index - 1] == nil
            // "5. Kritik" straight above "- Messproblem: …", or "3. Vier Teilprinzipien" above a list
            // that starts again at "1.": a numbered heading over its own list.
            // "3. Action potential" above a line of prose: a numbered list item is followed by the next
            // item, not by running text.
            let aboveList: Bool = {
                guard index + 1 < lines.count, let next = lines[index + 1]?.text else { return false }
                guard bulletText(next) != nil else { return true }
                return next.first?.isNumber != true || next.hasPrefix("1.") || next.hasPrefix("1)")
            }()
            let alone = afterBlank && (index + 1 == lines.count || lines[index + 1] == nil || aboveList)
            if alone, text.first?.isNumber == true, bulletText(text) != nil,
                text.split(separator: " ").count <= 7, let end = text.last, !".:;,!?".contains(end)
            {
                flush()
                blocks.append(TextBlock(kind: .heading, text: stripNumbering(text), page: line.page))
                continue
            }
            if let item = bulletText(text) {
                flush()
                current = TextBlock(kind: .bullet, text: item, page: line.page)
                continue
            }
            // "Begriff: Erklärung" lines stand on their own even without blank lines around them.
            // A line after a "Term: explanation" line with another label starts anew even without
            // a full stop ("Thin lens equation: 1/f = …" then "Magnification: m = …").
            let continuesSentence = current.map { block in
                !(block.text.last.map { ".!?:".contains($0) } ?? true) && colonSplit(block.text, language: nil) == nil
            }
            if colonSplit(text, language: nil) != nil && !(continuesSentence ?? false) {
                flush()
                current = TextBlock(kind: .paragraph, text: text, page: line.page)
                continue
            }
            let previous = index > 0 ? lines[index - 1] : nil
            let next = index + 1 < lines.count ? lines[index + 1] : nil
            if looksLikeHeading(
                text, previous: previous?.text, next: next?.text, typical: typical,
                inParagraph: current?.kind == .paragraph)
            {
                flush()
                blocks.append(TextBlock(kind: .heading, text: stripNumbering(text), page: line.page))
                continue
            }
            if var block = current {
                if block.kind == .bullet, let first = text.first, !first.isLowercase {
                    flush()
                    current = TextBlock(kind: .paragraph, text: text, page: line.page)
                    continue
                }
                block.text += " " + text
                current = block
            } else {
                current = TextBlock(kind: .paragraph, text: text, page: line.page)
            }
        }
        flush()
        return blocks
    }

    /// A label's term and the citation in brackets after it ("Sector model (Hoyt, 1939)" → "Sector
    /// model", "Hoyt, 1939"); nil when the label ends in no bracket with a year.
    public static func citation(ofLabel label: String) -> (term: String, citation: String)? {
        guard label.hasSuffix(")"), let open = label.lastIndex(of: "(") else { return nil }
        let inside = String(label[label.index(after: open)..<label.index(before: label.endIndex)])
        let term = label[..<open].trimmingCharacters(in: .whitespaces)
        let hasYear = inside.split(whereSeparator: { !$0.isNumber }).contains { $0.count == 4 }
        guard hasYear, !term.isEmpty, inside.split(separator: " ").count <= 8 else { return nil }
        return (term, inside)
    }

    /// The item text when `line` starts with a bullet or an enumeration mark ("1.", "a)").
    static func bulletText(_ line: String) -> String? {
        guard let first = line.first else { return nil }
        if bulletMarks.contains(first) {
            let rest = line.dropFirst()
            guard rest.first == " " else { return nil }
            let item = rest.trimmingCharacters(in: .whitespaces)
            return item.isEmpty ? nil : item
        }
        // "1. Text", "2) Text", "a) Text"
        var prefix = line.prefix(while: { $0.isNumber })
        if prefix.isEmpty, let letter = line.first, letter.isLowercase, line.dropFirst().first == ")" {
            prefix = line.prefix(1)
        }
        guard !prefix.isEmpty, prefix.count <= 2 else { return nil }
        let afterNumber = line.dropFirst(prefix.count)
        guard let mark = afterNumber.first, mark == "." || mark == ")" else { return nil }
        let rest = afterNumber.dropFirst()
        guard rest.first == " " else { return nil }
        let item = rest.trimmingCharacters(in: .whitespaces)
        // "2. Weltkrieg" style numbers followed by a lowercase word are rare; a number followed by
        // a digit ("1. 5") is not a list item.
        guard let itemFirst = item.first, itemFirst.isLetter else { return nil }
        return item
    }

    /// A short line that stands on its own: no sentence punctuation at its end, starts with a capital
    /// or a section number, the previous line closed a sentence, and it is clearly shorter than the
    /// document's typical full line.
    static func looksLikeHeading(
        _ text: String, previous: String?, next: String?, typical: Int, inParagraph: Bool
    ) -> Bool {
        guard let first = text.first, first.isUppercase || first.isNumber else { return false }
        guard let last = text.last, !".,;:!?-–(".contains(last) else { return false }
        let words = text.split(separator: " ")
        guard words.count <= 9, text.count <= max(70, typical * 3 / 4) else { return false }
        if text.count > typical * 3 / 4 && typical >= 40 { return false }
        if let lastWord = words.last, danglingWords.contains(lastWord.lowercased()) { return false }
        if inParagraph, let previous, let end = previous.last, !".!?:".contains(end) { return false }
        if let next, let nextFirst = next.first, nextFirst.isLowercase { return false }
        return true
    }

    /// "2.3 Speicherverwaltung" → "Speicherverwaltung".
    static func stripNumbering(_ text: String) -> String {
        let words = text.split(separator: " ", maxSplits: 1)
        if words.count == 2, words[0].allSatisfy({ $0.isNumber || $0 == "." }), words[0].first!.isNumber {
            return String(words[1])
        }
        return text
    }

    private static let abbreviations: Set<String> = [
        "z", "b", "d", "h", "u", "a", "bzw", "ca", "vgl", "usw", "etc", "e", "g", "i", "vs", "dr", "prof", "nr",
        "abb", "s", "ggf", "inkl", "evtl", "sog", "mio", "mrd", "jh", "kap", "fig", "al", "bzgl", "max", "min",
        "mr", "mrs", "ms", "st", "no", "approx", "resp", "cf", "ch", "eg", "ie", "o", "v", "chr",
    ]

    /// Splits running text into sentences, respecting common abbreviations and initials.
    public static func sentences(of text: String) -> [String] {
        var result: [String] = []
        var current = ""
        let characters = Array(text)
        var index = 0
        // Open round brackets: a full stop inside them ("(ρ = spez. Widerstand)") ends no sentence,
        // as long as the bracket closes soon (a stray "(" in OCR text must not swallow the page).
        var depth = 0
        while index < characters.count {
            let character = characters[index]
            current.append(character)
            if character == "(" && characters[(index + 1)..<min(characters.count, index + 150)].contains(")") {
                depth += 1
            } else if character == ")" && depth > 0 {
                depth -= 1
            }
            if ".!?".contains(character) && depth == 0 {
                let nextIndex = index + 1
                let atEnd = nextIndex >= characters.count
                let followedBySpace = !atEnd && characters[nextIndex] == " "
                var startsNew = atEnd
                if followedBySpace {
                    var lookahead = nextIndex + 1
                    while lookahead < characters.count, "\"„“'‚(".contains(characters[lookahead]) { lookahead += 1 }
                    if lookahead < characters.count {
                        let following = characters[lookahead]
                        startsNew = following.isUppercase || following.isNumber
                    }
                }
                if startsNew && character == "." && !atEnd {
                    // The word before the period: an abbreviation or an initial does not end a sentence.
                    let word = (current.dropLast().split(separator: " ").last.map { String($0) } ?? "")
                        .trimmingCharacters(in: CharacterSet(charactersIn: "(\"„“'‚[–-/"))
                    let bare = word.lowercased().replacingOccurrences(of: ".", with: "")
                    if abbreviations.contains(bare) || (word.count == 1 && word.first!.isUppercase)
                        || (word.count <= 2 && word.allSatisfy({ $0.isNumber }))
                    {
                        startsNew = false
                    }
                }
                if startsNew {
                    let sentence = current.trimmingCharacters(in: .whitespaces)
                    if !sentence.isEmpty { result.append(sentence) }
                    current = ""
                }
            }
            index += 1
        }
        let rest = current.trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty { result.append(rest) }
        return result
    }

    private static let colonLabels: Set<String> = [
        "kapitel", "chapter", "lecture", "vorlesung", "abschnitt", "section", "teil", "part", "week", "woche",
        "wichtig", "hinweis", "beispiel", "beispiele", "achtung", "note", "example", "examples", "tip", "tipp",
        "merke", "important", "warning", "fazit", "summary", "ziel", "frage", "antwort", "lösung", "aufgabe",
        "quelle", "source", "definition", "zusammenfassung", "übung", "exercise", "question", "answer", "solution",
        // Labels of a note's lines that name no term: "Faustregel: mehr als 7", "Ziele: …", "Classic case: …".
        "faustregel", "regel", "rule", "ziele", "goal", "goals", "aim", "aims", "vorteil", "vorteile", "nachteil",
        "nachteile", "advantage", "advantages", "disadvantage", "disadvantages", "pro", "pros", "contra", "cons",
        "sonderfall", "spezialfall", "ausnahme", "exception", "classic", "typical", "typisch", "vorgehen",
        "procedure", "ablauf", "steps", "schritte", "ergebnis", "result", "results", "folge", "folgen",
        "consequence", "consequences", "ursache", "ursachen", "cause", "causes", "grund", "gründe", "reason",
        "reasons", "merkmale", "features", "eigenschaften", "properties", "kritik", "criticism", "idee", "idea",
        "kernaussage", "key", "main", "takeaway", "also", "außerdem", "proof", "beweis", "beweisidee", "much",
        "more", "less", "viel", "mehr", "weniger", "der", "die", "das", "the",
        // Asides and intensifiers of a note's voice: "Recap: …", "Einstieg: Warum …?", "Very handy: …".
        "recap", "einstieg", "wiederholung", "rückblick", "ausblick", "outlook", "exkurs", "aside", "nebenbei",
        "übrigens", "btw", "trick", "eselsbrücke", "mnemonic", "remember", "very", "sehr", "ganz", "quite",
        "really", "besonders", "especially", "super", "don't", "don’t",
    ]
    /// Number words that open a count, not a term ("Fünf Klassen: IgG, …", "Two reasons: …").
    private static let numberWords: Set<String> = [
        "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "beide", "mehrere", "einige",
        "viele", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "both", "several", "some",
        "many",
    ]

    /// "Begriff: Erklärung" → ("Begriff", "Erklärung"), when the part before the colon is a short term
    /// (no verbs, no labels like "Beispiel") and the explanation has at least two words.
    /// A note's "Begriff = Erklärung" counts as well when the line has no other equals sign
    /// ("Organisation = dauerhafte Regelung …", not "n = c / v (c = …)").
    public static func colonSplit(_ text: String, language: DocumentLanguage?) -> (term: String, explanation: String)? {
        let equals = text.components(separatedBy: " = ").count == 2 && !text.contains(": ")
        guard let colon = text.range(of: equals ? " = " : ": ") else { return nil }
        // "Vacuum n = 1, water ≈ 1.33": a value, not an explanation.
        if equals, text[colon.upperBound...].first?.isLetter != true { return nil }
        var term = text[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
        // "Sector model (Hoyt, 1939): …": the citation is not part of the term.
        if let cited = citation(ofLabel: term) { term = cited.term }
        let explanation = text[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        // "Einstieg: Warum überhaupt Lehen?": a question that follows a label explains nothing.
        guard !explanation.hasSuffix("?") else { return nil }
        let termWords = term.split(separator: " ").map(String.init)
        guard !termWords.isEmpty, termWords.count <= 4, term.count <= 40,
            explanation.split(separator: " ").count >= 2
        else { return nil }
        guard let first = term.first, first.isUppercase, !colonLabels.contains(termWords[0].lowercased()),
            !numberWords.contains(termWords[0].lowercased()), !termWords[0].allSatisfy(\.isNumber)
        else { return nil }
        // A term, not a clause: must pass the term rules of either language.
        let german = DefinitionPatterns.validGermanTerm(termWords) != nil
        let english =
            DefinitionPatterns.validEnglishTerm(termWords) != nil
            && !termWords.contains(where: { ["are", "is", "include", "includes", "has", "have"].contains($0) })
        switch language {
        case .de?: guard german else { return nil }
        case .en?: guard english else { return nil }
        case nil: guard german || english else { return nil }
        }
        return (term, explanation)
    }
}

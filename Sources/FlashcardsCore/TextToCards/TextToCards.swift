import Foundation

/// Options for the offline text-to-card rules.
public struct TextToCardsOptions: Sendable, Hashable {
    /// The most cards one document yields.
    public var maximumCards: Int
    /// Whether to make cloze cards of key terms.
    public var makesClozes: Bool
    /// Whether to make cloze cards of numbers and years.
    public var makesFacts: Bool
    /// Questions already in the stack; drafts that ask one of them again get `duplicateOf`.
    public var existingQuestions: [String]
    /// The document's language; detected when nil.
    public var language: DocumentLanguage?

    /// Creates options; the defaults suit lecture scripts.
    public init(
        maximumCards: Int = 500, makesClozes: Bool = true, makesFacts: Bool = true, existingQuestions: [String] = [],
        language: DocumentLanguage? = nil
    ) {
        self.maximumCards = maximumCards
        self.makesClozes = makesClozes
        self.makesFacts = makesFacts
        self.existingQuestions = existingQuestions
        self.language = language
    }
}

/// The offline generator's rules: pure functions from text to draft cards. Deterministic: the same
/// pages and options always give the same cards in the same order.
public enum TextToCards {
    /// The gap in a cloze card's question.
    public static let gap = "_____"

    /// Cards from a single text (pasted text, Markdown, OCR output).
    public static func makeCards(text: String, options: TextToCardsOptions = .init()) -> [DraftCard] {
        makeCards(pages: [SourcePage(number: 1, text: text)], options: options)
    }

    /// The rules' best card for a passage the learner chose ("Karte daraus machen"): the first
    /// question card the passage gives, else its first cloze; nil when the rules find none.
    public static func suggestion(for passage: String, language: DocumentLanguage? = nil) -> DraftCard? {
        let cards = makeCards(text: passage, options: TextToCardsOptions(maximumCards: 50, language: language))
        return cards.first { $0.kind != .cloze && $0.kind != .fact } ?? cards.first
    }

    /// Cards from the pages of a document, each recording the page it came from.
    public static func makeCards(pages: [SourcePage], options: TextToCardsOptions = .init()) -> [DraftCard] {
        makeCards(cleanedPages: TextCleaner.clean(pages: pages), options: options)
    }

    /// Cards from pages already passed through `TextCleaner.clean(pages:)`. Cleaning twice would see
    /// the first lines of short pages as running headers, so callers that split a cleaned document
    /// into page groups use this.
    public static func makeCards(cleanedPages cleaned: [SourcePage], options: TextToCardsOptions = .init())
        -> [DraftCard]
    {
        let language = options.language ?? LanguageDetector.detect(cleaned.map(\.text).joined(separator: "\n"))
        let blocks = TextStructure.blocks(of: cleaned)
        var builder = Builder(language: language, blocks: blocks)
        builder.run(options: options)
        var cards = CardDeduplicator.deduplicate(builder.resultCards, existingQuestions: options.existingQuestions)
        if cards.count > options.maximumCards { cards = Array(cards.prefix(options.maximumCards)) }
        return cards
    }
}

/// Walks the blocks once and applies every rule; kept as a value type with local state.
private struct Builder {
    struct Sentence {
        var text: String
        var page: Int
        var used: Bool
        /// What the clause rules need to know around the sentence.
        var context: ClauseQuestions.Context? = nil
    }

    let language: DocumentLanguage
    let blocks: [TextBlock]
    var cards: [(order: Int, card: DraftCard)] = []
    var sentences: [Sentence] = []
    var keyTerms: [String] = []
    var vocabulary: Set<String> = []
    /// The subject of the previous sentence, for a pronoun that starts the next one.
    var antecedent: Antecedent?
    private var order = 0

    init(language: DocumentLanguage, blocks: [TextBlock]) {
        self.language = language
        self.blocks = blocks
        // The vocabulary holds lower-case words and words capitalised inside a sentence (names), so that
        // "Latency refers to …" asks about "latency" but "Dijkstra's algorithm" keeps its capital.
        for block in blocks {
            for sentence in TextStructure.sentences(of: block.text) {
                let words = sentence.split(separator: " ")
                for (position, word) in words.enumerated() {
                    let bare = word.trimmingCharacters(in: CharacterSet.letters.union(.decimalDigits).inverted)
                    guard let first = bare.first else { continue }
                    if first.isLowercase {
                        vocabulary.insert(bare)
                    } else if position > 0 {
                        vocabulary.insert("Capitalized:" + bare)
                    }
                }
            }
        }
    }

    /// Cards in reading order: by page, then in the order the rules found them.
    var resultCards: [DraftCard] {
        cards.sorted { ($0.card.sourcePage ?? 0, $0.order) < ($1.card.sourcePage ?? 0, $1.order) }.map(\.card)
    }

    mutating func add(
        _ question: String, _ answer: String, page: Int, kind: DraftCard.Kind, source: String,
        alternative: DraftCard.Alternative? = nil
    ) {
        let card = DraftCard(
            question: question, answer: answer, sourcePage: page, kind: kind, source: source, alternative: alternative)
        cards.append((order, card))
        order += 1
    }

    /// The cloze prompt in the document's language.
    var clozePrompt: String { language == .de ? "Ergänze die Lücke: " : "Fill in the gap: " }

    /// The same sentence as a cloze of `phrase` (a term or a short answer), offered as the
    /// alternative of a question card; nil when the phrase is long or not in the sentence as written.
    func clozeAlternative(of phrase: String, in sentence: String) -> DraftCard.Alternative? {
        let words = sentence.split(separator: " ").count
        guard phrase.split(separator: " ").count <= 6, words >= 4, words <= 40,
            let blanked = Self.blank(phrase, in: sentence)
        else { return nil }
        return .init(question: clozePrompt + blanked.text, answer: blanked.found, kind: .cloze)
    }

    mutating func run(options: TextToCardsOptions) {
        var inGlossary = false
        var index = 0
        while index < blocks.count {
            let block = blocks[index]
            let next = index + 1 < blocks.count ? blocks[index + 1] : nil
            switch block.kind {
            case .heading:
                if Self.isGlossaryTitle(block.text) {
                    inGlossary = true
                    index += 1
                    continue
                }
                let bullets = bulletRun(after: index)
                if bullets.count >= 2 {
                    addList(
                        question: listHeadingQuestion(block.text), items: bullets, page: block.page,
                        source: ([block.text] + bullets.map { "• " + $0 }).joined(separator: "\n"))
                    index += 1
                    continue
                }
                // A glossary entry laid out as a term line above its explanation.
                if let next, next.kind == .paragraph, block.text.split(separator: " ").count <= 5 {
                    let explanation = next.text
                    let explanationWords = explanation.split(separator: " ").count
                    let lowercaseStart = explanation.first?.isLowercase == true
                    if (inGlossary && explanationWords <= 50) || (lowercaseStart && explanationWords <= 30) {
                        addGlossary(
                            term: block.text, explanation: explanation, page: block.page,
                            source: block.text + "\n" + explanation)
                        index += 2
                        continue
                    }
                }
            case .paragraph:
                if block.text.split(separator: " ").count > 50 { inGlossary = false }
                let bullets = bulletRun(after: index)
                let parts = TextStructure.sentences(of: block.text)
                antecedent = nil
                for (position, sentence) in parts.enumerated() {
                    let introducesBullets = position == parts.count - 1 && sentence.hasSuffix(":") && bullets.count >= 2
                    handle(
                        sentence: sentence, previous: position > 0 ? parts[position - 1] : nil, page: block.page,
                        introducesBullets: introducesBullets ? bullets : nil)
                }
            case .bullet:
                // Items that are definitions themselves ("Cache: schneller Zwischenspeicher").
                if let (term, explanation) = TextStructure.colonSplit(block.text, language: language) {
                    addGlossary(term: term, explanation: explanation, page: block.page, source: block.text)
                }
            }
            index += 1
        }
        if options.makesFacts { addPredicates() }
        if options.makesClozes { addClozes() }
        if options.makesFacts { addFacts() }
        if options.makesClozes { addNounClozes() }
    }

    /// A cloze of the most specific name or noun in each sentence no other rule used: in German
    /// every noun is capitalised, in English names are. The subject (the sentence's first words)
    /// stays as the cue; the longest capitalised run after it becomes the gap.
    private static let notNouns: Set<String> = ["Sie", "Ihr", "Ihre", "The", "This", "These", "However"]
    private static let firstPerson: Set<String> = ["wir", "uns", "unser", "unsere", "we", "us", "our", "ich", "i"]

    private mutating func addNounClozes() {
        for index in sentences.indices where !sentences[index].used && clozeCandidate(sentences[index]) {
            let sentence = sentences[index]
            let words = sentence.text.split(separator: " ").map(String.init)
            // The lecture speaking of itself ("In dieser Stunde verfolgen wir …") is no fact.
            if words.contains(where: {
                Self.firstPerson.contains($0.lowercased().trimmingCharacters(in: .punctuationCharacters))
            }) {
                continue
            }
            // Names inside a date ("am 14. August 1919") belong to the number clozes.
            let inDates = Set(FactPatterns.numberUnits(words).flatMap { Array($0) })
            var runs: [[String]] = []
            var current: [String] = []
            for (position, word) in words.enumerated() {
                let bare = word.trimmingCharacters(in: CharacterSet.letters.union(.decimalDigits).union(["-"]).inverted)
                let capitalised =
                    bare.first?.isUppercase == true && !Self.notNouns.contains(bare) && bare.count >= 3
                    && bare.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
                if position >= 2, capitalised, !word.hasPrefix("("), !inDates.contains(position) {
                    current.append(bare)
                    // A run ends at punctuation: "Worms, Speyer" are two.
                    if word.last.map({ ",;:.)".contains($0) }) == true {
                        runs.append(current)
                        current = []
                    }
                } else {
                    if !current.isEmpty { runs.append(current) }
                    current = []
                }
            }
            if !current.isEmpty { runs.append(current) }
            guard let best = runs.filter({ $0.count <= 4 }).max(by: { $0.joined().count < $1.joined().count }),
                best.joined().count >= 6
            else { continue }
            let term = best.joined(separator: " ")
            guard let blanked = Self.blank(term, in: sentence.text) else { continue }
            sentences[index].used = true
            add(clozePrompt + blanked.text, blanked.found, page: sentence.page, kind: .cloze, source: sentence.text)
        }
    }

    // MARK: Sentences

    private mutating func handle(sentence: String, previous: String?, page: Int, introducesBullets: [String]?) {
        let sentenceIndex = sentences.count
        sentences.append(Sentence(text: sentence, page: page, used: false))
        if let items = introducesBullets {
            let intro = String(sentence.dropLast()).trimmingCharacters(in: .whitespaces)
            addList(
                question: ListQuestions.question(intro: intro, language: language), items: items, page: page,
                source: ([sentence] + items.map { "• " + $0 }).joined(separator: "\n"))
            sentences[sentenceIndex].used = true
            return
        }
        if let (term, explanation) = TextStructure.colonSplit(sentence, language: language) {
            addGlossary(term: term, explanation: explanation, page: page, source: sentence)
            sentences[sentenceIndex].used = true
            keyTerms.append(term)
            return
        }
        let context = ClauseQuestions.Context(
            language: language, antecedent: antecedent, previous: previous, vocabulary: vocabulary)
        sentences[sentenceIndex].context = context
        // Causes, consequences and purposes are asked besides whatever else the sentence gives.
        let extra = ClauseQuestions.extra(sentence, context: context)
        if let definition = DefinitionPatterns.match(sentence, language: language, vocabulary: vocabulary) {
            add(
                definition.question, definition.answer, page: page, kind: .definition, source: sentence,
                alternative: clozeAlternative(of: definition.term, in: sentence))
            keyTerms.append(definition.term)
            sentences[sentenceIndex].used = true
            antecedent = Self.subjectPhrase(of: definition.term, in: sentence).flatMap {
                Antecedent(phrase: $0, language: language)
            }
            addClauseFacts(extra, page: page, sentence: sentence)
            return
        }
        if let enumeration = ListQuestions.enumeration(in: sentence, language: language) {
            add(enumeration.question, enumeration.answer, page: page, kind: .enumeration, source: sentence)
            sentences[sentenceIndex].used = true
            antecedent = nil
            return
        }
        let terms = ClauseQuestions.terms(sentence, context: context)
        let fact = FactPatterns.match(sentence, language: language, antecedent: antecedent, vocabulary: vocabulary)
        if let fact {
            add(
                fact.question, fact.answer, page: page, kind: .fact, source: sentence,
                alternative: clozeAlternative(of: fact.answer, in: sentence))
        }
        addClauseFacts(terms + extra, page: page, sentence: sentence)
        if fact != nil || !terms.isEmpty || !extra.isEmpty { sentences[sentenceIndex].used = true }
        // The subject of this sentence is what a pronoun in the next one most likely means.
        let subject = fact?.subject ?? terms.last?.subject ?? FactPatterns.subject(of: sentence, language: language)
        antecedent = subject.flatMap { Antecedent(phrase: $0, language: language) }
    }

    private mutating func addClauseFacts(_ facts: [FoundFact], page: Int, sentence: String) {
        for fact in facts {
            add(
                fact.question, fact.answer, page: page, kind: .fact, source: sentence,
                alternative: clozeAlternative(of: fact.answer, in: sentence))
        }
    }

    /// The last resort for sentences no rule used, before noun clozes: what the subject does.
    private mutating func addPredicates() {
        for index in sentences.indices where !sentences[index].used {
            guard let context = sentences[index].context,
                let fact = ClauseQuestions.predicate(sentences[index].text, context: context)
            else { continue }
            sentences[index].used = true
            add(
                fact.question, fact.answer, page: sentences[index].page, kind: .fact, source: sentences[index].text,
                alternative: clozeAlternative(of: fact.answer, in: sentences[index].text))
        }
    }

    /// The defined term with the article before it in the sentence ("Die Photosynthese"), or the
    /// term alone.
    static func subjectPhrase(of term: String, in sentence: String) -> String? {
        let words = sentence.split(separator: " ").map(String.init)
        let termWords = term.split(separator: " ").map(String.init)
        guard !termWords.isEmpty, words.count > termWords.count else { return nil }
        for start in 0...(words.count - termWords.count)
        where zip(words[start...], termWords).allSatisfy({ $0.0.trimmingCharacters(in: .punctuationCharacters) == $0.1 }
        ) {
            let articles: Set<String> = ["der", "die", "das", "ein", "eine", "the", "a", "an"]
            if start > 0, articles.contains(words[start - 1].lowercased()) {
                return words[start - 1] + " " + term
            }
            return term
        }
        return nil
    }

    // MARK: Lists and glossaries

    private func bulletRun(after index: Int) -> [String] {
        var items: [String] = []
        var cursor = index + 1
        while cursor < blocks.count, blocks[cursor].kind == .bullet {
            items.append(blocks[cursor].text)
            cursor += 1
        }
        return items
    }

    private func listHeadingQuestion(_ heading: String) -> String {
        switch language {
        case .de: return "Welche Punkte gehören zu „\(heading)“?"
        case .en: return "Which points belong to “\(heading)”?"
        }
    }

    private mutating func addList(question: String, items: [String], page: Int, source: String) {
        guard items.count >= 2, items.count <= 10 else { return }
        var shown = items.map { item -> String in
            if let (term, _) = TextStructure.colonSplit(item, language: language) { return term }
            return item.trimmingCharacters(in: CharacterSet(charactersIn: " .;,"))
        }
        if shown.joined(separator: ", ").count > CardText.maximumAnswerLength {
            shown = shown.map { item in
                String(item.split(whereSeparator: { $0 == "," || $0 == "(" || $0 == "–" }).first ?? Substring(item))
                    .trimmingCharacters(in: .whitespaces)
            }
        }
        let separator = shown.contains(where: { $0.contains(",") }) ? "; " : ", "
        let answer = shown.joined(separator: separator)
        guard answer.count <= CardText.maximumAnswerLength else { return }
        add(question, answer, page: page, kind: .list, source: source)
    }

    private mutating func addGlossary(term: String, explanation: String, page: Int, source: String) {
        var text = explanation.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix(".") && !text.hasSuffix("..") { text.removeLast() }
        guard text.split(separator: " ").count >= 2, let answer = CardText.shortenAnswer(text) else { return }
        let question: String
        switch language {
        case .de: question = "Was bedeutet „\(term)“?"
        case .en: question = "What does “\(term)” mean?"
        }
        add(question, CardText.capitalizedFirst(answer), page: page, kind: .definition, source: source)
        if !keyTerms.contains(term) { keyTerms.append(term) }
    }

    static func isGlossaryTitle(_ text: String) -> Bool {
        let lower = text.lowercased()
        return [
            "glossar", "glossary", "begriffe", "definitionen", "definitions", "key terms", "schlüsselbegriffe",
            "fachbegriffe", "terms", "wichtige begriffe",
        ].contains { lower == $0 || lower.hasSuffix(" " + $0) }
    }

    // MARK: Clozes

    private static let pronounStarts: Set<String> = [
        "er", "sie", "es", "dies", "diese", "dieser", "dieses", "dabei", "daher", "dann", "it", "this", "they",
        "these", "that", "those", "he", "she", "its", "their", "hier", "here", "so", "thus",
    ]

    private func clozeCandidate(_ sentence: Sentence) -> Bool {
        let words = sentence.text.split(separator: " ")
        guard words.count >= 6, words.count <= 35, sentence.text.hasSuffix(".") else { return false }
        guard let first = words.first, !Self.pronounStarts.contains(first.lowercased()) else { return false }
        return true
    }

    private mutating func addClozes() {
        // Key terms: defined terms first, then acronyms used at least twice.
        var terms = keyTerms
        var acronymCounts: [String: Int] = [:]
        for sentence in sentences {
            for word in sentence.text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
                if word.count >= 2, word.count <= 6, word.allSatisfy({ $0.isUppercase || $0.isNumber }),
                    word.contains(where: { $0.isLetter })
                {
                    acronymCounts[String(word), default: 0] += 1
                }
            }
        }
        for (acronym, count) in acronymCounts.sorted(by: { $0.key < $1.key }) where count >= 2 {
            if !terms.contains(where: { $0.contains(acronym) }) { terms.append(acronym) }
        }
        var usedTerms = Set<String>()
        // The definition sentence itself is never blanked: its cloze would ask the definition card's
        // fact again.
        for rawTerm in terms {
            // Clozes of "Translation Lookaside Buffer (TLB)" blank the name, not the parenthesis.
            let term = rawTerm.split(separator: " ").filter { !$0.hasPrefix("(") }.joined(separator: " ")
            guard term.count >= 2, usedTerms.insert(term.lowercased()).inserted else { continue }
            var chosen: Int? = nil
            for (index, sentence) in sentences.enumerated()
            where !sentence.used && clozeCandidate(sentence) && Self.range(of: term, in: sentence.text) != nil {
                chosen = index
                break
            }
            guard let chosen else { continue }
            let sentence = sentences[chosen]
            guard let blanked = Self.blank(term, in: sentence.text) else { continue }
            sentences[chosen].used = true
            add(clozePrompt + blanked.text, blanked.found, page: sentence.page, kind: .cloze, source: sentence.text)
        }
    }

    /// Replaces every whole-word occurrence of `term` with the gap; returns the text and the
    /// spelling found first.
    static func blank(_ term: String, in text: String) -> (text: String, found: String)? {
        var result = text
        var found: String? = nil
        while let range = range(of: term, in: result) {
            if found == nil { found = String(result[range]) }
            result.replaceSubrange(range, with: TextToCards.gap)
        }
        guard let found else { return nil }
        return (result, found)
    }

    /// Case-insensitive whole-word match (acronyms match case-sensitively).
    static func range(of term: String, in text: String) -> Range<String.Index>? {
        let acronym = term.allSatisfy { $0.isUppercase || $0.isNumber }
        var searchStart = text.startIndex
        while let range = text.range(
            of: term, options: acronym ? [] : [.caseInsensitive], range: searchStart..<text.endIndex)
        {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            let boundaryBefore = before.map { !$0.isLetter && !$0.isNumber && $0 != "-" } ?? true
            let boundaryAfter = after.map { !$0.isLetter && !$0.isNumber && $0 != "-" } ?? true
            if boundaryBefore && boundaryAfter { return range }
            searchStart = range.upperBound
        }
        return nil
    }

    // MARK: Facts

    private mutating func addFacts() {
        for index in sentences.indices where !sentences[index].used && clozeCandidate(sentences[index]) {
            let sentence = sentences[index]
            let words = sentence.text.split(separator: " ").map(String.init)
            // One number, or of several the one year ("The Factory Act of 1833 banned … under nine").
            let units = FactPatterns.numberUnits(words)
            let years = units.filter { span in span.contains { FactPatterns.isYear(words[$0]) } }
            guard let span = units.count == 1 ? units.first : (years.count == 1 ? years.first : nil) else { continue }
            // A pronoun makes the gap unanswerable out of context ("… it is the average of _____ …").
            let pronouns: Set<String> = ["it", "they", "he", "she", "him", "es", "sie", "er", "them", "ihn", "ihm"]
            if words.contains(where: {
                pronouns.contains($0.lowercased().trimmingCharacters(in: .punctuationCharacters))
            }) {
                continue
            }
            // The gap takes the whole number or date; punctuation after it stays in the sentence.
            let last = words[span.upperBound - 1]
            let trailing = String(last.reversed().prefix { ".,;:!?)".contains($0) }.reversed())
            var answerWords = Array(words[span])
            answerWords[answerWords.count - 1] = String(last.dropLast(trailing.count))
            var leading = ""
            if let first = answerWords.first, first.hasPrefix("(") {
                leading = "("
                answerWords[0] = String(first.dropFirst())
            }
            let answer = answerWords.joined(separator: " ")
            guard !answer.isEmpty else { continue }
            var blanked = words
            blanked.replaceSubrange(span, with: [leading + TextToCards.gap + trailing])
            sentences[index].used = true
            add(
                clozePrompt + blanked.joined(separator: " "), answer, page: sentence.page, kind: .fact,
                source: sentence.text)
        }
    }
}

/// Questions for lists and enumerations, from the sentence that introduces them.
enum ListQuestions {
    /// "Man unterscheidet drei Arten von X: A, B und C." → question and "A, B und C".
    static func enumeration(in sentence: String, language: DocumentLanguage) -> (question: String, answer: String)? {
        guard let colon = sentence.range(of: ": ") else { return nil }
        let intro = String(sentence[..<colon.lowerBound])
        var list = String(sentence[colon.upperBound...]).trimmingCharacters(in: .whitespaces)
        if list.hasSuffix(".") { list.removeLast() }
        let normalized = list.replacingOccurrences(of: " und ", with: ", ").replacingOccurrences(
            of: " and ", with: ", "
        )
        .replacingOccurrences(of: " oder ", with: ", ").replacingOccurrences(of: " or ", with: ", ")
        let items = normalized.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        guard items.count >= 3, items.count <= 10, items.allSatisfy({ $0.split(separator: " ").count <= 6 }) else {
            return nil
        }
        guard intro.split(separator: " ").count >= 2, list.count <= CardText.maximumAnswerLength else { return nil }
        return (question(intro: intro, language: language), CardText.capitalizedFirst(list))
    }

    /// Turns the statement that introduces a list into a question.
    static func question(intro: String, language: DocumentLanguage) -> String {
        let intro = intro.trimmingCharacters(in: CharacterSet(charactersIn: " ,;"))
        let words = intro.split(separator: " ").map(String.init)
        func lowerArticle(_ words: ArraySlice<String>) -> String {
            var list = Array(words)
            if let first = list.first, ["Der", "Die", "Das", "The", "A", "An", "Ein", "Eine"].contains(first) {
                list[0] = first.lowercased()
            }
            return list.joined(separator: " ")
        }
        switch language {
        case .de:
            if words.count >= 3, words[0] == "Zu", let verb = words.last, ["gehören", "zählen"].contains(verb) {
                let verbSingular = verb == "gehören" ? "gehört" : "zählt"
                // "Zu den Bestandteilen, die … fehlen, gehören:" keeps no comma before the "?".
                let group = words[1..<(words.count - 1)].joined(separator: " ").trimmingCharacters(in: [","])
                return "Was \(verbSingular) zu \(group)?"
            }
            if words.count >= 3, words[0] == "Man", words[1] == "unterscheidet" {
                return "Welche \(words[2...].joined(separator: " ")) unterscheidet man?"
            }
            if words.count >= 3, words[0] == "Es", words[1] == "gibt" {
                return "Welche \(words[2...].joined(separator: " ")) gibt es?"
            }
            if let verb = words.firstIndex(where: {
                ["umfasst", "umfassen", "enthält", "enthalten", "hat", "haben"].contains($0)
            }),
                verb >= 1
            {
                let subject = lowerArticle(words[..<verb])
                if verb + 1 < words.count {
                    return "Welche \(words[(verb + 1)...].joined(separator: " ")) \(words[verb]) \(subject)?"
                }
                return "Was \(words[verb]) \(subject)?"
            }
            if let verb = words.firstIndex(where: { $0 == "besteht" || $0 == "bestehen" }), verb >= 1,
                verb + 1 == words.count - 1, words.last == "aus"
            {
                return "Woraus \(words[verb]) \(lowerArticle(words[..<verb]))?"
            }
            if let verb = words.last, ["sind", "lauten"].contains(verb), words.count >= 2 {
                return "Was sind \(lowerArticle(words[..<(words.count - 1)]))?"
            }
            return "\(intro) – welche?"
        case .en:
            if words.count >= 3, words[0] == "There", words[1] == "are" {
                return "What \(words[2...].joined(separator: " ")) are there?"
            }
            if let verb = words.last, ["are", "include"].contains(verb), words.count >= 2 {
                let subject = lowerArticle(words[..<(words.count - 1)])
                return verb == "are" ? "What are \(subject)?" : "What do \(subject) include?"
            }
            if let verb = words.last, verb == "includes", words.count >= 2 {
                return "What does \(lowerArticle(words[..<(words.count - 1)])) include?"
            }
            if words.count >= 3, words[words.count - 2] == "consists" || words[words.count - 2] == "consist",
                words.last == "of"
            {
                let auxiliary = words[words.count - 2] == "consists" ? "does" : "do"
                return "What \(auxiliary) \(lowerArticle(words[..<(words.count - 2)])) consist of?"
            }
            return "\(intro) – which ones?"
        }
    }
}

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
    /// The heading the walk is under (numbering removed), for labels that need it ("Ziele: …").
    var heading: String?
    /// The sentence that introduced the bullets being walked ("Erste Verteidigungslinie sind die
    /// Barrieren:"), without its colon.
    var listIntro: String?
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
        guard isSound(question, answer: answer) else { return }
        let card = DraftCard(
            question: question, answer: answer, sourcePage: page, kind: kind, source: source, alternative: alternative)
        cards.append((order, card))
        order += 1
    }

    /// Words that point to something outside a gap's sentence ("Ohne ihn läge …", "… wehen sie …");
    /// possessives mostly point inside it ("Ebbinghaus veröffentlichte seine Untersuchungen").
    private static let pointingWords: Set<String> = [
        "ihn", "ihm", "sie", "er", "it", "they", "them", "he", "she", "this", "these", "those", "darum", "deshalb",
        "dies",
    ]

    /// Whether a card can stand as made: brackets closed; a question holds no formula; an answer and
    /// a gap's sentence point to nothing outside them; a gap is not inside brackets.
    func isSound(_ question: String, answer: String) -> Bool {
        // "Composites that pass this test": an answer that points to another sentence.
        // "Das Nutzenprinzip (Utilitarianism": a bracket cut open.
        guard answer.filter({ $0 == "(" }).count == answer.filter({ $0 == ")" }).count else { return false }
        let answerWords = answer.lowercased().split(whereSeparator: { !$0.isLetter })
        if answerWords.contains(where: { ["this", "these", "dies", "diese", "dieser", "dieses"].contains(String($0)) })
        {
            return false
        }
        guard question.filter({ $0 == "(" }).count == question.filter({ $0 == ")" }).count else { return false }
        if let gap = question.range(of: TextToCards.gap) {
            // "E.g. a coin minted in AD _____ …": an example's line is no fact of its own.
            let body = question.hasPrefix(clozePrompt) ? question.dropFirst(clozePrompt.count) : question[...]
            if ["e.g.", "z. b.", "z.b.", "for example", "zum beispiel", "beispiel:", "example:"].contains(where: {
                body.lowercased().hasPrefix($0)
            }) {
                return false
            }
            let before = question[..<gap.lowerBound]
            if before.filter({ $0 == "(" }).count > before.filter({ $0 == ")" }).count { return false }
            let words = question.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" })
            return !words.contains { Self.pointingWords.contains(String($0)) }
        }
        return !question.contains(" = ")
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
                heading = TextStructure.stripNumbering(block.text)
                listIntro = nil
                if Self.isGlossaryTitle(block.text) {
                    inGlossary = true
                    index += 1
                    continue
                }
                let bullets = bulletRun(after: index)
                // Items that are "Term: explanation" each give their own card; a "Which points belong
                // to …?" over their labels would ask the heading's organisation, not a fact.
                let labelled = bullets.contains { $0.contains(": ") }
                if bullets.count >= 2 && !labelled {
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
                            term: TextStructure.stripNumbering(block.text), explanation: explanation,
                            page: block.page, source: block.text + "\n" + explanation)
                        index += 2
                        continue
                    }
                }
            case .paragraph:
                if block.text.split(separator: " ").count > 50 { inGlossary = false }
                let bullets = bulletRun(after: index)
                let parts = TextStructure.sentences(of: block.text)
                antecedent = nil
                listIntro = parts.last.flatMap { $0.hasSuffix(":") ? String($0.dropLast()) : nil }
                for (position, sentence) in parts.enumerated() {
                    let introducesBullets = position == parts.count - 1 && sentence.hasSuffix(":") && bullets.count >= 2
                    handle(
                        sentence: sentence, previous: position > 0 ? parts[position - 1] : nil, page: block.page,
                        introducesBullets: introducesBullets ? bullets : nil)
                }
            case .bullet:
                // Items that are definitions themselves ("Cache: schneller Zwischenspeicher").
                if let (term, explanation) = TextStructure.colonSplit(block.text, language: language) {
                    addCitation(of: block.text, term: term, page: block.page)
                    if let framed = framedLabelQuestion(term: term, explanation: explanation) {
                        add(framed.question, framed.answer, page: block.page, kind: .definition, source: block.text)
                        index += 1
                        continue
                    }
                    addGlossary(
                        term: term, explanation: explanation, page: block.page, source: block.text,
                        context: usableContext(listIntro) ?? usableContext(heading),
                        isListItem: (usableContext(listIntro)?.split(separator: " ").count ?? 0) >= 3)
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
            // A sentence with a number is the number's card ("Aufbewahrungsfrist für Inventar: 10 Jahre").
            if sentence.text.contains(where: \.isNumber) { continue }
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
                // "Darley & Latané (1968)": the authors of a citation are no gap.
                let cited =
                    position + 1 < words.count && words[position + 1].hasPrefix("(")
                    && words[position + 1].contains(where: \.isNumber)
                if position >= 2, capitalised, !word.hasPrefix("("), !inDates.contains(position), !cited {
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
            // In German every noun is capitalised: two nouns in a row are two terms ("Reihenfolge
            // Aufgaben"), so a gap takes more than one word only behind a name's adjective
            // ("Dreißigjährigen Krieg").
            let candidates = runs.filter { run in
                guard run.count <= 4, !(run.count == 1 && Self.plainNouns.contains(run[0].lowercased())) else {
                    return false
                }
                // A German gap of one short noun ("Abwehr", "Antwort", "Regelung") asks a plain word; a
                // compound or a term the text defines is specific.
                if language == .de, run.count == 1, run[0].count < 9,
                    !keyTerms.contains(where: { $0.caseInsensitiveCompare(run[0]) == .orderedSame })
                {
                    return false
                }
                return language == .en
                    || run.dropLast().allSatisfy { word in
                        Self.adjectiveEndings.contains { word.lowercased().hasSuffix($0) }
                    }
            }
            guard let best = candidates.max(by: { $0.joined().count < $1.joined().count }), best.joined().count >= 6
            else { continue }
            let term = best.joined(separator: " ")
            guard let blanked = Self.blank(term, in: sentence.text) else { continue }
            sentences[index].used = true
            add(clozePrompt + blanked.text, blanked.found, page: sentence.page, kind: .cloze, source: sentence.text)
        }
    }

    // MARK: Sentences

    /// Words that open a note's emphasis ("Merke: …", "Wichtig (Klausur!): …", "Note: …"): the
    /// sentence after them is the fact.
    private static let emphasisLabels: Set<String> = [
        "merke", "wichtig", "hinweis", "achtung", "beachte", "nb", "note", "important", "remember", "tipp", "tip",
        "klausur", "prüfung", "exam", "key", "kernaussage", "fazit", "summary",
    ]

    /// The sentence without an emphasis label in front.
    static func withoutEmphasisLabel(_ sentence: String) -> String {
        guard let colon = sentence.range(of: ": ") else { return sentence }
        let label = sentence[..<colon.lowerBound]
        guard label.split(separator: " ").count <= 3,
            let first = label.split(separator: " ").first?.trimmingCharacters(in: .punctuationCharacters).lowercased(),
            emphasisLabels.contains(first)
        else { return sentence }
        let rest = sentence[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        return rest.split(separator: " ").count >= 3 ? CardText.capitalizedFirst(rest) : sentence
    }

    private mutating func handle(sentence original: String, previous: String?, page: Int, introducesBullets: [String]?)
    {
        let sentence = introducesBullets == nil ? Self.withoutEmphasisLabel(original) : original
        let sentenceIndex = sentences.count
        sentences.append(Sentence(text: sentence, page: page, used: false))
        if let items = introducesBullets {
            let intro = String(sentence.dropLast()).trimmingCharacters(in: .whitespaces)
            // "Why do people conform? Two reasons (…):": the note's own question asks for the list.
            let asked = previous.flatMap { $0.hasSuffix("?") && $0.split(separator: " ").count >= 3 ? $0 : nil }
            if let question = ListQuestions.question(intro: intro, language: language) ?? asked {
                addList(
                    question: question, items: items, page: page,
                    source: ([sentence] + items.map { "• " + $0 }).joined(separator: "\n"))
            }
            sentences[sentenceIndex].used = true
            return
        }
        if let (question, answer) = labelQuestion(sentence) {
            add(question, answer, page: page, kind: .fact, source: original)
            sentences[sentenceIndex].used = true
            return
        }
        if let (term, explanation) = TextStructure.colonSplit(sentence, language: language) {
            addCitation(of: sentence, term: term, page: page)
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

    /// "Sector model (Hoyt, 1939): …": who proposed the term, and when, as a card of its own.
    private mutating func addCitation(of line: String, term: String, page: Int) {
        guard let colon = line.range(of: ": "),
            let cited = TextStructure.citation(ofLabel: String(line[..<colon.lowerBound])), cited.term == term,
            // A name in front ("Hoyt, 1939"), not a period ("from the 1980s") or a remark.
            cited.citation.first?.isUppercase == true
        else { return }
        let question =
            language == .de ? "Von wem stammt „\(term)“, und wann?" : "Who proposed “\(term)”, and when?"
        add(question, cited.citation, page: page, kind: .fact, source: line)
    }

    /// An explanation that lists properties or members ("mechanische Barriere, Säureschutzmantel",
    /// "oral, sublingual, rectal") rather than saying what the term is.
    static func listsProperties(_ explanation: String) -> Bool {
        let sentence = TextStructure.sentences(of: explanation).first ?? explanation
        let clause = sentence.split(whereSeparator: { ";→".contains($0) }).first.map(String.init) ?? sentence
        let items = clause.split(separator: ",").map { $0.split(separator: " ").map(String.init) }
        // "Y-förmige Proteine, die Antigene binden": a relative clause goes on explaining.
        let relatives: Set<String> = ["die", "der", "das", "welche", "which", "that", "who", "where", "wo"]
        guard !items.dropFirst().contains(where: { relatives.contains($0.first?.lowercased() ?? "") }) else {
            return false
        }
        return items.count >= 3 || (items.count == 2 && items.allSatisfy { $0.count <= 3 })
    }

    /// A heading or a list's intro that can name what a question is about: short, no title line
    /// ("PSY 120 – Week 5"), not opening with a pronoun or a count ("Es arbeitet …", "Zwei Sichtweisen").
    func usableContext(_ text: String?) -> String? {
        guard let text, !text.contains(":") else { return nil }
        let words = text.split(separator: " ").map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        guard let first = words.first, words.count <= 6, !Self.pronounStarts.contains(first),
            !ListQuestions.countWords.contains(first), !words.contains(where: Self.titleWords.contains)
        else { return nil }
        return text
    }

    /// `isListItem`: a bullet under a sentence that introduces a list ("Erste Verteidigungslinie sind
    /// die Barrieren:"), a member of it rather than a term to define.
    private mutating func addGlossary(
        term: String, explanation: String, page: Int, source: String, context: String? = nil,
        isListItem: Bool = false
    ) {
        let text = Self.explanationAnswer(explanation)
        guard text.split(separator: " ").count >= 2, let answer = CardText.shortenAnswer(text) else { return }
        // "Converging lens: f > 0": a sign or a value alone asks nothing the term's name would cue.
        let words = text.split(separator: " ").filter { $0.filter(\.isLetter).count >= 2 }
        guard words.count >= 2 || text.contains("=") else { return }
        var question: String
        // An item whose explanation lists properties is asked for them, under what it is an item of
        // ("Barrieren: Was kennzeichnet „Haut“?"), not as a definition of a common word.
        let properties = Self.listsProperties(text) || (isListItem && context != nil)
        switch (language, properties) {
        case (.de, false): question = "Was bedeutet „\(term)“?"
        case (.en, false): question = "What does “\(term)” mean?"
        case (.de, true): question = "Was kennzeichnet „\(term)“?"
        case (.en, true): question = "What characterises “\(term)”?"
        }
        if properties, let context { question = context + ": " + question }
        add(question, CardText.capitalizedFirst(answer), page: page, kind: .definition, source: source)
        if !keyTerms.contains(term) { keyTerms.append(term) }
    }

    /// What of a label's explanation answers it: its first sentence when that is a full one
    /// ("Bis ca. 50 km, enthält die Ozonschicht. Diese absorbiert UV-Strahlung …": what follows is
    /// another card's fact), never the next label's explanation ("Real image: rays converge there.
    /// Virtual image: …"), without the final full stop.
    static func explanationAnswer(_ explanation: String) -> String {
        var text = explanation.trimmingCharacters(in: .whitespaces)
        let parts = TextStructure.sentences(of: text)
        if parts.count > 1, parts[0].split(separator: " ").count >= 4, let first = parts.first {
            text = String(first.dropLast(first.hasSuffix(".") ? 1 : 0))
        }
        var search = text.startIndex
        while let stop = text.range(of: ". ", range: search..<text.endIndex) {
            if startsWithLabel(String(text[stop.upperBound...])) {
                text = String(text[..<stop.lowerBound])
                break
            }
            search = stop.upperBound
        }
        // "Lehen wurden immer öfter vererbt; Konrad II. sicherte 1037 …": a capital after a semicolon
        // opens the next fact.
        if let semicolon = text.range(of: "; "), text[..<semicolon.lowerBound].split(separator: " ").count >= 4,
            text[semicolon.upperBound...].first?.isUppercase == true
        {
            text = String(text[..<semicolon.lowerBound])
        }
        if text.hasSuffix(".") && !text.hasSuffix("..") { text.removeLast() }
        return text
    }

    /// Labels that name an aspect of the section's subject ("Ziele: …" under "Ablauforganisation"),
    /// with how a question names it in German (with its article) and in English.
    private static let aspectLabels: [String: (de: String, en: String)] = {
        let ziele = ("die Ziele", "the goals")
        let vorteile = ("die Vorteile", "the advantages")
        let nachteile = ("die Nachteile", "the disadvantages")
        let ursachen = ("die Ursachen", "the causes")
        let folgen = ("die Folgen", "the consequences")
        let merkmale = ("die Merkmale", "the features")
        return [
            "ziele": ziele, "goals": ziele, "aims": ziele, "ziel": ("das Ziel", "the goal"),
            "vorteil": ("der Vorteil", "the advantage"), "vorteile": vorteile, "advantages": vorteile,
            "advantage": ("der Vorteil", "the advantage"), "nachteil": ("der Nachteil", "the disadvantage"),
            "nachteile": nachteile, "disadvantages": nachteile, "disadvantage": ("der Nachteil", "the disadvantage"),
            "ursache": ("die Ursache", "the cause"), "cause": ("die Ursache", "the cause"), "ursachen": ursachen,
            "causes": ursachen, "hauptursache": ("die Hauptursache", "the main cause"),
            "main cause": ("die Hauptursache", "the main cause"), "hauptgrund": ("der Hauptgrund", "the main reason"),
            "main reason": ("der Hauptgrund", "the main reason"), "grund": ("der Grund", "the reason"),
            "reason": ("der Grund", "the reason"), "folgen": folgen, "consequences": folgen,
            "effects": ("die Wirkungen", "the effects"), "wirkung": ("die Wirkung", "the effect"),
            "merkmale": merkmale, "features": merkmale, "eigenschaften": ("die Eigenschaften", "the properties"),
            "aufgaben": ("die Aufgaben", "the tasks"), "funktion": ("die Funktion", "the function"),
            "function": ("die Funktion", "the function"),
        ]
    }()
    /// Words of a document's title line, which names no subject for a question.
    private static let titleWords: Set<String> = [
        "vorlesung", "lecture", "week", "woche", "sitzung", "session", "kapitel", "chapter", "seminar",
        "proseminar", "übung", "einheit", "unit", "teil", "part",
        // Headings that name no subject.
        "überblick", "overview", "einleitung", "einführung", "introduction", "zusammenfassung", "summary",
        "grundlagen", "basics", "wiederholung", "recap", "fazit", "inhalt", "contents", "allgemeines",
        "grundbegriffe", "begriffe", "terms", "vorgehen", "procedure", "steps", "schritte", "phases", "phasen",
    ]

    /// A question for a labelled line: an aspect of the section's subject ("Bystander effect: What
    /// is the main reason?"), or what a cited study showed ("Darley & Latané (1968): the more …").
    func labelQuestion(_ sentence: String) -> (question: String, answer: String)? {
        guard let colon = sentence.range(of: ": ") else { return nil }
        let label = String(sentence[..<colon.lowerBound])
        var answer = sentence[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        if answer.hasSuffix(".") { answer.removeLast() }
        guard answer.split(separator: " ").count >= 2, answer.count <= CardText.maximumAnswerLength else { return nil }
        if let aspect = Self.aspectLabels[label.lowercased()] {
            guard let heading, heading.split(separator: " ").count <= 6, !heading.contains(":"),
                !heading.split(separator: " ").contains(where: {
                    Self.titleWords.contains($0.lowercased().trimmingCharacters(in: .punctuationCharacters))
                })
            else { return nil }
            let plural = aspect.de.hasPrefix("die ") && aspect.en.hasSuffix("s")
            let question =
                language == .de
                ? "\(heading): Was \(plural ? "sind" : "ist") \(aspect.de)?"
                : "\(heading): What \(plural ? "are" : "is") \(aspect.en)?"
            return (question, CardText.capitalizedFirst(answer))
        }
        // "Darley & Latané (1968)": names and a year in brackets, nothing else.
        let words = label.split(separator: " ").map(String.init)
        guard let year = words.last, year.hasPrefix("("), year.hasSuffix(")"),
            FactPatterns.isYear(String(year.dropFirst().dropLast())), words.count >= 2, words.count <= 4,
            words.dropLast().allSatisfy({ $0 == "&" || $0 == "und" || $0 == "and" || $0.first?.isUppercase == true })
        else { return nil }
        let several = words.count > 2
        let question =
            language == .de
            ? "Was \(several ? "zeigten" : "zeigte") \(label)?" : "What did \(label) show?"
        return (question, CardText.capitalizedFirst(answer))
    }

    /// Headings whose bullets are points of criticism or of a problem, not terms to define.
    private static let critiqueHeadings: Set<String> = [
        "kritik", "criticism", "criticisms", "critique", "einwände", "objections", "probleme", "problems",
        "grenzen", "limitations", "limits", "schwächen", "weaknesses", "stärken", "strengths", "risiken", "risks",
    ]

    /// A bullet's label under a person's heading ("Jeremy Bentham (1748–1832)" – "Hauptwerk: …") is
    /// something about that person: "Jeremy Bentham: Hauptwerk?". Under a heading of criticism or
    /// problems ("Kritik" – "Messproblem: …") it names a point of it: "Kritik: Was besagt
    /// „Messproblem“?". A definition question would ask for the meaning of a common word.
    func framedLabelQuestion(term: String, explanation: String) -> (question: String, answer: String)? {
        guard let heading, term.split(separator: " ").count <= 3 else { return nil }
        let text = Self.explanationAnswer(explanation)
        guard text.split(separator: " ").count >= 2, let shortened = CardText.shortenAnswer(text) else {
            return nil
        }
        let answer = CardText.capitalizedFirst(shortened)
        if let person = Self.personName(heading) {
            return ("\(person): \(term)?", answer)
        }
        // "Kritik", "Kritik am Utilitarismus", "Problems of scale": the heading opens with the word.
        let headingWords = heading.lowercased().split(whereSeparator: { !$0.isLetter })
        guard headingWords.count <= 4, let first = headingWords.first, Self.critiqueHeadings.contains(String(first))
        else { return nil }
        let question =
            language == .de ? "\(heading): Was besagt „\(term)“?" : "\(heading): What is meant by “\(term)”?"
        return (question, answer)
    }

    /// "Jeremy Bentham (1748–1832)" → "Jeremy Bentham": two to four capitalised words (or name
    /// particles) followed by the years of a life in brackets.
    static func personName(_ heading: String) -> String? {
        guard let open = heading.firstIndex(of: "("), heading.hasSuffix(")") else { return nil }
        let years = heading[heading.index(after: open)..<heading.index(before: heading.endIndex)]
        let parts = years.split(whereSeparator: { "–-".contains($0) }).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard parts.count == 2, parts.allSatisfy({ FactPatterns.isYear($0) }) else { return nil }
        let name = heading[..<open].trimmingCharacters(in: .whitespaces)
        let words = name.split(separator: " ")
        let particles: Set<Substring> = ["von", "van", "de", "der", "du", "da", "di", "le", "la"]
        let articles: Set<Substring> = ["der", "die", "das", "den", "dem", "ein", "eine", "the", "a", "an"]
        guard words.count >= 2, words.count <= 4, let first = words.first, !articles.contains(first.lowercased()[...]),
            words.allSatisfy({ $0.first?.isUppercase == true || particles.contains($0) })
        else { return nil }
        return name
    }

    /// "Diverging (concave): f < 0": a sentence that opens with a short capitalised label and a colon.
    static func startsWithLabel(_ sentence: String) -> Bool {
        guard let colon = sentence.range(of: ": "), sentence.first?.isUppercase == true else { return false }
        return sentence[..<colon.lowerBound].split(separator: " ").count <= 4
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
        // Words that lean on the sentence before: "Danach war …", "Ihr Ende …", "Beide Prinzipien …".
        "ihr", "ihre", "ihren", "ihrem", "ihrer", "sein", "seine", "seinen", "seinem", "seiner", "danach", "davor",
        "beide", "beides", "dort", "dadurch", "deshalb", "deswegen", "trotzdem", "außerdem", "jedoch", "jene",
        "jener", "then", "there", "both", "such", "afterwards", "therefore", "however", "hence", "his", "her",
    ]
    /// Endings of German adjectives that open a name ("Dreißigjährigen", "Westfälischer", "Römische").
    private static let adjectiveEndings = [
        "ischen", "ische", "ischer", "isches", "igen", "ige", "iger", "iges", "lichen", "liche", "licher", "liches",
    ]
    /// Nouns too plain to be what a gap asks ("beim zweiten _____" → "Kontakt").
    private static let plainNouns: Set<String> = [
        "kontakt", "unternehmen", "mitarbeiter", "prinzip", "prinzipien", "anteil", "teil", "teile", "menge",
        "zahl", "fall", "fälle", "art", "arten", "weise", "beispiel", "person", "personen", "menschen", "zeit",
        "jahr", "jahre", "jahren", "ende", "anfang", "form", "formen", "rolle", "bereich", "ebene", "punkt", "seite",
        "grund", "gründe", "frage", "problem", "ergebnis", "ziel", "weg", "sache", "thema", "regel", "praxis",
        "moment", "schritt", "schritte", "stunde", "woche", "tag", "tage", "leute", "dinge", "ding", "begriff",
        "part", "parts", "way", "ways", "number", "case", "cases", "people", "person", "time", "times", "year",
        "years", "thing", "things", "example", "kind", "type", "types", "role", "level", "point", "side", "reason",
        "result", "results", "practice", "step", "steps", "term", "terms", "lecture", "week", "day", "days",
    ]

    private func clozeCandidate(_ sentence: Sentence) -> Bool {
        let words = sentence.text.split(separator: " ")
        guard words.count >= 6, words.count <= 35, sentence.text.hasSuffix(".") else { return false }
        guard let first = words.first else { return false }
        let opener = first.lowercased().replacingOccurrences(of: "’", with: "'").replacingOccurrences(
            of: "'s", with: "")
        guard !Self.pronounStarts.contains(opener) else { return false }
        // "Das ist praktisch ein …", "That is why …": a demonstrative that stands for the sentence before.
        let second = words[1].lowercased()
        if ["das", "that"].contains(opener), ["ist", "war", "sind", "heißt", "is", "was", "means"].contains(second) {
            return false
        }
        // "Developed by Willard Libby …": a participle opens a note's fragment, not a sentence.
        if first.first?.isUppercase == true, opener.count > 4, opener.hasSuffix("ed"), !opener.hasSuffix("eed"),
            language == .en
        {
            return false
        }
        // "Faustregel: mehr als …", "Classic case: …": a label's line is a note, not a sentence to
        // blank; a date in front ("Traditionell 509 v. Chr.: Vertreibung …") is a timeline's fact.
        guard Self.startsWithLabel(sentence.text), let colon = sentence.text.range(of: ": ") else { return true }
        return sentence.text[..<colon.lowerBound].contains(where: \.isNumber)
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
            where !sentence.used && clozeCandidate(sentence) && !sentence.text.contains(where: \.isNumber)
                && Self.range(of: term, in: sentence.text) != nil
            {
                chosen = index
                break
            }
            guard let chosen, !Self.plainNouns.contains(term.lowercased()) else { continue }
            let sentence = sentences[chosen]
            guard let blanked = Self.blank(term, in: sentence.text) else { continue }
            sentences[chosen].used = true
            add(clozePrompt + blanked.text, blanked.found, page: sentence.page, kind: .cloze, source: sentence.text)
        }
    }

    /// Replaces every whole-word occurrence of `term` with the gap; returns the text and the
    /// spelling found first. Nil when a shortened word leans on the gap ("Aufbau- und _____": the
    /// answer's second half stands in the sentence).
    static func blank(_ term: String, in text: String) -> (text: String, found: String)? {
        var result = text
        var found: String? = nil
        while let range = range(of: term, in: result) {
            if found == nil { found = String(result[range]) }
            result.replaceSubrange(range, with: TextToCards.gap)
        }
        guard let found else { return nil }
        for joint in ["- und ", "- oder ", "- and ", "- or ", "- bzw. "] where result.contains(joint + TextToCards.gap)
        {
            return nil
        }
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
            // "… sind _____ Seiten derselben Sache" → "zwei": a count of two asks nothing.
            guard !answer.isEmpty,
                !["zwei", "two", "beide", "both", "0", "1", "null", "zero", "eins", "one", "drei", "three"].contains(
                    answer.lowercased())
            else { continue }
            // "(Ross, 1977)", "Darley & Latané (1968)": the year of a citation is no fact of the subject.
            let before = words[..<span.lowerBound].joined(separator: " ")
            let opensBracket =
                leading == "(" || before.filter({ $0 == "(" }).count > before.filter({ $0 == ")" }).count
            if trailing.contains(")"), opensBracket, FactPatterns.isYear(answer) { continue }
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
        guard intro.split(separator: " ").count >= 2, list.count <= CardText.maximumAnswerLength,
            let question = question(intro: intro, language: language)
        else { return nil }
        return (question, CardText.capitalizedFirst(list))
    }

    /// Intros that say too little to ask after their list as "… – welche?": a count or a label
    /// ("Zwei Sichtweisen", "Four processes, in this order", "Vorgehen"), a pronoun ("Es arbeitet
    /// mit zwei Armen"), or a clause left open ("Obedience went down when").
    static let countWords: Set<String> = [
        "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "two", "three", "four", "five",
        "six", "seven", "eight", "nine", "ten",
    ]
    private static let weakOpeners: Set<String> = countWords.union([
        "es", "sie", "er", "dies", "diese", "it", "this", "they", "these",
        "vorgehen", "ablauf", "schritte", "steps", "procedure", "ziele", "goals", "aims", "wichtig", "merke", "note",
        "important", "beispiele", "examples", "gliederung", "überblick", "overview", "inhalt", "contents",
        "beispiel", "example",
    ])
    private static let openEnds: Set<String> = [
        "when", "if", "that", "because", "wenn", "dass", "weil", "als", "ob", "where", "wo", "while", "whether",
    ]

    /// Turns the statement that introduces a list into a question; nil when the statement says too
    /// little for a question that stands on its own.
    static func question(intro: String, language: DocumentLanguage) -> String? {
        let weak: (String) -> String? = { fallback in
            // "Passiva = Mittelherkunft (woher kommt das Kapital?)": asked for what belongs to the term.
            if let equals = intro.range(of: " = ") {
                let term = intro[..<equals.lowerBound].trimmingCharacters(in: .whitespaces)
                guard term.split(separator: " ").count <= 4, !term.isEmpty else { return nil }
                return language == .de ? "Was gehört zu „\(term)“?" : "What belongs to “\(term)”?"
            }
            let words = intro.split(separator: " ").map {
                $0.trimmingCharacters(in: .punctuationCharacters).lowercased()
            }
            // "Divisibility tests follow from this": the intro leans on what came before.
            let pointing: Set<String> = ["this", "these", "that", "dies", "diese", "daraus", "davon"]
            guard words.count >= 3, let first = words.first, !weakOpeners.contains(first),
                !words.contains(where: pointing.contains)
            else { return nil }
            // "Obedience went down when:" asks on: "Obedience went down when …?"
            if openEnds.contains(words.last ?? "") { return intro + " …?" }
            return fallback
        }
        return question(ofIntro: intro, language: language, fallback: weak)
    }

    private static func question(
        ofIntro intro: String, language: DocumentLanguage, fallback: (String) -> String?
    ) -> String? {
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
            return fallback("\(intro) – welche?")
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
            return fallback("\(intro) – which ones?")
        }
    }
}

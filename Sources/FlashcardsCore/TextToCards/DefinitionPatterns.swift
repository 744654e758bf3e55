import Foundation

/// A definition found in a sentence: the term, a question about it and the answer.
struct FoundDefinition: Hashable {
    var term: String
    var question: String
    var answer: String
}

/// Recognises definition sentences ("X ist …", "Unter X versteht man …", "X refers to …") by
/// looking at words, not regular expressions, so that 100 pages stay fast.
enum DefinitionPatterns {
    private static let germanArticles: Set<String> = [
        "der", "die", "das", "ein", "eine", "einen", "einem", "einer", "dem", "den", "des",
    ]
    private static let englishArticles: Set<String> = ["a", "an", "the"]
    private static let germanNonTerms: Set<String> = [
        "er", "sie", "es", "dies", "diese", "dieser", "dieses", "man", "hier", "dabei", "damit", "dadurch", "jeder",
        "jede", "jedes", "alle", "viele", "beide", "folgendes", "wichtig", "ziel", "grund", "wer", "was", "welche",
        "welcher", "wir", "ihr", "ich", "du", "das", "dort", "daher", "deshalb", "so", "auch", "nur", "noch",
        "wird", "werden", "wurde", "kann", "können", "hat", "haben", "wenn", "dass", "weil", "nicht", "ohne", "mit",
        "bei", "für", "durch", "nach", "vor", "zu", "im", "in", "am", "an", "auf", "aus", "um", "sich", "sein",
        "seine", "ihre", "ihren", "unser", "unsere", "kein", "keine", "sehr", "oft", "immer", "zudem", "außerdem",
        // Adverbs that open a sentence about the one before ("Danach war rex ein Schimpfwort").
        "danach", "davor", "dann", "damals", "später", "zuerst", "anschließend", "schließlich", "trotzdem",
        "jedoch", "somit", "also", "ebenso", "heute", "maßgeblich", "entscheidend",
        // Nouns that need their complement ("Träger [der Abwehr] sind die Lymphozyten").
        "träger", "grundlage", "basis", "kern", "voraussetzung", "bestandteil", "bestandteile",
        // Words that introduce examples or results, not a defined term ("Beispiele sind …").
        "beispiel", "beispiele", "ergebnis", "ergebnisse", "folge", "folgen", "vorteil", "vorteile", "nachteil",
        "nachteile", "problem", "probleme", "frage", "antwort", "lösung", "ursache", "ursachen", "grundlage",
    ]
    private static let englishNonTerms: Set<String> = [
        "it", "this", "that", "these", "those", "there", "here", "they", "we", "he", "she", "you", "each", "every",
        "all", "both", "such", "one", "its", "our", "their", "which", "what", "who", "when", "if", "because",
        "can", "will", "may", "must", "does", "do", "did", "not", "also", "often", "has", "have", "had", "was",
        "were", "be", "been", "for", "without", "with", "by", "from", "in", "on", "at", "to", "into", "so", "then",
        "however", "thus", "therefore", "most", "many", "some", "any", "other", "another", "i", "us", "them",
        "his", "her", "my", "your", "how", "why", "where", "while", "although", "late", "good", "bad",
        "example", "examples", "result", "results", "advantage", "advantages", "disadvantage", "disadvantages",
        "problem", "problems", "reason", "reasons", "answer", "solution", "consequence", "consequences",
    ]
    private static let germanWeakAnswerStarts: Set<String> = [
        "nicht", "auch", "sehr", "oft", "dabei", "hier", "so", "zu", "es", "dann", "daher", "deshalb", "damit",
        "jedoch", "aber", "immer", "meist", "meistens", "nur", "noch", "bereits", "schon", "gleich", "wichtig",
        "klar", "möglich", "nötig", "notwendig", "sinnvoll", "abhängig", "wenn", "falls", "dass", "weil",
    ]
    private static let englishWeakAnswerStarts: Set<String> = [
        "not", "also", "very", "often", "usually", "used", "important", "useful", "sensitive", "measured", "based",
        "always", "only", "still", "already", "then", "therefore", "so", "too", "more", "less", "possible",
        "necessary", "true", "false", "if", "because", "when", "that", "it", "there",
        // "Big split is between …", "Dates are given as BP": a preposition or a participle says where
        // or how, not what the term is.
        "between", "in", "on", "at", "from", "with", "by", "for", "of", "about", "under", "over", "into", "within",
        "without", "given", "known", "made", "seen", "taken", "shown", "done", "written", "found", "built", "held",
        "kept", "set", "put", "thought",
    ]
    private static let auxiliaryEndings: Set<String> = [
        "worden", "werden", "wurde", "wurden", "sein", "haben", "lassen", "kann", "können", "muss", "müssen",
    ]

    /// The definition in `sentence`, if it has one of the known shapes.
    static func match(
        _ sentence: String, language: DocumentLanguage, vocabulary: Set<String>
    ) -> FoundDefinition? {
        guard sentence.hasSuffix("."), !sentence.hasSuffix("..") else { return nil }
        var body = String(sentence.dropLast())
        // "…; not even light can escape": the first clause carries the definition.
        if let semicolon = body.range(of: "; ") { body = String(body[..<semicolon.lowerBound]) }
        // "Der Besitz hingegen ist …": a contrasting adverb between subject and verb changes nothing.
        let adverbs: Set<String> = ["hingegen", "dagegen", "jedoch", "aber", "also", "however", "therefore", "thus"]
        let words = body.split(separator: " ").map(String.init).enumerated().filter { index, word in
            !(index >= 1 && index <= 5 && adverbs.contains(word.lowercased()))
        }.map(\.element)
        guard words.count >= 4, words.count <= 60 else { return nil }
        switch language {
        case .de: return german(words)
        case .en: return english(words, vocabulary: vocabulary)
        }
    }

    // MARK: German

    private static func german(_ words: [String]) -> FoundDefinition? {
        let first = words[0]
        // "Unter (einem) X versteht man Y."
        if first == "Unter", let verb = words.firstIndex(where: { $0 == "versteht" || $0 == "verstehen" }),
            verb + 1 < words.count, words[verb + 1] == "man", verb >= 2
        {
            let (article, term) = splitArticle(Array(words[1..<verb]), articles: germanArticles)
            guard let term = validGermanTerm(term) else { return nil }
            let answer = Array(words[(verb + 2)...])
            guard let answerText = validAnswer(answer, weakStarts: germanWeakAnswerStarts) else { return nil }
            return FoundDefinition(
                term: term, question: "Was versteht man unter \(joined(article, term))?", answer: answerText)
        }
        // "Als (einen) X bezeichnet man Y."
        if first == "Als",
            let verb = words.firstIndex(where: { ["bezeichnet", "bezeichnen", "beschreibt"].contains($0) }),
            verb + 1 < words.count, words[verb + 1] == "man", verb >= 2
        {
            let (article, term) = splitArticle(Array(words[1..<verb]), articles: germanArticles)
            guard let term = validGermanTerm(term) else { return nil }
            guard let answerText = validAnswer(Array(words[(verb + 2)...]), weakStarts: germanWeakAnswerStarts)
            else { return nil }
            return FoundDefinition(
                term: term, question: "Was bezeichnet man als \(joined(article, term))?", answer: answerText)
        }
        // "Man nennt das Recht, … zu verlangen, einen Anspruch." The term comes last.
        if first == "Man", words.count >= 6, ["nennt", "bezeichnet"].contains(words[1]) {
            for termLength in 1...3 where words.count - termLength - 1 >= 4 {
                let articleIndex = words.count - termLength - 1
                guard germanArticles.contains(words[articleIndex].lowercased()) else { continue }
                guard let term = validGermanTerm(Array(words[(articleIndex + 1)...])),
                    let answer = validAnswer(Array(words[2..<articleIndex]), weakStarts: germanWeakAnswerStarts)
                else { continue }
                // The accusative article of the sentence becomes a nominative one in the question.
                let nominative =
                    ["einen": "ein", "den": "der"][words[articleIndex].lowercased()]
                    ?? words[articleIndex].lowercased()
                return FoundDefinition(term: term, question: "Was ist \(nominative) \(term)?", answer: answer)
            }
        }
        // "(Die) X wird als Y bezeichnet." (passive)
        if let verb = words.prefix(7).firstIndex(where: { $0 == "wird" || $0 == "werden" }), verb >= 1,
            verb + 3 < words.count, words[verb + 1] == "als",
            ["bezeichnet", "definiert", "verstanden"].contains(words[words.count - 1])
        {
            var (article, termWords) = splitArticle(Array(words[0..<verb]), articles: germanArticles)
            article = article?.lowercased()
            guard let term = validGermanTerm(termWords),
                let answer = validAnswer(
                    Array(words[(verb + 2)..<(words.count - 1)]), weakStarts: germanWeakAnswerStarts)
            else { return nil }
            let verbWord = words[verb] == "wird" ? "ist" : "sind"
            return FoundDefinition(term: term, question: "Was \(verbWord) \(joined(article, term))?", answer: answer)
        }
        // "(Der) X ist / sind / bezeichnet / beschreibt / meint Y."
        let verbs: Set<String> = [
            "ist", "sind", "war", "waren", "bezeichnet", "bezeichnen", "beschreibt", "beschreiben", "meint", "tritt",
            "gibt",
        ]
        guard let verb = words.prefix(12).firstIndex(where: { verbs.contains($0.trimmingCharacters(in: [","])) }),
            verb >= 1
        else { return nil }
        var subject = apposed(Array(words[0..<verb]))
        if subject.count >= 2, subject[1] == "Begriff" { subject.remove(at: 1) }
        var (article, termWords) = splitArticle(subject, articles: germanArticles)
        article = article?.lowercased()
        guard let term = validGermanTerm(termWords) else { return nil }
        // "Zuständig ist das Bundesverfassungsgericht": an adjective in front, not a term.
        if article == nil, termWords.count == 1,
            ["ig", "lich", "isch", "bar", "sam", "los", "haft"].contains(where: { term.hasSuffix($0) })
        {
            return nil
        }
        let verbWord = words[verb].trimmingCharacters(in: [","])
        var rest = Array(words[(verb + 1)...])
        // "Klassische Konditionierung" at the start of a sentence: the adjective is lower case in a question.
        var shownWords = term.split(separator: " ").map(String.init)
        if shownWords.count >= 2, let adjective = shownWords.first,
            ["e", "er", "es", "en", "em"].contains(where: { adjective.hasSuffix($0) }),
            adjective.dropFirst().allSatisfy({ $0.isLowercase })
        {
            shownWords[0] = adjective.lowercased()
        }
        let subjectText = joined(article, shownWords.joined(separator: " "))
        switch verbWord {
        case "tritt":
            // "Ein Seitenfehler tritt auf, wenn …"
            guard rest.count >= 3, rest[0] == "auf,", rest[1] == "wenn" else { return nil }
            rest.removeFirst()
            guard let answer = validAnswer(rest, weakStarts: []) else { return nil }
            return FoundDefinition(term: term, question: "Wann tritt \(subjectText) auf?", answer: answer)
        case "gibt":
            // "Die Preiselastizität gibt an, um wie viel …"
            guard rest.count >= 3, rest[0] == "an," else { return nil }
            rest.removeFirst()
            guard let answer = validAnswer(rest, weakStarts: []) else { return nil }
            return FoundDefinition(term: term, question: "Was gibt \(subjectText) an?", answer: answer)
        case "war", "waren":
            // "Martin Luther, geboren 1483 in Eisleben, war Augustinermönch …": a person.
            if article == nil, words[..<verb].contains("geboren"),
                let answer = validAnswer(rest, weakStarts: germanWeakAnswerStarts)
            {
                return FoundDefinition(term: term, question: "Wer war \(term)?", answer: answer)
            }
            // Past tense only with an article: "Ein Ablass war ein Nachlass …".
            guard let head = rest.first, germanArticles.contains(head.lowercased()),
                let answer = validAnswer(rest, weakStarts: germanWeakAnswerStarts)
            else { return nil }
            return FoundDefinition(term: term, question: "Was \(verbWord) \(subjectText)?", answer: answer)
        case "ist", "sind":
            guard let head = rest.first else { return nil }
            let startsWithArticle =
                germanArticles.contains(head.lowercased()) || head == "diejenige"
                || head == "derjenige" || head == "dasjenige"
            let startsWithNoun = head.first?.isUppercase == true && verbWord == "sind"
            guard startsWithArticle || startsWithNoun || rest.count >= 5 else { return nil }
            guard !(head.first?.isNumber ?? false) else { return nil }
            // "Handeln ist sozial, wenn …": a lower-case word after "ist" is an adjective, so the
            // sentence says how the term is, not what it is.
            guard startsWithArticle || head.first?.isLowercase != true else { return nil }
            guard let answer = validAnswer(rest, weakStarts: germanWeakAnswerStarts) else { return nil }
            return FoundDefinition(term: term, question: "Was \(verbWord) \(subjectText)?", answer: answer)
        default:
            // bezeichnet / beschreibt / meint: the object starts with an article, or is a clause after a comma.
            guard let head = rest.first else { return nil }
            let clause = words[verb].hasSuffix(",")
            guard germanArticles.contains(head.lowercased()) || clause else { return nil }
            guard let answer = validAnswer(rest, weakStarts: clause ? [] : germanWeakAnswerStarts) else { return nil }
            return FoundDefinition(term: term, question: "Was \(verbWord) \(subjectText)?", answer: answer)
        }
    }

    /// A German term: at most five words, ending in a capitalised noun or an acronym, with only
    /// adjectives or genitive links ("der", "des", "von") in lower case.
    static func validGermanTerm(_ words: [String]) -> String? {
        guard !words.isEmpty, words.count <= 5 else { return nil }
        guard !germanNonTerms.contains(words[0].lowercased()) else { return nil }
        for (index, word) in words.enumerated() {
            if isAcronymInParentheses(word) { continue }
            guard isTermWord(word) else { return nil }
            let lower = word.lowercased()
            if index > 0 && germanNonTerms.contains(lower) && !["der", "des", "von", "für"].contains(lower) {
                return nil
            }
            if word.first?.isLowercase == true {
                // Lower case inside a German term: adjectives before a noun or genitive links,
                // never verbs or numerals ("Die Zellatmung umfasst drei Abschnitte").
                guard index < words.count - 1 else { return nil }
                let linking = ["der", "des", "von", "für"].contains(lower)
                let adjective =
                    ["e", "er", "es", "en", "em"].contains { lower.hasSuffix($0) }
                    && !["werden", "haben", "sein", "gehören", "zählen", "umfassen", "enthalten"].contains(lower)
                guard linking || adjective else { return nil }
            }
        }
        let last = words.last { !isAcronymInParentheses($0) } ?? words[0]
        guard last.first?.isUppercase == true else { return nil }
        return words.joined(separator: " ")
    }

    /// The subject without an apposition between commas: "Martin Luther, geboren 1483 in
    /// Eisleben," → "Martin Luther". Unchanged when there is none.
    static func apposed(_ subject: [String]) -> [String] {
        guard subject.count >= 3, subject.last?.hasSuffix(",") == true,
            let first = subject.firstIndex(where: { $0.hasSuffix(",") }), first < subject.count - 1
        else { return subject }
        var head = Array(subject[...first])
        head[head.count - 1] = String(head[head.count - 1].dropLast())
        return head
    }

    // MARK: English

    private static func english(_ words: [String], vocabulary: Set<String>) -> FoundDefinition? {
        var subjectStart = 0
        var termPrefix = ""
        if words.count > 3, words[0] == "The", ["term", "concept", "notion"].contains(words[1]) {
            subjectStart = 2
            termPrefix = "the \(words[1]) "
        }
        // "… is known as / is called a black hole": the term comes last, the definition first.
        for marker in [["is", "known", "as"], ["is", "called"], ["are", "known", "as"], ["are", "called"]] {
            guard
                let start = words.indices.first(where: { index in
                    index >= 3 && index + marker.count < words.count
                        && Array(words[index..<(index + marker.count)]) == marker
                })
            else { continue }
            let tail = Array(words[(start + marker.count)...])
            var (article, termWords) = splitArticle(tail, articles: englishArticles)
            article = article?.lowercased()
            guard let term = validEnglishTerm(termWords),
                let answer = validAnswer(Array(words[0..<start]), weakStarts: englishWeakAnswerStarts)
            else { return nil }
            let shown = joined(article, displayTerm(term, vocabulary: vocabulary))
            return FoundDefinition(term: term, question: "What \(marker[0]) \(shown)?", answer: answer)
        }
        let verbs: Set<String> = [
            "is", "are", "was", "were", "means", "refers", "denotes", "describes", "occurs", "stands",
        ]
        let window = words.prefix(subjectStart + 11)
        guard let verb = window.indices.first(where: { $0 > subjectStart && verbs.contains(window[$0]) }) else {
            return genericEnglish(words, vocabulary: vocabulary)
        }
        var (article, termWords) = splitArticle(
            apposed(Array(words[subjectStart..<verb])), articles: englishArticles)
        article = article?.lowercased()
        guard let term = validEnglishTerm(termWords) else { return nil }
        let shownTerm = termPrefix + displayTerm(term, vocabulary: vocabulary)
        let subject = joined(termPrefix.isEmpty ? article : nil, shownTerm)
        var rest = Array(words[(verb + 1)...])
        switch words[verb] {
        case "was", "were":
            // Past tense only with a determiner: "The Marshall Plan was a programme …".
            guard let head = rest.first, ["a", "an", "the"].contains(head.lowercased()),
                let answer = validAnswer(rest, weakStarts: englishWeakAnswerStarts)
            else { return nil }
            return FoundDefinition(term: term, question: "What \(words[verb]) \(subject)?", answer: answer)
        case "is", "are":
            if rest.first == "called" { return nil }
            // "Myelin is formed by …": a passive says what happens to the term, not what it is.
            if let head = rest.first, head.count > 3, head.hasSuffix("ed") { return nil }
            var question = "What \(words[verb]) \(subject)?"
            if rest.count > 2, rest[0] == "defined", rest[1] == "as" {
                rest.removeFirst(2)
                question = "How \(words[verb]) \(subject) defined?"
            }
            guard let head = rest.first, !(head.first?.isNumber ?? false) else { return nil }
            let determiners: Set<String> = ["a", "an", "the", "one", "any", "each", "some", "all"]
            guard determiners.contains(head.lowercased()) || rest.count >= 5 else { return nil }
            guard let answer = validAnswer(rest, weakStarts: englishWeakAnswerStarts) else { return nil }
            return FoundDefinition(term: term, question: question, answer: answer)
        case "refers":
            guard rest.first == "to" else { return nil }
            rest.removeFirst()
            guard let answer = validAnswer(rest, weakStarts: []) else { return nil }
            return FoundDefinition(term: term, question: "What does \(subject) refer to?", answer: answer)
        case "stands":
            guard rest.first == "for" else { return nil }
            rest.removeFirst()
            guard let answer = validAnswer(rest, weakStarts: []) else { return nil }
            return FoundDefinition(term: term, question: "What does \(subject) stand for?", answer: answer)
        case "occurs":
            guard rest.first == "when" || rest.first == "if" else { return nil }
            guard let answer = validAnswer(rest, weakStarts: []) else { return nil }
            return FoundDefinition(term: term, question: "When does \(subject) occur?", answer: answer)
        default:
            // means / denotes / describes
            if words[verb] == "means", rest.first == "that" { rest.removeFirst() }
            guard let answer = validAnswer(rest, weakStarts: []) else { return nil }
            let base = ["means": "mean", "denotes": "denote", "describes": "describe"][words[verb]]!
            return FoundDefinition(term: term, question: "What does \(subject) \(base)?", answer: answer)
        }
    }

    /// "A port number identifies a process …" → "What does a port number identify?".
    /// Only with an indefinite article, where the subject is clearly a kind of thing.
    private static func genericEnglish(_ words: [String], vocabulary: Set<String>) -> FoundDefinition? {
        guard words[0] == "A" || words[0] == "An" else { return nil }
        guard
            let verb = words.prefix(6).indices.first(where: { index in
                index >= 2 && words[index].count > 3 && words[index].hasSuffix("s") && words[index].first!.isLowercase
                    && !["does", "has", "was", "is", "this", "its", "thus", "less", "always", "across", "unless"]
                        .contains(
                            words[index])
                    && !["ss", "'s", "us", "is", "ens", "ics", "ous"].contains(where: { words[index].hasSuffix($0) })
            })
        else { return nil }
        guard let term = validEnglishTerm(Array(words[1..<verb])) else { return nil }
        let rest = Array(words[(verb + 1)...])
        guard rest.count >= 3, let answer = validAnswer(rest, weakStarts: englishWeakAnswerStarts) else { return nil }
        let verbWord = words[verb]
        let base: String
        if verbWord.hasSuffix("ies") {
            base = String(verbWord.dropLast(3)) + "y"
        } else if ["ches", "shes", "sses", "xes", "oes"].contains(where: { verbWord.hasSuffix($0) }) {
            base = String(verbWord.dropLast(2))
        } else {
            base = String(verbWord.dropLast())
        }
        let article = words[0].lowercased()
        // "An atom consists of …": the preposition belongs to the question, not the answer.
        if ["of", "from", "to", "on", "with"].contains(rest[0]),
            let shorter = validAnswer(Array(rest.dropFirst()), weakStarts: englishWeakAnswerStarts)
        {
            return FoundDefinition(
                term: term,
                question: "What does \(article) \(displayTerm(term, vocabulary: vocabulary)) \(base) \(rest[0])?",
                answer: shorter)
        }
        return FoundDefinition(
            term: term,
            question: "What does \(article) \(displayTerm(term, vocabulary: vocabulary)) \(base)?",
            answer: answer)
    }

    static func validEnglishTerm(_ words: [String]) -> String? {
        guard !words.isEmpty, words.count <= 5 else { return nil }
        guard !englishNonTerms.contains(words[0].lowercased()) else { return nil }
        for (index, word) in words.enumerated() {
            if isAcronymInParentheses(word) { continue }
            guard isTermWord(word) else { return nil }
            let lower = word.lowercased()
            // "I" is a word inside "type I error", not a pronoun there.
            if index > 0, englishNonTerms.contains(lower), word != "I", lower != "of", lower != "for" { return nil }
        }
        if let last = words.last, ["of", "for", "the", "a", "an", "and", "or"].contains(last.lowercased()) {
            return nil
        }
        return words.joined(separator: " ")
    }

    /// Lower-cases a sentence-initial capital when the document also uses the word in lower case.
    private static func displayTerm(_ term: String, vocabulary: Set<String>) -> String {
        guard let first = term.split(separator: " ").first else { return term }
        let rest = first.dropFirst()
        guard first.first?.isUppercase == true, rest.allSatisfy({ !$0.isUppercase }) else { return term }
        // "Domain Name System" is a name; only all-lower-case terms lose their sentence capital.
        let others = term.split(separator: " ").dropFirst().filter { !$0.hasPrefix("(") }
        guard others.allSatisfy({ word in !word.contains(where: \.isUppercase) }) else { return term }
        let bare = String(first).replacingOccurrences(of: "'s", with: "").replacingOccurrences(of: "’s", with: "")
        if vocabulary.contains("Capitalized:" + bare) { return term }
        return first.lowercased() + term.dropFirst(first.count)
    }

    // MARK: Shared

    private static func isTermWord(_ word: String) -> Bool {
        guard let first = word.first, first.isLetter || first.isNumber else { return false }
        return word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "'" || $0 == "’" || $0 == "/" }
    }

    private static func isAcronymInParentheses(_ word: String) -> Bool {
        word.count >= 3 && word.hasPrefix("(") && word.hasSuffix(")")
            && word.dropFirst().dropLast().allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
    }

    private static func splitArticle(_ words: [String], articles: Set<String>) -> (String?, [String]) {
        guard let first = words.first, articles.contains(first.lowercased()), words.count > 1 else {
            return (nil, words)
        }
        return (first, Array(words.dropFirst()))
    }

    private static func joined(_ article: String?, _ term: String) -> String {
        guard let article else { return term }
        return "\(article.lowercased()) \(term)"
    }

    /// The answer text: whole, trimmed, without the final period, first letter capitalised.
    /// Nil when it is too short, starts weakly, or ends in an auxiliary ("… vorgestellt worden").
    static func validAnswer(_ words: [String], weakStarts: Set<String>) -> String? {
        guard words.count >= 2, let head = words.first else { return nil }
        if weakStarts.contains(head.lowercased().trimmingCharacters(in: .punctuationCharacters)) { return nil }
        // "… im Jahr 1965 vorgestellt worden" is a statement, not a definition; a relative clause
        // ("…, in der keiner fortfahren kann") legitimately ends in a verb.
        if let last = words.last, auxiliaryEndings.contains(last.lowercased()),
            !words.contains(where: { $0.hasSuffix(",") })
        {
            return nil
        }
        var text = words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " ,;:"))
        // "the square root of the variance and is measured in …": keep the defining part only.
        for joint in [" and is ", " and are ", " und ist ", " und sind ", " und wird ", " und werden "] {
            if let range = text.range(of: joint), text[..<range.lowerBound].split(separator: " ").count >= 3 {
                text = String(text[..<range.lowerBound])
            }
        }
        guard let shortened = CardText.shortenAnswer(text) else { return nil }
        return CardText.capitalizedFirst(shortened)
    }
}

/// Small text helpers shared by the card rules.
public enum CardText {
    /// The longest answer the offline generator writes; longer ones are cut at a clause boundary.
    public static let maximumAnswerLength = 260

    /// `text` itself when short enough, else its first clause(s) up to a comma or semicolon, else nil.
    static func shortenAnswer(_ text: String) -> String? {
        if text.count <= maximumAnswerLength { return text }
        var best: String? = nil
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "," || character == ";" {
                let candidate = String(text[..<index])
                if candidate.count > maximumAnswerLength { break }
                if candidate.split(separator: " ").count >= 5 { best = candidate }
            }
            index = text.index(after: index)
        }
        return best
    }

    /// Upper-cases the first letter of a lower-case word; a symbol or a unit keeps its case
    /// ("f > 0", "n₁ sin θ₁", "pH 1–2", "x-Achse").
    public static func capitalizedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        let word = text.prefix { !$0.isWhitespace }
        let letters = word.prefix { $0.isLetter }
        guard letters.count >= 2 || word == "a", letters.allSatisfy(\.isLowercase) else { return text }
        // "ca2+", "mRNA-…": a formula or a unit.
        if let next = word.dropFirst(letters.count).first, next.isNumber || next == "+" { return text }
        return first.uppercased() + text.dropFirst()
    }
}

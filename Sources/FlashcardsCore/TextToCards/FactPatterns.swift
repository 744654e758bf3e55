import Foundation

/// A fact found in one sentence, asked as a question: where something happens, when, what causes
/// it, what it is for, what it consists of, how many.
struct FoundFact: Hashable {
    var question: String
    var answer: String
    /// The sentence's subject, which a pronoun in the next sentence may refer to.
    var subject: String
}

/// What a pronoun at the start of a sentence stands for: the subject of the sentence before
/// ("Die Photosynthese … Sie findet in den Chloroplasten statt.").
struct Antecedent: Hashable {
    /// The subject as it stands inside a question ("die Photosynthese"), by the pronoun that may
    /// stand for it ("sie"; "it"). An indefinite subject becomes definite ("Ein Router …" → "er":
    /// "der Router"); an acronym without an article takes any pronoun ("UDP … Es …").
    private var byPronoun: [String: String]

    /// The antecedent for a German or English subject phrase; nil when its gender is unknown.
    init?(phrase: String, language: DocumentLanguage) {
        let words = phrase.split(separator: " ").map(String.init)
        guard let first = words.first, words.count <= 6 else { return nil }
        let noun = words.dropFirst().joined(separator: " ")
        let lowered = FactPatterns.lowerArticle(phrase)
        switch language {
        case .de:
            switch first.lowercased() {
            case "der": byPronoun = ["er": lowered]
            case "die": byPronoun = ["sie": lowered]
            case "das": byPronoun = ["es": lowered]
            case "ein" where !noun.isEmpty: byPronoun = ["er": "der " + noun, "es": "das " + noun]
            case "eine" where !noun.isEmpty: byPronoun = ["sie": "die " + noun]
            default:
                let acronym = words.count == 1 && first.count >= 2 && first.allSatisfy { $0.isUppercase || $0.isNumber }
                guard acronym else { return nil }
                byPronoun = ["er": first, "sie": first, "es": first]
            }
        case .en:
            switch first.lowercased() {
            case "the": byPronoun = ["it": lowered]
            case "a",
                "an" where !noun.isEmpty:
                byPronoun = ["it": "the " + noun]
            default:
                guard first.first?.isUppercase == true else { return nil }
                byPronoun = ["it": lowered]
            }
        }
    }

    /// The pronouns that may stand for it.
    var pronouns: Set<String> { Set(byPronoun.keys) }

    /// The phrase that `word` (a sentence's first word) stands for, if it is one of its pronouns.
    func phrase(for word: String) -> String? { byPronoun[word.lowercased()] }

    /// The definite phrase ("die Photosynthese"), whichever pronoun stands for it.
    var phrase: String { byPronoun.values.sorted().first ?? "" }
}

/// Recognises fact sentences by their verbs, German and English, word by word (no regular
/// expressions, so long documents stay fast). Each pattern turns the statement into the question
/// a teacher would ask and keeps the rest of the sentence as the answer.
enum FactPatterns {
    static let germanPlaces: Set<String> = [
        "in", "im", "an", "am", "auf", "bei", "beim", "innerhalb", "außerhalb", "zwischen", "unter", "über",
    ]
    private static let englishPlaces: Set<String> = ["in", "inside", "within", "at", "on", "between"]
    private static let germanPrepositions: Set<String> = [
        "in", "im", "an", "am", "auf", "bei", "beim", "innerhalb", "außerhalb", "zwischen", "unter", "über", "nach",
        "vor", "mit", "für", "durch", "seit", "während", "wegen", "trotz", "ohne", "gegen", "um", "aus", "von", "vom",
        "zu", "zum", "zur", "ab", "bis",
    ]
    private static let germanNonSubjects: Set<String> = [
        "er", "sie", "es", "man", "dies", "das", "hier", "dort", "dabei", "daher", "deshalb", "dann", "so", "auch",
        "nur", "als",
        "wir", "ich", "du", "ihr", "jeder", "jede", "alle", "viele", "manche", "einige", "beide",
        // Sentence adverbs and pronouns that open a sentence capitalised.
        "außerdem", "zudem", "ebenso", "allerdings", "jedoch", "trotzdem", "dennoch", "darum", "somit", "folglich",
        "anders", "besonders", "zunächst", "danach", "anschließend", "schließlich", "heute", "damals", "später",
        "früher", "erst", "bereits", "insgesamt", "diese", "dieser", "dieses", "jene", "sein", "seine", "ihre",
        "wer", "was", "welche", "welcher", "dort", "hier", "damit", "dadurch", "deshalb", "daher", "dabei",
        "darunter", "darüber", "daneben", "dazu", "davon", "dafür", "danach", "davor", "dahinter", "dazwischen",
    ]
    private static let englishNonSubjects: Set<String> = [
        "it", "this", "that", "these", "those", "there", "here", "they", "we", "i", "you", "he", "she", "each",
        "all", "many", "some", "both", "then", "so", "thus", "however",
    ]
    /// Number words from two to twelve, German and English (a number in a fact or a cloze).
    static let numberWords: Set<String> = [
        "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf", "two", "three",
        "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    ]
    private static let months: Set<String> = [
        "januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober", "november",
        "dezember", "january", "february", "march", "june", "july", "october", "december",
    ]

    /// The fact in `sentence`, if it has one of the known shapes. `antecedent` resolves a leading
    /// pronoun ("Sie", "It") to the previous sentence's subject.
    static func match(
        _ sentence: String, language: DocumentLanguage, antecedent: Antecedent?, vocabulary: Set<String> = []
    ) -> FoundFact? {
        guard sentence.hasSuffix("."), !sentence.hasSuffix(".."), !sentence.contains("?") else { return nil }
        var words = String(sentence.dropLast()).split(separator: " ").map(String.init)
        guard words.count >= 4, words.count <= 40 else { return nil }
        var resolved: String? = nil
        if let phrase = antecedent?.phrase(for: words[0]) {
            resolved = phrase
            words[0] = "\u{1}"  // a placeholder subject of one word, replaced below
        }
        let fact: FoundFact?
        switch language {
        case .de: fact = german(words, antecedent: antecedent)
        case .en: fact = english(words, vocabulary: vocabulary)
        }
        guard var fact else { return nil }
        if let resolved {
            fact.question = fact.question.replacingOccurrences(of: "\u{1}", with: resolved)
            fact.subject = resolved
        }
        guard !fact.question.contains("\u{1}"), !fact.answer.contains("\u{1}"),
            let answer = CardText.shortenAnswer(fact.answer), answer.split(separator: " ").count <= 40
        else { return nil }
        fact.answer = CardText.capitalizedFirst(answer)
        return fact
    }

    /// The subject phrase of a plain statement ("die Photosynthese", "the compiler"), for a
    /// pronoun in the next sentence; nil when the sentence does not open with one.
    static func subject(of sentence: String, language: DocumentLanguage) -> String? {
        let words = sentence.split(separator: " ").map(String.init)
        guard words.count >= 3 else { return nil }
        let articles: Set<String> = ["der", "die", "das", "ein", "eine", "the", "a", "an"]
        let start = articles.contains(words[0].lowercased()) ? 2 : 1
        guard start < min(6, words.count - 1) else { return nil }
        for verbIndex in start..<min(6, words.count - 1) where words[verbIndex].first?.isLowercase == true {
            let subjectWords = Array(words[..<verbIndex])
            switch language {
            case .de: return germanSubject(subjectWords)
            case .en: return englishSubject(subjectWords, vocabulary: [])
            }
        }
        return nil
    }

    // MARK: German

    private static func german(_ words: [String], antecedent: Antecedent?) -> FoundFact? {
        if let fact = germanBecause(words) { return fact }
        if let fact = germanTimeFirst(words) { return fact }
        // "Dabei entstehen …" after a sentence about X: "Was entsteht bei X?"
        if words[0] == "Dabei", words.count >= 4, ["entsteht", "entstehen"].contains(words[1]),
            let antecedent, let dative = dative(antecedent.phrase)
        {
            return FoundFact(
                question: "Was entsteht bei \(dative)?", answer: words[2...].joined(separator: " "),
                subject: antecedent.phrase)
        }
        for verbIndex in 1...min(6, words.count - 2) {
            let verb = words[verbIndex]
            let rest = Array(words[(verbIndex + 1)...])
            if let subject = germanSubject(Array(words[..<verbIndex])) {
                if let fact = germanPattern(subject: subject, verb: verb, rest: rest) { return fact }
            } else if germanPrepositions.contains(words[0].lowercased()), let (subject, after) = invertedSubject(rest) {
                // "Bei Pflanzen findet die Photosynthese in den Chloroplasten statt": the subject
                // follows the verb; the fronted phrase is left out of the question.
                if let fact = germanPattern(subject: subject, verb: verb, rest: after) { return fact }
            }
        }
        return nil
    }

    /// The article phrase right after a verb ("die Photosynthese") and the words after it.
    private static func invertedSubject(_ words: [String]) -> (String, [String])? {
        guard words.count >= 3, ["der", "die", "das"].contains(words[0]) else { return nil }
        for end in 2...min(4, words.count - 1) where germanPlaces.contains(words[end].lowercased()) {
            guard let subject = germanSubject(Array(words[..<end])) else { return nil }
            return (subject, Array(words[end...]))
        }
        return nil
    }

    /// "X besetzten das Ruhrgebiet, weil Deutschland … war." → "Warum besetzten X das Ruhrgebiet?"
    private static func germanBecause(_ words: [String]) -> FoundFact? {
        guard let comma = words.firstIndex(where: { $0.hasSuffix(",") }), comma + 2 < words.count,
            words[comma + 1] == "weil", comma >= 2, !words[..<comma].contains(where: { $0.hasSuffix(",") })
        else { return nil }
        var main = Array(words[...comma])
        main[comma] = String(main[comma].dropLast())
        let cause = "Weil " + words[(comma + 2)...].joined(separator: " ")
        // The finite verb is the second constituent: after a time phrase, or after the subject.
        if let timeEnd = timePhraseEnd(main), timeEnd + 2 < main.count {
            let verb = main[timeEnd + 1]
            guard verb.first?.isLowercase == true else { return nil }
            let question = "Warum \(verb) \(lowerArticle(main[(timeEnd + 2)...].joined(separator: " ")))?"
            return FoundFact(question: question, answer: cause, subject: main[timeEnd + 2])
        }
        for verbIndex in 1...min(5, main.count - 1) {
            guard let subject = germanSubject(Array(main[..<verbIndex])), main[verbIndex].first?.isLowercase == true
            else { continue }
            let object = main[(verbIndex + 1)...].joined(separator: " ")
            let question = "Warum \(main[verbIndex]) \(subject)\(object.isEmpty ? "" : " " + object)?"
            return FoundFact(question: question, answer: cause, subject: subject)
        }
        return nil
    }

    /// The words up to the first comma (a relative clause or an apposition after the answer).
    static func upToComma(_ words: ArraySlice<String>) -> ArraySlice<String> {
        guard let comma = words.firstIndex(where: { $0.hasSuffix(",") }) else { return words }
        var head = Array(words[...comma])
        head[head.count - 1] = String(head[head.count - 1].dropLast())
        return head[...]
    }

    /// The shapes after the subject, keyed by the finite verb.
    private static func germanPattern(subject: String, verb: String, rest: [String]) -> FoundFact? {
        guard let first = rest.first?.lowercased(), let last = rest.last else { return nil }
        func fact(_ question: String, _ answer: ArraySlice<String>) -> FoundFact? {
            guard answer.count >= 1, !answer.contains(where: { $0.hasSuffix(",") && answer.count < 3 }) else {
                return nil
            }
            return FoundFact(question: question, answer: answer.joined(separator: " "), subject: subject)
        }
        switch verb {
        case "findet", "finden":
            if let statt = rest.firstIndex(where: { bare($0) == "statt" }), statt >= 2, germanPlaces.contains(first) {
                return fact("Wo \(verb) \(subject) statt?", upToComma(rest[..<statt]))
            }
        case "befindet", "befinden":
            if first == "sich", rest.count >= 3, germanPlaces.contains(rest[1].lowercased()) {
                return fact("Wo \(verb) sich \(subject)?", rest.dropFirst())
            }
        case "liegt", "liegen":
            if germanPlaces.contains(first), rest.count >= 2, !rest.contains("Grund") {
                return fact("Wo \(verb) \(subject)?", rest[...])
            }
        case "läuft", "laufen":
            if let ab = rest.firstIndex(where: { bare($0) == "ab" }), ab >= 2, germanPlaces.contains(first),
                !isNumber(rest[1])
            {
                return fact("Wo \(verb) \(subject) ab?", upToComma(rest[..<ab]))
            }
        case "kommt", "kommen":
            if last == "vor", germanPlaces.contains(first), rest.count >= 3 {
                return fact("Wo \(verb) \(subject) vor?", rest.dropLast())
            }
        case "entsteht", "entstehen":
            if first == "durch" { return fact("Wodurch \(verb) \(subject)?", rest.dropFirst()) }
            if first == "aus" { return fact("Woraus \(verb) \(subject)?", rest.dropFirst()) }
            if germanPlaces.contains(first) { return fact("Wo \(verb) \(subject)?", rest[...]) }
        case "dient", "dienen":
            let start = first == "dazu," || first == "dazu" ? rest.dropFirst() : rest[...]
            return fact("Wozu \(verb) \(subject)?", start)
        case "besteht", "bestehen":
            if first == "aus", rest.count >= 2 { return fact("Woraus \(verb) \(subject)?", rest.dropFirst()) }
        case "setzt", "setzen":
            if first == "sich", rest.count >= 4, rest[1] == "aus", last == "zusammen" {
                return fact("Woraus \(verb) sich \(subject) zusammen?", rest[2..<(rest.count - 1)])
            }
        case "enthält", "enthalten":
            return fact("Was \(verb) \(subject)?", rest[...])
        case "führt", "führte", "führen", "führten":
            if ["zu", "zur", "zum"].contains(first) { return fact("Wozu \(verb) \(subject)?", rest.dropFirst()) }
        case "wird", "werden", "wurde", "wurden":
            guard rest.count >= 2 else { return nil }
            let phrase = rest.dropLast()
            if ["verursacht", "ausgelöst", "bewirkt", "hervorgerufen"].contains(last),
                ["durch", "von"].contains(first)
            {
                return fact("Wodurch \(verb) \(subject) \(last)?", phrase.dropFirst())
            }
            if ["verwendet", "genutzt", "eingesetzt", "benötigt", "gebraucht"].contains(last),
                ["für", "zur", "zum", "um"].contains(first)
            {
                return fact("Wofür \(verb) \(subject) \(last)?", phrase)
            }
            if isTimePhrase(Array(phrase)), last.first?.isLowercase == true {
                return fact("Wann \(verb) \(subject) \(last)?", phrase)
            }
        case "hat", "haben", "umfasst", "umfassen", "besitzt", "besitzen":
            if isNumber(rest[0]), rest.count >= 2, rest.count <= 4 {
                return fact("Wie viele \(rest[1...].joined(separator: " ")) \(verb) \(subject)?", rest.prefix(1))
            }
        default:
            break
        }
        return nil
    }

    /// "Im Jahr 1919 wurde die Verfassung verabschiedet." → "Wann wurde die Verfassung verabschiedet?"
    private static func germanTimeFirst(_ words: [String]) -> FoundFact? {
        guard let end = timePhraseEnd(words), end + 3 < words.count else { return nil }
        let verb = words[end + 1]
        guard verb.first?.isLowercase == true, !words[end].hasSuffix(",") || end == 0 else { return nil }
        let rest = upToComma(words[(end + 2)...])
        guard rest.count >= 2 else { return nil }
        guard let subject = rest.first, !germanNonSubjects.contains(subject.lowercased()) else { return nil }
        let time = words[...end].joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ","))
        let question: String
        switch words[0] {
        case "Seit": question = "Seit wann \(verb) \(lowerArticle(rest.joined(separator: " ")))?"
        case "Bis": question = "Bis wann \(verb) \(lowerArticle(rest.joined(separator: " ")))?"
        default: question = "Wann \(verb) \(lowerArticle(rest.joined(separator: " ")))?"
        }
        return FoundFact(question: question, answer: time, subject: rest.prefix(3).joined(separator: " "))
    }

    /// The index of the last word of a time phrase that opens the sentence ("Im Jahr 1919",
    /// "1919", "Am 9. November 1918", "Im 18. Jahrhundert"), or nil.
    private static func timePhraseEnd(_ words: [String]) -> Int? {
        let openers: Set<String> = [
            "Im", "Am", "In", "Um", "Ab", "Seit", "Bis", "Von", "Vom", "Anfang", "Ende", "Mitte",
        ]
        if isYear(words[0]) { return 0 }
        guard openers.contains(words[0]) else { return nil }
        for index in 1..<min(words.count, 7) {
            let bare = words[index].trimmingCharacters(in: CharacterSet(charactersIn: ","))
            if isYear(bare) || bare.hasPrefix("Jahrhundert") { return index }
        }
        return nil
    }

    /// The subject phrase before a finite verb: an article and up to four words, or a capitalised
    /// name; never a pronoun or a sentence adverb. The placeholder of a resolved pronoun passes.
    static func germanSubject(_ words: [String]) -> String? {
        if words == ["\u{1}"] { return "\u{1}" }
        // "Das" is a pronoun alone ("Das ist …") but an article before a noun ("Das Grundgesetz …").
        let neuterArticle = words.count >= 2 && words[0] == "Das" && words[1].first?.isUppercase == true
        guard let first = words.first, neuterArticle || !germanNonSubjects.contains(first.lowercased()),
            !germanPrepositions.contains(first.lowercased()), words.count <= 5,
            !words.contains(where: { $0.hasSuffix(",") || $0.hasSuffix(":") || $0.hasPrefix("(") })
        else { return nil }
        let articles: Set<String> = ["der", "die", "das", "ein", "eine"]
        if articles.contains(first.lowercased()) {
            guard words.count >= 2, words[1].first?.isUppercase == true || words.count >= 3 else { return nil }
        } else {
            // Without an article: a name or a plural noun ("Mitochondrien", "Enzyme").
            guard first.first?.isUppercase == true, words.count <= 3,
                words.allSatisfy({ $0.first?.isUppercase == true || $0 == "von" })
            else { return nil }
            // "Menschliche Körperzellen": an adjective in front is lower case inside a question.
            if words.count >= 2, ["e", "er", "es", "en", "em"].contains(where: { first.hasSuffix($0) }),
                ["ische", "liche", "ige", "ale", "ere"].contains(where: { first.lowercased().hasSuffix($0) })
                    || first.hasSuffix("lichen") || first.hasSuffix("ischen")
            {
                return ([first.lowercased()] + words.dropFirst()).joined(separator: " ")
            }
        }
        return lowerArticle(words.joined(separator: " "))
    }

    /// "die Photosynthese" → "der Photosynthese" (for "bei …"); nil for a plural or unknown article.
    private static func dative(_ phrase: String) -> String? {
        var words = phrase.split(separator: " ").map(String.init)
        guard let article = words.first else { return nil }
        switch article {
        case "die": words[0] = "der"
        case "der", "das": words[0] = "dem"
        default: return nil
        }
        return words.joined(separator: " ")
    }

    // MARK: English

    private static func english(_ words: [String], vocabulary: Set<String>) -> FoundFact? {
        let lower = words.map { $0.lowercased() }
        for verbIndex in 1...min(7, words.count - 2) {
            guard let subject = englishSubject(Array(words[..<verbIndex]), vocabulary: vocabulary) else { continue }
            let verb = lower[verbIndex]
            let rest = Array(words[(verbIndex + 1)...])
            let restLower = Array(lower[(verbIndex + 1)...])
            if let fact = englishPattern(subject: subject, verb: verb, rest: rest, restLower: restLower) {
                return fact
            }
        }
        return nil
    }

    private static func englishPattern(subject: String, verb: String, rest: [String], restLower: [String])
        -> FoundFact?
    {
        guard let first = restLower.first else { return nil }
        func fact(_ question: String, _ answer: ArraySlice<String>) -> FoundFact? {
            guard !answer.isEmpty else { return nil }
            return FoundFact(question: question, answer: answer.joined(separator: " "), subject: subject)
        }
        let singular = !["are", "were", "take", "occur", "consist", "contain", "have", "lead", "result"].contains(verb)
        let does = singular ? "does" : "do"
        switch verb {
        case "takes", "take":
            if first == "place", restLower.count >= 3, englishPlaces.contains(restLower[1]) {
                return fact("Where \(does) \(subject) take place?", rest.dropFirst())
            }
        case "occurs", "occur":
            if englishPlaces.contains(first), rest.count >= 2 {
                return fact("Where \(does) \(subject) occur?", rest[...])
            }
        case "is", "are", "was", "were":
            guard restLower.count >= 3 else { return nil }
            let participle = restLower[0]
            if ["located", "found", "situated"].contains(participle), englishPlaces.contains(restLower[1]) {
                return fact("Where \(verb) \(subject) \(participle)?", rest.dropFirst())
            }
            if participle == "caused", restLower[1] == "by" {
                return fact(
                    verb == "was" || verb == "were" ? "What caused \(subject)?" : "What causes \(subject)?",
                    rest.dropFirst(2))
            }
            if participle == "used", ["to", "for"].contains(restLower[1]) {
                return fact("What \(verb) \(subject) used for?", rest.dropFirst())
            }
            if ["made", "composed"].contains(participle), ["of", "up"].contains(restLower[1]) {
                let skip = restLower[1] == "up" && restLower.count > 3 && restLower[2] == "of" ? 3 : 2
                return fact("What \(verb) \(subject) \(participle) of?", rest.dropFirst(skip))
            }
            if [
                "founded", "invented", "built", "signed", "published", "introduced", "discovered", "established",
                "adopted", "patented", "abolished", "developed",
            ].contains(participle),
                let year = restLower.firstIndex(where: { isYear($0) }), year <= 3,
                ["in", "on", "around", "by"].contains(restLower[1])
            {
                return fact("When \(verb) \(subject) \(participle)?", rest[1...year])
            }
        case "consists", "consist":
            if first == "of", rest.count >= 2 { return fact("What \(does) \(subject) consist of?", rest.dropFirst()) }
        case "contains", "contain":
            return fact("What \(does) \(subject) contain?", rest[...])
        case "results", "result":
            if first == "from" { return fact("What \(does) \(subject) result from?", rest.dropFirst()) }
        case "led", "leads", "lead":
            if first == "to" {
                let auxiliary = verb == "led" ? "did" : does
                return fact("What \(auxiliary) \(subject) lead to?", rest.dropFirst())
            }
        case "began", "started", "ended", "begins", "starts", "ends":
            if ["in", "around"].contains(first), restLower.count >= 2, isYear(restLower[1]) {
                let base = [
                    "began": "begin", "begins": "begin", "started": "start", "starts": "start", "ended": "end",
                    "ends": "end",
                ][verb]!
                let auxiliary = verb.hasSuffix("s") ? "does" : "did"
                return fact("When \(auxiliary) \(subject) \(base)?", rest.prefix(2))
            }
        case "has", "have":
            if isNumber(rest[0]), rest.count >= 2, rest.count <= 4 {
                return fact("How many \(rest[1...].joined(separator: " ")) \(does) \(subject) have?", rest.prefix(1))
            }
        case "serves", "serve":
            if first == "to" || first == "as" {
                return fact("What \(does) \(subject) serve \(first)?", rest.dropFirst())
            }
        default:
            break
        }
        return nil
    }

    /// The subject before the verb; a capitalised first word that the text never capitalises inside
    /// a sentence is a common noun and asked in lower case ("Glycolysis takes place …").
    static func englishSubject(_ words: [String], vocabulary: Set<String>) -> String? {
        if words == ["\u{1}"] { return "\u{1}" }
        guard let first = words.first, !englishNonSubjects.contains(first.lowercased()), words.count <= 6,
            !words.contains(where: { $0.hasSuffix(",") || $0.hasSuffix(":") || $0.hasPrefix("(") })
        else { return nil }
        let lower = first.lowercased()
        guard ["the", "a", "an"].contains(lower) || first.first?.isUppercase == true else { return nil }
        // "The purpose of X" is asked as such; other words must not be verbs or conjunctions.
        guard
            !words.dropFirst().contains(where: {
                ["is", "are", "was", "were", "and", "that", "which"].contains($0.lowercased())
            })
        else { return nil }
        var shown = words
        // "New Zealand" keeps its capital: the next word is part of the name.
        if !["the", "a", "an"].contains(lower), !vocabulary.contains("Capitalized:" + first),
            first.dropFirst().allSatisfy(\.isLowercase), words.count == 1 || words[1].first?.isUppercase != true
        {
            shown[0] = lower
            // Notes drop the article ("Lens adjusts the focus"): a countable noun gets it back
            // ("What does the lens do?"); a mass noun does not ("optimisation", "atomicity").
            let mass = ["tion", "sion", "ism", "ity", "ing", "ness", "ment", "ance", "ence", "ics", "ogy"]
            if words.count == 1, vocabulary.contains(lower), !mass.contains(where: { lower.hasSuffix($0) }) {
                shown[0] = "the " + lower
            }
        }
        return lowerArticle(shown.joined(separator: " "))
    }

    // MARK: Helpers

    /// A word without the comma or semicolon after it.
    private static func bare(_ word: String) -> String {
        word.trimmingCharacters(in: CharacterSet(charactersIn: ",;"))
    }

    /// "Die Photosynthese" → "die Photosynthese" (an article at the start, lower-cased).
    static func lowerArticle(_ phrase: String) -> String {
        let articles: Set<String> = ["Der", "Die", "Das", "Ein", "Eine", "The", "A", "An"]
        guard let space = phrase.firstIndex(of: " ") else { return phrase }
        let first = String(phrase[..<space])
        return articles.contains(first) ? first.lowercased() + phrase[space...] : phrase
    }

    static func isYear(_ word: String) -> Bool {
        let bare = word.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:()"))
        guard bare.count == 4, bare.allSatisfy(\.isNumber), let value = Int(bare) else { return false }
        return value >= 1000 && value <= 2100
    }

    static func isNumber(_ word: String) -> Bool {
        let bare = word.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:()"))
        return (!bare.isEmpty && bare.allSatisfy { $0.isNumber || $0 == "." || $0 == "," })
            || numberWords.contains(bare.lowercased())
    }

    /// The numbers of a sentence's words, each as the range of words it spans: a date written out
    /// ("31. Oktober 1517", "October 31, 1517", "31 October 1517", "Mai 1949") counts as one number,
    /// as do ranges such as "1524/25" or "1914–1918".
    static func numberUnits(_ words: [String]) -> [Range<Int>] {
        func bare(_ index: Int) -> String {
            words[index].trimmingCharacters(in: CharacterSet(charactersIn: ".,;:!?()"))
        }
        func isMonth(_ index: Int) -> Bool { index < words.count && months.contains(bare(index).lowercased()) }
        func isDay(_ index: Int) -> Bool {
            index < words.count && (1...2).contains(bare(index).count) && bare(index).allSatisfy(\.isNumber)
        }
        func isYearAt(_ index: Int) -> Bool { index < words.count && isYear(words[index]) }
        func isRange(_ text: String) -> Bool {
            let parts = text.split(whereSeparator: { $0 == "/" || $0 == "–" || $0 == "-" })
            return parts.count == 2 && text.count <= 9 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        }
        var units: [Range<Int>] = []
        var index = 0
        while index < words.count {
            var length = 0
            if isDay(index), words[index].hasSuffix(".") || !words[index].contains(where: \.isPunctuation),
                isMonth(index + 1)
            {
                length = isYearAt(index + 2) ? 3 : 2  // "31. Oktober 1517", "31 October 1517"
            } else if isMonth(index), isDay(index + 1), isYearAt(index + 2) {
                length = 3  // "October 31, 1517"
            } else if isMonth(index), isYearAt(index + 1) {
                length = 2  // "Mai 1949"
            } else if isNumber(words[index]) || isRange(bare(index)) {
                length = 1
            }
            if length > 0 {
                units.append(index..<(index + length))
                index += length
            } else {
                index += 1
            }
        }
        return units
    }

    /// "1919", "im Jahr 1919", "am 9. November 1918", "im 18. Jahrhundert".
    static func isTimePhrase(_ words: [String]) -> Bool {
        guard !words.isEmpty, words.count <= 5 else { return false }
        let hasYear = words.contains { isYear($0) || $0.hasPrefix("Jahrhundert") }
        let allowed = words.allSatisfy { word in
            let bare = word.trimmingCharacters(in: CharacterSet(charactersIn: ".,"))
            return isYear(word)
                || ["im", "am", "in", "jahr", "jahre", "seit", "um", "bis", "ab", "anfang", "ende", "mitte"]
                    .contains(bare.lowercased())
                || bare.allSatisfy(\.isNumber) || months.contains(bare.lowercased())
                || bare.hasPrefix("Jahrhundert")
        }
        return hasYear && allowed
    }
}

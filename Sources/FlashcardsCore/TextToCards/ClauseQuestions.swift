import Foundation

/// Questions from a sentence's clause structure, for the facts that no verb pattern of
/// `FactPatterns` names: causes ("…, because Y", "Weil Y, …"), what happens when or during
/// something, what a term in a relative clause or an apposition is, and — as the last resort for a
/// sentence no rule used — what its subject does ("What does the parser do?", "Was prüft der
/// Parser?"). Word by word, like the other rules.
enum ClauseQuestions {
    /// What the rules know around the sentence.
    struct Context {
        var language: DocumentLanguage
        /// The previous sentence's subject, for a leading pronoun.
        var antecedent: Antecedent?
        /// The previous sentence of the same paragraph ("… maintains a symbol table. This is …").
        var previous: String?
        var vocabulary: Set<String>
    }

    /// Questions that add to whatever else the sentence gave: a cause, a consequence, a purpose.
    static func extra(_ sentence: String, context: Context) -> [FoundFact] {
        guard let words = words(of: sentence, context: context) else { return [] }
        switch context.language {
        case .en:
            return [
                englishWhen(words), englishBecause(words, context: context), englishPurpose(words, context: context),
            ]
            .compactMap { $0 }.compactMap(finished)
        case .de:
            return [germanCauseFirst(words), germanThatClause(words)].compactMap { $0 }.compactMap(finished)
        }
    }

    /// Questions about terms named inside the sentence (relative clauses, appositions, "This is …").
    static func terms(_ sentence: String, context: Context) -> [FoundFact] {
        guard let words = words(of: sentence, context: context) else { return [] }
        switch context.language {
        case .en:
            return
                (englishRelativeClauses(words, context: context)
                + [
                    englishApposition(words), thisIs(words, previous: context.previous, language: .en),
                ].compactMap { $0 }).compactMap(finished)
        case .de:
            return [germanSoCalled(words), thisIs(words, previous: context.previous, language: .de)]
                .compactMap { $0 }.compactMap(finished)
        }
    }

    /// The last resort for a sentence no other rule used: what its subject does.
    static func predicate(_ sentence: String, context: Context) -> FoundFact? {
        guard let words = words(of: sentence, context: context) else { return nil }
        let fact: FoundFact?
        switch context.language {
        case .en:
            // "Unlike criminal law, which …, tort law aims to …": the comparison is left out.
            if ["Unlike", "Like"].contains(words[0]) {
                fact =
                    words.indices.filter { words[$0].hasSuffix(",") && $0 + 4 < words.count }.lazy.compactMap {
                        var rest = Array(words[($0 + 1)...])
                        rest[0] = CardText.capitalizedFirst(rest[0])
                        return englishPredicate(rest, vocabulary: context.vocabulary)
                    }.first
            } else {
                fact = englishPredicate(words, vocabulary: context.vocabulary)
            }
        case .de: fact = germanPredicate(words, vocabulary: context.vocabulary)
        }
        return fact.flatMap(finished)
    }

    // MARK: Shared

    private static let parentheticals = [
        ", on the other hand,", ", however,", ", by contrast,", ", in contrast,", ", in turn,", ", therefore,",
        ", for example,", ", for instance,", ", of course,", ", jedoch,", ", hingegen,", ", dagegen,",
        ", allerdings,", ", zum Beispiel,", ", etwa,",
    ]
    private static let englishAuxiliaries: Set<String> = [
        "is", "are", "was", "were", "has", "have", "had", "can", "could", "must", "will", "would", "should", "may",
        "might",
    ]
    private static let englishAdverbs: Set<String> = [
        "then", "usually", "often", "also", "first", "always", "normally", "typically", "generally", "mainly",
        "only", "still", "therefore", "thus", "now", "later", "finally", "soon", "quickly", "gradually", "rarely",
        "sometimes", "primarily", "largely", "even", "actually", "mostly", "commonly", "frequently", "simply",
        "directly", "originally", "eventually", "initially", "partly", "already",
    ]
    /// Words that open a sentence with something other than its subject.
    private static let englishOpeners: Set<String> = [
        "throughout", "for", "in", "on", "at", "during", "after", "before", "under", "with", "without", "unlike",
        "like", "since", "from", "by", "to", "while", "although", "if", "when", "because", "as", "following",
        "once", "until", "despite", "within", "between", "among", "over", "around", "about", "into", "behind",
        "beyond", "above", "below", "across", "along", "against", "towards", "toward", "upon", "through", "via",
        "inside", "outside", "near", "besides", "except", "which", "what", "whether", "how", "why", "most",
        "more", "less", "few", "several", "new", "old", "modern", "early", "late", "such", "other",
    ]
    private static let irregularPast: Set<String> = [
        "began", "led", "made", "took", "wrote", "built", "became", "came", "went", "gave", "found", "held",
        "brought", "fought", "won", "lost", "rose", "fell", "grew", "knew", "saw", "thought", "spread", "sent",
        "left", "met", "ran", "said", "told", "stood", "kept", "broke", "chose", "drove", "fled", "drew", "set",
        "put", "paid", "sold", "taught", "understood", "threw", "overthrew", "forbade", "bore", "swore", "struck",
    ]
    private static let irregularParticiples: Set<String> = [
        "built", "made", "known", "held", "written", "taken", "given", "found", "done", "seen", "sent", "kept",
        "told", "brought", "thought", "taught", "split", "set", "put", "spread", "run", "shown", "drawn", "grown",
        "begun", "won", "lost", "paid", "sold", "led", "fought", "chosen", "driven", "broken", "struck", "thrown",
        "overthrown", "forbidden", "born", "borne", "sworn", "understood",
    ]

    /// The sentence as words without its final period, with parenthetical phrases removed and a
    /// leading pronoun replaced by its antecedent; nil when it is no plain statement.
    private static func words(of sentence: String, context: Context) -> [String]? {
        guard sentence.hasSuffix("."), !sentence.hasSuffix(".."), !sentence.contains("?"), !sentence.contains(":")
        else { return nil }
        var text = String(sentence.dropLast())
        for phrase in parentheticals { text = text.replacingOccurrences(of: phrase, with: "") }
        var words = text.split(separator: " ").map(String.init)
        guard words.count >= 4, words.count <= 45 else { return nil }
        // The lecture speaking of itself is no fact.
        let firstPerson: Set<String> = ["we", "us", "our", "i", "wir", "uns", "unser", "unsere", "ich"]
        if words.contains(where: { firstPerson.contains(bare($0).lowercased()) }) { return nil }
        if let antecedent = context.antecedent, let phrase = antecedent.phrase(for: words[0]) {
            let replacement = phrase.split(separator: " ").map(String.init)
            words.replaceSubrange(0..<1, with: [CardText.capitalizedFirst(replacement[0])] + replacement.dropFirst())
        }
        return words
    }

    /// The fact with a shortened, capitalised answer and a question of sensible length.
    private static func finished(_ fact: FoundFact) -> FoundFact? {
        let answer = fact.answer.trimmingCharacters(in: CharacterSet(charactersIn: " ,;"))
        guard let short = CardText.shortenAnswer(answer), short.split(separator: " ").count >= 2,
            short.split(separator: " ").count <= 40, fact.question.split(separator: " ").count <= 30
        else { return nil }
        var fact = fact
        fact.answer = CardText.capitalizedFirst(short)
        return fact
    }

    private static func bare(_ word: String) -> String {
        word.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:!?()\"„“”'"))
    }

    private static func joined(_ words: some Collection<String>) -> String {
        words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " ,;"))
    }

    /// A sentence-initial word as it stands inside a question: articles and common nouns in lower
    /// case, names kept.
    private static func inside(_ words: [String], vocabulary: Set<String>) -> String {
        guard let first = words.first else { return "" }
        var shown = words
        let name = words.count > 1 && words[1].first?.isUppercase == true
        if ["The", "A", "An"].contains(first)
            || (first.dropFirst().allSatisfy(\.isLowercase) && !vocabulary.contains("Capitalized:" + first) && !name)
        {
            shown[0] = first.lowercased()
        }
        return shown.joined(separator: " ")
    }

    /// A subject of the "because" rule: one that `FactPatterns.englishSubject` accepts, or two
    /// joined by "and" ("Plants and algae").
    private static func isSubject(_ words: [String], vocabulary: Set<String>) -> Bool {
        if FactPatterns.englishSubject(words, vocabulary: vocabulary) != nil { return true }
        guard let and = words.firstIndex(of: "and"), and >= 1, and + 1 < words.count else { return false }
        let second = Array(words[(and + 1)...])
        return FactPatterns.englishSubject(Array(words[..<and]), vocabulary: vocabulary) != nil
            && (FactPatterns.englishSubject(second, vocabulary: vocabulary) != nil
                || second.allSatisfy { $0.allSatisfy(\.isLetter) && $0.first?.isLowercase == true })
    }

    private static func isPast(_ verb: String) -> Bool {
        (verb.hasSuffix("ed") && verb.count > 3) || irregularPast.contains(verb)
    }

    private static func isParticiple(_ word: String) -> Bool {
        (word.hasSuffix("ed") && word.count > 3) || irregularParticiples.contains(word)
    }

    /// A third-person present verb ("checks", "applies"), not a plural noun or a small word.
    private static func isPresentVerb(_ word: String) -> Bool {
        word.count > 3 && word.hasSuffix("s") && word.first?.isLowercase == true
            && ![
                "ss", "us", "is", "'s", "ous", "ics", "sis", "ens", "gas", "bias", "series", "species", "ethos",
                "chaos", "news",
            ]
            .contains(where: { word.hasSuffix($0) })
            && ![
                "does", "has", "was", "this", "its", "thus", "less", "always", "across", "unless", "sometimes",
                "perhaps", "whereas", "towards",
            ]
            .contains(word)
    }

    /// The index of the first word ending in a comma, from `start`.
    private static func comma(in words: [String], from start: Int = 0) -> Int? {
        words.indices.first { $0 >= start && words[$0].hasSuffix(",") }
    }

    // MARK: English

    /// "When sea otters disappeared …, sea urchins multiplied …" → "What happened when sea otters
    /// disappeared …?"; also "During X, …" and "After X, …".
    private static func englishWhen(_ words: [String]) -> FoundFact? {
        guard ["When", "During", "After"].contains(words[0]), let comma = comma(in: words), comma >= 2,
            words.count - comma >= 4, comma <= (words[0] == "During" ? 6 : 15)
        else { return nil }
        let clause = Array(words[1...comma])
        let main = Array(words[(comma + 1)...])
        // "During X, Y": Y is a whole clause with its own subject.
        guard main.first.map({ !englishAdverbs.contains($0.lowercased()) }) == true else { return nil }
        let past = clause.contains { isPast($0) } || main.prefix(6).contains { isPast($0) }
        let happens = past ? "happened" : "happens"
        let question = "What \(happens) \(words[0].lowercased()) \(joined(clause))?"
        return FoundFact(question: question, answer: joined(main), subject: joined(clause.prefix(3)))
    }

    /// "…, because Y" → "Why is X …?" (an auxiliary moves to the front) or "What was the reason
    /// that X …?".
    private static func englishBecause(_ words: [String], context: Context) -> FoundFact? {
        guard !["When", "During", "After", "Because"].contains(words[0]),
            let because = words.firstIndex(where: { $0 == "because" }), because >= 3, because + 3 < words.count,
            words[because + 1] != "of"
        else { return nil }
        var mainEnd = because
        var cause = Array(words[because...])
        // "partly because", "mainly because": the adverb belongs to the cause.
        if ["partly", "mainly", "largely", "probably", "simply", "only"].contains(words[because - 1]) {
            mainEnd -= 1
            cause = Array(words[mainEnd...])
        }
        let main = Array(words[..<mainEnd])
        guard main.count >= 3, !main.contains(where: { ["because", "which", "who"].contains($0) }) else { return nil }
        let answer = CardText.capitalizedFirst(joined(cause))
        // An auxiliary after a subject of one to six words moves to the front.
        for index in 1..<min(7, main.count - 1) where englishAuxiliaries.contains(main[index]) {
            let subjectWords = Array(main[..<index])
            guard isSubject(subjectWords, vocabulary: context.vocabulary) || context.antecedent != nil else { break }
            let subject = inside(subjectWords, vocabulary: context.vocabulary)
            let question = "Why \(main[index]) \(subject) \(joined(main[(index + 1)...]))?"
            return FoundFact(question: question, answer: answer, subject: subject)
        }
        guard
            FactPatterns.englishSubject(Array(main.prefix(1)), vocabulary: context.vocabulary) != nil
                || main[0] == "The"
        else { return nil }
        let past = main.prefix(8).contains { isPast($0) }
        let question = "What \(past ? "was" : "is") the reason that \(inside(main, vocabulary: context.vocabulary))?"
        return FoundFact(question: question, answer: answer, subject: main[0])
    }

    /// "The Berlin Wall was built in August 1961 to stop East Germans from fleeing." → "Why was the
    /// Berlin Wall built?"
    private static func englishPurpose(_ words: [String], context: Context) -> FoundFact? {
        guard let aux = words.prefix(7).firstIndex(where: { ["is", "are", "was", "were"].contains($0) }), aux >= 1,
            aux + 3 < words.count, isParticiple(words[aux + 1]),
            let subject = FactPatterns.englishSubject(Array(words[..<aux]), vocabulary: context.vocabulary),
            let to = words.indices.first(where: { $0 > aux + 1 && words[$0] == "to" }), to + 2 < words.count,
            to <= aux + 7, !words[(aux + 2)..<to].contains(where: { $0.hasSuffix(",") }),
            words[to + 1].first?.isLowercase == true, !words[to + 1].hasSuffix("ed"),
            !FactPatterns.isNumber(words[to + 1]),
            !["the", "a", "an", "be"].contains(words[to + 1])
        else { return nil }
        let purposeParticiples: Set<String> = [
            "built", "founded", "created", "introduced", "designed", "developed", "established", "made", "used",
            "passed", "signed", "invented", "written", "formed", "launched", "adopted", "set", "erected",
        ]
        guard purposeParticiples.contains(words[aux + 1]) else { return nil }
        let question = "Why \(words[aux]) \(subject) \(words[aux + 1])?"
        return FoundFact(question: question, answer: joined(words[to...]), subject: subject)
    }

    /// "…, and dead code elimination, which removes code …" → "What does dead code elimination
    /// do?"; "…, where X" → "What happens in T?"; "…, which means that X" → "What does T mean?".
    private static func englishRelativeClauses(_ words: [String], context: Context) -> [FoundFact] {
        var found: [FoundFact] = []
        for index in words.indices where index >= 1 && index + 3 < words.count && words[index].hasSuffix(",") {
            let pronoun = words[index + 1]
            guard ["which", "where", "who"].contains(pronoun), let term = termBefore(index, in: words) else { continue }
            // The clause runs to ", and …" or the end.
            var end = words.count
            if let next = words.indices.first(where: {
                $0 > index + 1 && words[$0].hasSuffix(",") && $0 + 1 < words.count
                    && ["and", "while", "whereas"].contains(words[$0 + 1])
            }) {
                end = next + 1
            }
            let clause = Array(words[(index + 2)..<end])
            guard clause.count >= 2 else { continue }
            let verb = clause[0]
            let shown = inside(term, vocabulary: context.vocabulary)
            let fact: FoundFact?
            if pronoun == "where" {
                guard term.allSatisfy({ $0.first?.isLowercase == true }) else { continue }
                fact = FoundFact(question: "What happens in \(shown)?", answer: joined(clause), subject: shown)
            } else if verb == "means" {
                let rest = clause.dropFirst(clause.count > 2 && clause[1] == "that" ? 2 : 1)
                fact = FoundFact(question: "What does \(shown) mean?", answer: joined(rest), subject: shown)
            } else if ["is", "was"].contains(verb), ["a", "an", "the"].contains(clause[1].lowercased()) {
                fact = FoundFact(question: "What \(verb) \(shown)?", answer: joined(clause.dropFirst()), subject: shown)
            } else if isPresentVerb(verb) || isPast(verb) {
                let auxiliary = isPast(verb) ? "did" : "does"
                fact = FoundFact(
                    question: "What \(auxiliary) \(shown) do?", answer: joined(clause), subject: shown)
            } else {
                fact = nil
            }
            if let fact { found.append(fact) }
        }
        return found
    }

    /// The noun phrase that ends at `index` (with its comma): lower-case words or a name after an
    /// article, a preposition, "and" or a verb that introduces examples; nil for anything else.
    private static func termBefore(_ index: Int, in words: [String]) -> [String]? {
        let stops: Set<String> = [
            "a", "an", "the", "of", "and", "or", "include", "includes", "including", "called", "named", "as",
            "to", "with", "by", "in", "on", "for", "from", "into", "like", "are", "is", "was", "were", "than",
        ]
        var term: [String] = []
        var position = index
        while position >= 0 {
            let word = position == index ? String(words[position].dropLast()) : words[position]
            if stops.contains(word.lowercased()) {
                guard !term.isEmpty, term.count <= 4 else { return nil }
                if word == "the" || word == "The", term.first?.first?.isUppercase == true {
                    term.insert("the", at: 0)
                }
                return term
            }
            guard word.count >= 2, word.allSatisfy({ $0.isLetter || $0 == "-" }), !word.hasSuffix("ly") else {
                return nil
            }
            term.insert(word, at: 0)
            position -= 1
        }
        return nil
    }

    /// "… goes back to Donoghue v Stevenson, a case decided by the House of Lords in 1932." →
    /// "What is Donoghue v Stevenson?"
    private static func englishApposition(_ words: [String]) -> FoundFact? {
        guard
            let index = words.indices.first(where: {
                $0 >= 2 && $0 + 3 < words.count && words[$0].hasSuffix(",") && ["a", "an"].contains(words[$0 + 1])
            })
        else { return nil }
        var name: [String] = []
        var position = index
        while position >= 1 {
            let word = position == index ? String(words[position].dropLast()) : words[position]
            let connector = ["v", "v.", "of", "de", "von", "van", "der"].contains(word) && !name.isEmpty
            guard word.first?.isUppercase == true || connector,
                word.allSatisfy({ $0.isLetter || $0 == "." || $0 == "-" })
            else { break }
            name.insert(word, at: 0)
            position -= 1
        }
        while let first = name.first, first.first?.isLowercase == true { name.removeFirst() }
        guard !name.isEmpty, name.count <= 5, position >= 1 else { return nil }
        let rest = Array(words[(index + 1)...])
        let end = rest.firstIndex(where: { $0.hasSuffix(",") }).map { $0 + 1 } ?? rest.count
        let answer = Array(rest[..<end])
        guard answer.count >= 3 else { return nil }
        let people: Set<String> = [
            "king", "queen", "emperor", "president", "philosopher", "scientist", "chemist", "physicist", "writer",
            "poet", "composer", "painter", "monk", "pope", "leader", "general", "minister", "chancellor",
            "economist", "mathematician", "biologist", "psychologist", "politician", "theologian", "reformer",
            "engineer", "inventor", "doctor", "physician", "author", "artist", "architect", "lawyer", "judge",
        ]
        let person = answer.prefix(4).contains { people.contains(bare($0).lowercased()) }
        let subject = name.joined(separator: " ")
        return FoundFact(
            question: "\(person ? "Who" : "What") is \(subject)?", answer: joined(answer), subject: subject)
    }

    /// "Throughout these phases the compiler maintains a symbol table. This is a data structure
    /// that …" → "What is a symbol table?"; German "… eine Symboltabelle. Dies ist eine …".
    private static func thisIs(_ words: [String], previous: String?, language: DocumentLanguage)
        -> FoundFact?
    {
        let openers: [[String]] =
            language == .en
            ? [["This", "is"], ["This", "was"]] : [["Dies", "ist"], ["Das", "ist"], ["Diese", "ist"]]
        guard let previous, previous.hasSuffix("."), openers.contains(Array(words.prefix(2))), words.count >= 5
        else { return nil }
        let articles: Set<String> =
            language == .en ? ["a", "an", "the"] : ["ein", "eine", "der", "die", "das"]
        guard articles.contains(words[2].lowercased()) else { return nil }
        let before = String(previous.dropLast()).split(separator: " ").map(String.init)
        guard let article = before.lastIndex(where: { articles.contains($0.lowercased()) }),
            before.count - article >= 2, before.count - article <= 4,
            before[(article + 1)...].allSatisfy({ word in word.allSatisfy { $0.isLetter || $0 == "-" } })
        else { return nil }
        let term = before[(article + 1)...].joined(separator: " ")
        let phrase = before[article].lowercased() + " " + term
        let question = language == .en ? "What \(words[1]) \(phrase)?" : "Was ist \(phrase)?"
        var subject = phrase
        if language == .en { subject = "the " + term }
        return FoundFact(question: question, answer: joined(words[2...]), subject: subject)
    }

    /// "The parser then checks whether …" → "What does the parser do?"; "Optimisation aims to make …" → "What does optimisation aim to do?"; "A compiler is
    /// divided into …" → "Into what is a compiler divided?"; "… was written … by a team at IBM" →
    /// "By whom was … written …?".
    private static func englishPredicate(_ words: [String], vocabulary: Set<String>) -> FoundFact? {
        // "Decomposers such as fungi and bacteria break down …": the examples are left out.
        var subjectEnd: Int? = nil
        var verbIndex: Int? = nil
        var plural = false
        if let such = words.prefix(5).firstIndex(of: "such"), such >= 1, words[such + 1] == "as",
            let and = words.indices.first(where: { $0 > such + 2 && ["and", "or"].contains(words[$0]) }),
            and + 2 < words.count
        {
            subjectEnd = such
            verbIndex = and + 2
            plural = words[such - 1].hasSuffix("s")
        } else {
            for index in 1..<min(7, words.count - 2) {
                let word = words[index]
                if word.hasSuffix(",") { return nil }
                if englishAdverbs.contains(word) { continue }
                if englishAuxiliaries.contains(word) || isPresentVerb(word) || isPast(word) {
                    subjectEnd = index
                    verbIndex = index
                    break
                }
            }
        }
        guard var end = subjectEnd, var verb = verbIndex, verb + 2 < words.count else { return nil }
        while end > 1, englishAdverbs.contains(words[end - 1]) { end -= 1 }
        while verb + 2 < words.count, englishAdverbs.contains(words[verb]) { verb += 1 }
        let subjectWords = Array(words[..<end])
        // "Throughout these phases …", "The person who …", "… programming languages is …": no subject.
        guard !englishOpeners.contains(words[0].lowercased()),
            !subjectWords.contains(where: { ["who", "whom", "whose", "where", "when"].contains($0.lowercased()) }),
            // "… by imperial troops in 1527 is …": an auxiliary soon after means the word was a noun.
            !words[(verb + 1)..<min(words.count, verb + 4)].contains(where: {
                ["is", "are", "was", "were"].contains($0)
            }),
            !subjectWords.contains(where: { $0.contains(")") || $0.contains("(") }),
            // "E.g. a coin …", "precise to the year; …", "spatial summation = several …", "Don't
            // forget …": an example, a clause's end, a formula or an imperative is no subject.
            !subjectWords.contains(where: {
                $0.contains(";") || $0 == "=" || $0.lowercased().hasPrefix("e.g") || $0.contains("n't")
                    || $0.contains("n’t")
            }),
            // "It's weaker in …", "Used in optical fibres …": a pronoun, a contraction or a
            // participle opens no subject.
            !subjectWords.contains(where: {
                ["it", "it's", "that's", "there's", "this", "they", "these", "those", "he", "she", "we", "you"]
                    .contains($0.lowercased().replacingOccurrences(of: "’", with: "'"))
            }),
            !isParticiple(words[0].lowercased()), !words[0].lowercased().hasSuffix("ly"),
            // "Enzyme inducers (e.g. …) speed up …": a word before a bracket was a noun, not the verb.
            !(verb + 1 < words.count && words[verb + 1].hasPrefix("(")),
            // "Political scientists …": an adjective alone is no subject.
            !(subjectWords.count == 1
                && ["al", "ic", "ive", "ous", "ful", "less", "able", "ible", "ary", "ern"].contains(where: {
                    words[0].lowercased().hasSuffix($0)
                })),
            subjectWords.count > 1 || plural || words[0].first?.isLowercase == true
                || vocabulary.contains(words[0].lowercased()) || words[0].dropFirst().contains(where: \.isUppercase)
                || vocabulary.contains("Capitalized:" + words[0]),
            let subject = FactPatterns.englishSubject(subjectWords, vocabulary: vocabulary)
        else {
            return nil
        }
        let verbWord = words[verb]
        var rest = Array(words[(verb + 1)...])
        while rest.count > 2, englishAdverbs.contains(rest[0]) { rest.removeFirst() }
        let generic: Set<String> = [
            "the lecture", "this course", "the course", "the following", "the text", "the chapter",
        ]
        guard !generic.contains(subject.lowercased()) else { return nil }
        if ["is", "are", "was", "were"].contains(verbWord) {
            guard let participle = rest.first, isParticiple(participle), rest.count >= 3 else { return nil }
            let after = Array(rest.dropFirst())
            if after[0] == "into" {
                return FoundFact(
                    question: "Into what \(verbWord) \(subject) \(participle)?", answer: joined(after.dropFirst()),
                    subject: subject)
            }
            if ["with", "using", "as"].contains(after[0]) {
                return FoundFact(
                    question: "How \(verbWord) \(subject) \(participle)?", answer: joined(after), subject: subject)
            }
            if let by = after.firstIndex(of: "by"), by <= 3, by + 1 < after.count,
                !after[..<by].contains(where: { $0.hasSuffix(",") })
            {
                var agent = Array(after[(by + 1)...])
                if let stop = agent.indices.first(where: {
                    agent[$0].hasSuffix(",")
                        || (agent[$0] == "and" && $0 + 1 < agent.count
                            && englishAuxiliaries.contains(agent[$0 + 1]))
                }) {
                    agent = Array(agent[...stop])
                    if agent.last == "and" { agent.removeLast() }
                }
                let middle = after[..<by].isEmpty ? "" : " " + joined(after[..<by])
                let who = agent.contains { $0.first?.isUppercase == true } ? "By whom" : "By what"
                return FoundFact(
                    question: "\(who) \(verbWord) \(subject) \(participle)\(middle)?", answer: "By " + joined(agent),
                    subject: subject)
            }
            return nil
        }
        guard !englishAuxiliaries.contains(verbWord), !["does", "do", "did"].contains(verbWord) else { return nil }
        if ["aims", "aimed", "seeks", "sought", "tries", "tried", "helps", "helped"].contains(verbWord),
            rest.first == "to"
        {
            let base = [
                "aims": "aim", "aimed": "aim", "seeks": "seek", "sought": "seek", "tries": "try", "tried": "try",
                "helps": "help", "helped": "help",
            ][verbWord]!
            let auxiliary = isPast(verbWord) || verbWord == "sought" ? "did" : "does"
            return FoundFact(
                question: "What \(auxiliary) \(subject) \(base) to do?", answer: joined(rest), subject: subject)
        }
        if ["means", "meant"].contains(verbWord) {
            let answer = rest.first == "that" ? rest.dropFirst() : rest[...]
            let auxiliary = verbWord == "meant" ? "did" : "does"
            return FoundFact(question: "What \(auxiliary) \(subject) mean?", answer: joined(answer), subject: subject)
        }
        if ["applies", "apply", "applied"].contains(verbWord), ["where", "when", "if"].contains(rest.first ?? "") {
            let auxiliary = verbWord == "applied" ? "did" : (verbWord == "apply" ? "do" : "does")
            return FoundFact(question: "When \(auxiliary) \(subject) apply?", answer: joined(rest), subject: subject)
        }
        if let base = [
            "ended": "end", "began": "begin", "started": "start", "ends": "end", "begins": "begin",
            "starts": "start",
        ][verbWord], ["when", "with"].contains(rest.first ?? "") {
            let auxiliary = isPast(verbWord) ? "did" : "does"
            return FoundFact(question: "How \(auxiliary) \(subject) \(base)?", answer: joined(rest), subject: subject)
        }
        if plural {
            guard verbWord.first?.isLowercase == true, !verbWord.hasSuffix("ly"),
                !["of", "in", "on", "at", "to", "for", "with", "from", "by", "and", "or", "that", "which"].contains(
                    verbWord)
            else { return nil }
        } else if !(isPresentVerb(verbWord) || isPast(verbWord)) {
            return nil
        }
        let auxiliary = isPast(verbWord) ? "did" : (plural ? "do" : "does")
        guard rest.count >= 2 else { return nil }
        return FoundFact(
            question: "What \(auxiliary) \(subject) do?", answer: verbWord + " " + joined(rest), subject: subject)
    }

    // MARK: German

    /// "Da Luther sich weigerte zu widerrufen, wurde er 1521 vom Papst gebannt." → "Warum wurde
    /// Luther 1521 vom Papst gebannt?" – "Weil Luther sich weigerte zu widerrufen".
    private static func germanCauseFirst(_ words: [String]) -> FoundFact? {
        guard ["Weil", "Da"].contains(words[0]), let comma = comma(in: words), comma >= 2, comma + 3 < words.count,
            words[comma + 1].first?.isLowercase == true
        else { return nil }
        var cause = Array(words[1...comma])
        cause[cause.count - 1] = String(cause[cause.count - 1].dropLast())
        var main = Array(words[(comma + 1)...])
        if let inner = main.firstIndex(where: { $0.hasSuffix(",") }) {
            main = Array(main[...inner])
            main[main.count - 1] = String(main[main.count - 1].dropLast())
        }
        // A pronoun in the main clause stands for a name that opens the cause.
        if cause.count >= 2, cause[0].first?.isUppercase == true, cause[1].first?.isLowercase == true,
            let pronoun = main.firstIndex(where: { ["er", "sie"].contains($0) })
        {
            main[pronoun] = cause[0]
        }
        guard main.count >= 2 else { return nil }
        return FoundFact(
            question: "Warum \(joined(main))?", answer: "Weil " + joined(cause), subject: main.count > 1 ? main[1] : "")
    }

    /// "Dass sich die neuen Ideen so schnell verbreiteten, lag vor allem am Buchdruck." → "Woran lag
    /// es, dass sich die neuen Ideen so schnell verbreiteten?"
    private static func germanThatClause(_ words: [String]) -> FoundFact? {
        guard words[0] == "Dass", let comma = comma(in: words), comma >= 3, comma + 3 < words.count,
            ["lag", "liegt"].contains(words[comma + 1])
        else { return nil }
        var rest = Array(words[(comma + 2)...])
        if rest.count > 3, rest[0] == "vor", rest[1] == "allem" { rest.removeFirst(2) }
        guard let head = rest.first, ["an", "am", "daran,"].contains(head) else { return nil }
        let clause = joined(words[1...comma])
        return FoundFact(
            question: "Woran \(words[comma + 1]) es, dass \(clause)?", answer: joined(rest), subject: clause)
    }

    /// "Jeweils drei aufeinanderfolgende Basen, ein sogenanntes Codon, stehen für eine Aminosäure."
    /// → "Was ist ein Codon?" – the sentence without the apposition.
    private static func germanSoCalled(_ words: [String]) -> FoundFact? {
        guard
            let index = words.indices.first(where: {
                $0 >= 2 && $0 + 1 < words.count && words[$0].lowercased().hasPrefix("sogenannt")
            }), words[index - 2].hasSuffix(",")
        else { return nil }
        let article = words[index - 1].lowercased()
        guard ["ein", "eine", "der", "die", "das"].contains(article),
            let end = words.indices.first(where: { $0 > index && words[$0].hasSuffix(",") }), end - index <= 3
        else { return nil }
        var term = Array(words[(index + 1)...end])
        term[term.count - 1] = String(term[term.count - 1].dropLast())
        guard term.allSatisfy({ $0.first?.isUppercase == true }) else { return nil }
        var sentence = Array(words[..<(index - 1)])
        sentence[sentence.count - 1] = String(sentence[sentence.count - 1].dropLast())
        sentence += words[(end + 1)...]
        let phrase = article + " " + term.joined(separator: " ")
        return FoundFact(question: "Was ist \(phrase)?", answer: joined(sentence), subject: phrase)
    }

    private static let germanAuxiliaries: Set<String> = [
        "ist", "sind", "war", "waren", "hat", "haben", "hatte", "hatten", "kann", "können", "konnte", "konnten",
        "muss", "müssen", "musste", "soll", "sollen", "sollte", "darf", "dürfen", "will", "wollen", "wollte", "gilt",
        "gelten", "galt", "gibt", "gab", "heißt", "bedeutet", "lässt", "ließ",
    ]
    private static let germanAdverbs: Set<String> = [
        "dann", "oft", "meist", "meistens", "zunächst", "dabei", "dagegen", "hingegen", "jedoch", "außerdem", "also",
        "zudem", "nur", "auch", "schließlich", "daher", "deshalb", "ebenfalls", "anschließend", "zuerst", "stets",
        "immer", "häufig", "gern", "gerne", "bereits", "schon", "noch", "später", "damals", "heute",
        "insbesondere", "etwa", "ursprünglich", "standardmäßig", "üblicherweise", "normalerweise",
    ]
    private static let separableParticles: Set<String> = [
        "ab", "an", "auf", "aus", "ein", "mit", "vor", "zu", "zurück", "fest", "her", "hin", "weg", "dar", "bei",
        "nach", "statt", "zusammen", "fort", "weiter",
    ]

    /// "Der Parser prüft dann, ob …" → "Was prüft der Parser?"; "Es wurde vom Parlamentarischen Rat
    /// in Bonn ausgearbeitet" → "Von wem wurde das Grundgesetz in Bonn ausgearbeitet?"; "Das simple
    /// present verwendet man für Gewohnheiten" → "Wofür verwendet man das simple present?".
    private static func germanPredicate(_ words: [String], vocabulary: Set<String>) -> FoundFact? {
        if let fact = germanSeat(words) { return fact }
        for verbIndex in 1...min(5, words.count - 3) {
            guard let subject = FactPatterns.germanSubject(Array(words[..<verbIndex])) else { continue }
            // Without an article the subject is a noun only if the text never writes it in lower
            // case ("Diese", "Außerdem" open sentences too).
            if !["der", "die", "das", "ein", "eine"].contains(words[0].lowercased()),
                vocabulary.contains(words[0].lowercased())
            {
                return nil
            }
            let verb = words[verbIndex].trimmingCharacters(in: [","])
            let passive = ["wird", "werden", "wurde", "wurden"].contains(verb)
            guard passive || isGermanFiniteVerb(verb) else { return nil }
            // Adverbs right after the verb are left out; a comma after them opens a clause ("prüft dann, ob").
            var next = verbIndex + 1
            var clauseFollows = words[verbIndex].hasSuffix(",")
            while next + 2 < words.count, !clauseFollows, germanAdverbs.contains(bare(words[next])) {
                clauseFollows = words[next].hasSuffix(",")
                next += 1
            }
            var rest = Array(FactPatterns.upToComma(words[next...]))
            if passive { return germanPassive(subject: subject, verb: verb, rest: rest) }
            if rest.first == "man" {
                rest.removeFirst()
                while rest.count > 2, germanAdverbs.contains(rest[0]) { rest.removeFirst() }
                guard rest.first == "für", rest.count >= 2 else { return nil }
                return FoundFact(question: "Wofür \(verb) man \(subject)?", answer: joined(rest), subject: subject)
            }
            if ["ist", "sind", "war", "waren"].contains(verb), let measure = germanMeasure(rest) {
                return FoundFact(
                    question: "Wie \(measure) \(verb) \(subject)?", answer: joined(words[(verbIndex + 1)...]),
                    subject: subject)
            }
            // "Er arbeitet auf der Vermittlungsschicht und …" → "Wo arbeitet der Router?"
            let placeVerbs: Set<String> = [
                "arbeitet", "arbeiten", "lebt", "leben", "lebte", "lebten", "wohnt", "wohnen", "sitzt", "sitzen",
                "wächst", "wachsen", "wirkt", "wirken", "residiert", "tagt", "tagen", "starb", "entspringt", "mündet",
            ]
            if placeVerbs.contains(verb), let head = rest.first, FactPatterns.germanPlaces.contains(head.lowercased()) {
                let end = rest.firstIndex(of: "und") ?? rest.count
                guard end >= 2 else { return nil }
                return FoundFact(question: "Wo \(verb) \(subject)?", answer: joined(rest[..<end]), subject: subject)
            }
            guard !germanAuxiliaries.contains(verb), !verb.hasSuffix("en") || verb.hasSuffix("ten") == false else {
                return nil
            }
            if clauseFollows {
                // "prüft, ob …", "stellt fest, dass …"
                let clause = Array(words[next...])
                guard let head = clause.first, ["ob", "dass", "wie", "welche", "welcher", "was"].contains(head) else {
                    return nil
                }
                return FoundFact(question: "Was \(verb) \(subject)?", answer: joined(clause), subject: subject)
            }
            guard let head = rest.first, rest.count >= 2, head != "sich", head != "es",
                ["den", "die", "das", "einen", "eine", "ein", "dem", "der"].contains(head)
                    || head.first?.isUppercase == true
            else { return nil }
            var particle = ""
            if let last = rest.last, separableParticles.contains(last) {
                particle = " " + last
                rest.removeLast()
            }
            guard rest.count >= 2 else { return nil }
            // "Weber hielt die Bürokratie für …", "X gilt als …": the verb needs its second half.
            let needsComplement: Set<String> = ["hielt", "hält", "halten", "hielten", "sah", "sieht", "galt", "gilt"]
            if needsComplement.contains(verb), rest.contains(where: { $0 == "für" || $0 == "als" }) { return nil }
            return FoundFact(question: "Was \(verb) \(subject)\(particle)?", answer: joined(rest), subject: subject)
        }
        return nil
    }

    private static let germanStrongPast: Set<String> = [
        "stand", "lag", "gab", "kam", "nahm", "fand", "hieß", "ging", "war", "blieb", "fiel", "rief", "schrieb",
        "trieb", "wuchs", "starb", "bot", "zog", "sah", "bat", "galt", "ließ", "schuf", "trat", "wies", "stieg",
        "sank", "brach", "sprach", "traf", "warf", "begann", "gewann", "verlor", "floh", "hielt", "schloss",
    ]

    /// A word that can be a finite verb: lower case and with a verb's ending, or a strong past form.
    private static func isGermanFiniteVerb(_ word: String) -> Bool {
        guard word.count >= 3, word.first?.isLowercase == true, word.allSatisfy(\.isLetter),
            !germanAdverbs.contains(word), !FactPatterns.germanPlaces.contains(word),
            !["als", "und", "oder", "aber", "wie", "für", "mit", "aus", "von", "nach", "durch", "gegen", "ohne"]
                .contains(word)
        else { return false }
        return word.hasSuffix("t") || word.hasSuffix("en") || word.hasSuffix("te") || word.hasSuffix("ern")
            || word.hasSuffix("eln") || germanStrongPast.contains(word)
    }

    /// "…, das seinen Sitz in Karlsruhe hat." → "Wo hat das Bundesverfassungsgericht seinen Sitz?"
    private static func germanSeat(_ words: [String]) -> FoundFact? {
        guard let seat = words.firstIndex(where: { $0 == "Sitz" }), seat >= 4, seat + 2 < words.count,
            ["seinen", "ihren"].contains(words[seat - 1]), ["in", "im"].contains(words[seat + 1]),
            ["das", "der", "die"].contains(words[seat - 2]), words[seat - 3].hasSuffix(",")
        else { return nil }
        let end = words.indices.first { $0 > seat + 1 && ["hat", "hat,", "haben"].contains(words[$0]) } ?? words.count
        guard end > seat + 2,
            let article = (max(0, seat - 6)..<(seat - 3)).last(where: {
                ["der", "die", "das"].contains(words[$0].lowercased())
            })
        else { return nil }
        var noun = Array(words[article...(seat - 3)])
        noun[noun.count - 1] = String(noun[noun.count - 1].dropLast())
        noun[0] = noun[0].lowercased()
        let question = "Wo hat \(noun.joined(separator: " ")) \(words[seat - 1]) Sitz?"
        return FoundFact(
            question: question, answer: joined(words[(seat + 1)..<end]), subject: noun.joined(separator: " "))
    }

    /// "32 Bit lang …" → "lang": a number, a unit and an adjective of measure.
    private static func germanMeasure(_ rest: [String]) -> String? {
        let adjectives: Set<String> = ["lang", "groß", "hoch", "breit", "schwer", "alt", "tief", "weit", "schnell"]
        guard rest.count >= 2, FactPatterns.isNumber(rest[0]) else { return nil }
        for index in 1...min(2, rest.count - 1) where adjectives.contains(bare(rest[index])) {
            return bare(rest[index])
        }
        return nil
    }

    private static func germanPassive(subject: String, verb: String, rest: [String]) -> FoundFact? {
        guard rest.count >= 2, let participle = rest.last, participle.first?.isLowercase == true,
            participle.count >= 5, participle.allSatisfy(\.isLetter),
            participle.hasSuffix("t") || participle.hasSuffix("en")
        else { return nil }
        var middle = Array(rest.dropLast())
        if let von = middle.firstIndex(where: { ["von", "vom"].contains($0) }), von + 1 < middle.count,
            middle[von + 1].first?.isUppercase == true || ["der", "den", "dem"].contains(middle[von + 1])
        {
            // The agent runs to the next preposition ("vom Parlamentarischen Rat in Bonn").
            var end = von + 1
            let prepositions: Set<String> = ["in", "im", "an", "am", "auf", "nach", "für", "mit", "bei", "zu", "zum"]
            while end < middle.count, !prepositions.contains(middle[end]) { end += 1 }
            let agent = Array(middle[von..<end])
            middle.removeSubrange(von..<end)
            let other = middle.isEmpty ? "" : " " + joined(middle)
            return FoundFact(
                question: "Von wem \(verb) \(subject)\(other) \(participle)?",
                answer: CardText.capitalizedFirst(joined(agent)), subject: subject)
        }
        if let first = middle.first, ["mit", "durch", "aus", "als", "nach"].contains(first) {
            return FoundFact(
                question: "Wie \(verb) \(subject) \(participle)?", answer: joined(middle), subject: subject)
        }
        return nil
    }
}

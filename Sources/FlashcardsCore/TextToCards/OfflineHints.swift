import Foundation

/// How much a hint gives away.
public enum HintStrength: Int, Sendable, Codable, CaseIterable, Comparable {
    /// Shape only: number of words and letters.
    case gentle = 1
    /// Shape plus the first letters of the key word(s).
    case medium = 2
    /// A cloze of the answer with its key word blanked (only for longer answers).
    case strong = 3

    /// Orders by how much is revealed.
    public static func < (lhs: HintStrength, rhs: HintStrength) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Offline hints: graded clues derived from the answer that never contain the answer.
public enum OfflineHints {
    private static let stopwords: Set<String> = [
        "der", "die", "das", "ein", "eine", "einer", "eines", "einen", "einem", "den", "dem", "des", "und", "oder",
        "mit", "von", "für", "auf", "aus", "bei", "in", "im", "zu", "zum", "zur", "ist", "sind", "wird", "nicht",
        "the", "a", "an", "of", "and", "or", "to", "in", "on", "for", "with", "by", "is", "are", "that", "which",
        "from", "as", "at", "it", "its", "dass", "sich", "wenn", "when",
    ]

    /// The hint for a card: the strongest clue up to `strength` that does not give the answer away.
    /// The text carries no "Hinweis:"/"Hint:" label: clients show their own (the original's hints began
    /// with one, which its iOS app strips).
    public static func hint(answer: String, language: DocumentLanguage, strength: HintStrength = .medium) -> String {
        for level in HintStrength.allCases.reversed() where level <= strength {
            if let hint = hint(answer: answer, language: language, exactly: level),
                !leaks(hint: hint, answer: answer)
            {
                return hint
            }
        }
        return language == .de ? "Denk an das Thema der Frage." : "Think about the topic of the question."
    }

    /// All non-leaking hints for an answer, from gentle to strong, for a UI that reveals them step by step.
    public static func gradedHints(answer: String, language: DocumentLanguage) -> [String] {
        var hints: [String] = []
        for level in HintStrength.allCases {
            if let hint = hint(answer: answer, language: language, exactly: level), !leaks(hint: hint, answer: answer),
                !hints.contains(hint)
            {
                hints.append(hint)
            }
        }
        return hints
    }

    /// Whether `hint` gives `answer` away: the whole answer appears in it (as words), or all of the
    /// answer's content words do.
    public static func leaks(hint: String, answer: String) -> Bool {
        let normalizedHint = normalize(hint)
        let normalizedAnswer = normalize(answer)
        guard !normalizedAnswer.isEmpty else { return false }
        if TextToCardsMatch.containsWord(normalizedAnswer, in: normalizedHint) { return true }
        let hintWords = Set(normalizedHint.split(separator: " "))
        let content = normalizedAnswer.split(separator: " ").filter { !stopwords.contains(String($0)) }
        if !content.isEmpty && content.allSatisfy({ hintWords.contains($0) }) { return true }
        return false
    }

    /// Lower case, letters and digits only, single spaces.
    static func normalize(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: " ")
    }

    private static func hint(answer: String, language: DocumentLanguage, exactly level: HintStrength) -> String? {
        let german = language == .de
        let words = answer.split(whereSeparator: { $0.isWhitespace }).map {
            String($0).trimmingCharacters(in: .punctuationCharacters)
        }.filter { !$0.isEmpty }
        guard !words.isEmpty else { return nil }
        let letters = words.joined().filter { $0.isLetter || $0.isNumber }.count
        let isNumber = words.count == 1 && words[0].allSatisfy { $0.isNumber }
        let shape: String
        if isNumber {
            shape = german ? "eine Zahl mit \(letters) Ziffern" : "a number with \(letters) digits"
        } else if words.count == 1 {
            let unit = german ? (letters == 1 ? "Buchstaben" : "Buchstaben") : (letters == 1 ? "letter" : "letters")
            shape = german ? "ein Wort mit \(letters) \(unit)" : "one word with \(letters) \(unit)"
        } else {
            shape = german ? "\(words.count) Wörter" : "\(words.count) words"
        }
        switch level {
        case .gentle:
            return CardText.capitalizedFirst(shape) + "."
        case .medium:
            if words.count <= 4 {
                // First letters of every word; one letter per word for short words, two for long ones.
                let starts = words.map { word -> String in
                    let shown = word.count >= 6 ? 2 : 1
                    guard word.count > shown else { return "…" }
                    return String(word.prefix(shown)) + "…"
                }
                guard starts.contains(where: { $0 != "…" }) else { return nil }
                let startText = starts.joined(separator: " ")
                return CardText.capitalizedFirst(shape)
                    + (german ? ", beginnt mit „\(startText)“." : ", starts with “\(startText)”.")
            }
            guard let key = keyWord(words) else { return nil }
            let start = String(key.prefix(key.count >= 8 ? 3 : 2))
            return CardText.capitalizedFirst(shape)
                + (german
                    ? "; ein Schlüsselwort beginnt mit „\(start)…“ (\(key.count) Buchstaben)."
                    : "; a key word starts with “\(start)…” (\(key.count) letters).")
        case .strong:
            guard words.count >= 5, let key = keyWord(words) else { return nil }
            // Only the beginning of the answer, so that most of it stays hidden.
            let shown = words.prefix(6).map {
                $0 == key ? String(key.prefix(1)) + String(repeating: "_", count: key.count - 1) : $0
            }
            let ellipsis = words.count > 6 ? " …" : ""
            guard words.prefix(6).contains(key) else { return nil }
            return (german ? "„" : "“") + shown.joined(separator: " ") + ellipsis + (german ? "“" : "”")
        }
    }

    /// The most telling word: the longest word that is not a function word.
    private static func keyWord(_ words: [String]) -> String? {
        words.filter { $0.count >= 5 && !stopwords.contains($0.lowercased()) && $0.allSatisfy(\.isLetter) }
            .enumerated().max { ($0.element.count, -$0.offset) < ($1.element.count, -$1.offset) }?.element
    }
}

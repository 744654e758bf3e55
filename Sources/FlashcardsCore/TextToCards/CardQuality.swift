import Foundation

/// Checks that a card is well-formed: a real question or cloze, a complete answer, no words broken
/// by hyphenation, no page headers or footers. Used for the quality figures and to screen the
/// untrusted output of language models.
public enum CardQuality {
    /// Why a card is not well-formed.
    public enum Problem: String, Sendable, Hashable, CaseIterable {
        /// The question is neither a question (ends with "?") nor a cloze with a gap.
        case notAQuestion
        /// Question or answer is empty.
        case empty
        /// The answer is cut off: ends in a hyphen, a comma or a dangling function word, or brackets do not close.
        case incompleteAnswer
        /// Longer than the limits for generated cards.
        case tooLong
        /// A word broken by hyphenation ("Spei- chers") or a soft hyphen/replacement character.
        case brokenWord
        /// A running header, footer or page number found its way into the card.
        case pageFurniture
        /// The answer is already on the front (or question and answer are the same).
        case answerInQuestion
        /// Control characters or markup-like garbage.
        case garbage
    }

    /// The longest generated question in characters.
    public static let maximumQuestionLength = 400
    /// The longest generated answer in characters.
    public static let maximumAnswerLength = 400

    private static let danglingEnd: Set<String> = [
        "und", "oder", "der", "die", "das", "des", "den", "dem", "ein", "eine", "einer", "eines", "von", "zu", "mit",
        "für", "auf", "im", "and", "or", "the", "a", "an", "of", "to", "with", "for", "on", "by",
    ]
    private static let hyphenKeepers: Set<String> = ["und", "oder", "bzw", "sowie", "bis", "and", "or", "to", "als"]

    /// All problems of a card; empty when it is well-formed. `boilerplate` lists known running
    /// headers/footers of the source (with `{page}` as a page-number placeholder).
    public static func problems(
        question rawQuestion: String, answer rawAnswer: String, boilerplate: [String] = [],
        requireQuestionMark: Bool = true
    ) -> [Problem] {
        var problems: [Problem] = []
        let question = rawQuestion.trimmingCharacters(in: .whitespacesAndNewlines)
        let answer = rawAnswer.trimmingCharacters(in: .whitespacesAndNewlines)
        if question.isEmpty || answer.isEmpty || !answer.contains(where: { $0.isLetter || $0.isNumber }) {
            return [.empty]
        }
        let isCloze = question.contains(TextToCards.gap)
        if requireQuestionMark && !question.hasSuffix("?") && !isCloze { problems.append(.notAQuestion) }
        if !requireQuestionMark && question.split(separator: " ").count < 2 && !question.hasSuffix("?") {
            problems.append(.notAQuestion)
        }
        if question.count > maximumQuestionLength || answer.count > maximumAnswerLength { problems.append(.tooLong) }
        if let last = answer.last, "-,;:(".contains(last) { problems.append(.incompleteAnswer) }
        if let lastWord = answer.split(separator: " ").last, danglingEnd.contains(lastWord.lowercased()) {
            problems.append(.incompleteAnswer)
        }
        if !balanced(answer) || !balanced(question) { problems.append(.incompleteAnswer) }
        if hasBrokenWord(question) || hasBrokenWord(answer) { problems.append(.brokenWord) }
        if hasPageFurniture(question, boilerplate: boilerplate) || hasPageFurniture(answer, boilerplate: boilerplate) {
            problems.append(.pageFurniture)
        }
        let normalizedQuestion = question.lowercased()
        let normalizedAnswer = answer.lowercased().trimmingCharacters(in: .punctuationCharacters)
        if normalizedQuestion == normalizedAnswer
            || (isCloze && TextToCardsMatch.containsWord(normalizedAnswer, in: normalizedQuestion))
        {
            problems.append(.answerInQuestion)
        }
        if (question + answer).unicodeScalars.contains(where: {
            $0.properties.generalCategory == .control || $0 == "\u{FFFD}"
        }) || question.contains("<script") || answer.contains("<script") {
            problems.append(.garbage)
        }
        return problems
    }

    /// Whether a draft card is well-formed.
    public static func isWellFormed(_ card: DraftCard, boilerplate: [String] = []) -> Bool {
        problems(question: card.question, answer: card.answer, boilerplate: boilerplate).isEmpty
    }

    private static func balanced(_ text: String) -> Bool {
        var depth = 0
        for character in text {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth < 0 { return false }
        }
        let quotes = text.filter { $0 == "„" }.count
        let closing = text.filter { $0 == "“" }.count
        return depth == 0 && (quotes == 0 || quotes == closing)
    }

    /// "Spei- chers", "Spei-\nchers", soft hyphens: a letter, a hyphen, space, then a lower-case word
    /// that is not a conjunction ("Ein- und Ausgabe" is fine).
    public static func hasBrokenWord(_ text: String) -> Bool {
        if text.contains("\u{00AD}") || text.contains("\u{FFFD}") { return true }
        let characters = Array(text)
        var index = 1
        while index < characters.count - 2 {
            if characters[index] == "-", characters[index - 1].isLetter, characters[index + 1].isWhitespace {
                var start = index + 1
                while start < characters.count, characters[start].isWhitespace { start += 1 }
                var end = start
                while end < characters.count, characters[end].isLetter { end += 1 }
                let word = String(characters[start..<end])
                if let first = word.first, first.isLowercase, !hyphenKeepers.contains(word) { return true }
            }
            index += 1
        }
        return false
    }

    /// Page numbers ("Seite 3 von 9", "Page 3 of 9") or a known header/footer inside the text.
    public static func hasPageFurniture(_ text: String, boilerplate: [String]) -> Bool {
        let lower = text.lowercased()
        let words = lower.split(separator: " ").map(String.init)
        for index in words.indices.dropLast(3) {
            let (first, number, link, total) = (words[index], words[index + 1], words[index + 2], words[index + 3])
            if ["seite", "page"].contains(first), number.allSatisfy(\.isNumber), ["von", "of"].contains(link),
                total.trimmingCharacters(in: .punctuationCharacters).allSatisfy(\.isNumber)
            {
                return true
            }
        }
        for entry in boilerplate {
            // The fixed part of a header/footer, long enough to be meaningful.
            let fixed = entry.components(separatedBy: "{page}").flatMap { $0.components(separatedBy: "{pages}") }
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.count >= 8 }
            if fixed.contains(where: { lower.contains($0.lowercased()) }) { return true }
        }
        return false
    }
}

/// Word-boundary containment used by the quality checks and the hint rules.
public enum TextToCardsMatch {
    /// Whether `needle` occurs in `haystack` as whole words (both already lower-cased).
    public static func containsWord(_ needle: String, in haystack: String) -> Bool {
        guard !needle.isEmpty else { return false }
        var searchStart = haystack.startIndex
        while let range = haystack.range(of: needle, range: searchStart..<haystack.endIndex) {
            let before =
                range.lowerBound == haystack.startIndex ? nil : haystack[haystack.index(before: range.lowerBound)]
            let after = range.upperBound == haystack.endIndex ? nil : haystack[range.upperBound]
            let boundaryBefore = before.map { !$0.isLetter && !$0.isNumber } ?? true
            let boundaryAfter = after.map { !$0.isLetter && !$0.isNumber } ?? true
            if boundaryBefore && boundaryAfter { return true }
            searchStart = range.upperBound
        }
        return false
    }
}

extension CardQuality {
    /// Cleans untrusted card text (a language model's output): trims, folds whitespace and line breaks,
    /// drops control characters. Returns nil when the text is empty afterwards.
    public static func cleanUntrusted(_ text: String, maximumLength: Int) -> String? {
        var output = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
                if !lastWasSpace && !output.isEmpty { output.append(" ") }
                lastWasSpace = true
                continue
            }
            if scalar == "\u{FFFD}" || scalar == "\u{00AD}" || scalar == "\u{200B}" { continue }
            lastWasSpace = false
            output.unicodeScalars.append(scalar)
        }
        let trimmed = output.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= maximumLength else { return nil }
        return trimmed
    }

    /// A card built from untrusted question/answer text, or nil when it would be a broken card.
    /// Model questions may be imperative ("Nenne drei …"), so a question mark is not required.
    public static func screen(question: String, answer: String, sourcePage: Int?) -> DraftCard? {
        guard let question = cleanUntrusted(question, maximumLength: maximumQuestionLength),
            var answer = cleanUntrusted(answer, maximumLength: maximumAnswerLength)
        else { return nil }
        if answer.hasSuffix(".") && !answer.hasSuffix("..") && answer.split(separator: " ").count <= 12 {
            answer.removeLast()
        }
        guard problems(question: question, answer: answer, requireQuestionMark: false).isEmpty else { return nil }
        guard question.lowercased() != answer.lowercased() else { return nil }
        return DraftCard(question: question, answer: answer, sourcePage: sourcePage, kind: .model)
    }
}

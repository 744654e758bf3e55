import Foundation

/// Removes duplicate and near-duplicate cards, also against questions already in a stack.
public enum CardDeduplicator {
    private static let stopwords: Set<String> = [
        "der", "die", "das", "ein", "eine", "einer", "eines", "einen", "einem", "den", "dem", "des", "und", "oder",
        "ist", "sind", "was", "welche", "wie", "man", "zu", "von", "the", "a", "an", "of", "and", "or", "is", "are",
        "what", "which", "does", "do", "how", "to", "in", "im", "bedeutet", "mean", "means", "ergänze", "lücke",
        "fill", "gap", "versteht", "unter", "bezeichnet", "beschreibt", "gehört", "gehören", "punkte", "wann",
        "tritt", "auf", "gibt", "an", "als", "refer", "describe", "when", "occur", "belong", "points", "meant",
    ]

    /// The content words of a text: lower-cased, without punctuation and function words.
    public static func contentWords(_ text: String) -> Set<String> {
        Set(
            text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init).filter {
                !stopwords.contains($0)
            })
    }

    /// Jaccard similarity of two word sets (1 for two empty sets).
    public static func similarity(_ lhs: Set<String>, _ rhs: Set<String>) -> Double {
        if lhs.isEmpty && rhs.isEmpty { return 1 }
        return Double(lhs.intersection(rhs).count) / Double(lhs.union(rhs).count)
    }

    /// Whether two questions ask the same: identical content words, or 80 % overlap.
    public static func sameQuestion(_ lhs: String, _ rhs: String) -> Bool {
        similarity(contentWords(lhs), contentWords(rhs)) >= 0.8
    }

    /// Keeps the first of each group of duplicates, in order. A card is a duplicate when its question
    /// matches an earlier question (or an existing one), or when question and answer both largely
    /// overlap with an earlier card's.
    public static func deduplicate(_ cards: [DraftCard], existingQuestions: [String] = []) -> [DraftCard] {
        let existing = existingQuestions.map(contentWords)
        var kept: [(question: Set<String>, answer: Set<String>, card: DraftCard)] = []
        for card in cards {
            let question = contentWords(card.question)
            let answer = contentWords(card.answer)
            if existing.contains(where: { similarity($0, question) >= 0.8 }) { continue }
            let duplicate = kept.contains { other in
                let questionSimilarity = similarity(other.question, question)
                // The same question twice would confuse learners even with differently worded answers.
                if questionSimilarity >= 0.8 { return true }
                // The same fact asked twice in different words: nearly the same answer and a related question.
                return similarity(other.answer, answer) >= 0.9 && questionSimilarity >= 0.5 && answer.count >= 3
            }
            if !duplicate { kept.append((question, answer, card)) }
        }
        return kept.map(\.card)
    }
}

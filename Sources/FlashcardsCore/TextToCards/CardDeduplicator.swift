import Foundation

/// Removes duplicate and near-duplicate cards, and finds the ones a stack already has.
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

    /// Whether two cards ask the same fact:
    /// - the same question (80 % of its content words);
    /// - nearly the same answer to a related question;
    /// - or crossed: one card's answer stands in the other's question and most of the other's answer
    ///   in its own question (a definition and a cloze of the same sentence).
    public static func sameFact(_ lhs: DraftCard, _ rhs: DraftCard) -> Bool {
        sameFact(Words(lhs), Words(rhs))
    }

    /// The content words of a card's two sides.
    private struct Words {
        var question: Set<String>
        var answer: Set<String>

        init(_ card: DraftCard) {
            question = contentWords(card.question)
            answer = contentWords(card.answer)
        }
    }

    private static func sameFact(_ lhs: Words, _ rhs: Words) -> Bool {
        let questionSimilarity = similarity(lhs.question, rhs.question)
        // The same question twice would confuse learners even with differently worded answers.
        if questionSimilarity >= 0.8 { return true }
        // The same fact asked twice in different words: nearly the same answer and a related question.
        if similarity(lhs.answer, rhs.answer) >= 0.9 && questionSimilarity >= 0.5 && lhs.answer.count >= 3 {
            return true
        }
        func crossed(_ first: Words, _ second: Words) -> Bool {
            guard !first.answer.isEmpty, first.answer.isSubset(of: second.question), second.answer.count >= 2 else {
                return false
            }
            let shared = second.answer.intersection(first.question).count
            return Double(shared) / Double(second.answer.count) >= 0.7
        }
        return crossed(lhs, rhs) || crossed(rhs, lhs)
    }

    /// What to do with a draft whose question is already in the stack.
    public enum ExistingDuplicates: Sendable {
        /// Keep it, with `duplicateOf` naming the stack's question, for the user to decide.
        case mark
        /// Leave it out (a topic feed never repeats a card).
        case drop
    }

    /// Keeps the first of each group of cards that ask the same fact (`sameFact`), in order; a
    /// later card of another kind becomes the kept card's `alternative` when it has none. Cards that
    /// ask a fact of `earlier` (drafts already made) are left out; cards whose question matches one
    /// already in the stack are marked (`duplicateOf`) or left out.
    public static func deduplicate(
        _ cards: [DraftCard], after earlier: [DraftCard] = [], existingQuestions: [String] = [],
        existing handling: ExistingDuplicates = .mark
    ) -> [DraftCard] {
        let existing = existingQuestions.map { ($0, contentWords($0)) }
        let before = earlier.map(Words.init)
        var kept: [(words: Words, card: DraftCard)] = []
        for var card in cards {
            let words = Words(card)
            if before.contains(where: { sameFact($0, words) }) { continue }
            if let index = kept.firstIndex(where: { sameFact($0.words, words) }) {
                if kept[index].card.alternative == nil, kept[index].card.kind != card.kind {
                    kept[index].card.alternative = .init(question: card.question, answer: card.answer, kind: card.kind)
                }
                continue
            }
            if let match = existing.first(where: { similarity($0.1, words.question) >= 0.8 }) {
                if handling == .drop { continue }
                card.duplicateOf = match.0
            }
            kept.append((words, card))
        }
        return kept.map(\.card)
    }

    /// How many of `cards` ask a fact an earlier card already asks (the corpus's duplicate rate).
    public static func repeatedFacts(in cards: [DraftCard]) -> Int {
        var seen: [Words] = []
        var repeated = 0
        for card in cards {
            let words = Words(card)
            if seen.contains(where: { sameFact($0, words) }) { repeated += 1 } else { seen.append(words) }
        }
        return repeated
    }
}

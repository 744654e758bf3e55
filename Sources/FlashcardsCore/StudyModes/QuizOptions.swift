import Foundation

/// The multiple-choice question of the Quiz mode: the card's answer among up to three distractors,
/// answers of other cards of the same stack that look like an answer to this question (similar
/// length, the same kind: a number among numbers, a word among words), never the right answer
/// twice and never one option twice.
public enum QuizOptions {
    /// The most options a question shows (the answer and three distractors).
    public static let maximumOptions = 4

    /// A candidate distractor: another card's answer.
    public struct Candidate: Sendable, Hashable {
        /// The other card's id.
        public var cardID: Int64
        /// Its answer.
        public var answer: String
        /// The answer's Markdown source when the card is rich (for clients that render it), else nil.
        public var markup: String?

        /// Creates the candidate.
        public init(cardID: Int64, answer: String, markup: String? = nil) {
            self.cardID = cardID
            self.answer = answer
            self.markup = markup
        }
    }

    /// A question's options in the order to show them.
    public struct Question: Sendable, Hashable {
        /// The answers to choose from: the right one and the distractors.
        public var options: [String]
        /// Where the right answer is in `options`.
        public var correctIndex: Int
        /// The cards the distractors came from, in `options` order (nil for the right answer).
        public var sources: [Int64?]
        /// The Markdown of the rich distractors (`Candidate.markup`), in `options` order (nil for
        /// plain words and the right answer).
        public var markups: [String?] = []

        /// Fewer than four options: the stack has too few other answers.
        public var isShort: Bool { options.count < QuizOptions.maximumOptions }
    }

    /// The question for a card with `answer`, its distractors chosen from `candidates` (other cards
    /// of the stack, in any order; more than needed is better). `seed` makes the choice among equally
    /// good candidates and the position of the right answer repeatable (say, from the card id and
    /// its review count): the same inputs always give the same question.
    public static func question(answer: String, candidates: [Candidate], seed: UInt64) -> Question {
        let key = AnswerCheck.normalized(answer, ignoringDiacritics: true)
        let kind = AnswerKind(of: answer)
        let length = answer.count
        var random = SplitMix64(seed: seed)
        var seen: Set<String> = [key]
        var scored: [(score: Double, tieBreak: UInt64, candidate: Candidate)] = []
        for candidate in candidates {
            let candidateKey = AnswerCheck.normalized(candidate.answer, ignoringDiacritics: true)
            // Never the right answer again, an empty answer, or an answer already taken.
            guard !candidateKey.isEmpty, seen.insert(candidateKey).inserted else { continue }
            // Lower is better: the relative length difference, plus a penalty for another kind.
            let otherLength = candidate.answer.count
            let lengthScore = Double(abs(otherLength - length)) / Double(max(length, otherLength, 1))
            let kindPenalty = AnswerKind(of: candidate.answer) == kind ? 0 : 1.0
            // Ties break by a draw from the seed and the candidate's card, so the candidates' order
            // does not matter.
            var draw = SplitMix64(seed: seed ^ UInt64(bitPattern: candidate.cardID))
            scored.append((lengthScore + kindPenalty, draw.next(), candidate))
        }
        let chosen = scored.sorted { ($0.score, $0.tieBreak) < ($1.score, $1.tieBreak) }
            .prefix(maximumOptions - 1).map(\.candidate)
        var options = chosen.map { (answer: $0.answer, source: Optional($0.cardID), markup: $0.markup) }
        let correctIndex = Int(random.next() % UInt64(options.count + 1))
        options.insert((answer, nil, nil), at: correctIndex)
        return Question(
            options: options.map(\.answer), correctIndex: correctIndex, sources: options.map(\.source),
            markups: options.map(\.markup))
    }

    /// The question of a multiple-choice card: its right `answer` among up to three of its own
    /// wrong options `choices`, which ones and in what order drawn from `seed` (repeatable).
    public static func question(answer: String, ownChoices choices: [String], seed: UInt64) -> Question {
        var random = SplitMix64(seed: seed)
        var pool = choices
        var picked: [String] = []
        while picked.count < maximumOptions - 1, !pool.isEmpty {
            picked.append(pool.remove(at: Int(random.next() % UInt64(pool.count))))
        }
        let correctIndex = Int(random.next() % UInt64(picked.count + 1))
        var options = picked
        options.insert(answer, at: correctIndex)
        return Question(options: options, correctIndex: correctIndex, sources: options.map { _ in nil })
    }

    /// The question of a true/false card: always "Wahr", then "Falsch".
    public static func trueFalseQuestion(isTrue: Bool) -> Question {
        Question(
            options: [CardSides.truthWord(true), CardSides.truthWord(false)], correctIndex: isTrue ? 0 : 1,
            sources: [nil, nil])
    }

    /// The rating a quiz answer counts as: right on the first try → Good, otherwise Again.
    public static func rating(correctOnFirstTry: Bool) -> FSRSRating {
        correctOnFirstTry ? .good : .again
    }

    /// The same rating in `scheduler`'s terms (ladder: Einfach for right, Schwer for wrong).
    public static func rating(correctOnFirstTry: Bool, in scheduler: SchedulerKind) -> StudyRating {
        (correctOnFirstTry ? AnswerCheck.Verdict.correct : .wrong).rating(in: scheduler)
    }
}

import Foundation

/// How a learner answers, as the simulator needs it: how often each rating is pressed and how many
/// seconds an answer takes, per card state. The defaults are the population figures fsrs-rs and
/// Anki use when a learner has no history; `measured(from:)` derives them from a learner's own log.
public struct FSRSBehaviour: Sendable, Hashable, Codable {
    /// Probability of Again, Hard, Good, Easy as a new card's first rating.
    public var firstRating: [Double]
    /// Probability of Hard, Good, Easy when a review card is recalled.
    public var reviewRating: [Double]
    /// Next rating in a learning step after Again, Hard, Good (rows) as Again … Easy (columns).
    public var learningStepTransitions: [[Double]]
    /// The same for relearning steps.
    public var relearningStepTransitions: [[Double]]
    /// Seconds an answer takes by state (learning, review, relearning; rows) and rating (columns).
    public var seconds: [[Double]]

    /// Creates a behaviour.
    public init(
        firstRating: [Double], reviewRating: [Double], learningStepTransitions: [[Double]],
        relearningStepTransitions: [[Double]], seconds: [[Double]]
    ) {
        self.firstRating = firstRating
        self.reviewRating = reviewRating
        self.learningStepTransitions = learningStepTransitions
        self.relearningStepTransitions = relearningStepTransitions
        self.seconds = seconds
    }

    /// The population defaults (fsrs-rs's `SimulatorConfig` defaults, which Anki uses without a history).
    public static let defaults = FSRSBehaviour(
        firstRating: [0.24, 0.094, 0.495, 0.171],
        reviewRating: [0.224, 0.631, 0.145],
        learningStepTransitions: [
            [0.3686, 0.0628, 0.5108, 0.0577], [0.0442, 0.4553, 0.4457, 0.0549], [0.0519, 0.047, 0.8462, 0.055],
        ],
        relearningStepTransitions: [
            [0.2157, 0.0643, 0.6595, 0.0604], [0.05, 0.4638, 0.4475, 0.0387], [0.1057, 0.1434, 0.7266, 0.0244],
        ],
        seconds: [[19.58, 18.79, 13.78, 10.71], [19.38, 17.59, 12.38, 8.94], [16.44, 15.25, 12.32, 8.03]])

    /// Rows of `seconds`.
    public enum Phase: Int, Sendable, CaseIterable {
        case learning = 0
        case review = 1
        case relearning = 2
    }

    /// One answer of a learner's history, for `measured(from:)`.
    public struct Answer: Sendable, Hashable {
        /// The card's state when answered (a new card counts as learning).
        public var phase: Phase
        /// The rating.
        public var rating: FSRSRating
        /// How long the answer took, when recorded.
        public var seconds: Double?
        /// The card's first answer ever.
        public var isFirst: Bool

        /// Creates an answer.
        public init(phase: Phase, rating: FSRSRating, seconds: Double?, isFirst: Bool) {
            self.phase = phase
            self.rating = rating
            self.seconds = seconds
            self.isFirst = isFirst
        }
    }

    /// Answers needed before a measured figure replaces the default.
    public static let minimumAnswers = 20
    /// Answer times above this (a learner who walked away) are left out of the averages.
    public static let longestAnswerSeconds = 600.0

    /// The defaults, with each figure the learner's own where their history holds enough answers:
    /// first-rating and review-rating frequencies, and the median seconds per state and rating.
    public static func measured(from answers: [Answer]) -> FSRSBehaviour {
        var behaviour = defaults
        let firsts = answers.filter(\.isFirst).map(\.rating)
        if firsts.count >= minimumAnswers {
            behaviour.firstRating = frequencies(firsts, of: FSRSRating.allCases)
        }
        let passes = answers.filter { !$0.isFirst && $0.phase == .review && $0.rating != .again }.map(\.rating)
        if passes.count >= minimumAnswers {
            behaviour.reviewRating = frequencies(passes, of: [.hard, .good, .easy])
        }
        for phase in Phase.allCases {
            for rating in FSRSRating.allCases {
                let times = answers.compactMap { answer -> Double? in
                    guard answer.phase == phase, answer.rating == rating, let seconds = answer.seconds,
                        seconds > 0, seconds <= longestAnswerSeconds
                    else { return nil }
                    return seconds
                }
                if times.count >= minimumAnswers {
                    behaviour.seconds[phase.rawValue][rating.rawValue - 1] = median(times)
                }
            }
        }
        return behaviour
    }

    /// The share of each of `ratings` in `values`.
    private static func frequencies(_ values: [FSRSRating], of ratings: [FSRSRating]) -> [Double] {
        let total = Double(values.count)
        return ratings.map { rating in Double(values.lazy.filter { $0 == rating }.count) / total }
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Average seconds of a review-state answer, weighted by how often each rating is pressed at
    /// retrievability `r`.
    public func reviewSeconds(atRetrievability r: Double) -> Double {
        let row = seconds[Phase.review.rawValue]
        return (1 - r) * row[0] + r * (reviewRating[0] * row[1] + reviewRating[1] * row[2] + reviewRating[2] * row[3])
    }
}

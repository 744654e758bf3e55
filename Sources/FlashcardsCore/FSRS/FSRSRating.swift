/// The learner's answer to a review, as FSRS and Anki number it.
public enum FSRSRating: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Forgot the answer.
    case again = 1
    /// Recalled with serious difficulty.
    case hard = 2
    /// Recalled after some hesitation.
    case good = 3
    /// Recalled effortlessly.
    case easy = 4

    /// Orders ratings by their number (Again < Hard < Good < Easy).
    public static func < (lhs: FSRSRating, rhs: FSRSRating) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where a card stands in the FSRS state machine.
public enum FSRSState: String, Sendable, Hashable, Codable, CaseIterable {
    /// New or not yet graduated: walks through the learning steps.
    case learning
    /// Graduated: scheduled in whole days from its stability.
    case review
    /// Lapsed from review: walks through the relearning steps.
    case relearning
}

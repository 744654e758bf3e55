import Foundation

/// A card's FSRS scheduling state: a value the scheduler folds reviews into.
public struct FSRSCard: Sendable, Hashable, Codable {
    /// Learning, review or relearning.
    public var state: FSRSState
    /// Index into the learning or relearning steps; nil in the review state.
    public var step: Int?
    /// Memory stability in days (time for retrievability to fall to 90 %); nil before the first review.
    public var stability: Double?
    /// Memory difficulty, 1 … 10; nil before the first review.
    public var difficulty: Double?
    /// When the card should next be shown.
    public var due: Date
    /// When the card was last reviewed; nil for a new card.
    public var lastReview: Date?

    /// Creates a card state.
    public init(
        state: FSRSState = .learning, step: Int? = 0, stability: Double? = nil, difficulty: Double? = nil,
        due: Date, lastReview: Date? = nil
    ) {
        self.state = state
        self.step = step
        self.stability = stability
        self.difficulty = difficulty
        self.due = due
        self.lastReview = lastReview
    }

    /// A card that has never been reviewed, due at `due` (usually the moment it was created).
    public static func new(due: Date) -> FSRSCard {
        FSRSCard(state: .learning, step: 0, due: due)
    }
}

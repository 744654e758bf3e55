import Foundation

/// The schedulers a stack can use. The raw values are the wire and storage strings.
public enum SchedulerKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The original fixed interval tables with three ratings.
    case ladder
    /// FSRS-6 with four ratings.
    case fsrs

    /// The hour the learner's day starts: midnight for ladder stacks (the original's day), 04:00 for
    /// FSRS stacks (Anki's "next day starts at 04:00", the day FSRS counts elapsed days in).
    public var dayStartHour: Int {
        switch self {
        case .ladder: 0
        case .fsrs: 4
        }
    }

    /// The rating keys of this scheduler, for error messages.
    public var ratingKeysText: String {
        switch self {
        case .ladder: "easy, medium, hard"
        case .fsrs: "again, hard, good, easy"
        }
    }
}

/// Where a card stands. The raw values are the wire and storage strings.
public enum CardState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Never reviewed.
    case new
    /// New or not yet graduated: walks through the learning steps (ladder: below level 4).
    case learning
    /// Graduated.
    case review
    /// Lapsed from review: walks through the relearning steps (FSRS only).
    case relearning

    /// The state of an FSRS card in that state.
    public init(_ state: FSRSState) {
        switch state {
        case .learning: self = .learning
        case .review: self = .review
        case .relearning: self = .relearning
        }
    }

    /// The FSRS state of a card in this state (nil for a new card).
    public var fsrs: FSRSState? {
        switch self {
        case .new: nil
        case .learning: .learning
        case .review: .review
        case .relearning: .relearning
        }
    }

    /// The queue a card in this state waits in.
    public var queue: CardQueue {
        switch self {
        case .new: .new
        case .learning, .relearning: .learning
        case .review: .review
        }
    }
}

/// The three queues of the learning path; the raw values are stored in `cards.queue` and lead the
/// index that lets next-card honour the daily limits with one seek per queue.
public enum CardQueue: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Never reviewed; limited by the daily new-card allowance.
    case new = 0
    /// (Re)learning; never limited.
    case learning = 1
    /// Review; limited by the daily review allowance.
    case review = 2
}

/// The ways to learn; each review records the one it was made in. The raw values are the wire and
/// storage strings.
public enum StudyMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Flip the card and rate it.
    case flashcards
    /// Choose the answer among four.
    case quiz
    /// Type the answer.
    case write
    /// Swipe through cards, one per screen.
    case feed
}

/// The kinds of review-log entries. The raw values are the wire and storage strings.
public enum ReviewLogKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A rating.
    case review
    /// An entry that cancels the review it names; replay skips the cancelled review.
    case undo
}

import Foundation

/// A rating under the scheduler it was given with: the ladder's three or FSRS's four. Replaying
/// under the other scheduler maps it (`fsrs`, `ladder`).
public enum StudyRating: Sendable, Hashable {
    /// A ladder rating (stored as 0/1/2).
    case ladder(LadderRating)
    /// An FSRS rating (stored as 1 … 4).
    case fsrs(FSRSRating)

    /// A rating as a log row stores it: the scheduler and its number there; nil for a number the
    /// scheduler does not have (the server reports such a row as an error, it never guesses).
    public init?(scheduler: SchedulerKind, storedValue value: Int) {
        switch scheduler {
        case .ladder:
            guard let rating = LadderRating(rawValue: value) else { return nil }
            self = .ladder(rating)
        case .fsrs:
            guard let rating = FSRSRating(rawValue: value) else { return nil }
            self = .fsrs(rating)
        }
    }

    /// The rating with this `/api/v1` key in `scheduler` (ladder: easy, medium, hard; FSRS: again,
    /// hard, good, easy).
    public init?(key: String, scheduler: SchedulerKind) {
        switch scheduler {
        case .ladder:
            guard let rating = LadderRating(key: key) else { return nil }
            self = .ladder(rating)
        case .fsrs:
            guard let rating = FSRSRating(key: key) else { return nil }
            self = .fsrs(rating)
        }
    }

    /// The rating with this id of the original API (`POST /stack/rating`'s `difficulty`). FSRS stacks
    /// take 11 … 14 and, for clients that remember the original ids, 0/1/2 mapped as a replay maps
    /// ladder ratings.
    public init?(compatId id: Int, scheduler: SchedulerKind) {
        switch scheduler {
        case .ladder:
            guard let rating = LadderRating(rawValue: id) else { return nil }
            self = .ladder(rating)
        case .fsrs:
            if let rating = FSRSRating(compatId: id) {
                self = .fsrs(rating)
            } else if let rating = LadderRating(rawValue: id) {
                self = .fsrs(StudyRating.ladder(rating).fsrs)
            } else {
                return nil
            }
        }
    }

    /// The scheduler the rating was given under.
    public var scheduler: SchedulerKind {
        switch self {
        case .ladder: .ladder
        case .fsrs: .fsrs
        }
    }

    /// The number the log stores.
    public var storedValue: Int {
        switch self {
        case .ladder(let rating): rating.rawValue
        case .fsrs(let rating): rating.rawValue
        }
    }

    /// The `/api/v1` key.
    public var key: String {
        switch self {
        case .ladder(let rating): rating.key
        case .fsrs(let rating): rating.key
        }
    }

    /// As an FSRS rating. Ladder: Einfach → Good (the card climbs), Mittel → Hard (it stays),
    /// Schwer → Again (it falls back to minutes).
    public var fsrs: FSRSRating {
        switch self {
        case .fsrs(let rating): rating
        case .ladder(.easy): .good
        case .ladder(.medium): .hard
        case .ladder(.hard): .again
        }
    }

    /// As a ladder rating: Again → Schwer, Hard → Mittel, Good and Easy → Einfach.
    public var ladder: LadderRating {
        switch self {
        case .ladder(let rating): rating
        case .fsrs(.again): .hard
        case .fsrs(.hard): .medium
        case .fsrs(.good), .fsrs(.easy): .easy
        }
    }
}

/// The four FSRS buttons: keys, ids of the original API (10 + the grade, distinct from the
/// ladder's 0/1/2), labels and colours.
extension FSRSRating {
    /// The `/api/v1` key.
    public var key: String {
        switch self {
        case .again: "again"
        case .hard: "hard"
        case .good: "good"
        case .easy: "easy"
        }
    }

    /// Looks a rating up by its `/api/v1` key.
    public init?(key: String) {
        guard let match = Self.allCases.first(where: { $0.key == key }) else { return nil }
        self = match
    }

    /// 11 Again, 12 Hard, 13 Good, 14 Easy.
    public var compatId: Int { 10 + rawValue }

    /// Looks a rating up by its id in the original API (11 … 14).
    public init?(compatId id: Int) { self.init(rawValue: id - 10) }

    /// The German button label.
    public var germanName: String {
        switch self {
        case .again: "Nochmal"
        case .hard: "Schwer"
        case .good: "Gut"
        case .easy: "Einfach"
        }
    }

    /// The English button label.
    public var englishName: String {
        switch self {
        case .again: "Again"
        case .hard: "Hard"
        case .good: "Good"
        case .easy: "Easy"
        }
    }

    /// The button colour.
    public var color: String {
        switch self {
        case .again: "#EF4444"
        case .hard: "#F97316"
        case .good: "#22C55E"
        case .easy: "#0EA5E9"
        }
    }
}

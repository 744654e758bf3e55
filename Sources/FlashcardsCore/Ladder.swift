import Foundation

/// The three ratings of the original "ladder" scheduler, with the ids the original clients send.
public enum LadderRating: Int, CaseIterable, Sendable, Codable {
    /// "Einfach": the card was easy; it climbs one level.
    case easy = 0
    /// "Mittel": the card was so-so; its level stays.
    case medium = 1
    /// "Schwer": the card was hard; it drops one level, or half its level above level 4.
    case hard = 2

    /// The German button label the original clients show.
    public var germanName: String {
        switch self {
        case .easy: "Einfach"
        case .medium: "Mittel"
        case .hard: "Schwer"
        }
    }

    /// The English button label.
    public var englishName: String {
        switch self {
        case .easy: "Easy"
        case .medium: "Medium"
        case .hard: "Hard"
        }
    }

    /// The button colour the original API sends.
    public var color: String {
        switch self {
        case .easy: "#22C55E"
        case .medium: "#F97316"
        case .hard: "#EF4444"
        }
    }

    /// The stable key used by `/api/v1` ("easy", "medium", "hard").
    public var key: String {
        switch self {
        case .easy: "easy"
        case .medium: "medium"
        case .hard: "hard"
        }
    }

    /// Looks a rating up by its `/api/v1` key.
    public init?(key: String) {
        guard let match = Self.allCases.first(where: { $0.key == key }) else { return nil }
        self = match
    }
}

/// The ladder scheduler of the original system: fixed interval tables indexed by level.
///
/// Pure: every function takes the prior state and `now` and returns a value.
public enum LadderScheduler {
    /// The highest level a card can reach. The original crashed when rating EASY at this level;
    /// we cap instead so the card stays usable.
    public static let maximumLevel = 10

    private static let minute: Int = 60
    private static let hour: Int = 3_600
    private static let day: Int = 86_400

    /// Interval tables in seconds, one per rating, indexed by `min(level, lastIndex)`.
    static let tables: [LadderRating: [Int]] = [
        .easy: [
            10 * minute, 1 * hour, 6 * hour, 12 * hour, 2 * day, 4 * day, 7 * day, 14 * day, 30 * day,
        ],
        .medium: [
            2 * minute, 5 * minute, 10 * minute, 30 * minute, 45 * minute, 1 * hour, 2 * hour, 2 * hour, 2 * hour,
        ],
        .hard: [
            1 * minute, 1 * minute, 2 * minute, 10 * minute, 10 * minute, 10 * minute, 10 * minute, 10 * minute,
            10 * minute,
        ],
    ]

    /// The interval in seconds that `rating` applies to a card at `level`.
    public static func intervalSeconds(for rating: LadderRating, level: Int) -> Int {
        let table = tables[rating]!
        return table[min(max(level, 0), table.count - 1)]
    }

    /// The level a card at `level` moves to when rated `rating`.
    public static func nextLevel(after rating: LadderRating, level: Int) -> Int {
        let current = min(max(level, 0), maximumLevel)
        switch rating {
        case .easy:
            return min(current + 1, maximumLevel)
        case .medium:
            return current
        case .hard:
            // Integer division as in the original: 5 -> 3, 9 -> 5, 1 -> 0.
            return max(current - (current > 4 ? current / 2 : 1), 0)
        }
    }

    /// Applies a rating at `now`: the new due date and level.
    public static func review(_ state: LadderState, rating: LadderRating, at now: Date) -> LadderState {
        LadderState(
            due: now.addingTimeInterval(TimeInterval(intervalSeconds(for: rating, level: state.level))),
            level: nextLevel(after: rating, level: state.level)
        )
    }
}

/// A card's position on the ladder: when it is due and at which level it stands.
public struct LadderState: Sendable, Hashable, Codable {
    /// When the card is due next.
    public var due: Date
    /// Its level, 0 (new) to ``LadderScheduler/maximumLevel``.
    public var level: Int

    /// Creates a state.
    public init(due: Date, level: Int) {
        self.due = due
        self.level = level
    }

    /// The state of a newly created card: due at once, level 0.
    public static func new(createdAt: Date) -> LadderState {
        LadderState(due: createdAt, level: 0)
    }
}

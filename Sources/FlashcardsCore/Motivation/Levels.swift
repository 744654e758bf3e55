/// XP and levels, computed from the review log on the server (issue 18). The amounts and the
/// quadratic level curve are the Edutok design's; what earns them is ours: XP follows practice,
/// never speed, and a card pays at most once a day, so grinding one card earns nothing.
public enum XPReward: Int, Sendable, CaseIterable {
    /// A card studied (any rating).
    case cardCompleted = 10
    /// A card recalled (not "again"/"Schwer") at its first review of the day.
    case correctAnswer = 15
    /// A card recalled easily ("easy"/"Einfach") at its first review of the day.
    case perfectCard = 25
    /// A stack whose every card was studied on one day.
    case topicCompleted = 100
    /// A day that continues a streak of two days or more.
    case streakBonus = 20
}

/// The level curve: level n needs ((n-1)² · 50) + ((n-1) · 50) XP in total (L2 = 100, L3 = 300,
/// L4 = 600).
public enum Levels {
    /// Where a learner stands: the level, XP gathered inside it and XP the next level needs.
    public struct Standing: Sendable, Hashable, Codable {
        public var level: Int
        public var totalXP: Int
        /// XP earned since the current level began.
        public var xpIntoLevel: Int
        /// XP from the start of this level to the next one.
        public var xpForNextLevel: Int
    }

    /// Total XP needed to reach `level` (1 needs 0).
    public static func xpRequired(forLevel level: Int) -> Int {
        let step = max(level, 1) - 1
        return step * step * 50 + step * 50
    }

    /// The level for a total: the highest level whose requirement is met.
    public static func level(forXP xp: Int) -> Int {
        var level = 1
        while xpRequired(forLevel: level + 1) <= max(xp, 0) { level += 1 }
        return level
    }

    /// The standing for a total.
    public static func standing(forXP xp: Int) -> Standing {
        let total = max(xp, 0)
        let level = level(forXP: total)
        let start = xpRequired(forLevel: level)
        return Standing(
            level: level, totalXP: total, xpIntoLevel: total - start,
            xpForNextLevel: xpRequired(forLevel: level + 1) - start)
    }

    /// The levels reached by going from `before` to `after` XP (empty when none), for the level-up
    /// celebration.
    public static func levelsReached(from before: Int, to after: Int) -> ClosedRange<Int>? {
        let old = level(forXP: before)
        let new = level(forXP: after)
        return new > old ? (old + 1)...new : nil
    }
}

/// What one review contributes to XP: a card on a local day and how well it was recalled.
public struct ReviewOutcome: Sendable, Hashable {
    /// How well a card was recalled.
    public enum Recall: Sendable, Hashable {
        case missed, recalled, easy
    }

    public var card: String
    /// The learner's local day number (see `ActivityDays`).
    public var day: Int
    public var recall: Recall

    public init(card: String, day: Int, recall: Recall) {
        self.card = card
        self.day = day
        self.recall = recall
    }
}

/// XP from reviews: each card pays once per day, for its first review of that day (a card repeated
/// after a lapse earns no more).
public enum XPRules {
    /// XP per local day from the reviews, in review order.
    public static func xpByDay(_ reviews: [ReviewOutcome]) -> [Int: Int] {
        var paid: Set<String> = []
        var result: [Int: Int] = [:]
        for review in reviews {
            guard paid.insert("\(review.day)|\(review.card)").inserted else { continue }
            let reward: XPReward
            switch review.recall {
            case .missed: reward = .cardCompleted
            case .recalled: reward = .correctAnswer
            case .easy: reward = .perfectCard
            }
            result[review.day, default: 0] += reward.rawValue
        }
        return result
    }
}

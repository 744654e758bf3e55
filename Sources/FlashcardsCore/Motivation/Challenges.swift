/// What a learner did on one local day, derived from the review log and the stacks.
public struct DayActivity: Sendable, Hashable {
    /// Distinct cards studied.
    public var cardsStudied: Int
    /// The longest run of consecutive reviews without a miss, within one session.
    public var bestCleanRun: Int
    /// Stacks studied for the first time ever on this day.
    public var newStacksStudied: Int

    public init(cardsStudied: Int = 0, bestCleanRun: Int = 0, newStacksStudied: Int = 0) {
        self.cardsStudied = cardsStudied
        self.bestCleanRun = bestCleanRun
        self.newStacksStudied = newStacksStudied
    }
}

/// The three daily challenges (the Edutok design's Card Master, Perfect Score and Topic Explorer),
/// sized to the learner's own daily goal, and the mystery box that completing all three opens.
public enum DailyChallenges {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Study the daily goal's number of cards.
        case cardsStudied
        /// Recall a run of cards in a row without a miss.
        case perfectRun
        /// Study a stack for the first time.
        case newTopic
    }

    public struct Challenge: Sendable, Hashable, Codable {
        public var kind: Kind
        public var target: Int
        public var progress: Int
        public var xp: Int
        public var done: Bool { progress >= target }
    }

    /// The day's challenges and how far the activity got. The perfect run asks for half the goal
    /// (at least 5, at most 20), so a learner with a small goal is not asked for more than they plan.
    public static func challenges(dailyGoal: Int, activity: DayActivity) -> [Challenge] {
        let goal = min(max(dailyGoal, 1), 500)
        let run = min(max(goal / 2, 5), 20)
        return [
            Challenge(kind: .cardsStudied, target: goal, progress: min(activity.cardsStudied, goal), xp: 50),
            Challenge(kind: .perfectRun, target: run, progress: min(activity.bestCleanRun, run), xp: 75),
            Challenge(kind: .newTopic, target: 1, progress: min(activity.newStacksStudied, 1), xp: 50),
        ]
    }
}

/// The box opened when all three challenges of a day are done: the rarity is drawn with fixed odds
/// (common 50 %, rare 30 %, epic 15 %, legendary 5 %) from a seed of the learner and the day, so
/// the same box always holds the same reward and every instance of the server agrees.
public enum MysteryBox {
    public enum Rarity: String, Sendable, Hashable, Codable, CaseIterable {
        case common, rare, epic, legendary

        /// Chance in per cent.
        public var odds: Int {
            switch self {
            case .common: 50
            case .rare: 30
            case .epic: 15
            case .legendary: 5
            }
        }

        /// XP a box of this rarity can hold.
        public var xpRange: ClosedRange<Int> {
            switch self {
            case .common: 10...25
            case .rare: 30...60
            case .epic: 75...120
            case .legendary: 150...250
            }
        }
    }

    public enum Reward: Sendable, Hashable {
        case xp(Int)
        /// A cosmetic: a colour theme for the app, by name.
        case theme(String)
    }

    public struct Box: Sendable, Hashable {
        public var rarity: Rarity
        public var reward: Reward
    }

    /// Themes a box can hold, rarest last.
    public static let themes: [Rarity: [String]] = [
        .rare: ["meadow", "dusk"], .epic: ["aurora", "ocean"], .legendary: ["gold"],
    ]

    /// The box for a seed (see `seed(user:day:)`).
    public static func open(seed: UInt64) -> Box {
        var random = SplitMix64(seed: seed)
        let roll = Int(random.next() % 100)
        var threshold = 0
        var rarity = Rarity.common
        for candidate in Rarity.allCases {
            threshold += candidate.odds
            if roll < threshold {
                rarity = candidate
                break
            }
        }
        // Rarer boxes hold a theme one time in three; XP otherwise.
        if let names = themes[rarity], random.next() % 3 == 0 {
            return Box(rarity: rarity, reward: .theme(names[Int(random.next() % UInt64(names.count))]))
        }
        let range = rarity.xpRange
        let xp = range.lowerBound + Int(random.next() % UInt64(range.count))
        return Box(rarity: rarity, reward: .xp(xp))
    }

    /// A seed from a user id and a local day: FNV-1a over the id's bytes, mixed with the day.
    public static func seed(user: String, day: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in user.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash ^ (UInt64(bitPattern: Int64(day)) &* 0x9E37_79B9_7F4A_7C15)
    }
}

/// Achievements from first steps to long-term ones, each earned once from totals the server
/// derives (never from the client).
public enum Achievements {
    /// Totals an achievement looks at.
    public struct Totals: Sendable, Hashable {
        public var reviews: Int
        public var longestStreak: Int
        public var stacksStudied: Int
        public var perfectRuns: Int
        public var activeDays: Int

        public init(
            reviews: Int = 0, longestStreak: Int = 0, stacksStudied: Int = 0, perfectRuns: Int = 0, activeDays: Int = 0
        ) {
            self.reviews = reviews
            self.longestStreak = longestStreak
            self.stacksStudied = stacksStudied
            self.perfectRuns = perfectRuns
            self.activeDays = activeDays
        }
    }

    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case firstSteps, scholar, dedicated, explorer, perfectionist, unstoppable, marathon, centurion

        /// What earns it.
        public func isEarned(by totals: Totals) -> Bool {
            switch self {
            case .firstSteps: totals.reviews >= 1
            case .scholar: totals.reviews >= 100
            case .dedicated: totals.longestStreak >= 7
            case .explorer: totals.stacksStudied >= 5
            case .perfectionist: totals.perfectRuns >= 10
            case .unstoppable: totals.longestStreak >= 30
            case .marathon: totals.reviews >= 1000
            case .centurion: totals.activeDays >= 100
            }
        }

        /// XP it pays once.
        public var xp: Int {
            switch self {
            case .firstSteps: 25
            case .scholar, .dedicated, .explorer: 100
            case .perfectionist: 150
            case .unstoppable, .marathon: 300
            case .centurion: 500
            }
        }
    }

    /// Every achievement the totals have earned, in the order above.
    public static func earned(_ totals: Totals) -> [Kind] { Kind.allCases.filter { $0.isEarned(by: totals) } }
}

import Foundation

/// One review as the motivation rules see it: which card of which stack, when, and how well it was
/// recalled. Undone reviews are left out before the rules see the log.
public struct ActivityReview: Sendable, Hashable {
    public var card: Int
    public var stack: Int
    public var at: Date
    public var recall: ReviewOutcome.Recall

    public init(card: Int, stack: Int, at: Date, recall: ReviewOutcome.Recall) {
        self.card = card
        self.stack = stack
        self.at = at
        self.recall = recall
    }
}

extension StudyRating {
    /// How well the card was recalled: FSRS Again and ladder Schwer are misses, FSRS Easy and
    /// ladder Einfach easy recalls, everything else a recall.
    public var recall: ReviewOutcome.Recall {
        switch self {
        case .fsrs(.again), .ladder(.hard): .missed
        case .fsrs(.easy), .ladder(.easy): .easy
        default: .recalled
        }
    }
}

/// What one local day of practice added up to: the counts the challenges look at and the XP the
/// day earned (cards, completed challenges and stacks; the streak bonus, achievements and boxes are
/// added over all days by the caller).
public struct DayFigures: Sendable, Hashable {
    /// Reviews made (repeats included).
    public var reviews: Int
    /// Distinct cards studied.
    public var cards: Int
    /// XP from the cards (`XPRules`).
    public var cardXP: Int
    /// The longest run without a miss inside one session.
    public var bestCleanRun: Int
    /// Stacks studied for the first time ever.
    public var newStacks: Int
    /// Stacks whose every card was studied on the day.
    public var completedStacks: Int
    /// The challenges done, by kind.
    public var challengesDone: Set<DailyChallenges.Kind>
    /// XP from the challenges done.
    public var challengeXP: Int

    public init(
        reviews: Int = 0, cards: Int = 0, cardXP: Int = 0, bestCleanRun: Int = 0, newStacks: Int = 0,
        completedStacks: Int = 0, challengesDone: Set<DailyChallenges.Kind> = [], challengeXP: Int = 0
    ) {
        self.reviews = reviews
        self.cards = cards
        self.cardXP = cardXP
        self.bestCleanRun = bestCleanRun
        self.newStacks = newStacks
        self.completedStacks = completedStacks
        self.challengesDone = challengesDone
        self.challengeXP = challengeXP
    }

    /// The day's XP: cards, challenges and completed stacks.
    public var xp: Int { cardXP + challengeXP + completedStacks * XPReward.topicCompleted.rawValue }

    /// The activity the challenges are measured against.
    public var activity: DayActivity {
        DayActivity(cardsStudied: cards, bestCleanRun: bestCleanRun, newStacksStudied: newStacks)
    }

    /// Whether all three challenges are done (the mystery box opens).
    public var allChallengesDone: Bool { challengesDone.count == DailyChallenges.Kind.allCases.count }

    /// The figures as stored: eight numbers separated by commas (the challenges as bits in
    /// `DailyChallenges.Kind` order). Much quicker to read back than JSON, for hundreds of days on
    /// every home screen.
    public var encoded: String {
        var mask = 0
        for (bit, kind) in DailyChallenges.Kind.allCases.enumerated() where challengesDone.contains(kind) {
            mask |= 1 << bit
        }
        return [reviews, cards, cardXP, bestCleanRun, newStacks, completedStacks, mask, challengeXP]
            .map(String.init).joined(separator: ",")
    }

    /// Figures from their stored form; nil for anything else.
    public init?(encoded text: String) {
        let numbers = text.split(separator: ",").compactMap { Int($0) }
        guard numbers.count == 8 else { return nil }
        var done: Set<DailyChallenges.Kind> = []
        for (bit, kind) in DailyChallenges.Kind.allCases.enumerated() where numbers[6] & (1 << bit) != 0 {
            done.insert(kind)
        }
        self.init(
            reviews: numbers[0], cards: numbers[1], cardXP: numbers[2], bestCleanRun: numbers[3], newStacks: numbers[4],
            completedStacks: numbers[5], challengesDone: done, challengeXP: numbers[7])
    }
}

/// Turns a review log into day figures.
public enum ActivityLog {
    /// Reviews further apart than this belong to different sessions (a clean run ends there).
    public static let sessionGap: TimeInterval = 30 * 60

    /// The figures of every day with reviews.
    /// - Parameters:
    ///   - reviews: the log, in review order.
    ///   - days: the learner's day clock.
    ///   - firstStudyDay: the day each stack was first studied, over all of its history (so a day
    ///     counted alone still knows whether a stack was new on it).
    ///   - stackSizes: the cards each stack has, for completed stacks (a stack missing here is never
    ///     complete).
    ///   - dailyGoal: the goal the cards challenge is sized to.
    public static func figures(
        reviews: [ActivityReview], days: ActivityDays, firstStudyDay: [Int: Int], stackSizes: [Int: Int],
        dailyGoal: Int
    ) -> [Int: DayFigures] {
        var result: [Int: DayFigures] = [:]
        var outcomes: [ReviewOutcome] = []
        var cardsByDay: [Int: Set<Int>] = [:]
        var stackCards: [Int: [Int: Set<Int>]] = [:]
        var stacksByDay: [Int: Set<Int>] = [:]
        var run = 0
        var previous: Date?
        for review in reviews {
            let day = days.day(of: review.at)
            outcomes.append(ReviewOutcome(card: String(review.card), day: day, recall: review.recall))
            cardsByDay[day, default: []].insert(review.card)
            stackCards[day, default: [:]][review.stack, default: []].insert(review.card)
            stacksByDay[day, default: []].insert(review.stack)
            // A run ends at a miss, a new day or a long pause.
            if let previous, review.at.timeIntervalSince(previous) > sessionGap || days.day(of: previous) != day {
                run = 0
            }
            run = review.recall == .missed ? 0 : run + 1
            previous = review.at
            result[day, default: DayFigures()].reviews += 1
            result[day]!.bestCleanRun = max(result[day]!.bestCleanRun, run)
        }
        for (day, xp) in XPRules.xpByDay(outcomes) { result[day]!.cardXP = xp }
        for (day, cards) in cardsByDay {
            var figures = result[day]!
            figures.cards = cards.count
            figures.newStacks = stacksByDay[day, default: []].filter { firstStudyDay[$0] == day }.count
            figures.completedStacks =
                stackCards[day, default: [:]].filter { stack, studied in
                    guard let size = stackSizes[stack], size > 0 else { return false }
                    return studied.count >= size
                }.count
            for challenge in DailyChallenges.challenges(dailyGoal: dailyGoal, activity: figures.activity)
            where challenge.done {
                figures.challengesDone.insert(challenge.kind)
                figures.challengeXP += challenge.xp
            }
            result[day] = figures
        }
        return result
    }
}

/// Everything the home screen shows about progress, from the day figures, the rest days, the
/// achievements earned before and the XP of opened boxes.
public struct ProgressSummary: Sendable, Hashable {
    public var standing: Levels.Standing
    public var xpToday: Int
    public var streak: Streaks.Summary
    /// Every achievement earned: the ones before and the ones the totals earn now.
    public var achievements: Set<Achievements.Kind>
    public var totals: Achievements.Totals

    /// - Parameters:
    ///   - days: the figures of every day with reviews (today included).
    ///   - rest: the learner's rest days.
    ///   - earnedBefore: achievements earned earlier (kept even should a total fall, e.g. after a
    ///     stack was deleted).
    ///   - boxXP: XP of every opened mystery box.
    ///   - stacksStudied: stacks studied at least once.
    public init(
        days: [Int: DayFigures], rest: Set<Int>, today: Int, earnedBefore: Set<Achievements.Kind>, boxXP: Int,
        stacksStudied: Int, rules: Streaks.Rules = .init()
    ) {
        let active = Set(days.filter { $0.value.cards > 0 }.keys)
        streak = Streaks.summary(active: active, rest: rest, today: today, rules: rules)
        totals = Achievements.Totals(
            reviews: days.values.reduce(0) { $0 + $1.reviews }, longestStreak: streak.longest,
            stacksStudied: stacksStudied,
            perfectRuns: days.values.filter { $0.challengesDone.contains(.perfectRun) }.count,
            activeDays: active.count)
        achievements = earnedBefore.union(Achievements.earned(totals))
        let bonus = XPReward.streakBonus.rawValue
        let xp =
            days.values.reduce(0) { $0 + $1.xp } + streak.bonusDays.count * bonus
            + achievements.reduce(0) { $0 + $1.xp } + boxXP
        standing = Levels.standing(forXP: xp)
        xpToday = (days[today]?.xp ?? 0) + (streak.bonusDays.contains(today) ? bonus : 0)
    }
}

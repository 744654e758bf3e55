import Foundation

/// Local day numbers for moments: days of the learner's time zone that begin at `dayStartHour`
/// (the same day clock FSRS counts with, so a daylight-saving change still moves by whole days).
public struct ActivityDays: Sendable {
    private let clock: FSRSDayCounting

    public init(timeZone: TimeZone, dayStartHour: Int = 0) {
        clock = .rollover(hourOfDay: dayStartHour, timeZone: timeZone)
    }

    /// The local day of a moment.
    public func day(of date: Date) -> Int { clock.dayNumber(of: date) }

    /// The moment a local day begins.
    public func start(of day: Int) -> Date { clock.startOfDay(day) }
}

/// Streaks that never punish a rest: a day the learner marked as a rest day never breaks a streak,
/// and practice earns freezes that bridge a missed day on their own. Today without practice yet
/// does not break anything: the streak is alive until the day is over.
public enum Streaks {
    /// How practice earns freezes.
    public struct Rules: Sendable, Hashable {
        /// Active days that earn one freeze.
        public var activeDaysPerFreeze: Int
        /// Freezes kept at most.
        public var maximumFreezes: Int

        public init(activeDaysPerFreeze: Int = 7, maximumFreezes: Int = 2) {
            self.activeDaysPerFreeze = max(activeDaysPerFreeze, 1)
            self.maximumFreezes = max(maximumFreezes, 0)
        }
    }

    /// What a day was, for the calendar.
    public enum DayKind: String, Sendable, Hashable, Codable {
        case active, rest, frozen, missed
    }

    /// The state after the days up to today.
    public struct Summary: Sendable, Hashable {
        /// Active days in the current streak (rest and frozen days bridge it but do not count).
        public var current: Int
        public var longest: Int
        /// Freezes available now.
        public var freezes: Int
        /// Whether today already counts.
        public var activeToday: Bool
        /// What each day from the first active day to today was, for the calendar (today only once
        /// it is active).
        public var days: [Int: DayKind]
        /// Active days that continued a streak of two days or more (each earns the streak bonus).
        public var bonusDays: [Int]
    }

    /// The streak on `today` for the learner's active and rest days (local day numbers).
    public static func summary(active: Set<Int>, rest: Set<Int>, today: Int, rules: Rules = .init()) -> Summary {
        var summary = Summary(
            current: 0, longest: 0, freezes: 0, activeToday: active.contains(today), days: [:],
            bonusDays: [])
        guard let first = active.filter({ $0 <= today }).min() else { return summary }
        var earning = 0
        for day in first...today {
            if active.contains(day) {
                summary.days[day] = .active
                summary.current += 1
                if summary.current >= 2 { summary.bonusDays.append(day) }
                summary.longest = max(summary.longest, summary.current)
                earning += 1
                if earning == rules.activeDaysPerFreeze {
                    earning = 0
                    summary.freezes = min(summary.freezes + 1, rules.maximumFreezes)
                }
            } else if rest.contains(day) {
                summary.days[day] = .rest
            } else if day == today {
                continue  // the day is not over yet
            } else if summary.freezes > 0 {
                summary.freezes -= 1
                summary.days[day] = .frozen
            } else {
                summary.days[day] = .missed
                summary.current = 0
                earning = 0
            }
        }
        return summary
    }
}

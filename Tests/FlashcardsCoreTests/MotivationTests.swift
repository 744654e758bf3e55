import Foundation
import Testing

@testable import FlashcardsCore

@Suite("Motivation rules: XP, levels, streaks, challenges, boxes, achievements")
struct MotivationTests {
    @Test(
        "the quadratic level curve of the design",
        arguments: [
            (0, 1), (99, 1), (100, 2), (299, 2), (300, 3), (599, 3), (600, 4), (999, 4), (1000, 5), (-5, 1),
        ])
    func levels(xp: Int, level: Int) {
        #expect(Levels.level(forXP: xp) == level)
    }

    @Test("standing inside a level and the levels a gain reaches")
    func standing() {
        #expect(Levels.xpRequired(forLevel: 2) == 100)
        #expect(Levels.xpRequired(forLevel: 4) == 600)
        #expect(
            Levels.standing(forXP: 150) == .init(level: 2, totalXP: 150, xpIntoLevel: 50, xpForNextLevel: 200))
        #expect(Levels.levelsReached(from: 90, to: 310) == 2...3)
        #expect(Levels.levelsReached(from: 100, to: 120) == nil)
    }

    @Test("a card pays once a day, for its first review; missed, recalled and easy pay 10, 15 and 25")
    func xp() {
        let reviews = [
            ReviewOutcome(card: "a", day: 1, recall: .missed),
            ReviewOutcome(card: "a", day: 1, recall: .easy),  // the same card again: nothing
            ReviewOutcome(card: "b", day: 1, recall: .recalled),
            ReviewOutcome(card: "c", day: 1, recall: .easy),
            ReviewOutcome(card: "a", day: 2, recall: .easy),
        ]
        #expect(XPRules.xpByDay(reviews) == [1: 10 + 15 + 25, 2: 25])
        #expect(XPRules.xpByDay([]) == [:])
    }

    struct StreakCase: Sendable, CustomTestStringConvertible {
        var name: String
        var active: Set<Int>
        var rest: Set<Int> = []
        var today: Int
        var current: Int
        var longest: Int
        var freezes: Int = 0
        var testDescription: String { name }
    }

    @Test(
        "streaks with rest days and earned freezes",
        arguments: [
            StreakCase(name: "three days in a row", active: [1, 2, 3], today: 3, current: 3, longest: 3),
            StreakCase(name: "today not over yet", active: [1, 2, 3], today: 4, current: 3, longest: 3),
            StreakCase(name: "a missed day breaks", active: [1, 2, 3], today: 5, current: 0, longest: 3),
            StreakCase(name: "a rest day bridges", active: [1, 2, 4], rest: [3], today: 4, current: 3, longest: 3),
            StreakCase(
                name: "a freeze earned by seven days bridges a miss", active: Set(1...7).union([9]), today: 9,
                current: 8, longest: 8),
            StreakCase(
                name: "at most two freezes are kept", active: Set(1...21), today: 21, current: 21, longest: 21,
                freezes: 2),
            StreakCase(
                name: "a break starts over, the longest is kept", active: [1, 2, 3, 4, 7, 8], today: 8, current: 2,
                longest: 4),
            StreakCase(name: "nothing yet", active: [], today: 8, current: 0, longest: 0),
        ])
    func streaks(_ example: StreakCase) {
        let summary = Streaks.summary(active: example.active, rest: example.rest, today: example.today)
        #expect(summary.current == example.current)
        #expect(summary.longest == example.longest)
        #expect(summary.freezes == example.freezes)
    }

    @Test("the calendar marks rest, frozen and missed days; bonus days continue a streak")
    func calendar() {
        let summary = Streaks.summary(active: Set(1...7).union([9, 12]), rest: [11], today: 12)
        #expect(summary.days[8] == .frozen)
        #expect(summary.days[10] == .missed)
        #expect(summary.days[11] == .rest)
        #expect(summary.days[12] == .active)
        #expect(summary.activeToday)
        #expect(summary.bonusDays == [2, 3, 4, 5, 6, 7, 9])
    }

    @Test("local days follow the learner's time zone, the day start hour and daylight-saving changes")
    func days() throws {
        let berlin = ActivityDays(timeZone: try #require(TimeZone(identifier: "Europe/Berlin")))
        let utc = ISO8601DateFormatter()
        func day(_ text: String, _ days: ActivityDays) throws -> Int {
            days.day(of: try #require(utc.date(from: text)))
        }
        // 2026-03-29 has 23 hours in Berlin: 23:30 on the 28th (CET) and 23:30 on the 29th (CEST)
        // are consecutive days, 00:30 on the 30th the next.
        let before = try day("2026-03-28T22:30:00Z", berlin)
        #expect(try day("2026-03-29T21:30:00Z", berlin) == before + 1)
        #expect(try day("2026-03-29T22:30:00Z", berlin) == before + 2)
        // 2026-10-25 has 25 hours: 00:30 and 23:30 local are the same day.
        #expect(try day("2026-10-24T22:30:00Z", berlin) == day("2026-10-25T22:30:00Z", berlin))
        // With the day starting at 4:00, 03:00 still belongs to the day before.
        let late = ActivityDays(timeZone: try #require(TimeZone(identifier: "Europe/Berlin")), dayStartHour: 4)
        #expect(try day("2026-06-02T01:00:00Z", late) == day("2026-06-01T20:00:00Z", late))
        // One instant, two learners: 16:00 UTC is 18:00 in Berlin and already 01:00 the next day in Tokyo.
        let tokyo = ActivityDays(timeZone: try #require(TimeZone(identifier: "Asia/Tokyo")))
        #expect(try day("2026-06-01T16:00:00Z", tokyo) == day("2026-06-01T16:00:00Z", berlin) + 1)
        #expect(berlin.day(of: berlin.start(of: before)) == before)
    }

    @Test("three challenges sized to the daily goal; progress is capped at the target")
    func challenges() {
        let day = DailyChallenges.challenges(
            dailyGoal: 20, activity: DayActivity(cardsStudied: 25, bestCleanRun: 4, newStacksStudied: 2))
        #expect(day.map(\.kind) == [.cardsStudied, .perfectRun, .newTopic])
        #expect(day.map(\.target) == [20, 10, 1])
        #expect(day.map(\.progress) == [20, 4, 1])
        #expect(day.map(\.done) == [true, false, true])
        #expect(DailyChallenges.challenges(dailyGoal: 4, activity: .init()).map(\.target) == [4, 5, 1])
        #expect(DailyChallenges.challenges(dailyGoal: 100, activity: .init())[1].target == 20)
    }

    @Test("a box is the same for the same learner and day, and rarities follow 50/30/15/5")
    func boxes() {
        let seed = MysteryBox.seed(user: "u-1", day: 20_000)
        #expect(MysteryBox.open(seed: seed) == MysteryBox.open(seed: seed))
        #expect(MysteryBox.seed(user: "u-1", day: 20_001) != seed)
        #expect(MysteryBox.seed(user: "u-2", day: 20_000) != seed)
        var counts: [MysteryBox.Rarity: Int] = [:]
        let draws = 40_000
        for index in 0..<draws {
            let box = MysteryBox.open(seed: MysteryBox.seed(user: "user-\(index % 97)", day: index))
            counts[box.rarity, default: 0] += 1
            switch box.reward {
            case .xp(let xp): #expect(box.rarity.xpRange.contains(xp))
            case .theme(let name): #expect(MysteryBox.themes[box.rarity]?.contains(name) == true)
            }
        }
        for rarity in MysteryBox.Rarity.allCases {
            let share = Double(counts[rarity, default: 0]) / Double(draws) * 100
            #expect(abs(share - Double(rarity.odds)) < 1.5, "\(rarity): \(share) %")
        }
    }

    @Test("achievements from first steps to long-term ones")
    func achievements() {
        #expect(Achievements.earned(.init()).isEmpty)
        #expect(Achievements.earned(.init(reviews: 1)) == [.firstSteps])
        #expect(
            Achievements.earned(
                .init(reviews: 1000, longestStreak: 30, stacksStudied: 5, perfectRuns: 10, activeDays: 99))
                == [.firstSteps, .scholar, .dedicated, .explorer, .perfectionist, .unstoppable, .marathon])
        #expect(Achievements.Kind.centurion.isEarned(by: .init(activeDays: 100)))
    }
}

import Foundation
import Testing

@testable import FlashcardsCore

@Suite("Day figures and the progress summary from a review log")
struct DayFiguresTests {
    /// Berlin days starting at 04:00, as the server counts them.
    let days = ActivityDays(timeZone: TimeZone(identifier: "Europe/Berlin")!, dayStartHour: 4)

    /// 2026-06-13 10:00 UTC (12:00 in Berlin) plus `minutes`.
    func at(_ minutes: Double, dayOffset: Int = 0) -> Date {
        Date(timeIntervalSince1970: 1_781_344_800 + Double(dayOffset) * 86_400 + minutes * 60)
    }

    @Test("cards, XP, clean runs split by misses and pauses, new and completed stacks, challenges")
    func oneDay() {
        let reviews = [
            ActivityReview(card: 1, stack: 10, at: at(0), recall: .easy),
            ActivityReview(card: 2, stack: 10, at: at(1), recall: .recalled),
            ActivityReview(card: 3, stack: 10, at: at(2), recall: .recalled),
            ActivityReview(card: 1, stack: 10, at: at(3), recall: .missed),  // a repeat: no XP, ends the run
            ActivityReview(card: 4, stack: 20, at: at(4), recall: .recalled),
            // A pause of more than 30 minutes starts a new session: the run starts over.
            ActivityReview(card: 5, stack: 20, at: at(60), recall: .recalled),
            ActivityReview(card: 6, stack: 20, at: at(61), recall: .easy),
        ]
        let today = days.day(of: at(0))
        let figures = ActivityLog.figures(
            reviews: reviews, days: days, firstStudyDay: [10: today, 20: today - 3],
            stackSizes: [10: 3, 20: 10], dailyGoal: 6)
        let day = figures[today]!
        #expect(figures.count == 1)
        #expect(day.reviews == 7)
        #expect(day.cards == 6)
        #expect(day.cardXP == 25 + 15 + 15 + 15 + 15 + 25)
        #expect(day.bestCleanRun == 3)
        #expect(day.newStacks == 1)  // stack 20 was studied before
        #expect(day.completedStacks == 1)  // all 3 cards of stack 10
        // Goal 6: six cards done; a run of 5 needed (half the goal, at least 5): not done; a new stack.
        #expect(day.challengesDone == [.cardsStudied, .newTopic])
        #expect(day.challengeXP == 50 + 50)
        #expect(day.xp == day.cardXP + 100 + 100)
        #expect(!day.allChallengesDone)
        // The stored form reads back the same; anything else reads as nothing.
        #expect(DayFigures(encoded: day.encoded) == day)
        #expect(day.encoded == "7,6,110,3,1,1,5,100")
        #expect(DayFigures(encoded: "1,2,3") == nil && DayFigures(encoded: "{}") == nil)
    }

    @Test("a review at 03:00 belongs to the day before; the run ends at the day's change")
    func dayBoundary() {
        // 2026-06-14 01:00 UTC is 03:00 in Berlin: still the learner day of 06-13.
        let late = Date(timeIntervalSince1970: 1_781_344_800 + 15 * 3_600)
        let early = late.addingTimeInterval(2 * 3_600)  // 05:00: the next learner day
        let figures = ActivityLog.figures(
            reviews: [
                ActivityReview(card: 1, stack: 1, at: late, recall: .recalled),
                ActivityReview(card: 1, stack: 1, at: early, recall: .recalled),
            ], days: days, firstStudyDay: [:], stackSizes: [:], dailyGoal: 20)
        let first = days.day(of: at(0))
        #expect(figures.keys.sorted() == [first, first + 1])
        #expect(figures[first]?.cardXP == 15 && figures[first + 1]?.cardXP == 15)
        #expect(figures[first + 1]?.bestCleanRun == 1)
    }

    @Test("the summary adds days, streak bonus, achievements and boxes; earned achievements stay")
    func summary() {
        let today = 20_000
        var figures: [Int: DayFigures] = [:]
        for day in [today - 2, today - 1, today] {
            figures[day] = DayFigures(
                reviews: 40, cards: 40, cardXP: 400, challengesDone: [.cardsStudied], challengeXP: 50)
        }
        let summary = ProgressSummary(
            days: figures, rest: [], today: today, earnedBefore: [.explorer], boxXP: 30, stacksStudied: 1)
        #expect(summary.streak.current == 3)
        #expect(summary.totals.reviews == 120)
        // firstSteps and scholar from the totals; explorer kept although only one stack was studied.
        #expect(summary.achievements == [.firstSteps, .scholar, .explorer])
        let expected = 3 * 450 + 2 * 20 + (25 + 100 + 100) + 30
        #expect(summary.standing.totalXP == expected)
        #expect(summary.xpToday == 450 + 20)
    }

    @Test("ratings map to recall kinds: FSRS Again and ladder Schwer miss, Easy and Einfach are easy")
    func recall() {
        #expect(StudyRating.fsrs(.again).recall == .missed)
        #expect(StudyRating.fsrs(.hard).recall == .recalled)
        #expect(StudyRating.fsrs(.good).recall == .recalled)
        #expect(StudyRating.fsrs(.easy).recall == .easy)
        #expect(StudyRating.ladder(.hard).recall == .missed)
        #expect(StudyRating.ladder(.medium).recall == .recalled)
        #expect(StudyRating.ladder(.easy).recall == .easy)
    }

    @Test("guest names are an adjective, an animal and three digits in the interface language")
    func guestNames() {
        for (language, words) in [("de", GuestNames.german), ("en", GuestNames.english)] {
            var generator = SplitMix64(seed: 7)
            var names: Set<String> = []
            for _ in 0..<200 {
                let name = GuestNames.make(language: language, using: &generator)
                names.insert(name)
                #expect(words.adjectives.contains { name.hasPrefix($0) })
                #expect(name.suffix(3).allSatisfy { $0.isNumber })
                #expect(words.animals.contains { name.dropLast(3).hasSuffix($0) })
            }
            #expect(names.count > 190)
        }
        // No English name is a German one and the other way round.
        #expect(Set(GuestNames.german.adjectives).isDisjoint(with: GuestNames.english.adjectives))
        var again = SplitMix64(seed: 7)
        var first = SplitMix64(seed: 7)
        #expect(GuestNames.make(using: &again) == GuestNames.make(using: &first))
    }
}

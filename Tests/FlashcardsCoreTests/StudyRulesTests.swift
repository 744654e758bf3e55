import Foundation
import Testing

@testable import FlashcardsCore

@Suite("Study rules: ratings, buttons, intervals, settings")
struct StudyRulesTests {
    @Test("ratings map between the schedulers as a switch replays them")
    func ratingMapping() {
        #expect(StudyRating.ladder(.easy).fsrs == .good)
        #expect(StudyRating.ladder(.medium).fsrs == .hard)
        #expect(StudyRating.ladder(.hard).fsrs == .again)
        #expect(StudyRating.fsrs(.again).ladder == .hard)
        #expect(StudyRating.fsrs(.hard).ladder == .medium)
        #expect(StudyRating.fsrs(.good).ladder == .easy)
        #expect(StudyRating.fsrs(.easy).ladder == .easy)
        // A rating's own scheduler keeps it.
        for rating in FSRSRating.allCases { #expect(StudyRating.fsrs(rating).fsrs == rating) }
        for rating in LadderRating.allCases { #expect(StudyRating.ladder(rating).ladder == rating) }
    }

    @Test("stored values read back as given; unknown numbers read as the middle rating")
    func storedValues() {
        for rating in [StudyRating.ladder(.easy), .ladder(.medium), .ladder(.hard)]
            + FSRSRating.allCases.map(StudyRating.fsrs)
        {
            #expect(StudyRating(scheduler: rating.scheduler, storedValue: rating.storedValue) == rating)
        }
        #expect(StudyRating(scheduler: .ladder, storedValue: 7) == nil)
        #expect(StudyRating(scheduler: .fsrs, storedValue: 0) == nil)
    }

    @Test("keys belong to their scheduler; compatibility ids too, with the old ids mapped on FSRS")
    func keysAndIds() {
        #expect(StudyRating(key: "again", scheduler: .fsrs) == .fsrs(.again))
        #expect(StudyRating(key: "hard", scheduler: .fsrs) == .fsrs(.hard))
        #expect(StudyRating(key: "hard", scheduler: .ladder) == .ladder(.hard))
        #expect(StudyRating(key: "again", scheduler: .ladder) == nil)
        #expect(StudyRating(key: "medium", scheduler: .fsrs) == nil)
        #expect(StudyRating(key: "Good", scheduler: .fsrs) == nil)
        #expect(StudyRating(compatId: 0, scheduler: .ladder) == .ladder(.easy))
        #expect(StudyRating(compatId: 11, scheduler: .ladder) == nil)
        #expect(
            (11...14).map { StudyRating(compatId: $0, scheduler: .fsrs) } == FSRSRating.allCases.map(StudyRating.fsrs))
        #expect(StudyRating(compatId: 0, scheduler: .fsrs) == .fsrs(.good))
        #expect(StudyRating(compatId: 2, scheduler: .fsrs) == .fsrs(.again))
        #expect(StudyRating(compatId: 3, scheduler: .fsrs) == nil)
        #expect(SchedulerKind.fsrs.ratingKeysText == FSRSRating.allCases.map(\.key).joined(separator: ", "))
        #expect(SchedulerKind.ladder.ratingKeysText == LadderRating.allCases.map(\.key).joined(separator: ", "))
    }

    @Test("the FSRS buttons: keys, ids 11 to 14, German and English labels, colours")
    func buttons() {
        #expect(FSRSRating.allCases.map(\.key) == ["again", "hard", "good", "easy"])
        #expect(FSRSRating.allCases.map(\.compatId) == [11, 12, 13, 14])
        #expect(FSRSRating.allCases.map(\.germanName) == ["Nochmal", "Schwer", "Gut", "Einfach"])
        #expect(FSRSRating.allCases.map(\.englishName) == ["Again", "Hard", "Good", "Easy"])
        #expect(Set(FSRSRating.allCases.map(\.color)).count == 4)
        #expect(FSRSRating(key: "easy") == .easy && FSRSRating(compatId: 10) == nil)
    }

    @Test(
        "interval amounts name the same interval as the German text, in both shapes",
        arguments: [
            (1, 1, DurationText.Unit.seconds, "1 Sekunde"), (45, 45, .seconds, "45 Sekunden"),
            (60, 1, .minutes, "1 Minute"),
            (90, 90, .seconds, "90 Sekunden"), (600, 10, .minutes, "10 Minuten"), (3_600, 1, .hours, "1 Stunde"),
            (7_200, 2, .hours, "2 Stunden"), (86_400, 1, .days, "1 Tag"), (14 * 86_400, 14, .days, "14 Tage"),
            (0, 0, .seconds, "0 Sekunden"),
        ])
    func amounts(seconds: Int, amount: Int, unit: DurationText.Unit, text: String) {
        let value = DurationText.amount(seconds: seconds)
        #expect(value == DurationText.Amount(amount: amount, unit: unit))
        #expect(value.german == text && DurationText.german(seconds: seconds) == text)
        #expect(value.amount * value.unit.seconds == seconds)
    }

    @Test(
        "FSRS step intervals round to the largest fitting unit",
        arguments: [
            (0, "1 Sekunde"), (30, "30 Sekunden"), (330, "6 Minuten"), (3_570, "1 Stunde"), (5_400, "2 Stunden"),
            (86_399, "1 Tag"), (129_600, "2 Tage"),
        ])
    func rounding(seconds: Int, text: String) {
        let value = IntervalRounding.amount(seconds: seconds)
        #expect(value.german == text)
        #expect(value.amount >= 1)
        #expect(DurationText.amount(seconds: value.amount * value.unit.seconds) == value)
    }

    @Test("stack settings validate every field and change nothing when one is invalid")
    func settings() throws {
        let start = StackSettings()
        #expect(start.scheduler == .ladder && start.learningSteps == [60, 600] && start.relearningSteps == [600])
        let changed = try start.applying(
            StackSettings.Change(scheduler: .fsrs, desiredRetention: 0.85, learningSteps: [30], newCardsPerDay: 0))
        #expect(changed.scheduler == .fsrs && changed.desiredRetention == 0.85 && changed.learningSteps == [30])
        #expect(changed.newCardsPerDay == 0 && changed.reviewsPerDay == 200)
        let invalid: [StackSettings.Change] = [
            .init(desiredRetention: 0.5), .init(desiredRetention: .nan), .init(learningSteps: [0]),
            .init(relearningSteps: Array(repeating: 60, count: 11)), .init(newCardsPerDay: 10_000),
            .init(reviewsPerDay: 0), .init(scheduler: .fsrs, reviewsPerDay: 0),
        ]
        for change in invalid {
            #expect(throws: StackSettings.Invalid.self) { try start.applying(change) }
        }
        do {
            _ = try start.applying(.init(learningSteps: [90_000]))
        } catch {
            #expect(error.message.hasPrefix("learningSteps:"))
        }
        #expect(StackSettings.stepsText([60, 600]) == "60,600")
        #expect(StackSettings.steps(fromText: " 60, 600 ,x") == [60, 600])
        #expect(StackSettings.steps(fromText: "") == [])
    }

    @Test("the daily allowance counts new cards against the new-card limit only")
    func allowance() {
        let settings = StackSettings(newCardsPerDay: 20, reviewsPerDay: 100)
        #expect(
            DailyAllowance(settings: settings, reviewed: 0, fresh: 0) == DailyAllowance(newLeft: 20, reviewsLeft: 100))
        #expect(
            DailyAllowance(settings: settings, reviewed: 30, fresh: 10) == DailyAllowance(newLeft: 10, reviewsLeft: 80))
        #expect(
            DailyAllowance(settings: settings, reviewed: 200, fresh: 25) == DailyAllowance(newLeft: 0, reviewsLeft: 0))
    }
}

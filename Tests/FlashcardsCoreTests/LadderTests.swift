import Foundation
import Testing

@testable import FlashcardsCore

@Suite("Ladder scheduler")
struct LadderTests {
    /// The spec's table, written out as the spec states it (level → EASY, MEDIUM, HARD).
    static let specTable: [(Int, String, String, String)] = [
        (0, "10 Minuten", "2 Minuten", "1 Minute"),
        (1, "1 Stunde", "5 Minuten", "1 Minute"),
        (2, "6 Stunden", "10 Minuten", "2 Minuten"),
        (3, "12 Stunden", "30 Minuten", "10 Minuten"),
        (4, "2 Tage", "45 Minuten", "10 Minuten"),
        (5, "4 Tage", "1 Stunde", "10 Minuten"),
        (6, "7 Tage", "2 Stunden", "10 Minuten"),
        (7, "14 Tage", "2 Stunden", "10 Minuten"),
        (8, "30 Tage", "2 Stunden", "10 Minuten"),
        (9, "30 Tage", "2 Stunden", "10 Minuten"),
        (10, "30 Tage", "2 Stunden", "10 Minuten"),
    ]

    @Test("every table cell has the spec's interval and German name", arguments: specTable)
    func tableCell(row: (Int, String, String, String)) {
        let (level, easy, medium, hard) = row
        #expect(DurationText.german(seconds: LadderScheduler.intervalSeconds(for: .easy, level: level)) == easy)
        #expect(DurationText.german(seconds: LadderScheduler.intervalSeconds(for: .medium, level: level)) == medium)
        #expect(DurationText.german(seconds: LadderScheduler.intervalSeconds(for: .hard, level: level)) == hard)
    }

    // Intervals in seconds and level changes, out-of-range levels too: Fixtures/ladder.json
    // (SharedFixtureTests, and the web app's port under Node).

    @Test("a review moves the due date by the old level's interval and sets the new level")
    func review() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let state = LadderState(due: now, level: 4)
        let easy = LadderScheduler.review(state, rating: .easy, at: now)
        #expect(easy == LadderState(due: now.addingTimeInterval(2 * 86_400), level: 5))
        let hard = LadderScheduler.review(LadderState(due: now, level: 9), rating: .hard, at: now)
        #expect(hard == LadderState(due: now.addingTimeInterval(600), level: 5))
        // Level 10 EASY does not crash (the original answered 500 and trapped the card).
        let top = LadderScheduler.review(LadderState(due: now, level: 10), rating: .easy, at: now)
        #expect(top.level == 10)
        #expect(top.due == now.addingTimeInterval(30 * 86_400))
    }

    @Test("a new card is due at once at level 0")
    func newCard() {
        let now = Date(timeIntervalSince1970: 42)
        #expect(LadderState.new(createdAt: now) == LadderState(due: now, level: 0))
    }

    @Test("ratings keep the original ids, names and colours")
    func ratings() {
        #expect(LadderRating.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(LadderRating.allCases.map(\.germanName) == ["Einfach", "Mittel", "Schwer"])
        #expect(LadderRating.allCases.map(\.color) == ["#22C55E", "#F97316", "#EF4444"])
        #expect(LadderRating(key: "medium") == .medium)
        #expect(LadderRating(key: "again") == nil)
    }
}

@Suite("Duration names")
struct DurationTextTests {
    @Test(
        "German singular and plural units",
        arguments: [
            (1, "1 Sekunde"), (30, "30 Sekunden"), (60, "1 Minute"), (90, "90 Sekunden"), (120, "2 Minuten"),
            (3_600, "1 Stunde"), (7_200, "2 Stunden"), (5_400, "90 Minuten"), (86_400, "1 Tag"), (172_800, "2 Tage"),
            (90_000, "25 Stunden"),
        ])
    func german(pair: (Int, String)) {
        #expect(DurationText.german(seconds: pair.0) == pair.1)
    }

    @Test("English names")
    func english() {
        #expect(DurationText.english(seconds: 600) == "10 minutes")
        #expect(DurationText.english(seconds: 86_400) == "1 day")
        #expect(DurationText.english(seconds: 3_600 * 6) == "6 hours")
    }
}

// The learner's day (StudyDay.dueCutoff in time zones, across daylight-saving changes):
// Fixtures/learner-day.json, in SharedFixtureTests.

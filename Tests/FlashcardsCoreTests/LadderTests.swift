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

    @Test("the intervals in seconds")
    func seconds() {
        #expect(LadderScheduler.intervalSeconds(for: .easy, level: 0) == 600)
        #expect(LadderScheduler.intervalSeconds(for: .easy, level: 4) == 2 * 86_400)
        #expect(LadderScheduler.intervalSeconds(for: .medium, level: 4) == 45 * 60)
        #expect(LadderScheduler.intervalSeconds(for: .hard, level: 2) == 120)
        // Out-of-range levels clamp rather than trap.
        #expect(LadderScheduler.intervalSeconds(for: .easy, level: 99) == 30 * 86_400)
        #expect(LadderScheduler.intervalSeconds(for: .hard, level: -3) == 60)
    }

    @Test("EASY climbs one level and stops at 10", arguments: 0...10)
    func easyTransition(level: Int) {
        #expect(LadderScheduler.nextLevel(after: .easy, level: level) == min(level + 1, 10))
    }

    @Test("MEDIUM keeps the level", arguments: 0...10)
    func mediumTransition(level: Int) {
        #expect(LadderScheduler.nextLevel(after: .medium, level: level) == level)
    }

    @Test(
        "HARD drops one level, or half the level above 4 (integer division)",
        arguments: [(0, 0), (1, 0), (2, 1), (3, 2), (4, 3), (5, 3), (6, 3), (7, 4), (8, 4), (9, 5), (10, 5)])
    func hardTransition(pair: (Int, Int)) {
        #expect(LadderScheduler.nextLevel(after: .hard, level: pair.0) == pair.1)
    }

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

@Suite("Study day")
struct StudyDayTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func date(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }

    @Test("due before the end of the user's day in their time zone")
    func endOfDay() {
        // 22:30 UTC on 13 June is 00:30 on 14 June in Berlin (UTC+2): the day ends at 22:00 UTC on the 14th.
        #expect(
            StudyDay.dueCutoff(now: date("2026-06-13T22:30:00Z"), timeZone: berlin)
                == date("2026-06-14T22:00:00Z"))
        #expect(
            StudyDay.dueCutoff(now: date("2026-06-13T10:00:00Z"), timeZone: berlin)
                == date("2026-06-13T22:00:00Z"))
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(StudyDay.dueCutoff(now: date("2026-06-13T10:00:00Z"), timeZone: tokyo) == date("2026-06-13T15:00:00Z"))
    }

    @Test("days ahead add whole calendar days, also across a daylight-saving change")
    func daysAhead() {
        let now = date("2026-03-27T12:00:00Z")  // Friday; Berlin switches to summer time on Sunday 29 March
        #expect(StudyDay.dueCutoff(now: now, timeZone: berlin, daysAhead: 0) == date("2026-03-27T23:00:00Z"))
        #expect(StudyDay.dueCutoff(now: now, timeZone: berlin, daysAhead: 1) == date("2026-03-28T23:00:00Z"))
        #expect(StudyDay.dueCutoff(now: now, timeZone: berlin, daysAhead: 2) == date("2026-03-29T22:00:00Z"))
        #expect(StudyDay.dueCutoff(now: now, timeZone: berlin, daysAhead: -5) == date("2026-03-27T23:00:00Z"))
    }

    @Test("a day rollover hour moves the end of the day")
    func rollover() {
        let utc = TimeZone(identifier: "UTC")!
        #expect(
            StudyDay.dueCutoff(now: date("2026-06-13T02:00:00Z"), timeZone: utc, dayStartHour: 4)
                == date("2026-06-13T04:00:00Z"))
        #expect(
            StudyDay.dueCutoff(now: date("2026-06-13T05:00:00Z"), timeZone: utc, dayStartHour: 4)
                == date("2026-06-14T04:00:00Z"))
        // Berlin springs forward on 2026-03-29 at 02:00 (CET → CEST): that day still ends at 04:00
        // on the wall clock, 02:00 UTC, and falls back on 2026-10-25 (04:00 CET is 03:00 UTC).
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(
            StudyDay.dueCutoff(now: date("2026-03-28T12:00:00Z"), timeZone: berlin, dayStartHour: 4)
                == date("2026-03-29T02:00:00Z"))
        #expect(
            StudyDay.dueCutoff(now: date("2026-10-24T12:00:00Z"), timeZone: berlin, dayStartHour: 4)
                == date("2026-10-25T03:00:00Z"))
        // 04:14 EDT on New York's spring-forward day (08:14 UTC): its learner day has begun.
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(
            StudyDay.dueCutoff(now: date("2026-03-08T08:14:00Z"), timeZone: newYork, dayStartHour: 4)
                == date("2026-03-09T08:00:00Z"))
    }
}

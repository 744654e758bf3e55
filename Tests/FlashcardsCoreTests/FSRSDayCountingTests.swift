import Foundation
import Testing

@testable import FlashcardsCore

@Suite("FSRS day counting")
struct FSRSDayCountingTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    static func at(_ text: String) -> Date { ReviewLogCSV.parseTimestamp(text)! }

    @Test("a 04:00 rollover counts days as Anki does")
    func rollover() {
        let counting = FSRSDayCounting.rollover(hourOfDay: 4, timeZone: Self.utc)
        // 23:00 to 05:00 next morning crosses one rollover.
        #expect(counting.elapsedDays(from: Self.at("2024-05-01T23:00:00Z"), to: Self.at("2024-05-02T05:00:00Z")) == 1)
        // 05:00 to 03:00 the next night crosses none, although 22 hours passed.
        #expect(counting.elapsedDays(from: Self.at("2024-05-01T05:00:00Z"), to: Self.at("2024-05-02T03:00:00Z")) == 0)
        // 03:00 to 05:00 on the same date crosses one.
        #expect(counting.elapsedDays(from: Self.at("2024-05-01T03:00:00Z"), to: Self.at("2024-05-01T05:00:00Z")) == 1)
        #expect(counting.elapsedDays(from: Self.at("2024-05-01T04:00:00Z"), to: Self.at("2024-05-11T03:59:59Z")) == 9)
        #expect(
            counting.startOfDay(counting.dayNumber(of: Self.at("2024-05-01T03:00:00Z")))
                == Self.at("2024-04-30T04:00:00Z"))
        #expect(counting.date(addingDays: 3, to: Self.at("2024-05-01T12:34:56Z")) == Self.at("2024-05-04T04:00:00Z"))
    }

    @Test("24-hour periods floor the exact difference, like Python's timedelta.days")
    func periods() {
        let counting = FSRSDayCounting.twentyFourHourPeriods
        let start = Self.at("2024-05-01T23:00:00Z")
        #expect(counting.elapsedDays(from: start, to: start.addingTimeInterval(86_399)) == 0)
        #expect(counting.elapsedDays(from: start, to: start.addingTimeInterval(86_400)) == 1)
        #expect(counting.elapsedDays(from: start, to: start.addingTimeInterval(-1)) == -1)
        #expect(counting.date(addingDays: 2, to: start) == start.addingTimeInterval(172_800))
    }

    @Test("the rollover follows the time zone across daylight-saving changes")
    func berlinDST() {
        let counting = FSRSDayCounting.rollover(hourOfDay: 4, timeZone: Self.berlin)
        let winter = counting.dayNumber(of: Self.at("2024-03-30T12:00:00Z"))
        // Summer time starts 2024-03-31; 04:00 local is 02:00Z afterwards, 03:00Z before.
        #expect(counting.startOfDay(winter) == Self.at("2024-03-30T03:00:00Z"))
        #expect(counting.startOfDay(winter + 1) == Self.at("2024-03-31T02:00:00Z"))
        #expect(counting.elapsedDays(from: Self.at("2024-03-30T02:59:00Z"), to: Self.at("2024-03-31T02:01:00Z")) == 2)
        let clock = DayClock(counting)
        #expect(clock.startOfDay(winter + 1) == Self.at("2024-03-31T02:00:00Z"))
    }

    @Test(
        "the scheduler's offset table agrees with TimeZone, and so do its public day functions",
        arguments: [
            "UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Europe/Moscow", "Asia/Kolkata",
            "Pacific/Apia", "America/Sao_Paulo",
        ])
    func offsetTable(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        for hour in [0, 4] {
            let counting = FSRSDayCounting.rollover(hourOfDay: hour, timeZone: zone)
            let clock = DayClock(counting)
            let scheduler = try FSRSScheduler(configuration: FSRSConfiguration(dayCounting: counting))
            var random = SplitMix64(seed: 7)
            for _ in 0..<3_000 {
                // 1960 … 2110, so both the table and the fallback outside it are exercised.
                let t = -315_619_200 + Double(random.next() % 4_750_000_000)
                let date = Date(timeIntervalSince1970: t)
                #expect(clock.dayNumber(of: date) == counting.dayNumber(of: date), "\(zoneName) \(date)")
                let day = counting.dayNumber(of: date)
                #expect(clock.startOfDay(day) == counting.startOfDay(day), "\(zoneName) day \(day)")
                #expect(scheduler.dayNumber(of: date) == day && scheduler.startOfDay(day) == clock.startOfDay(day))
            }
        }
    }

    @Test("day counting survives a JSON round trip")
    func codable() throws {
        for counting in [FSRSDayCounting.twentyFourHourPeriods, .rollover(hourOfDay: 5, timeZone: Self.berlin)] {
            let data = try JSONEncoder().encode(counting)
            #expect(try JSONDecoder().decode(FSRSDayCounting.self, from: data) == counting)
        }
        let bad = Data(#"{"mode":"rollover","hourOfDay":4,"timeZone":"Mars/Olympus"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FSRSDayCounting.self, from: bad) }
    }
}

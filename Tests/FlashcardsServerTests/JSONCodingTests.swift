import FlashcardsAPI
import Foundation
import Testing

/// The shared date format of every API.
@Suite("JSON dates")
struct JSONCodingTests {
    @Test("every millisecond a client sends comes back unchanged")
    func millisecondsRoundTrip() throws {
        for second in ["2026-11-19T17:52:10", "1999-12-31T23:59:59", "2038-01-19T03:14:07"] {
            for millisecond in 0..<1_000 {
                let digits = String(millisecond)
                let text = second + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
                let date = try #require(FlashcardsJSON.date(from: text))
                #expect(FlashcardsJSON.string(from: date) == text)
            }
        }
    }

    @Test("dates are rounded to the nearest millisecond and written in UTC")
    func rounding() throws {
        let base = try #require(FlashcardsJSON.date(from: "2026-06-13T15:51:05Z"))
        #expect(FlashcardsJSON.string(from: base) == "2026-06-13T15:51:05.000Z")
        #expect(FlashcardsJSON.string(from: base.addingTimeInterval(0.123_4)) == "2026-06-13T15:51:05.123Z")
        #expect(FlashcardsJSON.string(from: base.addingTimeInterval(0.123_6)) == "2026-06-13T15:51:05.124Z")
        #expect(FlashcardsJSON.string(from: base.addingTimeInterval(0.999_7)) == "2026-06-13T15:51:06.000Z")
        #expect(FlashcardsJSON.string(from: Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
        let zone = try #require(FlashcardsJSON.date(from: "2026-06-13T17:51:05.5+02:00"))
        #expect(FlashcardsJSON.string(from: zone) == "2026-06-13T15:51:05.500Z")
    }
}

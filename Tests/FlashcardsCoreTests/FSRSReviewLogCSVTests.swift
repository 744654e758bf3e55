import Foundation
import Testing

@testable import FlashcardsCore

@Suite("Review-log CSV")
struct FSRSReviewLogCSVTests {
    /// The shared sample log: a copy in Fixtures/ if the repository has one, else the project's
    /// shared data folder next to the repository.
    static var sampleURL: URL? {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        return [
            folder.appendingPathComponent("Fixtures/review-log-sample.csv"),
            folder.appendingPathComponent("../../../shared/data/review-log-sample.csv").standardized,
        ].first { FileManager.default.fileExists(atPath: $0.path) }
    }

    static func date(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Double = 0) -> Date {
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(identifier: "UTC")
        (components.year, components.month, components.day) = (y, mo, d)
        (components.hour, components.minute, components.second) = (h, mi, 0)
        return components.date!.addingTimeInterval(s)
    }

    @Test("reads the shared sample log: 12,580 reviews of 1,205 cards")
    func sample() throws {
        let url = try #require(Self.sampleURL, "review-log-sample.csv not found")
        let text = try String(contentsOf: url, encoding: .utf8)
        let rows = try ReviewLogCSV.parse(text)
        #expect(rows.count == 12_580)
        #expect(Set(rows.map(\.cardID)).count == 1_205)
        #expect(rows.filter { $0.rating == .again }.count == 3_676)
        #expect(rows.filter { $0.rating == .good }.count == 8_903)
        let first = try #require(rows.first)
        #expect(first.cardID == 1_711_684_180_217)
        #expect(first.rating == .again)
        #expect(first.reviewTime == Self.date(2024, 3, 29, 20, 32, 32.25))
        #expect(first.reviewDuration == 25_060)
        #expect(first.line == 2)
    }

    @Test("parses ISO-8601 timestamps with offsets and fractions")
    func timestamps() throws {
        let base = Self.date(2024, 3, 29, 20, 32, 32)
        #expect(ReviewLogCSV.parseTimestamp("2024-03-29T20:32:32+00:00") == base)
        #expect(ReviewLogCSV.parseTimestamp("2024-03-29T20:32:32Z") == base)
        #expect(ReviewLogCSV.parseTimestamp("2024-03-29T22:32:32+02:00") == base)
        #expect(ReviewLogCSV.parseTimestamp("2024-03-29T15:02:32-0530") == base)
        #expect(ReviewLogCSV.parseTimestamp("2024-03-29 20:32:32Z") == base)
        let micro = try #require(ReviewLogCSV.parseTimestamp("2024-03-29T20:32:32.123456+00:00"))
        #expect(abs(micro.timeIntervalSince(base) - 0.123456) < 1e-6)
        let nano = try #require(ReviewLogCSV.parseTimestamp("2024-03-29T20:32:32.123456789Z"))
        #expect(abs(nano.timeIntervalSince(base) - 0.123456789) < 1e-6)
        #expect(ReviewLogCSV.parseTimestamp("2024-02-29T00:00:00Z") == Self.date(2024, 2, 29))
        #expect(ReviewLogCSV.parseTimestamp("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
    }

    @Test(
        "rejects malformed timestamps",
        arguments: [
            "2024-03-29T20:32:32", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-03-29T24:00:00Z",
            "2024-03-29T20:32:32.Z", "2024-03-29T20:32:32+0", "2024-03-29", "", "2024-03-29T20:32:32Zjunk",
            "2024/03/29T20:32:32Z",
        ])
    func badTimestamps(text: String) {
        #expect(ReviewLogCSV.parseTimestamp(text) == nil)
    }

    @Test("formats instants as ISO-8601 UTC and reads them back")
    func formatting() throws {
        #expect(ReviewLogCSV.formatTimestamp(Self.date(2024, 3, 29, 20, 32, 32)) == "2024-03-29T20:32:32Z")
        #expect(ReviewLogCSV.formatTimestamp(Self.date(2024, 3, 29, 20, 32, 32.25)) == "2024-03-29T20:32:32.250Z")
        #expect(
            ReviewLogCSV.formatTimestamp(Self.date(2024, 3, 29, 20, 32, 32.000125)) == "2024-03-29T20:32:32.000125Z")
        #expect(ReviewLogCSV.formatTimestamp(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        #expect(ReviewLogCSV.formatTimestamp(Self.date(2715, 6, 12, 12, 10)) == "2715-06-12T12:10:00Z")
        // Round trip over many days of years 1 … 9999, including leap days and the far-future dates
        // that 100-year intervals reach.
        for day in stride(from: -719_162, to: 2_932_896, by: 997) {
            let instant = Date(timeIntervalSince1970: Double(day) * 86_400 + 45_296.5)
            let text = ReviewLogCSV.formatTimestamp(instant)
            #expect(ReviewLogCSV.parseTimestamp(text) == instant, "\(text)")
        }
    }

    @Test("accepts CRLF, blank lines, reordered columns and a missing duration column")
    func lenientLayout() throws {
        let text =
            "\u{FEFF}review_time,card_id,review_rating\r\n2024-01-01T00:00:00Z,7,4\r\n\r\n2024-01-02T00:00:00Z,7,2\r\n"
        let rows = try ReviewLogCSV.parse(text)
        #expect(rows.map(\.cardID) == [7, 7])
        #expect(rows.map(\.rating) == [.easy, .hard])
        #expect(rows.map(\.reviewDuration) == [nil, nil])
        #expect(rows.map(\.line) == [2, 4])
    }

    @Test("names the line of a malformed row")
    func errors() {
        let header = ReviewLogCSV.header + "\n"
        let good = "1,3,2024-01-01T00:00:00+00:00,100\n"
        func failure(_ text: String) -> ReviewLogCSV.ParseError? {
            do {
                _ = try ReviewLogCSV.parse(text)
                return nil
            } catch {
                return error
            }
        }
        let rating = failure(header + good + "1,5,2024-01-02T00:00:00+00:00,100\n")
        #expect(rating?.line == 3)
        #expect(rating?.message.contains("review_rating") == true)
        #expect(rating?.description.hasPrefix("line 3: ") == true)

        let time = failure(header + good + good + "1,3,yesterday,100\n")
        #expect(time?.line == 4)
        #expect(time?.message.contains("review_time") == true)

        #expect(failure(header + "x,3,2024-01-01T00:00:00Z,1\n")?.message.contains("card_id") == true)
        #expect(failure(header + "1,3,2024-01-01T00:00:00Z\n")?.message.contains("expected 4 fields") == true)
        #expect(failure(header + "1,3,2024-01-01T00:00:00Z,-5\n")?.message.contains("review_duration") == true)
        #expect(failure("id,rating,time\n1,3,2024-01-01T00:00:00Z\n")?.line == 1)
        #expect(failure("")?.message.contains("empty file") == true)
        #expect(failure(header + good) == nil)
    }
}

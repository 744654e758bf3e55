import FlashcardsCore
import Foundation
import SQLKit

/// Learner days counted in SQL, so that a year of statistics is at most 365 rows whatever the
/// number of reviews: each timestamp is shifted by its time zone's UTC offset at that instant (a
/// `CASE` over the offsets the zone has between `start` and `end`, from Foundation's daylight
/// saving transitions) minus the rollover hour, then divided into whole days. SQLite knows no time
/// zones; this works the same on both databases.
struct LearnerDays {
    /// One span of constant shift: from `since` on, timestamps move by `shift` seconds.
    private struct Span {
        let since: Date
        let shift: Int
    }

    private let spans: [Span]

    /// The spans of `zone` between `start` and `end`, for days that begin at `rolloverHour`.
    init(zone: TimeZone, rolloverHour: Int, from start: Date, to end: Date) {
        let shift = { (date: Date) in zone.secondsFromGMT(for: date) - rolloverHour * 3600 }
        var spans = [Span(since: .distantPast, shift: shift(start))]
        var cursor = start
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < end {
            spans.append(Span(since: next, shift: shift(next)))
            cursor = next
        }
        self.spans = spans
    }

    /// The SQL expression of `column`'s shifted day number (`LearnerDays.date(ofShiftedDay:)` maps
    /// it back).
    func day(_ column: String, store: any StudyStore) -> SQLQueryString {
        guard spans.count > 1 else { return store.shiftedDay(column, shift: "\(literal: spans[0].shift)") }
        var shift: SQLQueryString = "CASE"
        for (index, span) in spans.enumerated().dropLast() {
            shift.appendInterpolation(
                " WHEN \(ident: column) < \(bind: spans[index + 1].since) THEN \(literal: span.shift)" as SQLQueryString
            )
        }
        shift.appendInterpolation(" ELSE \(literal: spans[spans.count - 1].shift) END" as SQLQueryString)
        return store.shiftedDay(column, shift: shift)
    }

    /// An instant inside shifted day `day`: its middle, so that an offset a few hours off still
    /// lands on the same learner day.
    func middle(ofShiftedDay day: Int) -> Date {
        let start = Double(day * 86_400)
        let span = spans.last { $0.since.timeIntervalSince1970 <= start } ?? spans[0]
        return Date(timeIntervalSince1970: start - Double(span.shift) + 43_200)
    }
}

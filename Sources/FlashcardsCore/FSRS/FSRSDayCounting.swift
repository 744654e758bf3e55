import Foundation

/// How a scheduler counts the days that passed between two reviews.
///
/// FSRS works in whole days. Anki (and the data the FSRS benchmark was made from) counts a day as the
/// span between two *day rollovers* (04:00 in the user's time zone by default): a review at 23:00 and
/// one at 05:00 the next morning are one day apart, a review at 05:00 and one at 03:00 the next night
/// are zero days apart. py-fsrs instead counts completed 24-hour periods since the last review;
/// that mode exists to reproduce py-fsrs exactly (the golden tests use it).
public enum FSRSDayCounting: Sendable, Hashable {
    /// Days change at `hourOfDay`:00 local time in `timeZone` (Anki's "next day starts at").
    case rollover(hourOfDay: Int, timeZone: TimeZone)
    /// Days are completed 24-hour periods since the previous review (py-fsrs behaviour).
    case twentyFourHourPeriods

    /// Anki's default: the day starts at 04:00 UTC.
    public static let ankiDefaultUTC = FSRSDayCounting.rollover(hourOfDay: 4, timeZone: TimeZone(identifier: "UTC")!)

    /// The number of the day `date` falls into.
    ///
    /// With `.rollover` this is the count of local days since 1970-01-01 in the configured time zone,
    /// shifted by the rollover hour; with `.twentyFourHourPeriods` it is the count of 24-hour periods
    /// since 1970-01-01T00:00Z (only differences of day numbers are meaningful in that mode, and only
    /// `elapsedDays(from:to:)` should be used for it).
    public func dayNumber(of date: Date) -> Int {
        switch self {
        case .twentyFourHourPeriods:
            return Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        case .rollover(let hour, let timeZone):
            let offset = Double(timeZone.secondsFromGMT(for: date))
            let local = date.timeIntervalSince1970 + offset - Double(hour) * 3_600
            return Int((local / 86_400).rounded(.down))
        }
    }

    /// Whole days elapsed between two instants (negative if `later` is before `earlier`).
    ///
    /// `.twentyFourHourPeriods` floors the exact difference (Python's `timedelta.days`);
    /// `.rollover` counts the day rollovers crossed.
    public func elapsedDays(from earlier: Date, to later: Date) -> Int {
        switch self {
        case .twentyFourHourPeriods:
            return Int((later.timeIntervalSince(earlier) / 86_400).rounded(.down))
        case .rollover:
            return dayNumber(of: later) - dayNumber(of: earlier)
        }
    }

    /// The instant a day begins: the rollover moment of day `dayNumber` (see `dayNumber(of:)`).
    ///
    /// For `.twentyFourHourPeriods` this is `dayNumber × 86400` seconds after the Unix epoch.
    public func startOfDay(_ dayNumber: Int) -> Date {
        switch self {
        case .twentyFourHourPeriods:
            return Date(timeIntervalSince1970: Double(dayNumber) * 86_400)
        case .rollover(let hour, let timeZone):
            let localSeconds = Double(dayNumber) * 86_400 + Double(hour) * 3_600
            return Date(
                timeIntervalSince1970: Self.instant(ofWallClock: localSeconds) {
                    Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: $0)))
                })
        }
    }

    /// The instant (Unix seconds) at which a zone's wall clock shows `local` (seconds since 1970 on
    /// that clock), given the zone's offset at an instant. Around a daylight-saving change the offset
    /// of a day before and a day after are the candidates: a wall time that exists once gives one
    /// instant, one that exists twice (the clock set back) its first, and one the clock skips (set
    /// forward) the change itself, the first instant after it, as `Calendar` does.
    static func instant(ofWallClock local: Double, offset: (Double) -> Double) -> Double {
        let before = local - offset(local - 86_400)
        let after = local - offset(local + 86_400)
        // No change within a day either side (nearly always): the one offset applies.
        if before == after { return before }
        let valid = [before, after].filter { $0 + offset($0) == local }
        return valid.min() ?? max(before, after)
    }

    /// The instant `days` whole days after `date`, as a scheduler places a review `days` days out.
    ///
    /// `.twentyFourHourPeriods` adds exactly `days × 24` hours (py-fsrs). `.rollover` returns the start
    /// of the day `days` days after the day of `date` (Anki: a card is due from the start of its day).
    public func date(addingDays days: Int, to date: Date) -> Date {
        switch self {
        case .twentyFourHourPeriods:
            return date.addingTimeInterval(Double(days) * 86_400)
        case .rollover:
            return startOfDay(dayNumber(of: date) + days)
        }
    }
}

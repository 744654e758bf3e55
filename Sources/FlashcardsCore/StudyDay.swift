import Foundation

/// The learner's day: which cards count as due "today" in the learner's own time zone.
public enum StudyDay {
    /// The moment before which a card counts as due: the end of the user's current day in
    /// `timeZone` (the next midnight, or the next `dayStartHour` o'clock), plus `daysAhead` days.
    ///
    /// The original compared against 23:59 of the server's day; we use the user's day, so a learner
    /// in Tokyo and one in Berlin both finish "today" at their own midnight. Days are counted on the
    /// wall clock of the time zone, so a daylight-saving change still moves by whole days.
    public static func dueCutoff(now: Date, timeZone: TimeZone, daysAhead: Int = 0, dayStartHour: Int = 0) -> Date {
        // The rollover hour on the wall clock, also on days a daylight-saving change skips or repeats
        // an hour: the same day clock FSRS counts elapsed days with (no calendar built per request).
        let clock = FSRSDayCounting.rollover(hourOfDay: dayStartHour, timeZone: timeZone)
        return clock.startOfDay(clock.dayNumber(of: now) + 1 + max(daysAhead, 0))
    }
}

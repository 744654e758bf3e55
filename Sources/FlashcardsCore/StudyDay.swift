import Foundation

/// The learner's day: which cards count as due "today" in the learner's own time zone.
public enum StudyDay {
    /// The moment before which a card counts as due: the end of the user's current day in
    /// `timeZone` (the next midnight, or the next `dayStartHour` o'clock), plus `daysAhead` days.
    ///
    /// The original compared against 23:59 of the server's day; we use the user's day, so a learner
    /// in Tokyo and one in Berlin both finish "today" at their own midnight. Days are added in the
    /// calendar of the time zone, so a daylight-saving change still moves by whole days.
    public static func dueCutoff(now: Date, timeZone: TimeZone, daysAhead: Int = 0, dayStartHour: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // The learner's date: before the rollover hour on the wall clock it is still yesterday.
        var startOfDay = calendar.startOfDay(for: now)
        if calendar.component(.hour, from: now) < dayStartHour {
            startOfDay = calendar.date(byAdding: .day, value: -1, to: startOfDay) ?? startOfDay
        }
        let days = 1 + max(daysAhead, 0)
        let end = calendar.date(byAdding: .day, value: days, to: startOfDay) ?? startOfDay.addingTimeInterval(86_400)
        // The rollover hour on the wall clock of that day (adding hours would count the hour a
        // daylight-saving change skips or repeats, and end the day at 05:00 or 03:00).
        guard dayStartHour > 0 else { return end }
        return calendar.date(bySettingHour: dayStartHour, minute: 0, second: 0, of: end)
            ?? end.addingTimeInterval(TimeInterval(dayStartHour * 3_600))
    }
}

/// Human-readable interval names as the original API sends them ("10 Minuten", "1 Stunde").
public enum DurationText {
    /// The German name of an interval: the largest of days, hours, minutes, seconds that divides
    /// it evenly, singular for 1 and plural otherwise.
    public static func german(seconds: Int) -> String {
        let (amount, unit) = split(seconds)
        let names: (String, String) =
            switch unit {
            case .day: ("Tag", "Tage")
            case .hour: ("Stunde", "Stunden")
            case .minute: ("Minute", "Minuten")
            case .second: ("Sekunde", "Sekunden")
            }
        return "\(amount) \(amount == 1 ? names.0 : names.1)"
    }

    /// The English name of an interval ("10 minutes", "1 day").
    public static func english(seconds: Int) -> String {
        let (amount, unit) = split(seconds)
        let name: String =
            switch unit {
            case .day: "day"
            case .hour: "hour"
            case .minute: "minute"
            case .second: "second"
            }
        return "\(amount) \(name)\(amount == 1 ? "" : "s")"
    }

    private enum Unit { case day, hour, minute, second }

    private static func split(_ seconds: Int) -> (Int, Unit) {
        let value = max(seconds, 0)
        if value >= 86_400, value % 86_400 == 0 { return (value / 86_400, .day) }
        if value >= 3_600, value % 3_600 == 0 { return (value / 3_600, .hour) }
        if value >= 60, value % 60 == 0 { return (value / 60, .minute) }
        return (value, .second)
    }
}

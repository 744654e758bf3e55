/// Human-readable interval names as the original API sends them ("10 Minuten", "1 Stunde").
public enum DurationText {
    /// The unit an interval is named in; the raw values are the original API's `Duration.unit`.
    public enum Unit: String, Sendable, Hashable, Codable, CaseIterable {
        case seconds = "SECONDS"
        case minutes = "MINUTES"
        case hours = "HOURS"
        case days = "DAYS"

        /// The unit's length in seconds.
        public var seconds: Int {
            switch self {
            case .seconds: 1
            case .minutes: 60
            case .hours: 3_600
            case .days: 86_400
            }
        }
    }

    /// An interval as an amount of one unit.
    public struct Amount: Sendable, Hashable {
        /// How many units.
        public var amount: Int
        /// The unit.
        public var unit: Unit

        /// Creates the amount.
        public init(amount: Int, unit: Unit) {
            self.amount = amount
            self.unit = unit
        }

        /// The German name ("1 Tag", "10 Minuten"): singular for 1, plural otherwise.
        public var german: String {
            let names: (String, String) =
                switch unit {
                case .days: ("Tag", "Tage")
                case .hours: ("Stunde", "Stunden")
                case .minutes: ("Minute", "Minuten")
                case .seconds: ("Sekunde", "Sekunden")
                }
            return "\(amount) \(amount == 1 ? names.0 : names.1)"
        }

        /// The English name ("1 day", "10 minutes").
        public var english: String {
            let name: String =
                switch unit {
                case .days: "day"
                case .hours: "hour"
                case .minutes: "minute"
                case .seconds: "second"
                }
            return "\(amount) \(name)\(amount == 1 ? "" : "s")"
        }
    }

    /// `seconds` in the largest of days, hours, minutes, seconds that divides it evenly.
    public static func amount(seconds: Int) -> Amount {
        let value = max(seconds, 0)
        for unit in [Unit.days, .hours, .minutes] where value >= unit.seconds && value % unit.seconds == 0 {
            return Amount(amount: value / unit.seconds, unit: unit)
        }
        return Amount(amount: value, unit: .seconds)
    }

    /// The German name of an interval (see `amount(seconds:)`).
    public static func german(seconds: Int) -> String { amount(seconds: seconds).german }

    /// The English name of an interval ("10 minutes", "1 day").
    public static func english(seconds: Int) -> String { amount(seconds: seconds).english }
}

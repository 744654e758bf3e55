/// A rating the learner can give now, with the interval it would apply: what both APIs show on
/// the answer buttons.
public struct RatingOption: Sendable, Hashable {
    /// The rating.
    public var rating: StudyRating
    /// The exact interval in seconds.
    public var seconds: Int
    /// The interval as shown: whole days for a card that would be in review, otherwise `seconds`
    /// rounded to the largest fitting unit (`IntervalRounding`).
    public var shown: DurationText.Amount

    /// Creates the option.
    public init(rating: StudyRating, seconds: Int, shown: DurationText.Amount) {
        self.rating = rating
        self.seconds = seconds
        self.shown = shown
    }

    /// The `/api/v1` key.
    public var key: String { rating.key }

    /// The id of the original API (ladder 0/1/2, FSRS 11 … 14).
    public var compatId: Int {
        switch rating {
        case .ladder(let ladder): ladder.rawValue
        case .fsrs(let fsrs): fsrs.compatId
        }
    }

    /// The German label.
    public var label: String {
        switch rating {
        case .ladder(let ladder): ladder.germanName
        case .fsrs(let fsrs): fsrs.germanName
        }
    }

    /// The button colour.
    public var color: String {
        switch rating {
        case .ladder(let ladder): ladder.color
        case .fsrs(let fsrs): fsrs.color
        }
    }

    /// The German interval text ("10 Minuten").
    public var text: String { shown.german }
}

/// Interval names for FSRS steps, rounded to the largest fitting unit ("6 Minuten" for 330 s), since
/// step outcomes such as Hard's halfway delay are rarely whole minutes.
public enum IntervalRounding {
    /// `seconds` (at least 1) rounded to whole minutes from a minute, whole hours from an hour and
    /// whole days from a day.
    public static func amount(seconds: Int) -> DurationText.Amount {
        let value = max(seconds, 0)
        if value < 60 { return DurationText.Amount(amount: max(value, 1), unit: .seconds) }
        let unit: DurationText.Unit = value < 3_600 ? .minutes : value < 86_400 ? .hours : .days
        let amount = max(1, Int((Double(value) / Double(unit.seconds)).rounded()))
        // 59.6 minutes round to 60: name them as the next unit would.
        return DurationText.amount(seconds: amount * unit.seconds)
    }
}

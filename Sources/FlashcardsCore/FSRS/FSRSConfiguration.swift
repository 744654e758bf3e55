import Foundation

/// Everything that shapes an FSRS schedule besides the card itself.
public struct FSRSConfiguration: Sendable, Hashable, Codable {
    /// How days are counted; see `FSRSDayCounting`.
    public typealias DayCounting = FSRSDayCounting

    /// FSRS-6 default weights (as shipped by py-fsrs 6.3.2 and fsrs-rs 6.x).
    public static let defaultParameters: [Double] = [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
        1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
    ]

    /// Lower bounds of the 21 weights (py-fsrs' validation bounds; the optimizer keeps within them).
    public static let parameterLowerBounds: [Double] = [
        0.001, 0.001, 0.001, 0.001, 1.0, 0.001, 0.001, 0.001, 0.0, 0.0, 0.001,
        0.001, 0.001, 0.001, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.1,
    ]

    /// Upper bounds of the 21 weights.
    public static let parameterUpperBounds: [Double] = [
        100.0, 100.0, 100.0, 100.0, 10.0, 4.0, 4.0, 0.75, 4.5, 0.8, 3.5,
        5.0, 0.25, 0.9, 4.0, 1.0, 6.0, 2.0, 2.0, 0.8, 0.8,
    ]

    /// The 21 model weights w0 … w20.
    public var parameters: [Double]
    /// Target probability of recall when a review falls due (0 < r < 1; 0.9 by default).
    public var desiredRetention: Double
    /// Learning steps in seconds (default 1 min, 10 min).
    public var learningSteps: [TimeInterval]
    /// Relearning steps in seconds (default 10 min).
    public var relearningSteps: [TimeInterval]
    /// Longest review interval in days (default 36,500).
    public var maximumInterval: Int
    /// Whether review intervals get a seeded random spread (Anki's fuzz).
    public var fuzz: Bool
    /// How elapsed days are counted and where review due dates land.
    public var dayCounting: FSRSDayCounting
    /// With no learning (or relearning) steps, FSRS-6 schedules the same-day reviews itself: a card
    /// stays in (re)learning while its interval at the desired retention is under a day, due after that
    /// interval, and its short-term stability (w17–w19) grows with each same-day review until the
    /// interval reaches a day. Off, a card without steps graduates at once (py-fsrs' behaviour, which
    /// the golden vectors hold). The product turns it on (`StackSettings.fsrsConfiguration`).
    public var schedulesShortTerm: Bool

    /// Creates a configuration; every argument has the FSRS/Anki default.
    public init(
        parameters: [Double] = FSRSConfiguration.defaultParameters,
        desiredRetention: Double = 0.9,
        learningSteps: [TimeInterval] = [60, 600],
        relearningSteps: [TimeInterval] = [600],
        maximumInterval: Int = 36_500,
        fuzz: Bool = true,
        dayCounting: FSRSDayCounting = .ankiDefaultUTC,
        schedulesShortTerm: Bool = false
    ) {
        self.schedulesShortTerm = schedulesShortTerm
        self.parameters = parameters
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.maximumInterval = maximumInterval
        self.fuzz = fuzz
        self.dayCounting = dayCounting
    }

    /// Checks every field and lists all problems at once.
    public func validate() throws(FSRSConfigurationError) {
        var problems: [String] = []
        if parameters.count != 21 {
            problems.append("expected 21 parameters, got \(parameters.count)")
        } else {
            for (i, value) in parameters.enumerated()
            where !(Self.parameterLowerBounds[i]...Self.parameterUpperBounds[i]).contains(value) {
                problems.append(
                    "parameters[\(i)] = \(value) is outside \(Self.parameterLowerBounds[i]) … \(Self.parameterUpperBounds[i])"
                )
            }
        }
        if !(desiredRetention > 0 && desiredRetention < 1) {
            problems.append("desired retention must lie strictly between 0 and 1, got \(desiredRetention)")
        }
        if learningSteps.contains(where: { !($0 > 0) || !$0.isFinite }) {
            problems.append("learning steps must be positive durations")
        }
        if relearningSteps.contains(where: { !($0 > 0) || !$0.isFinite }) {
            problems.append("relearning steps must be positive durations")
        }
        if maximumInterval < 1 { problems.append("maximum interval must be at least 1 day, got \(maximumInterval)") }
        if case .rollover(let hour, _) = dayCounting, !(0..<24).contains(hour) {
            problems.append("day rollover hour must be 0 … 23, got \(hour)")
        }
        if !problems.isEmpty { throw FSRSConfigurationError(problems: problems) }
    }
}

/// An invalid `FSRSConfiguration`, with every problem found.
public struct FSRSConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One English sentence per problem.
    public var problems: [String]

    /// Creates the error.
    public init(problems: [String]) { self.problems = problems }

    /// The problems joined with "; ".
    public var description: String { "invalid FSRS configuration: " + problems.joined(separator: "; ") }
}

extension FSRSDayCounting: Codable {
    private enum CodingKeys: String, CodingKey { case mode, hourOfDay, timeZone }

    /// Decodes `{"mode": "rollover", "hourOfDay": 4, "timeZone": "Europe/Berlin"}` or `{"mode": "24h"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .mode) {
        case "24h":
            self = .twentyFourHourPeriods
        case "rollover":
            let identifier = try container.decode(String.self, forKey: .timeZone)
            guard let zone = TimeZone(identifier: identifier) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .timeZone, in: container, debugDescription: "unknown time zone \(identifier)")
            }
            self = .rollover(hourOfDay: try container.decode(Int.self, forKey: .hourOfDay), timeZone: zone)
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .mode, in: container, debugDescription: "unknown day counting mode \(other)")
        }
    }

    /// Encodes as described in `init(from:)`, the time zone by identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .twentyFourHourPeriods:
            try container.encode("24h", forKey: .mode)
        case .rollover(let hour, let zone):
            try container.encode("rollover", forKey: .mode)
            try container.encode(hour, forKey: .hourOfDay)
            try container.encode(zone.identifier, forKey: .timeZone)
        }
    }
}

extension FSRSConfiguration {
    /// Parses steps written as a comma-separated list of durations: `1m,10m`, `30s`, `1h, 1d` or plain
    /// seconds (`60,600`). An empty or blank string means no steps. Returns nil if any item is malformed
    /// or not positive.
    public static func parseSteps(_ text: String) -> [TimeInterval]? {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if items.allSatisfy(\.isEmpty) { return [] }
        var steps: [TimeInterval] = []
        for item in items {
            guard let last = item.last else { return nil }
            let unit: Double
            var number = Substring(item)
            switch last {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3_600
            case "d": unit = 86_400
            default:
                guard !last.isLetter else { return nil }
                unit = 1
            }
            if last.isLetter { number = number.dropLast() }
            guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value > 0, value.isFinite else {
                return nil
            }
            steps.append(value * unit)
        }
        return steps
    }

    /// Parses 21 comma- or space-separated numbers (the format optimizers print). Returns nil when
    /// an item is not a number; the count and bounds are left to `validate()`.
    public static func parseParameters(_ text: String) -> [Double]? {
        let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: "[]() \n\t"))
        var values: [Double] = []
        for item in trimmed.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" || $0 == "\t" }) {
            guard let value = Double(item) else { return nil }
            values.append(value)
        }
        return values
    }
}

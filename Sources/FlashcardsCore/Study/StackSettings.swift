import Foundation

/// A stack's scheduler settings: defaults, validation and the stored form of the steps.
public struct StackSettings: Sendable, Hashable {
    /// The new cards a day a stack may allow.
    public static let newCardsPerDayRange = 0...9_999
    /// The reviews a day a stack may allow.
    public static let reviewsPerDayRange = 1...99_999

    /// The scheduler.
    public var scheduler: SchedulerKind
    /// FSRS: the probability of recall the intervals aim for (0.70 … 0.99).
    public var desiredRetention: Double
    /// FSRS: learning steps in seconds.
    public var learningSteps: [Int]
    /// FSRS: relearning steps in seconds.
    public var relearningSteps: [Int]
    /// FSRS: new cards per learner day (0 … 9,999).
    public var newCardsPerDay: Int
    /// FSRS: reviews per learner day (1 … 99,999).
    public var reviewsPerDay: Int

    /// Creates settings; the defaults are those of a new stack (ladder, FSRS defaults).
    public init(
        scheduler: SchedulerKind = .ladder, desiredRetention: Double = 0.9, learningSteps: [Int] = [60, 600],
        relearningSteps: [Int] = [600], newCardsPerDay: Int = 20, reviewsPerDay: Int = 200
    ) {
        self.scheduler = scheduler
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.newCardsPerDay = newCardsPerDay
        self.reviewsPerDay = reviewsPerDay
    }

    /// A change of some settings; nil fields stay as they are.
    public struct Change: Sendable, Hashable {
        public var scheduler: SchedulerKind?
        public var desiredRetention: Double?
        public var learningSteps: [Int]?
        public var relearningSteps: [Int]?
        public var newCardsPerDay: Int?
        public var reviewsPerDay: Int?

        /// Creates the change.
        public init(
            scheduler: SchedulerKind? = nil, desiredRetention: Double? = nil, learningSteps: [Int]? = nil,
            relearningSteps: [Int]? = nil, newCardsPerDay: Int? = nil, reviewsPerDay: Int? = nil
        ) {
            self.scheduler = scheduler
            self.desiredRetention = desiredRetention
            self.learningSteps = learningSteps
            self.relearningSteps = relearningSteps
            self.newCardsPerDay = newCardsPerDay
            self.reviewsPerDay = reviewsPerDay
        }
    }

    /// A setting out of range, with a German message naming the field.
    public struct Invalid: Error, Sendable, Hashable {
        /// What is wrong, for the learner.
        public let message: String
    }

    /// These settings with `change` applied, each value validated; nothing changes when one is invalid.
    public func applying(_ change: Change) throws(Invalid) -> StackSettings {
        var result = self
        if let scheduler = change.scheduler { result.scheduler = scheduler }
        if let retention = change.desiredRetention {
            guard retention.isFinite, (0.70...0.99).contains(retention) else {
                throw Invalid(message: "desiredRetention muss zwischen 0.70 und 0.99 liegen.")
            }
            result.desiredRetention = retention
        }
        if let steps = change.learningSteps {
            result.learningSteps = try Self.valid(steps, field: "learningSteps")
        }
        if let steps = change.relearningSteps {
            result.relearningSteps = try Self.valid(steps, field: "relearningSteps")
        }
        if let count = change.newCardsPerDay {
            guard Self.newCardsPerDayRange.contains(count) else {
                throw Invalid(message: "newCardsPerDay muss eine ganze Zahl von 0 bis 9999 sein.")
            }
            result.newCardsPerDay = count
        }
        if let count = change.reviewsPerDay {
            guard Self.reviewsPerDayRange.contains(count) else {
                throw Invalid(message: "reviewsPerDay muss eine ganze Zahl von 1 bis 99999 sein.")
            }
            result.reviewsPerDay = count
        }
        return result
    }

    private static func valid(_ steps: [Int], field: String) throws(Invalid) -> [Int] {
        guard steps.count <= 10, steps.allSatisfy({ (1...86_400).contains($0) }) else {
            throw Invalid(message: "\(field): höchstens 10 Schritte, jeder zwischen 1 und 86400 Sekunden.")
        }
        return steps
    }

    // MARK: Stored form

    /// Steps as stored: comma-separated seconds ("60,600").
    public static func stepsText(_ steps: [Int]) -> String {
        steps.map(String.init).joined(separator: ",")
    }

    /// Steps from their stored form; what does not parse is left out.
    public static func steps(fromText text: String) -> [Int] {
        // Parsed whenever a scheduling is built: without Foundation's trimming.
        text.split(separator: ",").compactMap { Double(String($0.filter { !$0.isWhitespace })) }.map { Int($0) }
    }

    /// The FSRS configuration of these settings.
    public func fsrsConfiguration(parameters: [Double]?, dayCounting: FSRSDayCounting) -> FSRSConfiguration {
        FSRSConfiguration(
            parameters: parameters ?? FSRSConfiguration.defaultParameters, desiredRetention: desiredRetention,
            learningSteps: learningSteps.map(TimeInterval.init),
            relearningSteps: relearningSteps.map(TimeInterval.init),
            dayCounting: dayCounting, schedulesShortTerm: true)
    }
}

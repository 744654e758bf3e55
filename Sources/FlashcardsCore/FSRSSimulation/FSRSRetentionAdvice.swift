import Foundation

/// Which desired retention to study at: the simulator run for a year at each retention from 0.70 to
/// 0.97, from the learner's own memory states, answer times and rating habits, and the one that
/// remembers the most per minute of study recommended, within the minutes a day the learner has.
public enum FSRSRetentionAdvice {
    /// The retentions compared.
    public static let retentions: [Double] = stride(from: 70, through: 96, by: 2).map { Double($0) / 100 } + [0.97]

    /// What studying at one retention would mean.
    public struct Option: Sendable, Hashable, Codable {
        /// The desired retention.
        public var desiredRetention: Double
        /// Reviews per day, on average (new cards included).
        public var reviewsPerDay: Double
        /// Minutes per day, on average.
        public var minutesPerDay: Double
        /// Cards remembered at the end (sum of retrievability).
        public var remembered: Double
        /// Cards remembered per minute of study over the whole span.
        public var rememberedPerMinute: Double
    }

    /// Why the recommendation is what it is.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// The best per minute among the retentions that fit the learner's minutes per day.
        case withinBudget = "within_budget"
        /// No retention fits the minutes per day: the one with the least work.
        case overBudget = "over_budget"
        /// The learner named no minutes per day: the best per minute overall.
        case noBudget = "no_budget"
        /// Nothing to study: nothing to compare (the current retention stays).
        case nothingToStudy = "nothing_to_study"
    }

    /// The comparison and its recommendation.
    public struct Advice: Sendable, Hashable, Codable {
        /// One option per retention, ascending.
        public var options: [Option]
        /// The recommended desired retention.
        public var recommended: Double
        /// Why.
        public var reason: Reason
        /// The learner's minutes per day, if named.
        public var minutesBudget: Int?
        /// Days simulated.
        public var days: Int
    }

    /// Simulates `settings` (its retention replaced by each of `retentions`) from `cards` and
    /// recommends one. `current` is kept when there is nothing to study.
    public static func advise(
        settings: FSRSSimulator.Settings, cards: [FSRSSimulator.Card], behaviour: FSRSBehaviour,
        minutesBudget: Int?, current: Double
    ) -> Advice {
        advise(
            groups: [FSRSSimulator.Group(settings: settings, cards: cards)], days: settings.days,
            behaviour: behaviour, minutesBudget: minutesBudget, current: current)
    }

    /// The same for several stacks, each with its own settings, simulated for `days` days and added up.
    public static func advise(
        groups: [FSRSSimulator.Group], days: Int, behaviour: FSRSBehaviour, minutesBudget: Int?, current: Double
    ) -> Advice {
        let results = UnsafeResults(count: retentions.count)
        DispatchQueue.concurrentPerform(iterations: retentions.count) { index in
            let atRetention = groups.map { group in
                var group = group
                group.settings.desiredRetention = retentions[index]
                return group
            }
            results.set(index, FSRSSimulator.run(atRetention, days: days, behaviour: behaviour))
        }
        let options = zip(retentions, results.values).map { retention, result in
            let minutes = result.seconds.reduce(0, +) / 60
            let answered = result.reviews.reduce(0, +) + result.learned.reduce(0, +)
            return Option(
                desiredRetention: retention, reviewsPerDay: Double(answered) / Double(days),
                minutesPerDay: minutes / Double(days), remembered: result.finalMemorized,
                rememberedPerMinute: minutes > 0 ? result.finalMemorized / minutes : 0)
        }
        let (recommended, reason) = recommend(options, minutesBudget: minutesBudget, current: current)
        return Advice(
            options: options, recommended: recommended, reason: reason, minutesBudget: minutesBudget, days: days)
    }

    static func recommend(_ options: [Option], minutesBudget: Int?, current: Double) -> (Double, Reason) {
        guard options.contains(where: { $0.minutesPerDay > 0 }) else { return (current, .nothingToStudy) }
        let bestPerMinute = { (candidates: [Option]) in
            candidates.max { $0.rememberedPerMinute < $1.rememberedPerMinute }!.desiredRetention
        }
        guard let minutesBudget else { return (bestPerMinute(options), .noBudget) }
        let fitting = options.filter { $0.minutesPerDay <= Double(minutesBudget) }
        if fitting.isEmpty {
            return (options.min { $0.minutesPerDay < $1.minutesPerDay }!.desiredRetention, .overBudget)
        }
        return (bestPerMinute(fitting), .withinBudget)
    }

    /// Results written from concurrent iterations, each to its own slot.
    private final class UnsafeResults: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [FSRSSimulator.Result?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ result: FSRSSimulator.Result) { lock.withLock { slots[index] = result } }

        var values: [FSRSSimulator.Result] { lock.withLock { slots.map { $0! } } }
    }
}

import Foundation

/// A Monte Carlo simulation of a learner's days: which cards fall due, whether each is recalled
/// (drawn from its retrievability), what the learner presses, how long it takes, and how many cards
/// are remembered. It starts from the learner's real memory states and adds new cards at a daily
/// rate. Seeded: the same input always gives the same result.
///
/// The model follows the FSRS simulator that fsrs-rs provides and Anki uses ("FSRS Simulator", "Help
/// Me Decide"), so the figures can be compared with Anki's: a card due on day d (or earlier) is
/// reviewed on day d unless the day's limit is reached (then it waits a day); recall is drawn from
/// its retrievability, a lapse walks through the relearning steps and a new card through the
/// learning steps (same-day stability changes, ratings drawn from `FSRSBehaviour`'s transitions);
/// "memorized" on a day is the sum of every studied card's retrievability. With load balancing on,
/// each interval is placed by `FSRSLoadBalancer` with the simulated due counts and easy days.
public enum FSRSSimulator {
    /// A studied card at the start (day 0).
    public struct Card: Sendable, Hashable, Codable {
        /// Stability in days.
        public var stability: Double
        /// Difficulty 1 … 10.
        public var difficulty: Double
        /// The day of its last review, relative to day 0 (0 or negative).
        public var lastReviewDay: Int
        /// The day it falls due, relative to day 0 (negative: overdue).
        public var dueDay: Int

        /// Creates a card.
        public init(stability: Double, difficulty: Double, lastReviewDay: Int, dueDay: Int) {
            self.stability = stability
            self.difficulty = difficulty
            self.lastReviewDay = lastReviewDay
            self.dueDay = dueDay
        }
    }

    /// What to simulate.
    public struct Settings: Sendable, Hashable, Codable {
        /// The 21 FSRS-6 weights.
        public var parameters: [Double]
        /// Desired retention (0.7 … 0.99).
        public var desiredRetention: Double
        /// Days to simulate (day 0 is today).
        public var days: Int
        /// Cards never studied yet that may be introduced.
        public var newCards: Int
        /// New cards per day (0: none are introduced).
        public var newCardsPerDay: Int
        /// Reviews per day at most (nil: no limit).
        public var maximumReviewsPerDay: Int?
        /// Longest interval in days.
        public var maximumInterval: Int
        /// Number of learning steps (same-day answers after a new card's first rating).
        public var learningStepCount: Int
        /// Number of relearning steps after a lapse.
        public var relearningStepCount: Int
        /// Weekday weights, Monday first (used with load balancing).
        public var easyDays: [EasyDay]
        /// Weekday of day 0 (0 Monday … 6 Sunday).
        public var startWeekday: Int
        /// Learner days (relative to day 0) that count as minimum days, e.g. planned rest days.
        public var restDays: Set<Int>
        /// Whether intervals are placed by the load balancer (else: rounded, unfuzzed, as Anki simulates).
        public var loadBalancing: Bool
        /// The random seed.
        public var seed: UInt64

        /// Creates settings; the defaults are FSRS's and our stacks'.
        public init(
            parameters: [Double] = FSRSConfiguration.defaultParameters, desiredRetention: Double = 0.9,
            days: Int = 365, newCards: Int = 0, newCardsPerDay: Int = 20, maximumReviewsPerDay: Int? = nil,
            maximumInterval: Int = 36_500, learningStepCount: Int = 2, relearningStepCount: Int = 1,
            easyDays: [EasyDay] = EasyDay.allNormal, startWeekday: Int = 0, restDays: Set<Int> = [],
            loadBalancing: Bool = true, seed: UInt64 = 42
        ) {
            self.parameters = parameters
            self.desiredRetention = desiredRetention
            self.days = days
            self.newCards = newCards
            self.newCardsPerDay = newCardsPerDay
            self.maximumReviewsPerDay = maximumReviewsPerDay
            self.maximumInterval = maximumInterval
            self.learningStepCount = learningStepCount
            self.relearningStepCount = relearningStepCount
            self.easyDays = easyDays
            self.startWeekday = startWeekday
            self.restDays = restDays
            self.loadBalancing = loadBalancing
            self.seed = seed
        }

        /// Every problem with these settings, in English (empty: fine).
        public var problems: [String] {
            var problems: [String] = []
            if parameters.count != 21 || !parameters.allSatisfy(\.isFinite) {
                problems.append("parameters must be 21 numbers")
            }
            if !(0.5...0.99).contains(desiredRetention) { problems.append("desired retention must be 0.5 … 0.99") }
            if !(1...3_650).contains(days) { problems.append("days must be 1 … 3650") }
            if !(0...1_000_000).contains(newCards) { problems.append("new cards must be 0 … 1000000") }
            if !(0...10_000).contains(newCardsPerDay) { problems.append("new cards per day must be 0 … 10000") }
            if let limit = maximumReviewsPerDay, !(0...100_000).contains(limit) {
                problems.append("maximum reviews per day must be 0 … 100000")
            }
            if !(1...36_500).contains(maximumInterval) { problems.append("maximum interval must be 1 … 36500") }
            if !(0...10).contains(learningStepCount) || !(0...10).contains(relearningStepCount) {
                problems.append("step counts must be 0 … 10")
            }
            if easyDays.count != 7 { problems.append("easy days must name 7 weekdays") }
            if !(0...6).contains(startWeekday) { problems.append("start weekday must be 0 … 6") }
            return problems
        }
    }

    /// Day by day figures.
    public struct Result: Sendable, Hashable, Codable {
        /// Reviews of studied cards per day (not counting learning-step repeats).
        public var reviews: [Int]
        /// New cards introduced per day.
        public var learned: [Int]
        /// Reviews recalled per day.
        public var recalled: [Int]
        /// Seconds spent per day (all answers, learning and relearning steps included).
        public var seconds: [Double]
        /// Sum of the retrievability of every studied card, per day.
        public var memorized: [Double]

        /// Average reviews per day.
        public var averageReviews: Double { average(reviews.map(Double.init)) }
        /// Average minutes per day.
        public var averageMinutes: Double { average(seconds) / 60 }
        /// Cards remembered on the last day.
        public var finalMemorized: Double { memorized.last ?? 0 }

        private func average(_ values: [Double]) -> Double {
            values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
        }
    }

    /// A card while it is simulated.
    private struct State {
        var stability: Double
        var difficulty: Double
        /// Last review day; nil for a card not introduced yet.
        var lastDay: Int?
        var due: Int
    }

    /// Cards simulated with their own settings (one stack), as part of a larger run.
    public struct Group: Sendable, Hashable {
        /// The stack's settings.
        public var settings: Settings
        /// Its studied cards.
        public var cards: [Card]

        /// Creates a group.
        public init(settings: Settings, cards: [Card]) {
            self.settings = settings
            self.cards = cards
        }
    }

    /// Runs every group (each with its own limits) over `days` days and adds up the figures.
    public static func run(_ groups: [Group], days: Int, behaviour: FSRSBehaviour = .defaults) -> Result {
        var total = Result(
            reviews: Array(repeating: 0, count: days), learned: Array(repeating: 0, count: days),
            recalled: Array(repeating: 0, count: days), seconds: Array(repeating: 0, count: days),
            memorized: Array(repeating: 0, count: days))
        for group in groups {
            var settings = group.settings
            settings.days = days
            let result = run(settings, cards: group.cards, behaviour: behaviour)
            for day in 0..<days {
                total.reviews[day] += result.reviews[day]
                total.learned[day] += result.learned[day]
                total.recalled[day] += result.recalled[day]
                total.seconds[day] += result.seconds[day]
                total.memorized[day] += result.memorized[day]
            }
        }
        return total
    }

    /// Runs the simulation. `settings.problems` must be empty.
    public static func run(
        _ settings: Settings, cards: [Card], behaviour: FSRSBehaviour = .defaults
    ) -> Result {
        precondition(settings.problems.isEmpty, settings.problems.joined(separator: "; "))
        var run = Run(settings: settings, behaviour: behaviour)
        return run.simulate(cards)
    }

    private struct Run {
        let settings: Settings
        let behaviour: FSRSBehaviour
        let model: FSRSModel
        let days: Int
        var random: SplitMix64
        var result: Result
        /// Cards scheduled on each day (also beyond the simulated days, for the load balancer).
        var dueCounts: [Int]
        var buckets: [[Int]]
        var states: [State] = []

        init(settings: Settings, behaviour: FSRSBehaviour) {
            self.settings = settings
            self.behaviour = behaviour
            model = FSRSModel(parameters: settings.parameters)
            days = settings.days
            random = SplitMix64(seed: settings.seed)
            result = Result(
                reviews: Array(repeating: 0, count: days), learned: Array(repeating: 0, count: days),
                recalled: Array(repeating: 0, count: days), seconds: Array(repeating: 0, count: days),
                memorized: Array(repeating: 0, count: days))
            dueCounts = Array(repeating: 0, count: days + FSRSLoadBalancer.horizon)
            buckets = Array(repeating: [], count: days)
        }

        mutating func simulate(_ cards: [Card]) -> Result {
            for card in cards where card.stability > 0 {
                let state = State(
                    stability: card.stability, difficulty: card.difficulty, lastDay: card.lastReviewDay,
                    due: card.dueDay)
                add(state)
                if card.dueDay >= 0, card.dueDay < dueCounts.count { dueCounts[card.dueDay] += 1 }
            }
            if settings.newCardsPerDay > 0 {
                for index in 0..<settings.newCards {
                    let day = index / settings.newCardsPerDay
                    guard day < days else { break }
                    add(State(stability: 0, difficulty: 0, lastDay: nil, due: day))
                }
            }
            for day in 0..<days { simulate(day: day) }
            // What every studied card still contributes up to the end.
            for state in states { if let last = state.lastDay { addMemorized(state, from: last, to: days) } }
            return result
        }

        private mutating func add(_ state: State) {
            states.append(state)
            if state.due < days { buckets[max(state.due, 0)].append(states.count - 1) }
        }

        private mutating func simulate(day: Int) {
            var queue = buckets[day]
            buckets[day] = []
            // Overdue first, then reviews before new cards, then by the day each was scheduled for.
            queue.sort { a, b in
                let (x, y) = (states[a], states[b])
                if x.due != y.due { return x.due < y.due }
                if (x.lastDay == nil) != (y.lastDay == nil) { return y.lastDay == nil }
                return a < b
            }
            let reviewLimit = settings.maximumReviewsPerDay ?? .max
            for index in queue {
                let isNew = states[index].lastDay == nil
                let full =
                    isNew ? result.learned[day] >= settings.newCardsPerDay : result.reviews[day] >= reviewLimit
                if full {
                    states[index].due = day + 1
                    if day + 1 < days { buckets[day + 1].append(index) }
                    continue
                }
                if isNew { learn(index, on: day) } else { review(index, on: day) }
            }
        }

        private mutating func learn(_ index: Int, on day: Int) {
            let first = FSRSRating(rawValue: draw(behaviour.firstRating) + 1)!
            var (stability, difficulty) = (model.initialStability(first), model.initialDifficulty(first))
            var seconds = behaviour.seconds[FSRSBehaviour.Phase.learning.rawValue][first.rawValue - 1]
            steps(
                from: first, count: settings.learningStepCount, transitions: behaviour.learningStepTransitions,
                phase: .learning, stability: &stability, difficulty: &difficulty, seconds: &seconds)
            result.learned[day] += 1
            result.seconds[day] += seconds
            schedule(index, stability: stability, difficulty: difficulty, on: day)
        }

        private mutating func review(_ index: Int, on day: Int) {
            let state = states[index]
            let last = state.lastDay!
            let r = model.retrievability(elapsedDays: Double(max(day - last, 0)), stability: state.stability)
            addMemorized(state, from: last, to: day)
            let recalled = random.nextUnit() < r
            var stability: Double
            var difficulty: Double
            var seconds: Double
            let reviewRow = behaviour.seconds[FSRSBehaviour.Phase.review.rawValue]
            if recalled {
                let rating = FSRSRating(rawValue: draw(behaviour.reviewRating) + 2)!
                stability = model.recallStability(
                    difficulty: state.difficulty, stability: state.stability, retrievability: r, rating: rating)
                difficulty = model.nextDifficulty(state.difficulty, rating: rating)
                seconds = reviewRow[rating.rawValue - 1]
                result.recalled[day] += 1
            } else {
                stability = model.forgetStability(
                    difficulty: state.difficulty, stability: state.stability, retrievability: r)
                difficulty = model.nextDifficulty(state.difficulty, rating: .again)
                seconds = reviewRow[0]
                // The relearning steps start after the lapse: each walks on from Again.
                steps(
                    from: nil, count: settings.relearningStepCount, transitions: behaviour.relearningStepTransitions,
                    phase: .relearning, stability: &stability, difficulty: &difficulty, seconds: &seconds)
            }
            result.reviews[day] += 1
            result.seconds[day] += seconds
            schedule(index, stability: stability, difficulty: difficulty, on: day)
        }

        /// Same-day steps: ratings follow the transitions until `count` passes in a row (one fewer
        /// after a first Good) or an Easy; at most five answers.
        private mutating func steps(
            from first: FSRSRating?, count: Int, transitions: [[Double]], phase: FSRSBehaviour.Phase,
            stability: inout Double, difficulty: inout Double, seconds: inout Double
        ) {
            var rating = first ?? .again
            var passes = 0
            let needed = rating.rawValue > 2 ? max(count - 1, 0) : count
            for _ in 0..<5 {
                if passes >= needed || rating == .easy { break }
                rating = FSRSRating(rawValue: draw(transitions[rating.rawValue - 1]) + 1)!
                stability = model.shortTermStability(stability, rating: rating)
                difficulty = model.nextDifficulty(difficulty, rating: rating)
                seconds += behaviour.seconds[phase.rawValue][rating.rawValue - 1]
                if rating.rawValue > 2 {
                    passes += 1
                } else if rating == .again {
                    passes = 0
                }
            }
        }

        private mutating func schedule(_ index: Int, stability: Double, difficulty: Double, on day: Int) {
            let raw = model.rawInterval(stability: stability, desiredRetention: settings.desiredRetention)
            var interval = min(max(Int(raw.rounded()), 1), settings.maximumInterval)
            if settings.loadBalancing { interval = balanced(interval, from: day, fraction: random.nextUnit()) }
            let due = day + interval
            states[index] = State(stability: stability, difficulty: difficulty, lastDay: day, due: due)
            if due < dueCounts.count { dueCounts[due] += 1 }
            if due < days { buckets[due].append(index) }
        }

        /// The interval the load balancer places (fuzzed when too long to balance). A function of its
        /// own, so the closures' hold on the due counts ends before the caller changes them.
        private func balanced(_ interval: Int, from day: Int, fraction: Double) -> Int {
            let counts = dueCounts
            let settings = settings
            let days = FSRSLoadBalancer.Days(
                dueCount: { offset in day + offset < counts.count ? counts[day + offset] : 0 },
                weight: { offset in
                    if settings.restDays.contains(day + offset) { return FSRSLoadBalancer.minimumWeight }
                    return settings.easyDays[(settings.startWeekday + day + offset) % 7].weight
                })
            return FSRSLoadBalancer.interval(
                Double(interval), maximum: settings.maximumInterval, days: days, fraction: fraction)
                ?? FSRSScheduler.fuzzedInterval(
                    Double(interval), minimum: 1, maximum: settings.maximumInterval, fraction: fraction)
        }

        /// Adds the card's retrievability on each day from `start` (not before day 0) up to `end`.
        private mutating func addMemorized(_ state: State, from start: Int, to end: Int) {
            guard let last = state.lastDay else { return }
            for day in max(start, 0)..<min(end, days) {
                result.memorized[day] += model.retrievability(
                    elapsedDays: Double(day - last), stability: state.stability)
            }
        }

        /// An index drawn with the given probabilities.
        private mutating func draw(_ probabilities: [Double]) -> Int {
            FSRSLoadBalancer.pick(weights: probabilities, fraction: random.nextUnit())
        }
    }
}

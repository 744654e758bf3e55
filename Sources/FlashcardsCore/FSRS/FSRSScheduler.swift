import Foundation

/// The FSRS-6 scheduler: a pure function from (card, rating, time, seed) to the next card state.
///
/// The state machine follows py-fsrs 6.3.2 (learning and relearning steps, graduation, lapses);
/// the memory model is `FSRSModel` (stability capped at 36,500 days as in fsrs-rs and Anki); interval
/// fuzz follows Anki's ranges with an explicit seed; days are counted per `FSRSDayCounting`.
public struct FSRSScheduler: Sendable {
    /// The validated configuration.
    public let configuration: FSRSConfiguration
    /// The memory model built from `configuration.parameters`.
    public let model: FSRSModel
    let clock: DayClock
    /// (r^(1/decay) − 1) / factor: multiplying stability by this gives the raw interval.
    let intervalPerStability: Double

    /// Creates a scheduler, validating the configuration first.
    public init(configuration: FSRSConfiguration = FSRSConfiguration()) throws(FSRSConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        model = FSRSModel(parameters: configuration.parameters)
        clock = DayClock(configuration.dayCounting)
        intervalPerStability = (pow(configuration.desiredRetention, 1 / model.decay) - 1) / model.factor
    }

    /// The learner day of `date` (`FSRSDayCounting.dayNumber(of:)`), from the zone's offset table.
    public func dayNumber(of date: Date) -> Int { clock.dayNumber(of: date) }

    /// The instant learner day `day` begins (`FSRSDayCounting.startOfDay(_:)`), from the offset table.
    public func startOfDay(_ day: Int) -> Date { clock.startOfDay(day) }

    /// Learner days from `earlier` to `later` as this scheduler counts them.
    public func elapsedDays(from earlier: Date, to later: Date) -> Int { clock.elapsedDays(from: earlier, to: later) }

    /// The fuzz seed for a card's `reviewCount`-th review (0 for its first), so that the same card
    /// reviewed the same way always gets the same schedule (the scheme Anki uses: card id + reps).
    public static func fuzzSeed(cardID: Int64, reviewCount: Int) -> UInt64 {
        UInt64(bitPattern: cardID) &+ UInt64(bitPattern: Int64(reviewCount))
    }

    /// The probability that the card is recalled at `now` (0 for a card never reviewed).
    ///
    /// Counts whole elapsed days as the scheduler does, so this is the value a review at `now` uses.
    public func retrievability(of card: FSRSCard, at now: Date) -> Double {
        guard let last = card.lastReview, let stability = card.stability else { return 0 }
        return model.retrievability(elapsedDays: Double(clock.elapsedDays(from: last, to: now)), stability: stability)
    }

    /// The unfuzzed review interval in whole days for a stability (rounded, 1 … maximum interval).
    public func interval(forStability stability: Double) -> Int {
        let raw = stability * intervalPerStability
        return min(max(Int(raw.rounded()), 1), configuration.maximumInterval)
    }

    /// The card after answering `rating` at `now`.
    ///
    /// `fuzzSeed` only matters when fuzz is on and the card lands in the review state; derive it with
    /// `fuzzSeed(cardID:reviewCount:)`. With `load` (the days ahead of `now`'s learner day) and fuzz
    /// on, the due day within the fuzz range is chosen by `FSRSLoadBalancer`, drawn with the same seed.
    public func review(
        _ card: FSRSCard, rating: FSRSRating, at now: Date, fuzzSeed: UInt64, load: FSRSLoadBalancer.Days? = nil
    ) -> FSRSCard {
        review(card, rating: rating, at: now, fuzzSeed: fuzzSeed, due: load.map { .balanced($0) } ?? .fuzzed).card
    }

    /// How a card that graduates to review gets its day.
    public enum DueChoice {
        /// Fuzzed by the seed.
        case fuzzed
        /// Chosen by `FSRSLoadBalancer` over these days (fuzzed when the interval is too long to balance).
        case balanced(FSRSLoadBalancer.Days)
        /// The interval in days chosen when the review was made, kept while it lies within
        /// `FSRSLoadBalancer.acceptedRange` of the interval computed now (a replay with other
        /// parameters may move the range); fuzzed otherwise.
        case recorded(Int)
    }

    /// The card after answering `rating` at `now`, and the interval the load balancer chose when `due`
    /// is `.balanced` and the card went to review (nil otherwise): what the review log records so that
    /// a replay (`.recorded`) gives the same day.
    public func review(
        _ card: FSRSCard, rating: FSRSRating, at now: Date, fuzzSeed: UInt64, due: DueChoice
    ) -> (card: FSRSCard, balancedDays: Int?) {
        let elapsed = card.lastReview.map { clock.elapsedDays(from: $0, to: now) }
        var next = card
        next.lastReview = now

        // Memory update.
        if let s = card.stability, let d = card.difficulty {
            if let elapsed {
                next.stability = model.nextStability(difficulty: d, stability: s, elapsedDays: elapsed, rating: rating)
            } else {
                // A card with memory but no known last review: py-fsrs treats its retrievability as 0.
                next.stability =
                    rating == .again
                    ? model.forgetStability(difficulty: d, stability: s, retrievability: 0)
                    : model.recallStability(difficulty: d, stability: s, retrievability: 0, rating: rating)
            }
            next.difficulty = model.nextDifficulty(d, rating: rating)
        } else {
            next.stability = model.initialStability(rating)
            next.difficulty = model.initialDifficulty(rating)
        }
        let stability = next.stability!
        var balancedDays: Int?
        let graduate = { (card: inout FSRSCard) in
            balancedDays = self.graduate(&card, stability: stability, now: now, fuzzSeed: fuzzSeed, due: due)
        }

        // State machine.
        switch card.state {
        case .review:
            if rating == .again && !configuration.relearningSteps.isEmpty {
                next.state = .relearning
                next.step = 0
                next.due = now.addingTimeInterval(configuration.relearningSteps[0])
            } else if rating == .again, let delay = shortTermDelay(stability) {
                next.state = .relearning
                next.step = 0
                next.due = now.addingTimeInterval(delay)
            } else {
                graduate(&next)
            }
        case .learning, .relearning:
            let steps = card.state == .learning ? configuration.learningSteps : configuration.relearningSteps
            let step = card.step ?? 0
            // A card may sit on a step that no longer exists when the steps were shortened; any pass
            // then graduates it.
            if steps.isEmpty, let delay = shortTermDelay(stability) {
                // No steps: FSRS keeps the card for today while its interval is under a day.
                next.step = 0
                next.due = now.addingTimeInterval(delay)
                break
            }
            if steps.isEmpty || (step >= steps.count && rating != .again) {
                graduate(&next)
                break
            }
            switch rating {
            case .again:
                next.step = 0
                next.due = now.addingTimeInterval(steps[0])
            case .hard:
                next.step = step
                let delay: TimeInterval
                if step == 0 {
                    // Between Again and Good: halfway to the second step, or 1.5 × a lone step.
                    delay = steps.count == 1 ? steps[0] * 1.5 : (steps[0] + steps[1]) / 2
                } else {
                    delay = steps[step]
                }
                next.due = now.addingTimeInterval(delay)
            case .good:
                if step + 1 >= steps.count {
                    graduate(&next)
                } else {
                    next.step = step + 1
                    next.due = now.addingTimeInterval(steps[step + 1])
                }
            case .easy:
                graduate(&next)
            }
        }
        return (next, balancedDays)
    }

    /// The four possible outcomes of reviewing `card` at `now`, e.g. to label each answer button;
    /// with `load`, the days the load balancer would choose.
    public func preview(_ card: FSRSCard, at now: Date, fuzzSeed: UInt64, load: FSRSLoadBalancer.Days? = nil)
        -> [FSRSRating: FSRSCard]
    {
        var outcomes: [FSRSRating: FSRSCard] = [:]
        for rating in FSRSRating.allCases {
            outcomes[rating] = review(card, rating: rating, at: now, fuzzSeed: fuzzSeed, load: load)
        }
        return outcomes
    }

    /// Folds a card's reviews, oldest first, into its state after each review, starting from a new
    /// card. Review n (0-based) uses the fuzz seed `fuzzSeed(cardID:reviewCount: n)`.
    public func replay(_ reviews: some Sequence<(rating: FSRSRating, time: Date)>, cardID: Int64 = 0) -> [FSRSCard] {
        var states: [FSRSCard] = []
        var card: FSRSCard? = nil
        for (n, review) in reviews.enumerated() {
            let current = card ?? FSRSCard.new(due: review.time)
            let next = self.review(
                current, rating: review.rating, at: review.time,
                fuzzSeed: Self.fuzzSeed(cardID: cardID, reviewCount: n))
            states.append(next)
            card = next
        }
        return states
    }

    // MARK: - Internals

    /// With `schedulesShortTerm`, the delay in seconds (at least a minute) of a same-day review for
    /// `stability`: its interval at the desired retention when that is under a day; nil otherwise.
    private func shortTermDelay(_ stability: Double) -> TimeInterval? {
        guard configuration.schedulesShortTerm else { return nil }
        let days = stability * intervalPerStability
        guard days < 1 else { return nil }
        return max(60, (days * 86_400).rounded())
    }

    /// Moves the card to the review state, due a (possibly fuzzed or balanced) whole number of days
    /// from now. Returns the balancer's choice when `due` is `.balanced` and fuzz is on.
    private func graduate(
        _ card: inout FSRSCard, stability: Double, now: Date, fuzzSeed: UInt64, due: DueChoice
    ) -> Int? {
        card.state = .review
        card.step = nil
        var balanced: Int?
        let days: Int
        if configuration.fuzz {
            let raw = stability * intervalPerStability
            let clamped = min(max(raw, 1), Double(configuration.maximumInterval))
            let fraction = Self.unitFraction(seed: fuzzSeed)
            switch due {
            case .fuzzed:
                break
            case .balanced(let load):
                balanced = FSRSLoadBalancer.interval(
                    clamped, maximum: configuration.maximumInterval, days: load, fraction: fraction)
            case .recorded(let recorded):
                if FSRSLoadBalancer.acceptedRange(clamped, maximum: configuration.maximumInterval).contains(recorded) {
                    days = recorded
                    card.due = clock.date(addingDays: days, to: now)
                    return nil
                }
            }
            days =
                balanced
                ?? Self.fuzzedInterval(raw, minimum: 1, maximum: configuration.maximumInterval, fraction: fraction)
        } else {
            days = interval(forStability: stability)
        }
        card.due = clock.date(addingDays: days, to: now)
        return balanced
    }

    /// Anki's fuzz: a uniform whole number of days in [lower, upper] around `interval`, where the
    /// spread is 1 day plus 15 % of the part of the interval in 2.5 … 7 days, 10 % of the part in
    /// 7 … 20 days and 5 % beyond 20; intervals under 2.5 days are not fuzzed. `fraction` in [0, 1)
    /// picks the day (floored, so every day in the range is equally likely and the range is never left).
    static func fuzzedInterval(_ interval: Double, minimum: Int, maximum: Int, fraction: Double) -> Int {
        let (lower, upper) = fuzzBounds(interval, minimum: minimum, maximum: maximum)
        return min(lower + Int((fraction * Double(upper - lower + 1)).rounded(.down)), upper)
    }

    /// The inclusive range of days that fuzz may pick for `interval`, within minimum … maximum.
    static func fuzzBounds(_ interval: Double, minimum: Int, maximum: Int) -> (lower: Int, upper: Int) {
        let minimum = min(minimum, maximum)
        let clamped = min(max(interval, Double(minimum)), Double(maximum))
        var delta = 0.0
        if clamped >= 2.5 {
            delta =
                1 + 0.15 * max(min(clamped, 7) - 2.5, 0) + 0.10 * max(min(clamped, 20) - 7, 0)
                + 0.05 * max(clamped - 20, 0)
        }
        var lower = min(max(Int((clamped - delta).rounded()), minimum), maximum)
        var upper = min(max(Int((clamped + delta).rounded()), minimum), maximum)
        if lower > upper { swap(&lower, &upper) }
        // Keep at least two choices when the limits allow it, so fuzz still spreads cards.
        if upper == lower && upper > 2 && upper < maximum { upper = lower + 1 }
        return (lower, upper)
    }

    /// A deterministic number in [0, 1) from a seed (SplitMix64 finaliser, top 53 bits).
    static func unitFraction(seed: UInt64) -> Double {
        var z = seed &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) * 0x1p-53
    }
}

/// `FSRSDayCounting` made fast: asking `TimeZone` for an offset, several times per review, dominated
/// a million-review replay (docs/benchmarks.md). So the zone's offset changes between 1970 and
/// 2100 are read once into a table (a fixed-offset zone such as UTC has none) and looked up by binary
/// search; instants outside that span still ask the zone.
/// Offset tables by time zone, made once per zone and process: a table takes a few hundred time-zone
/// lookups, and a server builds a scheduler for every request.
private final class ZoneTables: @unchecked Sendable {
    static let shared = ZoneTables()

    private let lock = NSLock()
    private var tables: [String: (transitions: [Double], offsets: [Double])] = [:]

    func table(for zone: TimeZone) -> (transitions: [Double], offsets: [Double]) {
        if let table = lock.withLock({ tables[zone.identifier] }) { return table }
        let table = DayClock.makeTable(for: zone)
        lock.withLock { tables[zone.identifier] = table }
        return table
    }
}

struct DayClock: Sendable {
    static let tableStart = 0.0  // 1970-01-01
    static let tableEnd = 4_102_444_800.0  // 2100-01-01

    let counting: FSRSDayCounting
    let hour: Double
    let zone: TimeZone?
    /// Instants (Unix seconds) at which the offset changes, ascending.
    let transitions: [Double]
    /// `offsets[i]` applies before `transitions[i]`; the last entry after the last transition.
    let offsets: [Double]

    init(_ counting: FSRSDayCounting) {
        self.counting = counting
        guard case .rollover(let hourOfDay, let zone) = counting else {
            hour = 0
            self.zone = nil
            transitions = []
            offsets = []
            return
        }
        hour = Double(hourOfDay)
        self.zone = zone
        (transitions, offsets) = ZoneTables.shared.table(for: zone)
    }

    /// The offset table of `zone` from 1970 to 2100: the instants its offset changes and the offsets.
    fileprivate static func makeTable(for zone: TimeZone) -> (transitions: [Double], offsets: [Double]) {
        var transitions: [Double] = []
        var offsets = [Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: tableStart)))]
        var cursor = Date(timeIntervalSince1970: tableStart)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor),
            next.timeIntervalSince1970 < tableEnd,
            next > cursor
        {
            let offset = Double(zone.secondsFromGMT(for: next))
            if offset != offsets.last {
                transitions.append(next.timeIntervalSince1970)
                offsets.append(offset)
            }
            cursor = next
        }
        return (transitions, offsets)
    }

    /// Seconds east of UTC at Unix time `t`.
    @inline(__always)
    func offset(at t: Double) -> Double {
        guard t >= Self.tableStart && t < Self.tableEnd, let zone else {
            return Double(zone?.secondsFromGMT(for: Date(timeIntervalSince1970: t)) ?? 0)
        }
        if transitions.isEmpty { return offsets[0] }
        // Number of transitions at or before t = index into offsets.
        var low = 0
        var high = transitions.count
        while low < high {
            let mid = (low + high) >> 1
            if transitions[mid] <= t { low = mid + 1 } else { high = mid }
        }
        return offsets[low]
    }

    @inline(__always)
    func dayNumber(of date: Date) -> Int {
        let t = date.timeIntervalSince1970
        return Int(((t + offset(at: t) - hour * 3_600) / 86_400).rounded(.down))
    }

    @inline(__always)
    func elapsedDays(from earlier: Date, to later: Date) -> Int {
        if case .twentyFourHourPeriods = counting { return counting.elapsedDays(from: earlier, to: later) }
        return dayNumber(of: later) - dayNumber(of: earlier)
    }

    func startOfDay(_ day: Int) -> Date {
        let local = Double(day) * 86_400 + hour * 3_600
        return Date(timeIntervalSince1970: FSRSDayCounting.instant(ofWallClock: local) { offset(at: $0) })
    }

    func date(addingDays days: Int, to date: Date) -> Date {
        if case .twentyFourHourPeriods = counting { return counting.date(addingDays: days, to: date) }
        return startOfDay(dayNumber(of: date) + days)
    }
}

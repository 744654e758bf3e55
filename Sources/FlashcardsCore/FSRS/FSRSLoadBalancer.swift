import Foundation

/// How much of a normal day's reviews a weekday should get (Anki's "easy days").
public enum EasyDay: String, Sendable, Hashable, Codable, CaseIterable {
    /// A full day.
    case normal
    /// About half a day's reviews.
    case reduced
    /// Almost none: only reviews that cannot go elsewhere.
    case minimum

    /// The day's weight: 1, 0.5, or 10⁻⁹ (not zero, so a range of only minimum days still works).
    public var weight: Double {
        switch self {
        case .normal: 1
        case .reduced: 0.5
        case .minimum: FSRSLoadBalancer.minimumWeight
        }
    }

    /// Every weekday normal, Monday first.
    public static let allNormal = [EasyDay](repeating: .normal, count: 7)
}

/// Chooses a review's due day within its fuzz range so that the daily load stays even: the days of the
/// range are weighted by how many cards are already due on them, by the interval (shorter preferred,
/// so intervals do not drift longer), by the day's easy-day weight, and away from days that hold a
/// sibling of the card; the seed's fraction then draws one day by weight.
///
/// The weights follow what Anki's load balancer uses (facts from its documentation and source, not
/// its code): (1 / load)^2.15 × (1 / interval)^3 × easy-day modifier × sibling modifier, for
/// intervals up to 90 days. Two differences: a day's load counts the card itself (load = due + 1),
/// so an empty day does not escape its easy-day and sibling modifiers; a minimum day weighs 10⁻⁹, not
/// 10⁻⁴; and a range made only of minimum days is widened by a day on each side. So a minimum day
/// really stays nearly free.
public enum FSRSLoadBalancer {
    /// Intervals longer than this are fuzzed but not balanced: the need to balance is low that far out.
    public static let maximumBalancedInterval = 90
    /// Days of load a caller should provide: the longest balanced interval plus its fuzz and widening.
    public static let horizon = 100
    /// The weight of a minimum day. Anki uses 10⁻⁴, which a day's load outweighs: an empty minimum
    /// day then weighs as much as a normal day holding 70 cards and fills up. At 10⁻⁹ a normal day
    /// would need 15,000 times the minimum day's load first.
    public static let minimumWeight = 1e-9
    /// The exponent of 1 / load in a day's weight.
    static let loadExponent = 2.15
    /// The exponent of 1 / interval in a day's weight.
    static let intervalExponent = 3.0
    static let siblingSameDay = 0.000_001
    /// Modifiers for a day 1 … 4 days from a sibling's day (5 and more: none).
    static let siblingNear = [0.2, 0.4, 0.6, 0.8]

    /// What the balancer knows about the days ahead, as offsets from today (day 0).
    public struct Days {
        /// Cards already due on day `offset` (0 when unknown).
        public var dueCount: (Int) -> Int
        /// The easy-day weight of day `offset`: 1 normal, 0.5 reduced, `minimumWeight` minimum.
        public var weight: (Int) -> Double
        /// Offsets of days that hold a sibling of the card.
        public var siblingDays: [Int]

        /// Creates the description.
        public init(dueCount: @escaping (Int) -> Int, weight: @escaping (Int) -> Double, siblingDays: [Int] = []) {
            self.dueCount = dueCount
            self.weight = weight
            self.siblingDays = siblingDays
        }
    }

    /// The balanced interval in days for the unfuzzed `interval`, within 1 … `maximum`, or nil when
    /// the interval is too long to balance (the caller fuzzes as usual). `fraction` in [0, 1) draws the day.
    public static func interval(_ interval: Double, maximum: Int, days: Days, fraction: Double) -> Int? {
        guard interval <= Double(maximumBalancedInterval) else { return nil }
        var (lower, upper) = FSRSScheduler.fuzzBounds(interval, minimum: 1, maximum: maximum)
        guard lower <= maximumBalancedInterval else { return nil }
        // A range of only minimum days: let the card move a day earlier or later.
        if (lower...upper).allSatisfy({ days.weight($0) <= minimumWeight }) {
            lower = max(1, lower - 1)
            upper = min(maximum, upper + 1)
        }
        let candidates = Array(lower...upper)
        let counts = candidates.map { max(0, days.dueCount($0)) }
        let easy = easyDayModifiers(weights: candidates.map(days.weight), counts: counts)
        let weights = candidates.indices.map { index -> Double in
            let day = candidates[index]
            let load = Double(counts[index] + 1)
            return pow(1 / load, loadExponent) * pow(1 / Double(day), intervalExponent) * easy[index]
                * siblingModifier(day: day, siblingDays: days.siblingDays)
        }
        return candidates[pick(weights: weights, fraction: fraction)]
    }

    /// The intervals a recorded balanced interval may take on replay for the unfuzzed `interval`: the
    /// fuzz range widened by a day on each side (as a range of only minimum days is), within
    /// 1 … `maximum`. Outside it (other parameters moved the range) the replay fuzzes as usual.
    public static func acceptedRange(_ interval: Double, maximum: Int) -> ClosedRange<Int> {
        let (lower, upper) = FSRSScheduler.fuzzBounds(interval, minimum: 1, maximum: maximum)
        return max(1, lower - 1)...max(1, min(maximum, upper + 1))
    }

    /// Per candidate day: its weight for normal and minimum days; a reduced day (0 < w < 1) counts as
    /// normal while its load scaled by 1/w stays at or below the other days' load per unit of weight,
    /// and as minimum above it, so it ends up with about w of a normal day's reviews.
    static func easyDayModifiers(weights: [Double], counts: [Int]) -> [Double] {
        let totalWeight = weights.reduce(0, +)
        let totalCount = counts.reduce(0, +)
        return weights.indices.map { index in
            let weight = weights[index]
            guard weight > minimumWeight, weight < 1 else { return max(weight, minimumWeight) }
            let otherWeight = totalWeight - weight
            guard otherWeight > 0 else { return 1 }
            let threshold = Double(totalCount - counts[index]) / otherWeight
            return Double(counts[index]) / weight > threshold ? minimumWeight : 1
        }
    }

    /// The product, over the sibling days, of how close `day` is to each.
    static func siblingModifier(day: Int, siblingDays: [Int]) -> Double {
        var modifier = 1.0
        for sibling in siblingDays {
            let distance = abs(day - sibling)
            if distance == 0 {
                modifier *= siblingSameDay
            } else if distance <= siblingNear.count {
                modifier *= siblingNear[distance - 1]
            }
        }
        return modifier
    }

    /// The index whose cumulative weight first exceeds `fraction` of the total.
    static func pick(weights: [Double], fraction: Double) -> Int {
        let total = weights.reduce(0, +)
        guard total > 0, total.isFinite else { return 0 }
        var target = fraction * total
        for (index, weight) in weights.enumerated() {
            if target < weight { return index }
            target -= weight
        }
        return weights.count - 1
    }
}

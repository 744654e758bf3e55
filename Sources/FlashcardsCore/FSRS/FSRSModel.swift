import Foundation

/// The FSRS-6 memory model: how stability and difficulty evolve with each rating.
///
/// Pure math over the 21 parameters, with no state machine, steps or dates; `FSRSScheduler` builds
/// on it. Stability is kept within 0.001 … 36,500 days and difficulty within 1 … 10, as fsrs-rs and
/// Anki do (py-fsrs does not cap stability from above).
public struct FSRSModel: Sendable, Hashable {
    /// Smallest stability in days (fsrs-rs `S_MIN`).
    public static let minimumStability = 0.001
    /// Largest stability in days (fsrs-rs `S_MAX`, one hundred years).
    public static let maximumStability = 36_500.0
    /// Difficulty range.
    public static let difficultyRange: ClosedRange<Double> = 1...10

    /// The 21 FSRS-6 weights w0 … w20.
    public let parameters: [Double]
    /// Exponent of the forgetting curve: −w20.
    public let decay: Double
    /// Chosen so that retrievability is exactly 0.9 after `stability` days: 0.9^(1/decay) − 1.
    public let factor: Double

    // Hot-path constants, precomputed because replaying a million reviews calls these formulas
    // millions of times.
    private let expW8: Double
    private let shortTermForgetDivisor: Double
    private let easyInitialDifficulty: Double

    /// Creates the model. `parameters` must hold 21 values (see `FSRSConfiguration.validate()`).
    public init(parameters: [Double]) {
        precondition(parameters.count == 21, "FSRS-6 needs 21 parameters, got \(parameters.count)")
        self.parameters = parameters
        decay = -parameters[20]
        factor = pow(0.9, 1 / decay) - 1
        expW8 = exp(parameters[8])
        shortTermForgetDivisor = exp(parameters[17] * parameters[18])
        easyInitialDifficulty = parameters[4] - exp(parameters[5] * 3) + 1
    }

    @inline(__always)
    private static func clampStability(_ s: Double) -> Double {
        min(max(s, minimumStability), maximumStability)
    }

    @inline(__always)
    private static func clampDifficulty(_ d: Double) -> Double {
        min(max(d, difficultyRange.lowerBound), difficultyRange.upperBound)
    }

    /// Probability of recall after `elapsedDays` days at `stability`: (1 + factor·t/S)^decay.
    public func retrievability(elapsedDays: Double, stability: Double) -> Double {
        pow(1 + factor * max(0, elapsedDays) / stability, decay)
    }

    /// Stability after the first rating: w[rating − 1].
    public func initialStability(_ rating: FSRSRating) -> Double {
        Self.clampStability(parameters[rating.rawValue - 1])
    }

    /// Difficulty after the first rating: w4 − e^(w5·(rating − 1)) + 1, clamped to 1 … 10.
    public func initialDifficulty(_ rating: FSRSRating) -> Double {
        Self.clampDifficulty(parameters[4] - exp(parameters[5] * Double(rating.rawValue - 1)) + 1)
    }

    /// Difficulty after a later rating: a step of −w6·(rating − 3), damped linearly towards 10,
    /// then mean reversion (weight w7) towards the unclamped initial difficulty of Easy.
    public func nextDifficulty(_ difficulty: Double, rating: FSRSRating) -> Double {
        let delta = -parameters[6] * Double(rating.rawValue - 3)
        let damped = difficulty + (10 - difficulty) * delta / 9
        let reverted = parameters[7] * easyInitialDifficulty + (1 - parameters[7]) * damped
        return Self.clampDifficulty(reverted)
    }

    /// Stability after a successful recall (Hard, Good or Easy) on a later day.
    public func recallStability(
        difficulty: Double, stability: Double, retrievability: Double, rating: FSRSRating
    ) -> Double {
        let hardPenalty = rating == .hard ? parameters[15] : 1
        let easyBonus = rating == .easy ? parameters[16] : 1
        let growth =
            expW8 * (11 - difficulty) * pow(stability, -parameters[9])
            * (exp((1 - retrievability) * parameters[10]) - 1) * hardPenalty * easyBonus
        return Self.clampStability(stability * (1 + growth))
    }

    /// Stability after a lapse (Again) on a later day: the long-term post-lapse formula, but never
    /// more than the stability a same-day Again would leave.
    public func forgetStability(difficulty: Double, stability: Double, retrievability: Double) -> Double {
        let longTerm =
            parameters[11] * pow(difficulty, -parameters[12]) * (pow(stability + 1, parameters[13]) - 1)
            * exp((1 - retrievability) * parameters[14])
        let shortTermBound = stability / shortTermForgetDivisor
        return Self.clampStability(min(longTerm, shortTermBound))
    }

    /// Stability after a review on the same day as the previous one:
    /// S · e^(w17·(rating − 3 + w18)) · S^(−w19), where a pass never lowers stability.
    public func shortTermStability(_ stability: Double, rating: FSRSRating) -> Double {
        var increase =
            exp(parameters[17] * (Double(rating.rawValue) - 3 + parameters[18])) * pow(stability, -parameters[19])
        if rating != .again { increase = max(increase, 1) }
        return Self.clampStability(stability * increase)
    }

    /// Stability after a review `elapsedDays` whole days after the previous one:
    /// same-day formula for 0 days, recall or lapse formula otherwise.
    public func nextStability(
        difficulty: Double, stability: Double, elapsedDays: Int, rating: FSRSRating
    ) -> Double {
        if elapsedDays < 1 { return shortTermStability(stability, rating: rating) }
        let r = retrievability(elapsedDays: Double(elapsedDays), stability: stability)
        if rating == .again {
            return forgetStability(difficulty: difficulty, stability: stability, retrievability: r)
        }
        return recallStability(difficulty: difficulty, stability: stability, retrievability: r, rating: rating)
    }

    /// The unrounded interval in days at which retrievability falls to `desiredRetention`.
    public func rawInterval(stability: Double, desiredRetention: Double) -> Double {
        stability / factor * (pow(desiredRetention, 1 / decay) - 1)
    }
}

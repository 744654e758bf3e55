import Foundation

/// The box the optimizer keeps the parameters in and the spread it pulls them back with.
enum FSRSParameterBounds {
    /// Standard deviations of the 21 parameters across many users (fsrs-rs `PARAMS_STDDEV`): the L2 pull
    /// towards the starting parameters divides each difference by these, so parameters that vary a lot
    /// between people may move further.
    static let standardDeviations: [Double] = [
        6.43, 9.66, 17.58, 27.85, 0.57, 0.28, 0.6, 0.12, 0.39, 0.18, 0.33, 0.3, 0.09, 0.16, 0.57, 0.25,
        1.03, 0.31, 0.32, 0.14, 0.27,
    ]

    /// Lower bounds while training. w19 stays at least 0.01 when the short-term parameters are trained
    /// (fsrs-rs does the same, so a same-day review always depends a little on stability).
    static func lowerBounds(shortTerm: Bool) -> [Double] {
        var lower = FSRSConfiguration.parameterLowerBounds
        if shortTerm { lower[19] = max(lower[19], 0.01) }
        return lower
    }

    /// Upper bounds while training (one relearning step: w17 and w18 up to 2).
    static let upperBounds: [Double] = FSRSConfiguration.parameterUpperBounds

    /// `parameters` clamped into the scheduler's bounds.
    static func clamped(_ parameters: [Double]) -> [Double] {
        clamp(parameters, lower: FSRSConfiguration.parameterLowerBounds, upper: upperBounds)
    }

    static func clamp(_ parameters: [Double], lower: [Double], upper: [Double]) -> [Double] {
        var result = parameters
        for index in result.indices {
            result[index] = min(max(result[index], lower[index]), upper[index])
        }
        return result
    }
}

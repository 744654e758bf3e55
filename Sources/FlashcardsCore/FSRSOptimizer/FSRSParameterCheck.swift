import Foundation

/// Whether newly fitted parameters should replace the ones a learner has: the history is split by
/// time, parameters are fitted to the earlier part, and both sets predict the later reviews (which
/// neither has seen; each review still predicted from its card's whole history before it). New
/// parameters are kept only when they predict those reviews better: a lower log loss and an RMSE(bins)
/// no higher. The same held-out figures say whether the learner's memory is hard to predict, by the
/// thresholds of Anki's health check: log loss and RMSE(bins) are scaled by what is expected at the
/// learner's recall rate and number of predicted reviews, and memory counts as predictable when the
/// scaled log loss is at most 1.11 or the scaled RMSE(bins) at most 1.53.
public struct FSRSParameterCheck: Sendable, Hashable, Codable {
    /// The share of predicted reviews, the latest ones, held out of fitting.
    public static let heldOutShare = 0.2
    /// Fewer held-out reviews than this tell nothing: the check is not made and the fit stands.
    public static let minimumHeldOut = 100

    /// Held-out figures of the learner's current parameters.
    public var current: FSRSEvaluation
    /// Held-out figures of parameters fitted to the earlier reviews only.
    public var candidate: FSRSEvaluation
    /// Whether the candidate predicts the held-out reviews better.
    public var better: Bool
    /// Whether the learner's memory is predictable (`healthy(logLoss:rmseBins:recallRate:reviews:)` of the
    /// better set's held-out figures).
    public var healthy: Bool
    /// The first review time held out.
    public var heldOutFrom: Date

    /// Creates a check.
    public init(current: FSRSEvaluation, candidate: FSRSEvaluation, better: Bool, healthy: Bool, heldOutFrom: Date) {
        self.current = current
        self.candidate = candidate
        self.better = better
        self.healthy = healthy
        self.heldOutFrom = heldOutFrom
    }

    /// Anki's health check: log loss and RMSE(bins) over what is expected at recall rate `r` with
    /// `reviews` predicted reviews; predictable when either is small enough.
    public static func healthy(logLoss: Double, rmseBins: Double, recallRate r: Double, reviews: Int) -> Bool {
        let expectedLogLoss = 0.623 * pow(4 * r * (1 - r), 0.738)
        let expectedRMSE =
            0.0135 / (pow(r, 0.504) - 1.14) + 0.176 / (pow(Double(reviews) / 1_000, 0.825) + 2.22) + 0.101
        return logLoss / expectedLogLoss <= 1.11 || rmseBins / expectedRMSE <= 1.53
    }

    /// Checks fitting against `current` on `histories`; nil when too few reviews can be held out.
    public static func check(
        current: [Double], histories: [FSRSReviewHistory],
        configuration: FSRSOptimizerConfiguration = FSRSOptimizerConfiguration(),
        shouldContinue: ((Double) -> Bool)? = nil
    ) throws(FSRSOptimizerError) -> FSRSParameterCheck? {
        let times = FSRSTrainingSet(histories: histories).itemTimes
        let heldOut = Int((Double(times.count) * heldOutShare).rounded())
        guard heldOut >= minimumHeldOut, times.count - heldOut > 0 else { return nil }
        let split = Date(timeIntervalSince1970: times[times.count - heldOut])
        let earlier = histories.compactMap { history -> FSRSReviewHistory? in
            let reviews = history.reviews.filter { $0.reviewedAt < split }
            return reviews.isEmpty ? nil : FSRSReviewHistory(cardID: history.cardID, reviews: reviews)
        }
        let fitted = try FSRSOptimizer.fit(
            histories: earlier, configuration: configuration, shouldContinue: shouldContinue)
        let mine = try FSRSEvaluator.evaluate(parameters: current, histories: histories, predictingFrom: split)
        let theirs = try FSRSEvaluator.evaluate(
            parameters: fitted.parameters, histories: histories, predictingFrom: split)
        let better = theirs.logLoss < mine.logLoss && theirs.rmseBins <= mine.rmseBins
        let best = better ? theirs : mine
        // Scaled by the reviews the figures come from: the held-out ones.
        let set = FSRSTrainingSet(histories: histories).predicting(from: split)
        let recalled = set.items.reduce(0.0) { $0 + set.label(of: $1) }
        let healthy = healthy(
            logLoss: best.logLoss, rmseBins: best.rmseBins, recallRate: recalled / Double(set.items.count),
            reviews: set.items.count)
        return FSRSParameterCheck(
            current: mine, candidate: theirs, better: better, healthy: healthy, heldOutFrom: split)
    }
}

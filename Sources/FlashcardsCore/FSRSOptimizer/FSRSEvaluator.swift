import Foundation

/// Why the optimizer or the evaluator could not produce a result.
public enum FSRSOptimizerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The histories contain no review that came at least a day after the card's previous one.
    case notEnoughData
    /// The parameter list is not 21 finite numbers.
    case invalidParameters
    /// The caller's `shouldContinue` asked the optimizer to stop.
    case cancelled

    /// A short English description.
    public var description: String {
        switch self {
        case .notEnoughData: "the review history contains no review at least one day after a previous one"
        case .invalidParameters: "FSRS-6 needs 21 finite parameters"
        case .cancelled: "the optimization was cancelled"
        }
    }
}

/// How well a set of parameters predicts a review history.
public struct FSRSEvaluation: Sendable, Hashable, Codable {
    /// Recency-weighted binary cross-entropy of the predicted recall probabilities (lower is better).
    public var logLoss: Double
    /// Root mean square of (predicted − actual recall rate) over fsrs-rs's bins of elapsed days, review
    /// count and lapse count, each bin weighted by its items' recency weights (lower is better).
    public var rmseBins: Double
    /// Number of predicted reviews: those at least one day after the card's previous review.
    public var reviews: Int

    /// Creates an evaluation.
    public init(logLoss: Double, rmseBins: Double, reviews: Int) {
        self.logLoss = logLoss
        self.rmseBins = rmseBins
        self.reviews = reviews
    }
}

/// Scores FSRS-6 parameters on review histories exactly as fsrs-rs's `evaluate` does, so figures can be
/// compared with fsrs-rs and Anki: every review at least one day after the card's previous review is
/// predicted from the reviews before it; items are ordered by review time and weighted from 0.25 (oldest)
/// to 1 (newest); log loss and RMSE(bins) use those weights.
public enum FSRSEvaluator {
    /// Evaluates `parameters` (21 values; clamped to the FSRS bounds first, as fsrs-rs does) on `histories`.
    public static func evaluate(
        parameters: [Double],
        histories: [FSRSReviewHistory]
    ) throws(FSRSOptimizerError) -> FSRSEvaluation {
        try evaluate(parameters: parameters, set: FSRSTrainingSet(histories: histories))
    }

    /// Evaluates `parameters` on the reviews of `histories` made at or after `date` only, each predicted
    /// from its card's whole history before it: the held-out part of a time-ordered split.
    public static func evaluate(
        parameters: [Double], histories: [FSRSReviewHistory], predictingFrom date: Date
    ) throws(FSRSOptimizerError) -> FSRSEvaluation {
        try evaluate(parameters: parameters, set: FSRSTrainingSet(histories: histories).predicting(from: date))
    }

    static func evaluate(parameters: [Double], set: FSRSTrainingSet) throws(FSRSOptimizerError) -> FSRSEvaluation {
        guard parameters.count == 21, parameters.allSatisfy(\.isFinite) else { throw .invalidParameters }
        guard !set.items.isEmpty else { throw .notEnoughData }
        let kernel = FSRSModelKernel(parameters: FSRSParameterBounds.clamped(parameters))
        let predictions = predictAll(kernel: kernel, set: set)
        let weights = FSRSTrainingSet.recencyWeights(count: set.items.count)

        struct Bin {
            var predicted = 0.0
            var actual = 0.0
            var count = 0.0
            var weight = 0.0
        }
        var bins: [BinKey: Bin] = [:]
        var loss = 0.0
        var weightSum = 0.0
        for (rank, item) in set.items.enumerated() {
            let index = set.index(of: item)
            let r = predictions[index]
            let y = set.label(of: item)
            let weight = weights[rank]
            loss -= weight * (y * log(r) + (1 - y) * log(1 - r))
            weightSum += weight
            let key = binKey(set: set, item: item)
            let previous = bins[key] ?? Bin()
            bins[key] = Bin(
                predicted: previous.predicted + r,
                actual: previous.actual + y,
                count: previous.count + 1,
                weight: previous.weight + weight
            )
        }
        // Sum in a fixed order so the figure does not depend on dictionary layout.
        var squared = 0.0
        var binWeight = 0.0
        for key in bins.keys.sorted() {
            let bin = bins[key]!
            let difference = bin.predicted / bin.count - bin.actual / bin.count
            squared += difference * difference * bin.weight
            binWeight += bin.weight
        }
        return FSRSEvaluation(
            logLoss: loss / weightSum,
            rmseBins: (squared / binWeight).squareRoot(),
            reviews: set.items.count
        )
    }

    /// Predicted retrievability of every review, indexed like `set.ratings`.
    static func predictAll(kernel: FSRSModelKernel, set: FSRSTrainingSet) -> [Double] {
        var out = [Double](repeating: 1, count: set.ratings.count)
        set.ratings.withUnsafeBufferPointer { ratings in
            set.deltas.withUnsafeBufferPointer { deltas in
                out.withUnsafeMutableBufferPointer { out in
                    for card in set.cardStart.indices {
                        let start = set.cardStart[card]
                        kernel.predictions(
                            ratings: ratings.baseAddress! + start,
                            deltas: deltas.baseAddress! + start,
                            length: set.cardLength[card],
                            out: out.baseAddress! + start
                        )
                    }
                }
            }
        }
        return out
    }

    struct BinKey: Hashable, Comparable {
        var delta: Int
        var length: Int
        var lapses: Int

        static func < (lhs: BinKey, rhs: BinKey) -> Bool {
            (lhs.delta, lhs.length, lhs.lapses) < (rhs.delta, rhs.length, rhs.lapses)
        }
    }

    private static let log362 = log(3.62)
    private static let log189 = log(1.89)
    private static let log173 = log(1.73)

    /// fsrs-rs's `r_matrix_index`: logarithmic bins of elapsed days (base 3.62), of the review count
    /// (base 1.89) and of earlier lapses (base 1.73).
    static func binKey(set: FSRSTrainingSet, item: FSRSTrainingSet.Item) -> BinKey {
        @inline(__always) func logBin(_ x: Double, base: Double, logBase: Double, scale: Double) -> Double {
            scale * pow(base, (log(x) / logBase).rounded(.down))
        }
        let delta = Double(set.delta(of: item))
        let deltaBin = Int((logBin(delta, base: 3.62, logBase: log362, scale: 2.48) * 100).rounded())
        let length = Double(set.longTermCount(of: item) + 1)
        let lengthBin = Int(logBin(length, base: 1.89, logBase: log189, scale: 1.99).rounded())
        let lapses = set.lapsesBefore[set.index(of: item)]
        let lapseBin =
            lapses == 0 ? 0 : Int(logBin(Double(lapses), base: 1.73, logBase: log173, scale: 1.65).rounded())
        return BinKey(delta: deltaBin, length: lengthBin, lapses: lapseBin)
    }
}

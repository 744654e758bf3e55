import Foundation

/// Settings of the FSRS-6 optimizer. The defaults are fsrs-rs's.
public struct FSRSOptimizerConfiguration: Sendable, Hashable, Codable {
    /// Passes over the training data.
    public var epochs: Int
    /// Predicted reviews per gradient step.
    public var batchSize: Int
    /// Adam's initial step size; it decays to zero along a cosine over all steps.
    public var learningRate: Double
    /// Seed of the batch shuffling, so the same history always gives the same parameters.
    public var seed: UInt64
    /// Items (a predicted review with its history) with more reviews than this are left out of training.
    public var maximumItemLength: Int
    /// Strength of the L2 pull towards the starting parameters (fsrs-rs `gamma`).
    public var regularization: Double
    /// Train on whole cards: each card's reviews are replayed once per step and all its predicted reviews
    /// are scored on the way (as fsrs-rs does when given card ids), with the cards packed into batches in
    /// a seeded random order (fsrs-rs packs them by length; random packing gave 0.2–0.5 % lower log loss
    /// on every data set we compared). When false, each predicted review replays its own history and
    /// batches hold items of similar length, exactly as fsrs-rs does without card ids: slower (quadratic
    /// in the reviews per card), same objective.
    public var groupByCard: Bool
    /// Drop first-interval groups that are rare or very long before training (fsrs-rs's outlier filter).
    public var filterOutliers: Bool
    /// Train the initial stabilities and the same-day parameters w17…w19 (fsrs-rs `enable_short_term`).
    /// When false, w0…w3 keep their pre-trained values and w17…w19 are 0: same-day reviews then leave
    /// stability unchanged.
    public var shortTerm: Bool

    /// Creates a configuration; every argument defaults to fsrs-rs's value.
    public init(
        epochs: Int = 5,
        batchSize: Int = 512,
        learningRate: Double = 0.04,
        seed: UInt64 = 2023,
        maximumItemLength: Int = 256,
        regularization: Double = 1,
        groupByCard: Bool = true,
        filterOutliers: Bool = true,
        shortTerm: Bool = true
    ) {
        self.epochs = epochs
        self.batchSize = batchSize
        self.learningRate = learningRate
        self.seed = seed
        self.maximumItemLength = maximumItemLength
        self.regularization = regularization
        self.groupByCard = groupByCard
        self.filterOutliers = filterOutliers
        self.shortTerm = shortTerm
    }
}

/// The outcome of fitting parameters to a review history.
public struct FSRSOptimizationResult: Sendable, Hashable, Codable {
    /// How far the optimizer got.
    public enum Stage: String, Sendable, Hashable, Codable {
        /// Too little data: the default parameters are returned.
        case defaults
        /// Enough data for the initial stabilities w0…w3 only; the rest are defaults.
        case initialStability
        /// All parameters were trained.
        case trained
    }

    /// The fitted 21 parameters.
    public var parameters: [Double]
    /// Log loss of `parameters` on the whole history (see `FSRSEvaluator`).
    public var logLoss: Double
    /// RMSE(bins) of `parameters` on the whole history.
    public var rmseBins: Double
    /// Number of predicted reviews the figures are computed on.
    public var reviews: Int
    /// Log loss of the default parameters on the same reviews, for comparison.
    public var defaultLogLoss: Double
    /// RMSE(bins) of the default parameters on the same reviews.
    public var defaultRMSEBins: Double
    /// Predicted reviews used for training (after the outlier filter).
    public var trainingReviews: Int
    /// How far the optimizer got.
    public var stage: Stage

    /// Creates a result.
    public init(
        parameters: [Double], logLoss: Double, rmseBins: Double, reviews: Int, defaultLogLoss: Double,
        defaultRMSEBins: Double, trainingReviews: Int, stage: Stage
    ) {
        self.parameters = parameters
        self.logLoss = logLoss
        self.rmseBins = rmseBins
        self.reviews = reviews
        self.defaultLogLoss = defaultLogLoss
        self.defaultRMSEBins = defaultRMSEBins
        self.trainingReviews = trainingReviews
        self.stage = stage
    }
}

/// Fits a learner's FSRS-6 parameters to their review history, the way fsrs-rs's `compute_parameters`
/// does, in plain Swift with hand-derived gradients:
///
/// 1. Every review at least a day after the card's previous one becomes a predicted item; items are put
///    in time order and weighted from 0.25 (oldest) to 1 (newest).
/// 2. Outlier filter: among first long-term reviews grouped by first rating and interval, the rarest
///    intervals (5 %, at least 20 items per rating) and intervals over 100 days (365 after Easy) are
///    dropped, with every item of the cards that had them.
/// 3. Pre-training: w0…w3 (initial stability per first rating) are fitted to the recall rates of the
///    first intervals by a ternary search, then made monotonic and filled in for missing ratings.
/// 4. Training: Adam (β 0.9/0.999, ε 1e-8) on the weighted log loss plus an L2 pull towards the
///    starting parameters scaled by fsrs-rs's parameter spreads, learning rate 0.04 on a cosine decay,
///    5 epochs of batches of up to 512 predictions visited in a seeded shuffled order, parameters
///    clamped after every step; the epoch with the lowest loss wins. By default a batch holds whole cards
///    packed in a seeded random order (see `FSRSOptimizerConfiguration.groupByCard` for how this
///    differs from fsrs-rs).
///
/// Deterministic: the same histories and configuration always give the same parameters.
public enum FSRSOptimizer {
    /// Fits parameters to `histories` and evaluates them and the defaults on the whole history.
    ///
    /// `shouldContinue`, if given, is called after every gradient step with the fraction of the training
    /// done (0…1); returning false stops the optimizer with `FSRSOptimizerError.cancelled` (for jobs).
    public static func fit(
        histories: [FSRSReviewHistory],
        configuration: FSRSOptimizerConfiguration = FSRSOptimizerConfiguration(),
        shouldContinue: ((Double) -> Bool)? = nil
    ) throws(FSRSOptimizerError) -> FSRSOptimizationResult {
        let set = FSRSTrainingSet(histories: histories)
        guard !set.items.isEmpty else { throw .notEnoughData }
        guard let trained = train(set: set, configuration: configuration, shouldContinue: shouldContinue) else {
            throw .cancelled
        }
        let (parameters, stage, trainingReviews) = trained
        let fitted = try FSRSEvaluator.evaluate(parameters: parameters, set: set)
        let defaults = try FSRSEvaluator.evaluate(parameters: FSRSConfiguration.defaultParameters, set: set)
        return FSRSOptimizationResult(
            parameters: parameters,
            logLoss: fitted.logLoss,
            rmseBins: fitted.rmseBins,
            reviews: fitted.reviews,
            defaultLogLoss: defaults.logLoss,
            defaultRMSEBins: defaults.rmseBins,
            trainingReviews: trainingReviews,
            stage: stage
        )
    }

    /// Only the fitted parameters (no evaluation).
    public static func parameters(
        histories: [FSRSReviewHistory],
        configuration: FSRSOptimizerConfiguration = FSRSOptimizerConfiguration()
    ) -> [Double] {
        // Without a cancellation hook the training always finishes.
        train(set: FSRSTrainingSet(histories: histories), configuration: configuration, shouldContinue: nil)!
            .parameters
    }

    static func train(
        set: FSRSTrainingSet,
        configuration: FSRSOptimizerConfiguration,
        shouldContinue: ((Double) -> Bool)?
    ) -> (parameters: [Double], stage: FSRSOptimizationResult.Stage, trainingReviews: Int)? {
        let defaults = FSRSConfiguration.defaultParameters
        let (initialization, training) =
            configuration.filterOutliers
            ? FSRSOptimizerData.outlierSplit(set)
            : FSRSOptimizerData.plainSplit(set)
        guard training.count >= 8 else { return (defaults, .defaults, training.count) }
        let averageRecall = training.reduce(0.0) { $0 + set.label(of: $1) } / Double(training.count)
        guard
            let (initialStability, ratingCounts) = FSRSPretraining.initialStability(
                set: set, items: initialization, averageRecall: averageRecall
            )
        else { return (defaults, .defaults, training.count) }
        let start = initialStability + defaults[4...]
        guard training.count != initialization.count, training.count >= 64 else {
            return (start, .initialStability, training.count)
        }

        // Without short-term training fsrs-rs starts (and, with frozen gradients, ends) with w17…w19 at 0,
        // so that same-day reviews leave stability unchanged.
        var trainingStart = start
        if !configuration.shortTerm { trainingStart.replaceSubrange(17...19, with: [0, 0, 0]) }
        var trainer = FSRSTrainer(
            set: set, items: training, start: trainingStart, configuration: configuration
        )
        guard var fitted = trainer.run(shouldContinue: shouldContinue) else { return nil }
        if let smoothed = FSRSPretraining.smoothAndFill(
            stabilities: [1: fitted[0], 2: fitted[1], 3: fitted[2], 4: fitted[3]],
            counts: ratingCounts
        ) {
            fitted.replaceSubrange(0..<4, with: smoothed)
        }
        return (fitted, .trained, trainer.totalPredictions)
    }
}

/// Splitting the items into the pre-training set and the training set.
enum FSRSOptimizerData {
    typealias Item = FSRSTrainingSet.Item

    /// Without the outlier filter (fsrs-rs with `FSRS_NO_OUTLIER`): first long-term reviews pre-train,
    /// everything else trains.
    static func plainSplit(_ set: FSRSTrainingSet) -> (initialization: [Item], training: [Item]) {
        var initialization: [Item] = []
        var training: [Item] = []
        for item in set.items {
            if set.longTermCount(of: item) == 1 { initialization.append(item) } else { training.append(item) }
        }
        return (initialization, training)
    }

    /// fsrs-rs's outlier filter. Within each first rating, the first long-term reviews are grouped by
    /// interval; groups are visited from the smallest (longest interval first among equals) and dropped
    /// until 5 % of the rating's items (at least 20) are gone; after that a group survives if it has at
    /// least 6 items and an interval of at most 100 days (365 after a first Easy). Training keeps every
    /// item whose card's first interval survived, in time order.
    static func outlierSplit(_ set: FSRSTrainingSet) -> (initialization: [Item], training: [Item]) {
        var groups: [Int: [Int: [Item]]] = [:]
        for item in set.items where set.longTermCount(of: item) == 1 {
            groups[set.firstRating(of: item), default: [:]][set.delta(of: item), default: []].append(item)
        }
        // (rating, interval) pairs, packed into one integer to keep the lookups cheap.
        func pair(_ rating: Int, _ delta: Int) -> Int { delta &* 8 &+ rating }
        var removed: Set<Int> = []
        var initialization: [Item] = []
        for rating in groups.keys.sorted() {
            let subgroups = groups[rating]!.sorted { lhs, rhs in
                lhs.value.count != rhs.value.count ? lhs.value.count > rhs.value.count : lhs.key > rhs.key
            }
            let total = subgroups.reduce(0) { $0 + $1.value.count }
            var removedSoFar = 0
            for (delta, members) in subgroups.reversed() {
                if removedSoFar + members.count >= max(20, total / 20) {
                    if members.count >= 6 && delta <= (rating != 4 ? 100 : 365) {
                        initialization.append(contentsOf: members)
                    } else {
                        removed.insert(pair(rating, delta))
                    }
                } else {
                    removedSoFar += members.count
                    removed.insert(pair(rating, delta))
                }
            }
        }
        let training = set.items.filter {
            !removed.contains(pair(set.firstRating(of: $0), set.firstLongTermDelta(of: $0)))
        }
        return (initialization, training)
    }
}

/// Pre-training of the initial stabilities w0…w3.
enum FSRSPretraining {
    /// Fits one initial stability per first rating to the recall after the first interval; returns nil if
    /// there is no first long-term review at all.
    static func initialStability(
        set: FSRSTrainingSet,
        items: [FSRSTrainingSet.Item],
        averageRecall: Double
    ) -> (stability: [Double], counts: [Int: Int])? {
        // first rating → interval → (recalled, count)
        var groups: [Int: [Int: (recalled: Double, count: Double)]] = [:]
        for item in items where set.longTermCount(of: item) == 1 {
            let rating = set.firstRating(of: item)
            let delta = set.firstLongTermDelta(of: item)
            var entry = groups[rating, default: [:]][delta, default: (0, 0)]
            entry.recalled += set.label(of: item)
            entry.count += 1
            groups[rating, default: [:]][delta] = entry
        }
        var counts: [Int: Int] = [:]
        var stabilities: [Int: Double] = [:]
        let defaults = FSRSConfiguration.defaultParameters
        let decay = -defaults[20]
        let factor = pow(0.9, 1 / decay) - 1
        for (rating, byDelta) in groups {
            let data = byDelta.sorted { $0.key < $1.key }
            counts[rating] = Int(data.reduce(0.0) { $0 + $1.value.count })
            let deltas = data.map { Double($0.key) }
            let weights = data.map(\.value.count)
            // Laplace smoothing towards the average recall, as fsrs-rs does.
            let recalls = data.map { ($0.value.recalled + averageRecall) / ($0.value.count + 1) }
            let defaultStability = defaults[rating - 1]
            func loss(_ s: Double) -> Double {
                var total = 0.0
                for index in deltas.indices {
                    let y = pow(1 + factor * deltas[index] / s, decay)
                    let recall = recalls[index]
                    total -= (recall * log(y) + (1 - recall) * log(1 - y)) * weights[index]
                }
                return total + abs(s - defaultStability) / 16
            }
            var low = FSRSModel.minimumStability
            var high = FSRSParameterBounds.upperBounds[0]
            var best = defaultStability
            var iterations = 0
            while high - low > Double.ulpOfOne && iterations < 1000 {
                iterations += 1
                let mid1 = low + (high - low) / 3
                let mid2 = high - (high - low) / 3
                if loss(mid1) < loss(mid2) { high = mid2 } else { low = mid1 }
                best = (high + low) / 2
            }
            stabilities[rating] = best
        }
        guard let filled = smoothAndFill(stabilities: stabilities, counts: counts) else { return nil }
        return (filled, counts)
    }

    /// Makes the initial stabilities increase with the rating (the rating seen more often wins a
    /// conflict) and fills in ratings that never came first, from fixed ratios between neighbours
    /// (fsrs-rs's `smooth_and_fill`). Only ratings present in `counts` are kept. Nil if none is.
    static func smoothAndFill(stabilities: [Int: Double], counts: [Int: Int]) -> [Double]? {
        var s = stabilities.filter { counts[$0.key] != nil }
        for (small, big) in [(1, 2), (2, 3), (3, 4), (1, 3), (2, 4), (1, 4)] {
            guard let smallValue = s[small], let bigValue = s[big], smallValue > bigValue else { continue }
            if counts[small]! > counts[big]! { s[big] = smallValue } else { s[small] = bigValue }
        }
        let w1 = 0.41
        let w2 = 0.54
        let defaults = FSRSConfiguration.defaultParameters
        var result: [Double]
        switch s.count {
        case 0:
            return nil
        case 1:
            let (rating, value) = s.first!
            let scale = value / defaults[rating - 1]
            result = defaults[0..<4].map { $0 * scale }.sorted()
        default:
            var r: [Double?] = [nil, s[1], s[2], s[3], s[4]]
            if s.count == 2 {
                switch (r[1], r[2], r[3], r[4]) {
                case (nil, nil, let r3?, let r4?):
                    let r2 = pow(r3, 1 / (1 - w2)) * pow(r4, 1 - 1 / (1 - w2))
                    r[2] = r2
                    r[1] = pow(r2, 1 / w1) * pow(r3, 1 - 1 / w1)
                case (nil, let r2?, nil, let r4?):
                    let r3 = pow(r2, 1 - w2) * pow(r4, w2)
                    r[3] = r3
                    r[1] = pow(r2, 1 / w1) * pow(r3, 1 - 1 / w1)
                case (nil, let r2?, let r3?, nil):
                    r[4] = pow(r2, 1 - 1 / w2) * pow(r3, 1 / w2)
                    r[1] = pow(r2, 1 / w1) * pow(r3, 1 - 1 / w1)
                case (let r1?, nil, nil, let r4?):
                    let share = w1 / (w1 + w2 - w1 * w2)
                    let share2 = w2 / (w1 + w2 - w1 * w2)
                    r[2] = pow(r1, share) * pow(r4, 1 - share)
                    r[3] = pow(r1, 1 - share2) * pow(r4, share2)
                case (let r1?, nil, let r3?, nil):
                    let r2 = pow(r1, w1) * pow(r3, 1 - w1)
                    r[2] = r2
                    r[4] = pow(r2, 1 - 1 / w2) * pow(r3, 1 / w2)
                case (let r1?, let r2?, nil, nil):
                    let r3 = pow(r1, 1 - 1 / (1 - w1)) * pow(r2, 1 / (1 - w1))
                    r[3] = r3
                    r[4] = pow(r2, 1 - 1 / w2) * pow(r3, 1 / w2)
                default:
                    break
                }
            } else if s.count == 3 {
                switch (r[1], r[2], r[3], r[4]) {
                case (nil, let r2?, let r3?, _):
                    r[1] = pow(r2, 1 / w1) * pow(r3, 1 - 1 / w1)
                case (let r1?, nil, let r3?, _):
                    r[2] = pow(r1, w1) * pow(r3, 1 - w1)
                case (_, let r2?, nil, let r4?):
                    r[3] = pow(r2, 1 - w2) * pow(r4, w2)
                case (_, let r2?, let r3?, nil):
                    r[4] = pow(r2, 1 - 1 / w2) * pow(r3, 1 / w2)
                default:
                    break
                }
            }
            result = r.compactMap { $0 }
        }
        guard result.count >= 4 else { return nil }
        let upper = FSRSParameterBounds.upperBounds[0]
        return result.prefix(4).map { min(max($0, FSRSModel.minimumStability), upper) }
    }
}

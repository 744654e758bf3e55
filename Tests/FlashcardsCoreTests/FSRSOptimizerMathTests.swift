import Foundation
import Testing

@testable import FlashcardsCore

/// The optimizer's building blocks: gradients, data preparation, pre-training.
@Suite("FSRS optimizer internals")
struct FSRSOptimizerMathTests {
    /// A card's reviews with weights on the reviews to score.
    struct Card {
        var ratings: [Int]
        var deltas: [Double]
        var weights: [Double]
    }

    /// Cards that go through every branch: first ratings 1…4, same-day reviews with the raw multiplier
    /// and with the floor at 1, lapses with the formula and with the same-day bound, Hard/Good/Easy
    /// recalls.
    static let cards: [Card] = [
        Card(
            ratings: [1, 1, 3, 3, 2, 4, 1, 3], deltas: [0, 0, 0, 3, 5, 10, 20, 2],
            weights: [0, 0, 0, 1, 0.8, 0.6, 1, 0.3]),
        Card(ratings: [2, 3, 3, 1, 3, 2], deltas: [0, 1, 4, 30, 0, 6], weights: [0, 0.5, 1, 0.9, 0, 0.7]),
        Card(ratings: [3, 3, 4, 1, 1, 3], deltas: [0, 2, 7, 40, 1, 3], weights: [0, 1, 1, 1, 0.4, 1]),
        Card(ratings: [4, 3, 2, 3, 4], deltas: [0, 8, 25, 0, 60], weights: [0, 1, 0.2, 0, 1]),
        Card(ratings: [1, 3, 1, 3, 3], deltas: [0, 1, 2, 0, 5], weights: [0, 0.9, 1, 0, 0.6]),
    ]

    /// Parameters away from every clamp, so that small steps do not change branches.
    static let parameters: [Double] = [
        0.3, 1.1, 2.6, 7.5, 6.2, 0.7, 2.4, 0.05, 1.7, 0.2, 0.85, 1.6, 0.1, 0.3, 1.5, 0.55, 2.0, 0.6, 0.15, 0.1, 0.2,
    ]

    static func loss(_ parameters: [Double], cards: [Card], gradient: inout [Double]?) -> Double {
        let kernel = FSRSModelKernel(parameters: parameters)
        let caches = UnsafeMutablePointer<FSRSModelKernel.StepCache>.allocate(capacity: 64)
        caches.initialize(repeating: FSRSModelKernel.StepCache(), count: 64)
        defer {
            caches.deinitialize(count: 64)
            caches.deallocate()
        }
        var total = 0.0
        var g = gradient ?? []
        for card in cards {
            total += card.ratings.withUnsafeBufferPointer { ratings in
                card.deltas.withUnsafeBufferPointer { deltas in
                    card.weights.withUnsafeBufferPointer { weights in
                        g.withUnsafeMutableBufferPointer { g in
                            kernel.sequenceLoss(
                                ratings: ratings.baseAddress!, deltas: deltas.baseAddress!,
                                weights: weights.baseAddress!, length: card.ratings.count, caches: caches,
                                gradient: gradient == nil ? nil : g.baseAddress!
                            )
                        }
                    }
                }
            }
        }
        if gradient != nil { gradient = g }
        return total
    }

    @Test("analytic gradients match central finite differences for all 21 parameters")
    func gradientsMatchFiniteDifferences() {
        var gradient: [Double]? = [Double](repeating: 0, count: 21)
        _ = Self.loss(Self.parameters, cards: Self.cards, gradient: &gradient)
        var none: [Double]? = nil
        for index in 0..<21 {
            let step = 1e-6 * max(1, abs(Self.parameters[index]))
            var plus = Self.parameters
            var minus = Self.parameters
            plus[index] += step
            minus[index] -= step
            let numeric =
                (Self.loss(plus, cards: Self.cards, gradient: &none)
                    - Self.loss(minus, cards: Self.cards, gradient: &none))
                / (2 * step)
            let analytic = gradient![index]
            #expect(
                abs(numeric - analytic) <= 1e-5 * max(1, abs(numeric)),
                "w\(index): analytic \(analytic), numeric \(numeric)"
            )
            // Every parameter takes part in these cards.
            #expect(abs(numeric) > 1e-6, "w\(index) has no effect")
        }
    }

    /// fsrs-rs's `test_loss_and_grad` batch: four histories, each predicting one review (the final
    /// rating only gives the label: Good for recalled, Again for forgotten).
    static let fsrsRSBatch: [Card] = [
        ([0, 0, 0, 0, 1, 3, 4], [1, 3, 1, 4, 3, 2, 3]),
        ([0, 0, 0, 1, 3, 6, 11], [2, 4, 4, 3, 1, 3, 3]),
        ([0, 0, 0, 1, 3, 6, 12], [3, 2, 4, 3, 3, 3, 3]),
        ([0, 0, 1, 3, 5, 12, 23], [4, 4, 3, 3, 3, 4, 1]),
    ].map { deltas, ratings in
        Card(ratings: ratings, deltas: deltas, weights: [0, 0, 0, 0, 0, 0, 1])
    }

    @Test("loss, gradients and two Adam steps match fsrs-rs's test vectors")
    func matchesFSRSRSVectors() {
        // fsrs-rs computes in float32, hence the tolerances.
        func expectClose(_ actual: [Double], _ expected: [Double], tolerance: Double) {
            for (index, (a, e)) in zip(actual, expected).enumerated() {
                #expect(abs(a - e) <= tolerance * max(1, abs(e)), "w\(index): \(a) vs \(e)")
            }
        }
        var parameters = FSRSConfiguration.defaultParameters
        var gradient: [Double]? = [Double](repeating: 0, count: 21)
        let loss1 = Self.loss(parameters, cards: Self.fsrsRSBatch, gradient: &gradient)
        #expect(abs(loss1 - 4.0466027) < 1e-5)
        expectClose(
            gradient!,
            [
                -0.095688485, -0.0051607806, -0.0012249565, 0.007462064, 0.03650761, -0.082112335, 0.0593964,
                -2.1474836, 0.57626534, -2.8751316, 0.7154875, -0.028993709, 0.0099172965, -0.2189217,
                -0.0017800558, -0.089381434, 0.299141, 0.068104014, -0.011605468, -0.25398168, 0.27700496,
            ],
            tolerance: 1e-5
        )
        var adam = FSRSAdam()
        let lower = FSRSParameterBounds.lowerBounds(shortTerm: true)
        let upper = FSRSParameterBounds.upperBounds
        adam.step(rate: 0.04, parameters: &parameters, gradient: gradient!)
        parameters = FSRSParameterBounds.clamp(parameters, lower: lower, upper: upper)
        expectClose(
            parameters,
            [
                0.252, 1.3331, 2.3464994, 8.2556, 6.3733, 0.87340003, 2.9794, 0.040999997, 1.8322, 0.20660001, 0.756,
                1.5235, 0.021400042, 0.3029, 1.6882998, 0.64140004, 1.8329, 0.5025, 0.13119997, 0.1058, 0.1142,
            ],
            tolerance: 1e-6
        )
        gradient = [Double](repeating: 0, count: 21)
        let loss2 = Self.loss(parameters, cards: Self.fsrsRSBatch, gradient: &gradient)
        #expect(abs(loss2 - 3.767796) < 1e-5)
        expectClose(
            gradient!,
            [
                -0.040530164, -0.0041278866, -0.0010157757, 0.007239434, 0.009321215, -0.120117955, 0.039143264,
                -0.8628009, 0.5794302, -2.5713828, 0.7669307, -0.024242667, 0.0, -0.16912507, -0.0017008218,
                -0.061857328, 0.28093633, 0.064058185, 0.0063592787, -0.1903223, 0.6257775,
            ],
            tolerance: 1e-5
        )
        adam.step(rate: 0.04, parameters: &parameters, gradient: gradient!)
        parameters = FSRSParameterBounds.clamp(parameters, lower: lower, upper: upper)
        expectClose(
            parameters,
            [
                0.2882918, 1.3726242, 2.3861322, 8.215636, 6.339965, 0.9130969, 2.940639, 0.07696985, 1.7921946,
                0.2464217, 0.71595186, 1.5631561, 0.001, 0.34230903, 1.7282416, 0.68038, 1.7929853, 0.46258268,
                0.14039303, 0.14509967, 0.1,
            ],
            tolerance: 1e-5
        )
    }

    @Test("scoring a whole card equals scoring each of its prefixes on its own")
    func cardEqualsPrefixes() {
        var cardGradient: [Double]? = [Double](repeating: 0, count: 21)
        let cardLoss = Self.loss(Self.parameters, cards: Self.cards, gradient: &cardGradient)
        var prefixes: [Card] = []
        for card in Self.cards {
            for end in 1..<card.ratings.count where card.weights[end] != 0 {
                var weights = [Double](repeating: 0, count: end + 1)
                weights[end] = card.weights[end]
                prefixes.append(
                    Card(ratings: Array(card.ratings[...end]), deltas: Array(card.deltas[...end]), weights: weights)
                )
            }
        }
        var prefixGradient: [Double]? = [Double](repeating: 0, count: 21)
        let prefixLoss = Self.loss(Self.parameters, cards: prefixes, gradient: &prefixGradient)
        #expect(abs(cardLoss - prefixLoss) < 1e-10)
        for index in 0..<21 {
            #expect(abs(cardGradient![index] - prefixGradient![index]) < 1e-9)
        }
    }

    @Test("predictions follow the fsrs-rs formulas written out plainly")
    func predictionsMatchPlainFormulas() {
        let kernel = FSRSModelKernel(parameters: Self.parameters)
        let decay = -Self.parameters[20]
        let factor = pow(0.9, 1 / decay) - 1
        for card in Self.cards {
            var out = [Double](repeating: 0, count: card.ratings.count)
            card.ratings.withUnsafeBufferPointer { ratings in
                card.deltas.withUnsafeBufferPointer { deltas in
                    out.withUnsafeMutableBufferPointer { out in
                        kernel.predictions(
                            ratings: ratings.baseAddress!, deltas: deltas.baseAddress!, length: card.ratings.count,
                            out: out.baseAddress!
                        )
                    }
                }
            }
            for position in 1..<card.ratings.count where card.deltas[position] > 0 {
                let stability = Self.referenceStability(card: card, through: position - 1)
                let expected = pow(1 + factor * card.deltas[position] / stability, decay)
                #expect(abs(out[position] - expected) < 1e-12)
            }
        }
    }

    /// Stability after `through` reviews, by the fsrs-rs formulas written out plainly (difficulty with
    /// the /9 damping fsrs-rs uses).
    static func referenceStability(card: Card, through end: Int) -> Double {
        let w = parameters
        let decay = -w[20]
        let factor = pow(0.9, 1 / decay) - 1
        var s = w[card.ratings[0] - 1]
        var d = min(max(w[4] - exp(w[5] * Double(card.ratings[0] - 1)) + 1, 1), 10)
        guard end >= 1 else { return s }
        for position in 1...end {
            let g = card.ratings[position]
            let t = card.deltas[position]
            let r = pow(1 + factor * t / s, decay)
            var next: Double
            if t == 0 {
                var multiplier = exp(w[17] * (Double(g) - 3 + w[18])) * pow(s, -w[19])
                if g >= 2 { multiplier = max(multiplier, 1) }
                next = s * multiplier
            } else if g == 1 {
                next = min(
                    w[11] * pow(d, -w[12]) * (pow(s + 1, w[13]) - 1) * exp((1 - r) * w[14]),
                    s / exp(w[17] * w[18])
                )
            } else {
                let bonus = g == 2 ? w[15] : (g == 4 ? w[16] : 1)
                next = s * (1 + exp(w[8]) * (11 - d) * pow(s, -w[9]) * (exp((1 - r) * w[10]) - 1) * bonus)
            }
            let damped = d + (10 - d) * (-w[6] * Double(g - 3)) / 9
            let easy = w[4] - exp(3 * w[5]) + 1
            d = min(max(w[7] * (easy - damped) + damped, 1), 10)
            s = min(max(next, 0.001), 36_500)
        }
        return s
    }

    @Test("smoothing and filling initial stabilities reproduces fsrs-rs's vectors")
    func smoothAndFill() throws {
        let filled = try #require(
            FSRSPretraining.smoothAndFill(stabilities: [1: 0.4, 3: 2.3, 4: 10.9], counts: [1: 1, 2: 1, 3: 1, 4: 1])
        )
        for (value, expected) in zip(filled, [0.4, 1.1227008, 2.3, 10.9]) {
            #expect(abs(value - expected) < 1e-6)
        }
        let single = try #require(FSRSPretraining.smoothAndFill(stabilities: [2: 0.35], counts: [2: 1]))
        for (value, expected) in zip(single, [0.05738148, 0.35, 0.6242943, 2.2453482]) {
            #expect(abs(value - expected) < 1e-6)
        }
        // Out of order: the rating seen more often decides.
        let fixed = try #require(
            FSRSPretraining.smoothAndFill(
                stabilities: [1: 3, 2: 2, 3: 5, 4: 9], counts: [1: 50, 2: 10, 3: 100, 4: 5]
            )
        )
        #expect(fixed == [3, 3, 5, 9])
        #expect(FSRSPretraining.smoothAndFill(stabilities: [1: 1], counts: [:]) == nil)
    }

    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// `count` cards first answered `rating`, next reviewed after `interval` days (recalled unless
    /// `forgotten`), then twice more.
    static func cards(
        _ count: Int, firstRating rating: FSRSRating, interval: Int, idOffset: Int, forgotten: Bool = false
    ) -> [FSRSReviewHistory] {
        (0..<count).map { index in
            let first = start.addingTimeInterval(Double(idOffset + index) * 60)
            return FSRSReviewHistory(
                cardID: Int64(idOffset + index),
                reviews: [
                    FSRSTrainingReview(rating: rating, elapsedDays: 0, reviewedAt: first),
                    FSRSTrainingReview(
                        rating: forgotten ? .again : .good, elapsedDays: interval,
                        reviewedAt: first.addingTimeInterval(Double(interval) * 86_400)
                    ),
                    FSRSTrainingReview(
                        rating: .good, elapsedDays: 5,
                        reviewedAt: first.addingTimeInterval(Double(interval + 5) * 86_400)
                    ),
                    FSRSTrainingReview(
                        rating: .good, elapsedDays: 12,
                        reviewedAt: first.addingTimeInterval(Double(interval + 17) * 86_400)
                    ),
                ]
            )
        }
    }

    @Test("the outlier filter drops rare and very long first intervals with their cards")
    func outlierFilter() {
        let histories =
            Self.cards(30, firstRating: .good, interval: 1, idOffset: 0)
            + Self.cards(25, firstRating: .good, interval: 2, idOffset: 100)
            + Self.cards(10, firstRating: .good, interval: 200, idOffset: 200)
            + Self.cards(2, firstRating: .good, interval: 5, idOffset: 300)
        let set = FSRSTrainingSet(histories: histories)
        #expect(set.items.count == 67 * 3)
        let (initialization, training) = FSRSOptimizerData.outlierSplit(set)
        // 5 % of 67 is below 20, so groups are dropped from the smallest until 20 items are gone: the
        // 2 cards at 5 days and the 10 at 200 days (12 < 20); then the 25 at 2 days would pass 20 and
        // are kept, as are the 30 at 1 day.
        #expect(initialization.count == 55)
        #expect(training.count == 55 * 3)
        #expect(Set(training.map { set.firstLongTermDelta(of: $0) }) == [1, 2])
        // Training items stay in time order.
        let times = training.map { histories[$0.card].reviews[$0.position].reviewedAt }
        #expect(times == times.sorted())
    }

    @Test("pre-training finds the stability that best explains the first recalls")
    func pretraining() throws {
        let histories =
            Self.cards(60, firstRating: .good, interval: 3, idOffset: 0)
            + Self.cards(15, firstRating: .good, interval: 3, idOffset: 100, forgotten: true)
            + Self.cards(40, firstRating: .good, interval: 6, idOffset: 200)
            + Self.cards(20, firstRating: .good, interval: 6, idOffset: 300, forgotten: true)
        let set = FSRSTrainingSet(histories: histories)
        let (initialization, _) = FSRSOptimizerData.outlierSplit(set)
        let (stability, counts) = try #require(
            FSRSPretraining.initialStability(set: set, items: initialization, averageRecall: 0.8)
        )
        #expect(counts == [3: 135])
        // The objective, written out: smoothed recall per interval, log loss weighted by counts, plus
        // the pull towards the default (|S − w2| / 16). A fine grid must not beat the search.
        let w = FSRSConfiguration.defaultParameters
        let decay = -w[20]
        let factor = pow(0.9, 1 / decay) - 1
        func objective(_ s: Double) -> Double {
            var total = 0.0
            for (t, recalled, count) in [(3.0, 60.0, 75.0), (6.0, 40.0, 60.0)] {
                let recall = (recalled + 0.8) / (count + 1)
                let y = pow(1 + factor * t / s, decay)
                total -= (recall * log(y) + (1 - recall) * log(1 - y)) * count
            }
            return total + abs(s - w[2]) / 16
        }
        let grid = stride(from: 0.01, through: 10, by: 0.001).min { objective($0) < objective($1) }!
        #expect(abs(stability[2] - grid) < 0.002)
        #expect(objective(stability[2]) <= objective(grid) + 1e-9)
        // The other ratings follow from fixed ratios and stay ordered.
        #expect(stability == stability.sorted())
    }

    @Test("histories count days across the rollover and keep cards in order of appearance")
    func historiesFromRows() throws {
        let csv = """
            card_id,review_rating,review_time,review_duration
            7,3,2024-05-02T03:30:00+00:00,1000
            5,1,2024-05-01T20:00:00+00:00,1000
            7,1,2024-05-01T23:00:00+00:00,1000
            5,3,2024-05-02T05:00:00+00:00,1000
            5,3,2024-05-04T03:59:00+00:00,1000
            """
        let histories = FSRSReviewHistory.histories(from: try ReviewLogCSV.parse(csv), dayCounting: .ankiDefaultUTC)
        #expect(histories.map(\.cardID) == [7, 5])
        // Card 7: 23:00 and 03:30 fall in the same day (it starts at 04:00).
        #expect(histories[0].reviews.map(\.rating) == [.again, .good])
        #expect(histories[0].reviews.map(\.elapsedDays) == [0, 0])
        // Card 5: 20:00 → 05:00 next morning crosses one rollover; 05:00 → 03:59 two days later, one more.
        #expect(histories[1].reviews.map(\.elapsedDays) == [0, 1, 1])
        let set = FSRSTrainingSet(histories: histories)
        #expect(set.items.count == 2)
    }

    @Test("recency weights rise from 0.25 to 1 with the cube of the rank")
    func recencyWeights() {
        let weights = FSRSTrainingSet.recencyWeights(count: 5)
        #expect(weights.first == 0.25)
        #expect(weights.last == 1)
        #expect(abs(weights[2] - (0.25 + 0.75 * 0.125)) < 1e-15)
        #expect(FSRSTrainingSet.recencyWeights(count: 1) == [0.25])
    }
}

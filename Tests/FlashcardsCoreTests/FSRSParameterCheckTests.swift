import Foundation
import Testing

@testable import FlashcardsCore

@Suite("FSRS parameter check")
struct FSRSParameterCheckTests {
    @Test("held-out reviews are the latest 20 %, each predicted from its card's whole history before it")
    func heldOutEvaluation() throws {
        let histories = try FSRSOptimizerSampleTests.sampleHistories()
        let set = FSRSTrainingSet(histories: histories)
        let split = Date(timeIntervalSince1970: set.itemTimes[set.itemTimes.count * 4 / 5])
        let heldOut = try FSRSEvaluator.evaluate(
            parameters: FSRSConfiguration.defaultParameters, histories: histories, predictingFrom: split)
        #expect(heldOut.reviews == set.itemTimes.filter { $0 >= split.timeIntervalSince1970 }.count)
        let all = try FSRSEvaluator.evaluate(parameters: FSRSConfiguration.defaultParameters, histories: histories)
        #expect(heldOut.reviews < all.reviews && heldOut.logLoss != all.logLoss)
        let beforeAll = Date(timeIntervalSince1970: set.itemTimes[0])
        #expect(
            try FSRSEvaluator.evaluate(
                parameters: FSRSConfiguration.defaultParameters, histories: histories, predictingFrom: beforeAll)
                == all)
    }

    @Test("parameters far from the learner's memory lose to a fit; parameters fitted to the whole history stay")
    func decides() throws {
        let histories = try FSRSOptimizerSampleTests.sampleHistories()
        // Every parameter at its lower bound: a memory model nobody has.
        let poor = try #require(
            try FSRSParameterCheck.check(current: FSRSConfiguration.parameterLowerBounds, histories: histories))
        #expect(poor.better)
        #expect(poor.candidate.logLoss < poor.current.logLoss)
        #expect(poor.current.reviews == poor.candidate.reviews)
        #expect(poor.current.reviews >= FSRSParameterCheck.minimumHeldOut)
        // The shared sample is predictable: the better set's held-out RMSE(bins) is below 0.1.
        #expect(poor.healthy)
        // Parameters fitted to the whole history already know the held-out reviews: a fit to the
        // earlier 80 % does not beat them, so they stay.
        let fitted = try FSRSOptimizer.fit(histories: histories).parameters
        let settled = try #require(try FSRSParameterCheck.check(current: fitted, histories: histories))
        #expect(!settled.better)
    }

    @Test("grades that do not follow memory make it hard to predict")
    func unhealthy() throws {
        // A learner whose answers are coin flips (30 % Again, whatever the interval): no memory model
        // predicts them better than their average.
        var random = SplitMix64(seed: 11)
        let histories = FSRSSyntheticHistory.generate(reviewCount: 4_000, seed: 4).map { history in
            FSRSReviewHistory(
                cardID: history.cardID,
                reviews: history.reviews.map {
                    FSRSTrainingReview(
                        rating: random.nextUnit() < 0.3 ? .again : .good, elapsedDays: $0.elapsedDays,
                        reviewedAt: $0.reviewedAt)
                })
        }
        let check = try #require(
            try FSRSParameterCheck.check(current: FSRSConfiguration.defaultParameters, histories: histories))
        #expect(!check.healthy)
        // The shared sample, a real learner's, is predictable.
        let sample = try #require(
            try FSRSParameterCheck.check(
                current: FSRSConfiguration.defaultParameters, histories: try FSRSOptimizerSampleTests.sampleHistories())
        )
        #expect(sample.healthy)
    }

    @Test("Anki's health thresholds: scaled by the recall rate and the number of reviews")
    func thresholds() {
        // At 90 % recall and 5,000 reviews the expected log loss is 0.293 and RMSE(bins) 0.060.
        #expect(FSRSParameterCheck.healthy(logLoss: 0.33, rmseBins: 0.09, recallRate: 0.9, reviews: 5_000))
        #expect(FSRSParameterCheck.healthy(logLoss: 0.40, rmseBins: 0.06, recallRate: 0.9, reviews: 5_000))
        #expect(!FSRSParameterCheck.healthy(logLoss: 0.40, rmseBins: 0.10, recallRate: 0.9, reviews: 5_000))
    }

    @Test("too short a history to hold reviews out: no check")
    func tooShort() throws {
        let histories = FSRSSyntheticHistory.generate(reviewCount: 200, seed: 3)
        #expect(try FSRSParameterCheck.check(current: FSRSConfiguration.defaultParameters, histories: histories) == nil)
    }
}

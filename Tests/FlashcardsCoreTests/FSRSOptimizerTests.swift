import Foundation
import Testing

@testable import FlashcardsCore

/// The optimizer and evaluator against fsrs-rs 6.6's figures on the sample review log (see
/// /work/shared/data/README.md: 6,276 predicted reviews with a 04:00 UTC rollover; default parameters
/// log loss 0.4535 and RMSE(bins) 0.0766; `compute_parameters` 0.4444, or 0.4428 with card ids).
@Suite("FSRS optimizer on the sample review log")
struct FSRSOptimizerSampleTests {
    /// The sample log: a fixture copy if the repository has one, else the shared data folder next to
    /// the repository.
    static func sampleHistories() throws -> [FSRSReviewHistory] {
        let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let candidates = [
            testsFolder.appendingPathComponent("Fixtures/review-log-sample.csv"),
            testsFolder.appendingPathComponent("../../../shared/data/review-log-sample.csv").standardized,
        ]
        guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            Issue.record("review-log-sample.csv not found in \(candidates.map(\.path))")
            return []
        }
        let rows = try ReviewLogCSV.parse(String(contentsOf: url, encoding: .utf8))
        return FSRSReviewHistory.histories(from: rows, dayCounting: .ankiDefaultUTC)
    }

    @Test("default parameters score like fsrs-rs's evaluate")
    func defaultEvaluation() throws {
        let evaluation = try FSRSEvaluator.evaluate(
            parameters: FSRSConfiguration.defaultParameters, histories: try Self.sampleHistories()
        )
        #expect(evaluation.reviews == 6_276)
        #expect(abs(evaluation.logLoss - 0.4535) < 0.0002)
        #expect(abs(evaluation.rmseBins - 0.0766) < 0.0002)
    }

    @Test("grouped by card, the fit is within 0.5 % of fsrs-rs's log loss")
    func fitByCard() throws {
        let result = try FSRSOptimizer.fit(histories: try Self.sampleHistories())
        #expect(result.stage == .trained)
        #expect(result.reviews == 6_276)
        #expect(abs(result.defaultLogLoss - 0.4535) < 0.0002)
        #expect(result.logLoss <= 0.4428 * 1.005)
        #expect(result.logLoss < result.defaultLogLoss)
        #expect(result.rmseBins < result.defaultRMSEBins)
        FSRSOptimizerTests.expectWithinBounds(result.parameters)
    }

    @Test("item by item, the fit is within 0.5 % of fsrs-rs's log loss")
    func fitByItem() throws {
        var configuration = FSRSOptimizerConfiguration()
        configuration.groupByCard = false
        let result = try FSRSOptimizer.fit(histories: try Self.sampleHistories(), configuration: configuration)
        #expect(result.stage == .trained)
        #expect(result.logLoss <= 0.4444 * 1.005)
        FSRSOptimizerTests.expectWithinBounds(result.parameters)
    }
}

@Suite("FSRS optimizer")
struct FSRSOptimizerTests {
    static func expectWithinBounds(_ parameters: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(parameters.count == 21, sourceLocation: sourceLocation)
        for (index, value) in parameters.enumerated() {
            #expect(
                value >= FSRSConfiguration.parameterLowerBounds[index]
                    && value <= FSRSConfiguration.parameterUpperBounds[index],
                "w\(index) = \(value) out of bounds",
                sourceLocation: sourceLocation
            )
        }
    }

    /// Parameters a simulated learner remembers with, different enough from the defaults.
    static let learnerParameters: [Double] = [
        0.4, 1.6, 3.5, 12.0, 6.0, 0.7, 2.5, 0.02, 1.6, 0.2, 0.9, 1.8, 0.08, 0.3, 1.9, 0.5, 2.2, 0.5, 0.2, 0.1, 0.25,
    ]

    @Test("the same history and settings always give the same parameters")
    func deterministic() throws {
        let histories = FSRSSyntheticHistory.generate(reviewCount: 4_000, parameters: Self.learnerParameters, seed: 7)
        let first = try FSRSOptimizer.fit(histories: histories)
        let second = try FSRSOptimizer.fit(histories: histories)
        #expect(first == second)
        var shuffled = FSRSOptimizerConfiguration()
        shuffled.seed = 99
        let third = try FSRSOptimizer.fit(histories: histories, configuration: shuffled)
        #expect(third.parameters != first.parameters)
    }

    @Test("a simulated learner's history is fitted about as well as their true parameters predict it")
    func recoversSimulatedLearner() throws {
        let histories = FSRSSyntheticHistory.generate(
            reviewCount: 20_000, parameters: Self.learnerParameters, seed: 3
        )
        let result = try FSRSOptimizer.fit(histories: histories)
        let truth = try FSRSEvaluator.evaluate(parameters: Self.learnerParameters, histories: histories)
        #expect(result.stage == .trained)
        #expect(result.logLoss < result.defaultLogLoss)
        #expect(result.logLoss < truth.logLoss + 0.003)
        Self.expectWithinBounds(result.parameters)
    }

    @Test("parameters stay within bounds even with an extreme history")
    func boundsRespected() throws {
        // Every card is forgotten after long intervals and remembered after short ones: pushes
        // parameters towards their limits.
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let histories = (0..<300).map { card in
            var reviews = [FSRSTrainingReview(rating: .easy, elapsedDays: 0, reviewedAt: start)]
            var day = 0
            for step in 1...8 {
                let interval = step.isMultiple(of: 2) ? 1 : 30 + card % 50
                day += interval
                let rating: FSRSRating = interval == 1 ? .easy : .again
                reviews.append(
                    FSRSTrainingReview(
                        rating: rating, elapsedDays: interval,
                        reviewedAt: start.addingTimeInterval(Double(day * 86_400 + card))
                    )
                )
            }
            return FSRSReviewHistory(cardID: Int64(card), reviews: reviews)
        }
        for groupByCard in [true, false] {
            var configuration = FSRSOptimizerConfiguration()
            configuration.groupByCard = groupByCard
            configuration.filterOutliers = false
            configuration.learningRate = 0.5
            let result = try FSRSOptimizer.fit(histories: histories, configuration: configuration)
            #expect(result.stage == .trained)
            Self.expectWithinBounds(result.parameters)
        }
    }

    @Test("too little data falls back to defaults; no long-term review is an error")
    func littleData() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let sameDayOnly = [
            FSRSReviewHistory(
                cardID: 1,
                reviews: [
                    FSRSTrainingReview(rating: .again, elapsedDays: 0, reviewedAt: start),
                    FSRSTrainingReview(rating: .good, elapsedDays: 0, reviewedAt: start.addingTimeInterval(60)),
                ]
            )
        ]
        #expect(throws: FSRSOptimizerError.notEnoughData) { try FSRSOptimizer.fit(histories: sameDayOnly) }
        let few = (0..<5).map { card in
            FSRSReviewHistory(
                cardID: Int64(card),
                reviews: [
                    FSRSTrainingReview(rating: .good, elapsedDays: 0, reviewedAt: start),
                    FSRSTrainingReview(rating: .good, elapsedDays: 3, reviewedAt: start.addingTimeInterval(3 * 86_400)),
                ]
            )
        }
        let result = try FSRSOptimizer.fit(histories: few)
        #expect(result.stage == .defaults)
        #expect(result.parameters == FSRSConfiguration.defaultParameters)
        #expect(result.reviews == 5)
    }

    @Test("without short-term training, w0…w3 stay pre-trained and w17…w19 are 0")
    func withoutShortTerm() throws {
        let histories = FSRSSyntheticHistory.generate(reviewCount: 4_000, parameters: Self.learnerParameters, seed: 9)
        var pretrainOnly = FSRSOptimizerConfiguration()
        pretrainOnly.epochs = 0
        let pretrained = try FSRSOptimizer.fit(histories: histories, configuration: pretrainOnly)
        var configuration = FSRSOptimizerConfiguration()
        configuration.shortTerm = false
        let result = try FSRSOptimizer.fit(histories: histories, configuration: configuration)
        #expect(result.stage == .trained)
        #expect(Array(result.parameters[0..<4]) == Array(pretrained.parameters[0..<4]))
        #expect(Array(result.parameters[17...19]) == [0, 0, 0])
        #expect(result.parameters[4..<17] != pretrained.parameters[4..<17])
    }

    @Test("a job can follow the progress and cancel the optimizer")
    func progressAndCancellation() throws {
        let histories = FSRSSyntheticHistory.generate(reviewCount: 3_000, parameters: Self.learnerParameters, seed: 5)
        var fractions: [Double] = []
        let finished = try FSRSOptimizer.fit(histories: histories) { fraction in
            fractions.append(fraction)
            return true
        }
        #expect(finished.stage == .trained)
        #expect(!fractions.isEmpty)
        #expect(fractions == fractions.sorted())
        #expect(abs(fractions.last! - 1) < 1e-12)
        #expect(try FSRSOptimizer.fit(histories: histories) == finished)
        var calls = 0
        #expect(throws: FSRSOptimizerError.cancelled) {
            try FSRSOptimizer.fit(histories: histories) { _ in
                calls += 1
                return calls < 3
            }
        }
        #expect(calls == 3)
    }

    @Test("the evaluator rejects parameter lists that are not 21 finite numbers")
    func evaluatorRejectsBadParameters() {
        let histories = FSRSSyntheticHistory.generate(reviewCount: 200, seed: 1)
        #expect(throws: FSRSOptimizerError.invalidParameters) {
            try FSRSEvaluator.evaluate(parameters: [1, 2, 3], histories: histories)
        }
        var withNaN = FSRSConfiguration.defaultParameters
        withNaN[3] = .nan
        #expect(throws: FSRSOptimizerError.invalidParameters) {
            try FSRSEvaluator.evaluate(parameters: withNaN, histories: histories)
        }
    }
}

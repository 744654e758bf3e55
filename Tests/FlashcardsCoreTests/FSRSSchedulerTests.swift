import Foundation
import Testing

@testable import FlashcardsCore

@Suite("FSRS scheduler")
struct FSRSSchedulerTests {
    static let start = ReviewLogCSV.parseTimestamp("2024-06-01T10:00:00Z")!

    static func scheduler(
        fuzz: Bool = false, dayCounting: FSRSDayCounting = .twentyFourHourPeriods,
        _ change: (inout FSRSConfiguration) -> Void = { _ in }
    ) throws -> FSRSScheduler {
        var configuration = FSRSConfiguration(fuzz: fuzz, dayCounting: dayCounting)
        change(&configuration)
        return try FSRSScheduler(configuration: configuration)
    }

    @Test("a new card walks the default learning steps")
    func learningSteps() throws {
        let scheduler = try Self.scheduler()
        let new = FSRSCard.new(due: Self.start)
        let again = scheduler.review(new, rating: .again, at: Self.start, fuzzSeed: 0)
        #expect(again.state == .learning && again.step == 0)
        #expect(again.due == Self.start.addingTimeInterval(60))
        let hard = scheduler.review(new, rating: .hard, at: Self.start, fuzzSeed: 0)
        #expect(hard.step == 0)
        #expect(hard.due == Self.start.addingTimeInterval(330))  // halfway between 1 and 10 minutes
        let good = scheduler.review(new, rating: .good, at: Self.start, fuzzSeed: 0)
        #expect(good.state == .learning && good.step == 1)
        #expect(good.due == Self.start.addingTimeInterval(600))
        let easy = scheduler.review(new, rating: .easy, at: Self.start, fuzzSeed: 0)
        #expect(easy.state == .review && easy.step == nil)
        // First Easy: stability w3 = 8.2956 days, which at 90 % retention is an 8-day interval.
        #expect(easy.stability == 8.2956)
        #expect(easy.due == Self.start.addingTimeInterval(8 * 86_400))
        #expect(scheduler.review(good, rating: .good, at: good.due, fuzzSeed: 0).state == .review)
    }

    @Test("initial memory follows the FSRS-6 formulas")
    func initialMemory() throws {
        let model = FSRSModel(parameters: FSRSConfiguration.defaultParameters)
        let w = FSRSConfiguration.defaultParameters
        for rating in FSRSRating.allCases {
            #expect(model.initialStability(rating) == w[rating.rawValue - 1])
            let d = w[4] - exp(w[5] * Double(rating.rawValue - 1)) + 1
            #expect(abs(model.initialDifficulty(rating) - min(max(d, 1), 10)) < 1e-12)
        }
        // With retention 0.9 the interval equals the stability by construction of the forgetting curve.
        #expect(abs(model.retrievability(elapsedDays: 10, stability: 10) - 0.9) < 1e-12)
        #expect(abs(model.rawInterval(stability: 37, desiredRetention: 0.9) - 37) < 1e-9)
    }

    @Test("a card sitting on a step that no longer exists graduates on any pass")
    func removedSteps() throws {
        let scheduler = try Self.scheduler()
        let stuck = FSRSCard(
            state: .learning, step: 5, stability: 3, difficulty: 5, due: Self.start, lastReview: Self.start)
        #expect(
            scheduler.review(stuck, rating: .hard, at: Self.start.addingTimeInterval(600), fuzzSeed: 0).state == .review
        )
        let again = scheduler.review(stuck, rating: .again, at: Self.start.addingTimeInterval(600), fuzzSeed: 0)
        #expect(again.state == .learning && again.step == 0)
    }

    @Test("stability never exceeds 36,500 days and difficulty stays within 1 … 10")
    func caps() throws {
        let scheduler = try Self.scheduler()
        let easy = scheduler.replay(
            (0..<20).map {
                (rating: FSRSRating.easy, time: Self.start.addingTimeInterval(Double($0) * 40_000 * 86_400))
            })
        #expect(easy.last?.stability == FSRSModel.maximumStability)
        #expect(easy.allSatisfy { ($0.difficulty ?? 0) >= 1 })
        let again = scheduler.replay(
            (0..<30).map { (rating: FSRSRating.again, time: Self.start.addingTimeInterval(Double($0) * 60)) })
        #expect(again.last?.stability == FSRSModel.minimumStability)
        #expect(again.allSatisfy { ($0.difficulty ?? 11) <= 10 })
    }

    @Test("retrievability falls with elapsed days and is 0.9 after `stability` days")
    func retrievability() throws {
        let scheduler = try Self.scheduler()
        let card = FSRSCard(
            state: .review, step: nil, stability: 20, difficulty: 5, due: Self.start, lastReview: Self.start)
        #expect(scheduler.retrievability(of: card, at: Self.start) == 1)
        #expect(abs(scheduler.retrievability(of: card, at: Self.start.addingTimeInterval(20 * 86_400)) - 0.9) < 1e-12)
        let later = (1..<60).map {
            scheduler.retrievability(of: card, at: Self.start.addingTimeInterval(Double($0) * 86_400))
        }
        #expect(zip(later, later.dropFirst()).allSatisfy { $0 > $1 })
        #expect(scheduler.retrievability(of: FSRSCard.new(due: Self.start), at: Self.start) == 0)
    }

    @Test("preview gives the four outcomes of review")
    func preview() throws {
        let scheduler = try Self.scheduler(fuzz: true)
        let card = FSRSCard(
            state: .review, step: nil, stability: 12, difficulty: 6, due: Self.start,
            lastReview: Self.start.addingTimeInterval(-12 * 86_400))
        let outcomes = scheduler.preview(card, at: Self.start, fuzzSeed: 99)
        #expect(outcomes.count == 4)
        for rating in FSRSRating.allCases {
            #expect(outcomes[rating] == scheduler.review(card, rating: rating, at: Self.start, fuzzSeed: 99))
        }
        #expect(outcomes[.again]?.state == .relearning)
        #expect(outcomes[.hard]!.due < outcomes[.good]!.due)
        #expect(outcomes[.good]!.due < outcomes[.easy]!.due)
    }

    @Test("a review the same day uses short-term stability; a rollover in between makes it a new day")
    func sameDay() throws {
        let rolloverScheduler = try Self.scheduler(
            dayCounting: .rollover(hourOfDay: 4, timeZone: TimeZone(identifier: "UTC")!))
        let periodsScheduler = try Self.scheduler()
        let evening = ReviewLogCSV.parseTimestamp("2024-06-01T22:00:00Z")!
        let morning = ReviewLogCSV.parseTimestamp("2024-06-02T06:00:00Z")!
        let card = FSRSCard(state: .review, step: nil, stability: 5, difficulty: 5, due: evening, lastReview: evening)
        let model = rolloverScheduler.model
        // 8 hours later: one rollover crossed (a day), but not a 24-hour period.
        let crossed = rolloverScheduler.review(card, rating: .good, at: morning, fuzzSeed: 0)
        let r = model.retrievability(elapsedDays: 1, stability: 5)
        #expect(
            crossed.stability == model.recallStability(difficulty: 5, stability: 5, retrievability: r, rating: .good))
        let sameDay = periodsScheduler.review(card, rating: .good, at: morning, fuzzSeed: 0)
        #expect(sameDay.stability == model.shortTermStability(5, rating: .good))
        // In rollover mode review due dates land on the start of a day.
        #expect(ReviewLogCSV.formatTimestamp(crossed.due).hasSuffix("T04:00:00Z"))
    }

    // Fuzz ranges (Anki's own expectations among them): Fixtures/fuzz.json, in SharedFixtureTests.

    @Test("fuzz is seeded, stays inside its range and reaches every day of it")
    func fuzzDeterminism() throws {
        let fuzzed = try Self.scheduler(fuzz: true)
        let plain = try Self.scheduler(fuzz: false)
        let card = FSRSCard(
            state: .review, step: nil, stability: 30, difficulty: 5, due: Self.start,
            lastReview: Self.start.addingTimeInterval(-30 * 86_400))
        let unfuzzed = plain.review(card, rating: .good, at: Self.start, fuzzSeed: 0)
        let rawDays = unfuzzed.stability! * (pow(0.9, 1 / plain.model.decay) - 1) / plain.model.factor
        let bounds = FSRSScheduler.fuzzBounds(rawDays, minimum: 1, maximum: 36_500)
        var seen: [Int: Int] = [:]
        for count in 0..<5_000 {
            let seed = FSRSScheduler.fuzzSeed(cardID: 1_711_684_180_217, reviewCount: count)
            let next = fuzzed.review(card, rating: .good, at: Self.start, fuzzSeed: seed)
            #expect(next == fuzzed.review(card, rating: .good, at: Self.start, fuzzSeed: seed))
            #expect(next.stability == unfuzzed.stability)
            let days = Int((next.due.timeIntervalSince(Self.start) / 86_400).rounded())
            seen[days, default: 0] += 1
        }
        #expect(Set(seen.keys) == Set(bounds.lower...bounds.upper))
        // Uniform: no day gets more than twice its fair share.
        let fair = 5_000 / (bounds.upper - bounds.lower + 1)
        #expect(seen.values.allSatisfy { $0 < 2 * fair && $0 > fair / 2 })
        for seed in [UInt64.min, 1, 2, .max] {
            let u = FSRSScheduler.unitFraction(seed: seed)
            #expect(u >= 0 && u < 1)
        }
    }

    @Test("fuzz never leaves the maximum interval")
    func fuzzMaximum() throws {
        let scheduler = try Self.scheduler(fuzz: true) { $0.maximumInterval = 30 }
        let card = FSRSCard(
            state: .review, step: nil, stability: 29, difficulty: 5, due: Self.start,
            lastReview: Self.start.addingTimeInterval(-29 * 86_400))
        for seed in 0..<2_000 as Range<UInt64> {
            let next = scheduler.review(card, rating: .easy, at: Self.start, fuzzSeed: seed)
            #expect(next.due <= Self.start.addingTimeInterval(30 * 86_400))
        }
    }

    @Test("invalid configurations are refused with every problem named")
    func validation() {
        var configuration = FSRSConfiguration()
        configuration.parameters[7] = 0.9
        configuration.desiredRetention = 1
        configuration.learningSteps = [60, -5]
        configuration.maximumInterval = 0
        configuration.dayCounting = .rollover(hourOfDay: 24, timeZone: TimeZone(identifier: "UTC")!)
        #expect {
            try FSRSScheduler(configuration: configuration)
        } throws: { error in
            guard let error = error as? FSRSConfigurationError else { return false }
            return error.problems.count == 5 && error.description.contains("parameters[7]")
        }
        var short = FSRSConfiguration()
        short.parameters.removeLast()
        #expect(throws: FSRSConfigurationError.self) { try FSRSScheduler(configuration: short) }
        #expect(throws: Never.self) { try FSRSScheduler() }
    }

    @Test("steps and parameters are read from text")
    func parsing() {
        #expect(FSRSConfiguration.parseSteps("1m,10m") == [60, 600])
        #expect(FSRSConfiguration.parseSteps(" 30s , 1h, 1d, 90") == [30, 3_600, 86_400, 90])
        #expect(FSRSConfiguration.parseSteps("1.5m") == [90])
        #expect(FSRSConfiguration.parseSteps("") == [])
        #expect(FSRSConfiguration.parseSteps("10x") == nil)
        #expect(FSRSConfiguration.parseSteps("0m") == nil)
        #expect(FSRSConfiguration.parseSteps("m") == nil)
        let text = FSRSConfiguration.defaultParameters.map { String($0) }.joined(separator: ", ")
        #expect(FSRSConfiguration.parseParameters("[\(text)]") == FSRSConfiguration.defaultParameters)
        #expect(FSRSConfiguration.parseParameters("1, two") == nil)
    }

    @Test("cards and configurations survive a JSON round trip")
    func codable() throws {
        let configuration = FSRSConfiguration(
            desiredRetention: 0.85, learningSteps: [30], dayCounting: .twentyFourHourPeriods)
        let decoded = try JSONDecoder().decode(FSRSConfiguration.self, from: JSONEncoder().encode(configuration))
        #expect(decoded == configuration)
        let card = try Self.scheduler().review(.new(due: Self.start), rating: .good, at: Self.start, fuzzSeed: 0)
        #expect(try JSONDecoder().decode(FSRSCard.self, from: JSONEncoder().encode(card)) == card)
    }

    @Test("replaying an interleaved log equals replaying each card on its own")
    func replayInterleaved() throws {
        let scheduler = try Self.scheduler(fuzz: true, dayCounting: .ankiDefaultUTC)
        let log = FSRSReplay.syntheticLog(reviews: 3_000, cards: 40, seed: 3, scheduler: scheduler)
        let steps = FSRSReplay.run(log, scheduler: scheduler)
        #expect(steps.count == log.count)
        for cardID in Set(log.map(\.cardID)).prefix(10) {
            let own = log.filter { $0.cardID == cardID }.map { (rating: $0.rating, time: $0.time) }
            let alone = scheduler.replay(own, cardID: cardID)
            #expect(steps.filter { $0.cardID == cardID }.map(\.card) == alone)
        }
        // The synthetic log is deterministic.
        let again = FSRSReplay.syntheticLog(reviews: 3_000, cards: 40, seed: 3, scheduler: scheduler)
        #expect(again.map(\.time) == log.map(\.time) && again.map(\.rating) == log.map(\.rating))
    }

    @Test("replay prints one JSON object per review with the agreed keys")
    func jsonLines() throws {
        let csv = """
            card_id,review_rating,review_time,review_duration
            7,3,2024-03-29T20:32:32.250000+00:00,100
            7,3,2024-03-29T20:42:40.000000+00:00,100
            """
        let rows = try ReviewLogCSV.parse(csv)
        let steps = FSRSReplay.run(rows, scheduler: try Self.scheduler())
        let lines = steps.map(FSRSReplay.jsonLine)
        #expect(
            lines[0]
                == #"{"card_id":7,"review_time":"2024-03-29T20:32:32.250Z","rating":3,"state":"learning","step":1,"stability":2.3065,"difficulty":2.118103970459015,"due":"2024-03-29T20:42:32.250Z"}"#
        )
        let second = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        #expect(second?["state"] as? String == "review")
        #expect(second?["step"] is NSNull)
        #expect(second?["due"] as? String == "2024-03-31T20:42:40Z")
        #expect(
            Set(second?.keys.map { $0 } ?? []) == [
                "card_id", "review_time", "rating", "state", "step", "stability", "difficulty", "due",
            ])
    }
}

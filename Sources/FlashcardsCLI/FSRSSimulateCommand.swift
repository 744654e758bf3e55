import ArgumentParser
import FlashcardsCore
import Foundation

/// A simulation scenario as `scripts/fsrs/anki_reference.py` reads it too, so both sides run the same
/// stack: review cards with memory states, new cards, settings, and (for the load balancer) ratings.
struct FSRSScenario: Decodable {
    struct Card: Decodable {
        var note: Int
        var stability: Double
        var difficulty: Double
        var lastReviewDaysAgo: Int
        var dueInDays: Int
    }

    var seed: UInt64
    var startDate: String
    var parameters: [Double]
    var desiredRetention: Double
    var days: Int
    var newCardsPerDay: Int
    var maxReviewsPerDay: Int
    var maxInterval: Int
    var learningSteps: [Double]
    var relearningSteps: [Double]
    var easyDays: [Double]
    var newCards: Int
    var cards: [Card]
    var ratings: [Int]

    static func read(_ path: String) throws -> FSRSScenario {
        do {
            return try JSONDecoder().decode(FSRSScenario.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ValidationError("cannot read the scenario \(path): \(error)")
        }
    }

    /// Easy days from weights (1 normal, 0 minimum, else reduced), as Anki reads them.
    static func easyDays(_ weights: [Double]) throws -> [EasyDay] {
        guard weights.count == 7 else { throw ValidationError("easy days must name 7 weekdays") }
        return weights.map { $0 >= 1 ? .normal : $0 <= 0 ? .minimum : .reduced }
    }

    /// Day 0's learner day number.
    func startDay() throws -> Int {
        let parts = startDate.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { throw ValidationError("startDate must be YYYY-MM-DD") }
        return CivilDate.days(year: parts[0], month: parts[1], day: parts[2])
    }

    func settings(loadBalancing: Bool, easyDays override: [Double]?) throws -> FSRSSimulator.Settings {
        let settings = FSRSSimulator.Settings(
            parameters: parameters, desiredRetention: desiredRetention, days: days, newCards: newCards,
            newCardsPerDay: newCardsPerDay, maximumReviewsPerDay: maxReviewsPerDay, maximumInterval: maxInterval,
            learningStepCount: learningSteps.count, relearningStepCount: relearningSteps.count,
            easyDays: try Self.easyDays(override ?? easyDays),
            startWeekday: CivilDate.weekday(daysSince1970: try startDay()), loadBalancing: loadBalancing, seed: seed)
        guard settings.problems.isEmpty else { throw ValidationError(settings.problems.joined(separator: "; ")) }
        return settings
    }

    var simulatorCards: [FSRSSimulator.Card] {
        cards.map {
            FSRSSimulator.Card(
                stability: $0.stability, difficulty: $0.difficulty, lastReviewDay: -$0.lastReviewDaysAgo,
                dueDay: $0.dueInDays)
        }
    }
}

/// One JSON object on standard output, keys sorted (the scenario commands' output).
private func printJSON(_ object: [String: Any]) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

/// `flashcards fsrs simulate SCENARIO`: the FSRS simulator on a scenario, as JSON.
struct FSRSSimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate a scenario's days (JSON, see scripts/fsrs/README.md) and print the figures as JSON.")

    @Argument(help: "Scenario JSON file.")
    var scenario: String

    @Flag(inversion: .prefixedNo, help: "Place intervals with the load balancer and easy days.")
    var loadBalancer = true

    @Flag(help: "Also simulate every retention of the retention advice (0.70 … 0.97).")
    var retentionSweep = false

    @Option(help: "Minutes per day for the recommendation of --retention-sweep.")
    var minutesPerDay: Int?

    func run() async throws {
        let scenario = try FSRSScenario.read(scenario)
        let settings = try scenario.settings(loadBalancing: loadBalancer, easyDays: nil)
        let cards = scenario.simulatorCards
        let clock = ContinuousClock()
        var result: FSRSSimulator.Result?
        let elapsed = clock.measure { result = FSRSSimulator.run(settings, cards: cards) }
        var object: [String: Any] = [
            "reviews": result!.reviews, "learned": result!.learned, "recalled": result!.recalled,
            "seconds": result!.seconds, "memorized": result!.memorized,
            "averageReviews": result!.averageReviews, "averageMinutes": result!.averageMinutes,
            "finalMemorized": result!.finalMemorized, "milliseconds": Self.milliseconds(elapsed),
        ]
        if retentionSweep {
            var advice: FSRSRetentionAdvice.Advice?
            let sweep = clock.measure {
                advice = FSRSRetentionAdvice.advise(
                    settings: settings, cards: cards, behaviour: .defaults, minutesBudget: minutesPerDay,
                    current: settings.desiredRetention)
            }
            object["sweep"] = advice!.options.map {
                [
                    "desiredRetention": $0.desiredRetention, "reviewsPerDay": $0.reviewsPerDay,
                    "minutesPerDay": $0.minutesPerDay, "remembered": $0.remembered,
                ]
            }
            object["recommended"] = advice!.recommended
            object["reason"] = advice!.reason.rawValue
            object["sweepMilliseconds"] = Self.milliseconds(sweep)
        }
        try printJSON(object)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// `flashcards fsrs load-balance SCENARIO`: the real scheduler over the scenario's days, every due
/// card answered with the scenario's ratings, as JSON.
struct FSRSLoadBalanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load-balance",
        abstract: "Answer a scenario's cards day by day with the scheduler and print the daily load as JSON.")

    @Argument(help: "Scenario JSON file.")
    var scenario: String

    @Flag(inversion: .prefixedNo, help: "Choose due days with the load balancer (else: plain fuzz).")
    var loadBalancer = true

    @Option(help: "Easy-day weights Monday … Sunday, e.g. 1,1,1,1,1,1,0 (default: the scenario's).")
    var easyDays: String?

    func run() async throws {
        let scenario = try FSRSScenario.read(scenario)
        let override = try easyDays.map { text -> [Double] in
            let values = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard values.count == 7 else { throw ValidationError("--easy-days needs 7 numbers") }
            return values
        }
        let weekdays = try FSRSScenario.easyDays(override ?? scenario.easyDays)
        var configuration = FSRSConfiguration(
            parameters: scenario.parameters, desiredRetention: scenario.desiredRetention,
            learningSteps: scenario.learningSteps.map { $0 * 60 },
            relearningSteps: scenario.relearningSteps.map { $0 * 60 },
            maximumInterval: scenario.maxInterval, fuzz: true)
        configuration.dayCounting = .rollover(hourOfDay: 4, timeZone: .gmt)
        let scheduler: FSRSScheduler
        do { scheduler = try FSRSScheduler(configuration: configuration) } catch {
            throw ValidationError(error.description)
        }
        var run = LoadBalanceRun(
            scheduler: scheduler, scenario: scenario, startDay: try scenario.startDay(), weekdays: weekdays,
            balance: loadBalancer)
        let report = run.answerEveryDay()
        try printJSON(report)
    }
}

/// Drives `FSRSScheduler` the way a learner who studies every day would.
private struct LoadBalanceRun {
    let scheduler: FSRSScheduler
    let scenario: FSRSScenario
    let startDay: Int
    let weekdays: [EasyDay]
    let balance: Bool
    var cards: [FSRSCard] = []
    var answers: [Int] = []
    /// Cards due on each learner day.
    var dueCounts: [Int: Int] = [:]
    /// The cards of each note.
    var cardsOfNote: [Int: [Int]] = [:]

    init(scheduler: FSRSScheduler, scenario: FSRSScenario, startDay: Int, weekdays: [EasyDay], balance: Bool) {
        self.scheduler = scheduler
        self.scenario = scenario
        self.startDay = startDay
        self.weekdays = weekdays
        self.balance = balance
        for card in scenario.cards {
            var state = FSRSCard.new(due: scheduler.startOfDay(startDay + card.dueInDays))
            state.state = .review
            state.stability = card.stability
            state.difficulty = card.difficulty
            state.lastReview = scheduler.startOfDay(startDay - card.lastReviewDaysAgo).addingTimeInterval(36_000)
            cards.append(state)
            answers.append(0)
            dueCounts[startDay + card.dueInDays, default: 0] += 1
            cardsOfNote[card.note, default: []].append(cards.count - 1)
        }
    }

    mutating func answerEveryDay() -> [String: Any] {
        var daily: [Int] = []
        var siblingPairs = 0
        var byWeekday = [Int](repeating: 0, count: 7)
        for offset in 0..<scenario.days {
            let day = startDay + offset
            let now = scheduler.startOfDay(day).addingTimeInterval(36_000)
            let due = cards.indices.filter { scheduler.dayNumber(of: cards[$0].due) <= day }
            var notes: [Int: Int] = [:]
            for index in due {
                answer(index, at: now)
                notes[scenario.cards[index].note, default: 0] += 1
            }
            daily.append(due.count)
            siblingPairs += notes.values.filter { $0 > 1 }.count
            byWeekday[CivilDate.weekday(daysSince1970: day)] += due.count
        }
        // What the scheduler placed: the cards due on each of the 30 days after the last one.
        let after = startDay + scenario.days
        let next30 = (after..<after + 30).map { dueCounts[$0] ?? 0 }
        var next30ByWeekday = [Int](repeating: 0, count: 7)
        for (offset, count) in next30.enumerated() {
            next30ByWeekday[CivilDate.weekday(daysSince1970: after + offset)] += count
        }
        // Of these, the cards answered in the run: their due day is the scheduler's choice.
        var placedByWeekday = [Int](repeating: 0, count: 7)
        for index in cards.indices where answers[index] > 0 {
            let day = scheduler.dayNumber(of: cards[index].due)
            if (after..<after + 30).contains(day) { placedByWeekday[CivilDate.weekday(daysSince1970: day)] += 1 }
        }
        return [
            "dailyReviews": daily, "peakToMean": Self.peakToMean(daily.dropFirst()),
            "siblingPairsSameDay": siblingPairs, "reviewsByWeekday": byWeekday, "dueNext30": next30,
            "dueNext30PeakToMean": Self.peakToMean(next30[...]), "dueNext30ByWeekday": next30ByWeekday,
            "placedDueNext30ByWeekday": placedByWeekday,
        ]
    }

    static func peakToMean(_ counts: ArraySlice<Int>) -> Double {
        let mean = Double(counts.reduce(0, +)) / Double(max(counts.count, 1))
        return mean > 0 ? Double(counts.max()!) / mean : 0
    }

    /// Answers card `index` with its next scenario rating; a lapse is answered Good through its
    /// relearning steps.
    private mutating func answer(_ index: Int, at now: Date) {
        let ratings = scenario.ratings.isEmpty ? [3] : scenario.ratings
        let rating = FSRSRating(rawValue: ratings[(index + answers[index]) % ratings.count]) ?? .good
        var card = cards[index]
        let oldDay = scheduler.dayNumber(of: card.due)
        var time = now
        card = review(card, index: index, rating: rating, at: time)
        while card.state != .review {
            time = max(card.due, time)
            card = review(card, index: index, rating: .good, at: time)
        }
        dueCounts[oldDay, default: 0] -= 1
        dueCounts[scheduler.dayNumber(of: card.due), default: 0] += 1
        cards[index] = card
    }

    private mutating func review(_ card: FSRSCard, index: Int, rating: FSRSRating, at time: Date) -> FSRSCard {
        let today = scheduler.dayNumber(of: time)
        let note = scenario.cards[index].note
        let siblings = (cardsOfNote[note] ?? []).filter { $0 != index }
            .map { scheduler.dayNumber(of: cards[$0].due) - today }
        let counts = dueCounts
        let weekdays = weekdays
        let days = FSRSLoadBalancer.Days(
            dueCount: { counts[today + $0] ?? 0 },
            weight: { weekdays[CivilDate.weekday(daysSince1970: today + $0)].weight }, siblingDays: siblings)
        let seed = FSRSScheduler.fuzzSeed(cardID: Int64(index + 1), reviewCount: answers[index])
        answers[index] += 1
        return scheduler.review(card, rating: rating, at: time, fuzzSeed: seed, load: balance ? days : nil)
    }
}

/// `flashcards fsrs evaluate LOG`: log loss and RMSE(bins) of parameters on a review log.
struct FSRSEvaluateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Log loss and RMSE(bins) of FSRS-6 parameters on a review log CSV, as JSON.")

    @Argument(help: "Review log CSV file (card_id,review_rating,review_time,review_duration).")
    var file: String

    @Option(help: "21 comma-separated FSRS-6 parameters (default: FSRS-6 defaults).")
    var parameters: String?

    @Option(help: "Hour (0-23) at which a new day starts.")
    var dayStart: Int = 4

    func run() async throws {
        let weights = try parameters.map { text -> [Double] in
            guard let values = FSRSConfiguration.parseParameters(text) else {
                throw ValidationError("--parameters must be 21 numbers separated by commas")
            }
            return values
        }
        let rows = try ReviewLogCSV.parse(try String(contentsOfFile: file, encoding: .utf8))
        let histories = FSRSReviewHistory.histories(
            from: rows, dayCounting: .rollover(hourOfDay: dayStart, timeZone: .gmt))
        let result = try FSRSEvaluator.evaluate(
            parameters: weights ?? FSRSConfiguration.defaultParameters, histories: histories)
        let object: [String: Any] = ["logLoss": result.logLoss, "rmseBins": result.rmseBins, "reviews": result.reviews]
        try printJSON(object)
    }
}

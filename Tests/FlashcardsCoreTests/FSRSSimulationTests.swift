import Foundation
import Testing

@testable import FlashcardsCore

@Suite("FSRS load balancer")
struct FSRSLoadBalancerTests {
    static func days(_ counts: [Int: Int], weights: [Int: Double] = [:], siblings: [Int] = []) -> FSRSLoadBalancer.Days
    {
        FSRSLoadBalancer.Days(
            dueCount: { counts[$0] ?? 0 }, weight: { weights[$0] ?? 1 }, siblingDays: siblings)
    }

    /// The day chosen for each of `n` evenly spread fractions.
    static func picks(_ interval: Double, _ days: FSRSLoadBalancer.Days, n: Int = 1_000) -> [Int: Int] {
        var picks: [Int: Int] = [:]
        for i in 0..<n {
            let day = FSRSLoadBalancer.interval(interval, maximum: 36_500, days: days, fraction: Double(i) / Double(n))!
            picks[day, default: 0] += 1
        }
        return picks
    }

    @Test("a day stays within the fuzz range and the emptiest day wins most draws")
    func prefersEmptyDays() {
        let (lower, upper) = FSRSScheduler.fuzzBounds(20, minimum: 1, maximum: 36_500)
        var counts: [Int: Int] = [:]
        for day in lower...upper { counts[day] = 50 }
        counts[upper] = 5
        let picks = Self.picks(20, Self.days(counts))
        #expect(picks.keys.allSatisfy { (lower...upper).contains($0) })
        #expect(picks[upper]! > 900)
        // With equal loads, shorter intervals are preferred ((1/interval)^3).
        var even: [Int: Int] = [:]
        for day in lower...upper { even[day] = 10 }
        let evenPicks = Self.picks(20, Self.days(even))
        #expect(evenPicks[lower]! > evenPicks[upper]!)
        let spread = upper - lower + 1
        #expect(evenPicks.count == spread)
    }

    @Test("a minimum day is nearly never chosen, a range of only minimum days is widened")
    func minimumDays() {
        let (lower, upper) = FSRSScheduler.fuzzBounds(10, minimum: 1, maximum: 36_500)
        let minimum = lower + 1
        let picks = Self.picks(10, Self.days([:], weights: [minimum: EasyDay.minimum.weight]))
        #expect(picks[minimum, default: 0] <= 1)
        // Interval 2 has no fuzz: day 2 alone; when it is a minimum day, day 1 or 3 is taken.
        let short = Self.picks(2, Self.days([:], weights: [2: EasyDay.minimum.weight]))
        #expect(short[2] == nil)
        #expect(Set(short.keys) == [1, 3])
    }

    @Test("a reduced day takes cards only while it holds less than half a normal day's load")
    func reducedDays() {
        let modifiers = FSRSLoadBalancer.easyDayModifiers(weights: [1, 0.5, 1], counts: [10, 4, 10])
        #expect(modifiers == [1, 1, 1])
        let full = FSRSLoadBalancer.easyDayModifiers(weights: [1, 0.5, 1], counts: [10, 6, 10])
        #expect(full == [1, FSRSLoadBalancer.minimumWeight, 1])
    }

    @Test("days holding a sibling, and their neighbours, are avoided")
    func siblings() {
        let (lower, upper) = FSRSScheduler.fuzzBounds(30, minimum: 1, maximum: 36_500)
        let sibling = (lower + upper) / 2
        let picks = Self.picks(30, Self.days([:], siblings: [sibling]))
        #expect(picks[sibling] == nil)
        #expect(FSRSLoadBalancer.siblingModifier(day: sibling + 2, siblingDays: [sibling]) == 0.4)
        #expect(FSRSLoadBalancer.siblingModifier(day: sibling + 7, siblingDays: [sibling]) == 1)
    }

    @Test("long intervals are not balanced; weekdays count from a Thursday (CivilDate)")
    func longIntervals() {
        #expect(FSRSLoadBalancer.interval(91, maximum: 36_500, days: Self.days([:]), fraction: 0.5) == nil)
        #expect(FSRSLoadBalancer.interval(30, maximum: 25, days: Self.days([:]), fraction: 0.99)! <= 25)
        #expect(CivilDate.weekday(daysSince1970: 0) == 3)
        #expect(CivilDate.weekday(daysSince1970: -1) == 2)
        // 2026-12-07 is a Monday.
        let monday = CivilDate.days(year: 2026, month: 12, day: 7)
        #expect(CivilDate.weekday(daysSince1970: monday) == 0)
    }
}

@Suite("FSRS simulator")
struct FSRSSimulatorTests {
    /// `count` review cards with stabilities 1 … 200 days, due over the next 60 days.
    static func cards(_ count: Int, seed: UInt64 = 7) -> [FSRSSimulator.Card] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let stability = exp(random.nextUnit() * log(200))
            let due = Int(random.nextUnit() * 60) - 3
            let last = min(0, due - max(1, Int(stability.rounded())))
            return FSRSSimulator.Card(
                stability: stability, difficulty: 1 + 9 * random.nextUnit(), lastReviewDay: last, dueDay: due)
        }
    }

    @Test("the same input gives the same result, another seed another one")
    func deterministic() {
        let settings = FSRSSimulator.Settings(days: 60, newCards: 200, newCardsPerDay: 10)
        let cards = Self.cards(500)
        let first = FSRSSimulator.run(settings, cards: cards)
        #expect(first == FSRSSimulator.run(settings, cards: cards))
        var other = settings
        other.seed = 43
        #expect(first != FSRSSimulator.run(other, cards: cards))
    }

    @Test("nothing studied and nothing new: no work and nothing remembered")
    func empty() {
        let result = FSRSSimulator.run(FSRSSimulator.Settings(days: 30, newCards: 0), cards: [])
        #expect(result.reviews.allSatisfy { $0 == 0 } && result.seconds.allSatisfy { $0 == 0 })
        #expect(result.finalMemorized == 0)
    }

    @Test("new cards come at the daily rate; reviews stay within the daily limit")
    func limits() {
        let settings = FSRSSimulator.Settings(days: 30, newCards: 95, newCardsPerDay: 10, maximumReviewsPerDay: 25)
        let result = FSRSSimulator.run(settings, cards: Self.cards(2_000))
        #expect(result.learned.prefix(9).allSatisfy { $0 == 10 })
        #expect(result.learned.reduce(0, +) == 95)
        #expect(result.reviews.allSatisfy { $0 <= 25 })
        #expect(result.reviews.contains(25))
        #expect(zip(result.recalled, result.reviews).allSatisfy { $0 <= $1 })
    }

    @Test("memorized on day 0 is the cards' retrievability when nothing is due")
    func memorizedStart() {
        let cards = [
            FSRSSimulator.Card(stability: 10, difficulty: 5, lastReviewDay: -5, dueDay: 5),
            FSRSSimulator.Card(stability: 2, difficulty: 5, lastReviewDay: -1, dueDay: 1),
        ]
        let result = FSRSSimulator.run(FSRSSimulator.Settings(days: 3, newCards: 0), cards: cards)
        let model = FSRSModel(parameters: FSRSConfiguration.defaultParameters)
        let expected =
            model.retrievability(elapsedDays: 5, stability: 10) + model.retrievability(elapsedDays: 1, stability: 2)
        #expect(abs(result.memorized[0] - expected) < 1e-9)
        #expect(result.reviews == [0, 1, 0])
    }

    @Test("a higher retention costs more reviews and remembers more")
    func retentionTradeOff() {
        let cards = Self.cards(2_000)
        var settings = FSRSSimulator.Settings(days: 120, newCards: 500, newCardsPerDay: 5)
        settings.desiredRetention = 0.75
        let low = FSRSSimulator.run(settings, cards: cards)
        settings.desiredRetention = 0.95
        let high = FSRSSimulator.run(settings, cards: cards)
        let (highReviews, lowReviews) = (high.reviews.reduce(0, +), low.reviews.reduce(0, +))
        #expect(Double(highReviews) > 1.5 * Double(lowReviews))
        #expect(high.finalMemorized > low.finalMemorized)
    }

    @Test("a minimum weekday gets at most 5 % of the reviews it gets without easy days")
    func easyDays() {
        // Due Monday to Saturday of the first week: every later due day is the balancer's choice.
        let cards = Self.cards(3_000).enumerated().map { index, card in
            var card = card
            card.dueDay = index % 6
            card.lastReviewDay = min(card.lastReviewDay, card.dueDay - 1)
            return card
        }
        var settings = FSRSSimulator.Settings(days: 63, newCards: 300, newCardsPerDay: 10)
        let normal = FSRSSimulator.run(settings, cards: cards)
        settings.easyDays = [.normal, .normal, .normal, .normal, .normal, .normal, .minimum]
        let sundaysOff = FSRSSimulator.run(settings, cards: cards)
        // Day 0 is a Monday.
        let sundays = stride(from: 13, to: 63, by: 7)
        let before = sundays.map { normal.reviews[$0] }.reduce(0, +)
        let after = sundays.map { sundaysOff.reviews[$0] }.reduce(0, +)
        #expect(Double(after) <= 0.05 * Double(before), "Sunday reviews \(after) vs \(before)")
        // The reviews went to other days rather than being lost.
        let total = { (r: FSRSSimulator.Result) in Double(r.reviews.reduce(0, +)) }
        #expect(abs(total(sundaysOff) - total(normal)) < 0.05 * total(normal))
    }

    @Test("load balancing evens out the daily reviews")
    func loadBalancing() {
        var cards = Self.cards(1_000)
        // A clump: 400 cards all due on day 10.
        for index in 0..<400 { cards[index].dueDay = 10 }
        var settings = FSRSSimulator.Settings(days: 60, newCards: 0, loadBalancing: false)
        let plain = FSRSSimulator.run(settings, cards: cards)
        settings.loadBalancing = true
        let balanced = FSRSSimulator.run(settings, cards: cards)
        // After the clump: the days that its cards come back on.
        let peakToMean = { (r: FSRSSimulator.Result) -> Double in
            let window = r.reviews[20..<60].map(Double.init)
            return window.max()! / (window.reduce(0, +) / Double(window.count))
        }
        #expect(peakToMean(balanced) < peakToMean(plain))
    }
}

@Suite("Retention advice")
struct FSRSRetentionAdviceTests {
    static func option(_ retention: Double, minutes: Double, perMinute: Double) -> FSRSRetentionAdvice.Option {
        FSRSRetentionAdvice.Option(
            desiredRetention: retention, reviewsPerDay: minutes, minutesPerDay: minutes, remembered: 0,
            rememberedPerMinute: perMinute)
    }

    @Test("the best per minute among the retentions within the budget")
    func recommend() {
        let options = [
            Self.option(0.7, minutes: 5, perMinute: 1.0), Self.option(0.8, minutes: 8, perMinute: 1.2),
            Self.option(0.9, minutes: 15, perMinute: 1.5), Self.option(0.95, minutes: 30, perMinute: 1.1),
        ]
        #expect(FSRSRetentionAdvice.recommend(options, minutesBudget: 10, current: 0.9) == (0.8, .withinBudget))
        #expect(FSRSRetentionAdvice.recommend(options, minutesBudget: nil, current: 0.9) == (0.9, .noBudget))
        #expect(FSRSRetentionAdvice.recommend(options, minutesBudget: 2, current: 0.9) == (0.7, .overBudget))
        let idle = options.map { Self.option($0.desiredRetention, minutes: 0, perMinute: 0) }
        #expect(FSRSRetentionAdvice.recommend(idle, minutesBudget: 10, current: 0.85) == (0.85, .nothingToStudy))
    }

    @Test("advice simulates every retention from the learner's cards")
    func advise() {
        let settings = FSRSSimulator.Settings(days: 90, newCards: 100, newCardsPerDay: 5)
        let advice = FSRSRetentionAdvice.advise(
            settings: settings, cards: FSRSSimulatorTests.cards(500), behaviour: .defaults, minutesBudget: 20,
            current: 0.9)
        #expect(advice.options.map(\.desiredRetention) == FSRSRetentionAdvice.retentions)
        #expect(advice.options.first!.minutesPerDay < advice.options.last!.minutesPerDay)
        #expect(advice.options.first!.remembered < advice.options.last!.remembered)
        let chosen = advice.options.first { $0.desiredRetention == advice.recommended }!
        #expect(chosen.minutesPerDay <= 20)
        #expect(advice.reason == .withinBudget)
    }
}

@Suite("Answer behaviour")
struct FSRSBehaviourTests {
    @Test("the learner's own figures replace the defaults once there are enough answers")
    func measured() {
        var answers: [FSRSBehaviour.Answer] = []
        for i in 0..<40 {
            answers.append(.init(phase: .learning, rating: i < 10 ? .again : .good, seconds: 8, isFirst: true))
            answers.append(.init(phase: .review, rating: .good, seconds: Double(i % 5 + 3), isFirst: false))
        }
        answers.append(.init(phase: .review, rating: .good, seconds: 5_000, isFirst: false))
        let behaviour = FSRSBehaviour.measured(from: answers)
        #expect(behaviour.firstRating == [0.25, 0, 0.75, 0])
        #expect(behaviour.reviewRating == [0, 1, 0])
        #expect(behaviour.seconds[1][2] == 5)
        // Too few Easy answers in review: the default stays.
        #expect(behaviour.seconds[1][3] == FSRSBehaviour.defaults.seconds[1][3])
        #expect(FSRSBehaviour.measured(from: []) == .defaults)
    }
}

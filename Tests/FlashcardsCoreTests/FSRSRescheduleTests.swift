import Foundation
import Testing

@testable import FlashcardsCore

@Suite("Breaks, postponing and advancing")
struct FSRSRescheduleTests {
    static let model = FSRSModel(parameters: FSRSConfiguration.defaultParameters)

    /// 200 cards due over days 0 … 39, with stabilities from 2 to 400 days, last reviewed an interval ago.
    static func cards() -> [FSRSReschedule.Card] {
        (0..<200).map { id in
            let stability = 2 + Double(id * 2)
            let due = id % 40
            return FSRSReschedule.Card(
                id: id, dueDay: due, lastReviewDay: due - max(1, Int(stability * 0.9)), stability: stability)
        }
    }

    @Test("a break empties its days; the cards that keep their recall wait, the others come before")
    func breakPlan() {
        let cards = Self.cards()
        var base: [Int: Int] = [:]
        for card in cards { base[card.dueDay, default: 0] += 1 }
        let plan = FSRSReschedule.planBreak(
            cards: cards, today: 0, first: 10, last: 19, load: { base[$0] ?? 0 }, model: Self.model, floor: 0.9)
        let inBreak = cards.filter { (10...19).contains($0.dueDay) }
        #expect(plan.advanced.count + plan.postponed.count == inBreak.count)
        #expect(!plan.advanced.isEmpty && !plan.postponed.isEmpty)
        #expect(plan.daysBefore == 5...9 && plan.daysAfter == 20...29)
        #expect(plan.advanced.values.allSatisfy { (5...9).contains($0) })
        #expect(plan.postponed.values.allSatisfy { (20...29).contains($0) })
        // Postponed: recall on the day after the break stays at or above the floor.
        for (id, _) in plan.postponed {
            #expect(cards[id].recall(on: 20, model: Self.model) >= 0.9)
        }
        for (id, _) in plan.advanced {
            #expect(cards[id].recall(on: 20, model: Self.model) < 0.9)
        }
        // No wall: every day after the break holds about the same number of cards.
        var after = base
        for card in inBreak { after[card.dueDay, default: 0] -= 1 }
        for day in plan.postponed.values { after[day, default: 0] += 1 }
        for day in plan.advanced.values { after[day, default: 0] += 1 }
        let counts = (20...29).map { after[$0] ?? 0 }
        #expect(counts.max()! - counts.min()! <= 1, "\(counts) \(plan.postponed.count) \(plan.advanced.count)")
        #expect((10...19).allSatisfy { (after[$0] ?? 0) == 0 })
        // The most at risk come back first.
        let first = plan.postponed.filter { $0.value == 20 }.map { cards[$0.key].recall(on: 20, model: Self.model) }
        let last = plan.postponed.filter { $0.value == 29 }.map { cards[$0.key].recall(on: 20, model: Self.model) }
        if let high = first.max(), let low = last.min() { #expect(high <= low) }
    }

    @Test("a break from today leaves no day before it: everything waits")
    func breakFromToday() {
        let cards = Self.cards()
        let plan = FSRSReschedule.planBreak(
            cards: cards, today: 3, first: 0, last: 4, load: { _ in 0 }, model: Self.model, floor: 0.99)
        #expect(plan.daysBefore == nil && plan.advanced.isEmpty)
        #expect(plan.postponed.count == cards.filter { (3...4).contains($0.dueDay) }.count)
        #expect(plan.daysAfter == 5...6)
    }

    @Test("postponing takes the safest due cards by a tenth of their interval; advancing the closest")
    func postponeAndAdvance() {
        let cards = Self.cards()
        let postponed = FSRSReschedule.postpone(10, of: cards, today: 5, model: Self.model)
        #expect(postponed.count == 10)
        let due = cards.filter { $0.dueDay <= 5 }
        let safest = due.map { $0.recall(on: 5, model: Self.model) }.sorted(by: >)
        for (id, day) in postponed {
            let card = cards[id]
            #expect(card.dueDay <= 5)
            #expect(card.recall(on: 5, model: Self.model) >= safest[9])
            #expect(day == 5 + max(1, Int((Double(card.dueDay - card.lastReviewDay) / 10).rounded())))
        }
        let advanced = FSRSReschedule.advance(7, of: cards, today: 5, model: Self.model)
        #expect(advanced.count == 7 && advanced.values.allSatisfy { $0 == 5 })
        #expect(advanced.keys.allSatisfy { cards[$0].dueDay > 5 })
        #expect(
            FSRSReschedule.advance(1_000, of: cards, today: 5, model: Self.model).count
                == cards.filter { $0.dueDay > 5 }.count)
        #expect(FSRSReschedule.postpone(0, of: cards, today: 5, model: Self.model).isEmpty)
    }
}

@Suite("Learning steps left to FSRS")
struct FSRSShortTermTests {
    static let now = Date(timeIntervalSince1970: 1_781_344_800)

    static func scheduler(shortTerm: Bool, learning: [TimeInterval] = [], relearning: [TimeInterval] = []) throws
        -> FSRSScheduler
    {
        try FSRSScheduler(
            configuration: FSRSConfiguration(
                learningSteps: learning, relearningSteps: relearning, fuzz: false, schedulesShortTerm: shortTerm))
    }

    @Test("without steps a card stays for today while its interval is under a day; py-fsrs graduates it")
    func sameDay() throws {
        let fsrs = try Self.scheduler(shortTerm: true)
        let new = FSRSCard.new(due: Self.now)
        // Again: S₀ = w0 = 0.212 days, about five hours at 90 %.
        let again = fsrs.review(new, rating: .again, at: Self.now, fuzzSeed: 1)
        #expect(again.state == .learning && again.step == 0)
        let delay = again.due.timeIntervalSince(Self.now)
        #expect(abs(delay - (again.stability! * fsrs.intervalPerStability * 86_400).rounded()) < 1)
        #expect(delay > 3_600 && delay < 86_400)
        // Reviewed the same day, its short-term stability (w17–w19) grows with Good.
        let later = Self.now.addingTimeInterval(delay)
        let good = fsrs.review(again, rating: .good, at: later, fuzzSeed: 2)
        #expect(good.stability! > again.stability!)
        #expect(good.stability! == fsrs.model.shortTermStability(again.stability!, rating: .good))
        // Good on a new card: S₀ = 2.3 days, it graduates to review.
        #expect(fsrs.review(new, rating: .good, at: Self.now, fuzzSeed: 3).state == .review)
        // A lapse of a review card without relearning steps relearns the same day when S falls under a day.
        var review = fsrs.review(new, rating: .easy, at: Self.now, fuzzSeed: 4)
        #expect(review.state == .review)
        review = fsrs.review(review, rating: .again, at: review.due, fuzzSeed: 5)
        let lapse = fsrs.review(review, rating: .again, at: review.lastReview!.addingTimeInterval(60), fuzzSeed: 6)
        if lapse.stability! * fsrs.intervalPerStability < 1 {
            #expect(lapse.state == .relearning && lapse.due < lapse.lastReview!.addingTimeInterval(86_400))
        }
        // py-fsrs (the golden vectors): no steps, no same-day scheduling.
        let plain = try Self.scheduler(shortTerm: false)
        #expect(plain.review(new, rating: .again, at: Self.now, fuzzSeed: 1).state == .review)
        // With steps nothing changes.
        let stepped = try Self.scheduler(shortTerm: true, learning: [60, 600], relearning: [600])
        let first = stepped.review(new, rating: .again, at: Self.now, fuzzSeed: 1)
        #expect(first.state == .learning && first.due == Self.now.addingTimeInterval(60))
    }

    @Test("the product turns it on for its stacks")
    func productConfiguration() {
        let settings = StackSettings(scheduler: .fsrs, learningSteps: [], relearningSteps: [])
        let configuration = settings.fsrsConfiguration(parameters: nil, dayCounting: .ankiDefaultUTC)
        #expect(configuration.schedulesShortTerm && configuration.learningSteps.isEmpty)
    }
}

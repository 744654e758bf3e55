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

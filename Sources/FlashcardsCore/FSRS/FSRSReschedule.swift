import Foundation

/// Moving review cards to other days without touching their memory (docs/fsrs.md "Breaks, postponing
/// and advancing"): a planned break, and postponing or advancing part of a backlog. Only the day a card
/// is shown moves; its stability, difficulty and history stay, and its next review counts the days
/// that really passed. The choices follow what FSRS users do with the FSRS helper add-on (facts, not
/// its code): a card is postponed where its probability of recall stays high, advanced otherwise.
public enum FSRSReschedule {
    /// A review card as the planner sees it: learner days and its memory.
    public struct Card: Sendable, Hashable {
        /// The caller's id of the card.
        public var id: Int
        /// The learner day it is due on.
        public var dueDay: Int
        /// The learner day of its last review.
        public var lastReviewDay: Int
        /// Its FSRS stability in days.
        public var stability: Double

        /// Creates the card.
        public init(id: Int, dueDay: Int, lastReviewDay: Int, stability: Double) {
            self.id = id
            self.dueDay = dueDay
            self.lastReviewDay = lastReviewDay
            self.stability = stability
        }

        /// The probability of recall on learner day `day`.
        func recall(on day: Int, model: FSRSModel) -> Double {
            model.retrievability(elapsedDays: Double(max(0, day - lastReviewDay)), stability: stability)
        }
    }

    /// A break's plan: the day each moved card goes to.
    public struct BreakPlan: Sendable, Hashable {
        /// Cards moved to the days before the break.
        public var advanced: [Int: Int]
        /// Cards moved to the days after it.
        public var postponed: [Int: Int]
        /// The days the plan fills: before the break (may be empty) and after it.
        public var daysBefore: ClosedRange<Int>?
        /// The days after the break the postponed cards are spread over.
        public var daysAfter: ClosedRange<Int>
    }

    /// The longest stretch of days the cards of a break are spread over, on either side of it.
    public static let maximumSpread = 14

    /// Plans a break from learner day `first` to `last` (inclusive, `today` ≤ `last`): every card due
    /// in it goes after the break when its probability of recall on the day after the break stays at
    /// or above `floor`, else before the break (when a day before it is left; otherwise after it,
    /// most at risk first). Each side is filled evenly with the cards already due there (`load`), so
    /// neither the last days before nor the first days after are a wall of cards: after the break
    /// over as many days as it lasted (2 … 14), the most at risk first; before it over up to half as
    /// many days as it lasted (1 … 14, not before today), the earliest due first.
    public static func planBreak(
        cards: [Card], today: Int, first: Int, last: Int, load: (Int) -> Int, model: FSRSModel, floor: Double
    ) -> BreakPlan {
        let start = max(first, today)
        let length = last - start + 1
        let back = last + 1
        let spreadAfter = min(max(length, 2), maximumSpread)
        let spreadBefore = min(start - today, max(1, min(length / 2, maximumSpread)))
        let daysAfter = back...(back + spreadAfter - 1)
        let daysBefore = spreadBefore > 0 ? (start - spreadBefore)...(start - 1) : nil
        let inBreak = cards.filter { $0.dueDay >= start && $0.dueDay <= last }
        var later: [Card] = []
        var earlier: [Card] = []
        for card in inBreak {
            if daysBefore == nil || card.recall(on: back, model: model) >= floor {
                later.append(card)
            } else {
                earlier.append(card)
            }
        }
        later.sort { a, b in
            let (ra, rb) = (a.recall(on: back, model: model), b.recall(on: back, model: model))
            return ra != rb ? ra < rb : a.id < b.id
        }
        earlier.sort { $0.dueDay != $1.dueDay ? $0.dueDay < $1.dueDay : $0.id < $1.id }
        return BreakPlan(
            advanced: daysBefore.map { fill(earlier, over: $0, load: load) } ?? [:],
            postponed: fill(later, over: daysAfter, load: load), daysBefore: daysBefore, daysAfter: daysAfter)
    }

    /// Places `cards` in order over `days` so that the days end up as even as they can, counting the
    /// cards already due there (`load`): the days are filled like water to one level, the earlier days
    /// taking the one card more where the count does not divide.
    static func fill(_ cards: [Card], over days: ClosedRange<Int>, load: (Int) -> Int) -> [Int: Int] {
        guard !cards.isEmpty else { return [:] }
        let loads = days.map { max(0, load($0)) }
        let room = { (level: Int) in loads.reduce(0) { $0 + max(0, level - $1) } }
        var level = (loads.min() ?? 0) + 1
        while room(level) < cards.count { level += 1 }
        // Every day up to one below the level, and the rest one more each, earliest first.
        var counts = loads.map { max(0, level - 1 - $0) }
        var rest = cards.count - counts.reduce(0, +)
        for index in counts.indices where rest > 0 && loads[index] < level {
            counts[index] += 1
            rest -= 1
        }
        var moves: [Int: Int] = [:]
        var next = 0
        for (offset, day) in days.enumerated() {
            for _ in 0..<counts[offset] {
                moves[cards[next].id] = day
                next += 1
            }
        }
        return moves
    }

    /// Postpones up to `count` of the cards due by `today` (a backlog): those that keep the highest
    /// probability of recall now, each by a tenth of the interval it was given (at least a day).
    public static func postpone(_ count: Int, of cards: [Card], today: Int, model: FSRSModel) -> [Int: Int] {
        let due = cards.filter { $0.dueDay <= today }.sorted { a, b in
            let (ra, rb) = (a.recall(on: today, model: model), b.recall(on: today, model: model))
            return ra != rb ? ra > rb : a.id < b.id
        }
        var moves: [Int: Int] = [:]
        for card in due.prefix(max(0, count)) {
            let interval = max(1, card.dueDay - card.lastReviewDay)
            moves[card.id] = today + max(1, Int((Double(interval) / 10).rounded()))
        }
        return moves
    }

    /// Advances up to `count` of the cards due after `today` to today: those whose probability of
    /// recall now is lowest (the closest to their due day), so that reviewing early costs the least.
    public static func advance(_ count: Int, of cards: [Card], today: Int, model: FSRSModel) -> [Int: Int] {
        let ahead = cards.filter { $0.dueDay > today }.sorted { a, b in
            let (ra, rb) = (a.recall(on: today, model: model), b.recall(on: today, model: model))
            return ra != rb ? ra < rb : a.id < b.id
        }
        return Dictionary(uniqueKeysWithValues: ahead.prefix(max(0, count)).map { ($0.id, today) })
    }
}

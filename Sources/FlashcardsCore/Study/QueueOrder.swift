import Foundation

/// Which card a stack shows next and how many count as due: the rule the study stores implement in
/// SQL (one statement each), written here as a value with a reference evaluation over cards in
/// memory (`select`), which the stores are tested against.
///
/// Ladder stacks show the due card with the earliest due time (ties: the older card). FSRS stacks
/// follow Anki's order within today's allowance: a (re)learning card whose step is over first; then
/// reviews and new cards by due time, as far as today's caps allow; a learning card not yet due
/// only when nothing else is left; cards the caps hold back never.
public struct QueueOrder: Sendable, Hashable {
    /// Due cards are counted up to this many; a larger backlog reads as this number ("1000+"). A
    /// count reads one index entry per card, so an exact count of a large backlog would cost more
    /// than the rest of a rating.
    public static let dueCountLimit = 1_000

    /// How the stack's scheduler orders its cards.
    public enum Rule: Sendable, Hashable {
        /// Earliest due first, no caps.
        case ladder
        /// Anki's queue order; `now` decides whether a learning step is over, the caps are today's
        /// allowance (at most `dueCountLimit`).
        case fsrs(now: Date, reviewCap: Int, newCap: Int)
    }

    /// Cards due before this moment count as due.
    public let cutoff: Date
    /// The ordering rule.
    public let rule: Rule

    /// An order by `rule` for cards due before `cutoff`.
    public init(cutoff: Date, rule: Rule) {
        self.cutoff = cutoff
        self.rule = rule
    }

    /// The ladder's order for cards due before `cutoff`.
    public static func ladder(cutoff: Date) -> QueueOrder {
        QueueOrder(cutoff: cutoff, rule: .ladder)
    }

    /// The FSRS order for cards due before `cutoff` with today's `allowance`.
    public static func fsrs(cutoff: Date, now: Date, allowance: DailyAllowance) -> QueueOrder {
        QueueOrder(
            cutoff: cutoff,
            rule: .fsrs(
                now: now, reviewCap: min(allowance.reviewsLeft, dueCountLimit),
                newCap: min(allowance.newLeft, dueCountLimit)))
    }

    /// How a queue's first due card ranks (FSRS); the lowest rank is shown (ties: the earlier due
    /// time, then the older card).
    public enum HeadRank: Int, Sendable, Hashable, CaseIterable {
        /// A (re)learning card whose step is over.
        case learningDue = 0
        /// A review or new card the day's caps let through.
        case allowed = 1
        /// A (re)learning card due later today.
        case learningLater = 2
        /// A review or new card the day's caps hold back: nothing is shown.
        case held = 3
    }

    /// A card as the order sees it.
    public struct Entry: Sendable, Hashable {
        /// The card's row id (the tie-breaker: older cards have lower ids).
        public var id: Int
        /// Its queue.
        public var queue: CardQueue
        /// When it is due.
        public var due: Date

        /// Creates the entry.
        public init(id: Int, queue: CardQueue, due: Date) {
            self.id = id
            self.queue = queue
            self.due = due
        }
    }

    /// The answer: the first card by the order with its rank, and the due count.
    public struct Selection: Sendable, Hashable {
        /// The first card (also when it is held back).
        public var head: Int?
        /// Its rank (FSRS; nil for the ladder or without a head).
        public var rank: HeadRank?
        /// The due cards the caps let through, up to `dueCountLimit`.
        public var dueCount: Int

        /// Creates the selection.
        public init(head: Int?, rank: HeadRank?, dueCount: Int) {
            self.head = head
            self.rank = rank
            self.dueCount = dueCount
        }

        /// The card to show: the head unless today's caps hold it back.
        public var shown: Int? { rank == .held ? nil : head }

        /// No card to show, but cards are due that today's caps hold back.
        public var held: Bool { rank == .held }
    }

    /// The reference evaluation over `entries` (the cards of one stack).
    public func select(_ entries: [Entry]) -> Selection {
        let due = entries.filter { $0.due < cutoff }.sorted(by: Self.precedes)
        switch rule {
        case .ladder:
            return Selection(head: due.first?.id, rank: nil, dueCount: min(due.count, Self.dueCountLimit))
        case .fsrs(let now, let reviewCap, let newCap):
            func queue(_ queue: CardQueue) -> [Entry] { due.filter { $0.queue == queue } }
            let (learning, reviews, new) = (queue(.learning), queue(.review), queue(.new))
            let count = Self.dueCount(
                learning: learning.count, reviews: reviews.count, new: new.count, reviewCap: reviewCap, newCap: newCap)
            var heads: [(Entry, HeadRank)] = []
            if let head = learning.first { heads.append((head, head.due <= now ? .learningDue : .learningLater)) }
            if let head = reviews.first { heads.append((head, reviewCap > 0 ? .allowed : .held)) }
            if let head = new.first { heads.append((head, newCap > 0 ? .allowed : .held)) }
            let first = heads.min { a, b in
                a.1 != b.1 ? a.1.rawValue < b.1.rawValue : Self.precedes(a.0, b.0)
            }
            return Selection(head: first?.0.id, rank: first?.1, dueCount: min(count, Self.dueCountLimit))
        }
    }

    /// The FSRS due count from the due cards per queue: every (re)learning card, reviews and new
    /// cards as far as today's caps allow, at most `dueCountLimit`.
    static func dueCount(learning: Int, reviews: Int, new: Int, reviewCap: Int, newCap: Int) -> Int {
        min(learning + min(reviews, reviewCap) + min(new, newCap), dueCountLimit)
    }

    /// The FSRS due count of a stack with today's `allowance` (the stack list counts this way for
    /// all stacks at once; study/next's selection counts the same).
    public static func dueCount(learning: Int, reviews: Int, new: Int, allowance: DailyAllowance) -> Int {
        dueCount(
            learning: learning, reviews: reviews, new: new, reviewCap: min(allowance.reviewsLeft, dueCountLimit),
            newCap: min(allowance.newLeft, dueCountLimit))
    }

    /// Due time, then id.
    static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.due != b.due ? a.due < b.due : a.id < b.id
    }
}

/// What an FSRS stack's daily limits leave today.
public struct DailyAllowance: Sendable, Hashable {
    /// New cards the learner may still start today.
    public var newLeft: Int
    /// Reviews the learner may still see today.
    public var reviewsLeft: Int

    /// Creates the allowance.
    public init(newLeft: Int, reviewsLeft: Int) {
        self.newLeft = newLeft
        self.reviewsLeft = reviewsLeft
    }

    /// What `settings` leave after `reviewed` cards were reviewed today, `fresh` of them for the first
    /// time (new cards count against the new-card limit only).
    public init(settings: StackSettings, reviewed: Int, fresh: Int) {
        self.init(
            newLeft: max(0, settings.newCardsPerDay - fresh),
            reviewsLeft: max(0, settings.reviewsPerDay - (reviewed - fresh)))
    }
}

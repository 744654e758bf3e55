import FlashcardsCore
import Foundation

/// "No pressure after a break": when more review cards are due today than the stack's daily review
/// cap leaves room for, the most forgotten ones (lowest predicted recall now) stay today and the rest
/// move to the next days, each day filled up to the cap on top of the cards already due then.
///
/// Nothing is lost or reset: only the day a card is shown moves later (`due_at`); its memory state
/// and history stay, and its next review uses the real elapsed time. Runs at most once per learner
/// day and stack (`stacks.spread_day`), on the first next-card request of the day, so next-card
/// itself stays a few index seeks. A replay that recomputes a card (a new review, a scheduler
/// switch) sets its scheduled due date again; the spread of the next day picks it up.
///
/// The moves are remembered (`backlog_moves`): a changed daily review limit puts the moved cards back
/// on the due dates the scheduler gave them and spreads again with the new limit, so raising the limit
/// brings the held-back cards back today.
struct BacklogSpreader {
    let context: ServiceContext
    let stack: StackModel
    let scheduler: CardScheduler
    /// Review cards the learner may still see today.
    let reviewsLeft: Int

    /// How many days ahead the load of the following days is read at once.
    static let horizonDays = 120

    /// Spreads the backlog if this stack was not spread today yet. Returns how many cards moved.
    @discardableResult
    func spreadIfNeeded() async throws -> Int {
        let today = scheduler.day(of: context.now)
        if stack.spreadDay == today { return 0 }
        let stackId = stack.id!
        let cap = stack.reviewsPerDay
        let budget = reviewsLeft
        let now = context.now
        let scheduler = self.scheduler
        let moved = try await context.store.writeTransaction { tx -> Int in
            // Claim the day; a concurrent request that claimed it first has done the work.
            guard try await tx.claimSpreadDay(today, stackId: stackId) else { return 0 }
            return try await Self.spread(
                stackId: stackId, cap: cap, budget: budget, today: today, now: now, scheduler: scheduler, tx: tx)
        }
        stack.spreadDay = today
        if moved > 0 { LearnerLoad.forget(userId: stack.userId) }
        return moved
    }

    private static func spread(
        stackId: Int, cap: Int, budget: Int, today: Int, now: Date, scheduler: CardScheduler, tx: any StudyTransaction
    ) async throws -> Int {
        let endOfToday = scheduler.start(ofDay: today + 1)
        guard try await tx.reviewCount(stackId: stackId, dueBefore: endOfToday) > budget else { return 0 }
        let pool = try await tx.reviewPool(stackId: stackId, dueBefore: endOfToday)
        // Most forgotten first: lowest predicted recall now; ties by due date, then card.
        let ranked = pool.map { card -> (card: BacklogCard, recall: Double) in
            guard let stability = card.stability, let last = card.lastReviewedAt else { return (card, 0) }
            let memory = FSRSCard(
                state: .review, step: nil, stability: stability, difficulty: card.difficulty ?? 5, due: card.due,
                lastReview: last)
            return (card, scheduler.fsrs.retrievability(of: memory, at: now))
        }.sorted { a, b in
            if a.recall != b.recall { return a.recall < b.recall }
            if a.card.due != b.card.due { return a.card.due < b.card.due }
            return a.card.id < b.card.id
        }
        let kept = ranked.prefix(budget).map(\.card.id)
        let excess = ranked.dropFirst(budget).map(\.card.id)
        guard !excess.isEmpty else { return 0 }

        // The review cards already due on each of the following days.
        let horizonEnd = scheduler.start(ofDay: today + 1 + horizonDays)
        var load: [Int: Int] = [:]
        for (instant, count) in try await tx.reviewLoad(stackId: stackId, from: endOfToday, to: horizonEnd) {
            load[scheduler.day(of: instant), default: 0] += count
        }
        var assignment: [Int: [Int]] = [:]
        var day = today + 1
        for id in excess {
            while load[day, default: 0] >= cap { day += 1 }
            load[day, default: 0] += 1
            assignment[day, default: []].append(id)
        }
        // Each day's cards get due times one second apart from the day's start, in rank order, so
        // next-card (ordered by due time) shows the most forgotten first on every day, today included.
        assignment[today] = kept
        let due = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, $0.due) })
        for (day, ids) in assignment {
            let start = scheduler.start(ofDay: day)
            try await tx.recordMoves(ids.map { ($0, due[$0]!) }, from: start, stackId: stackId)
            try await tx.setDue(ids, from: start)
        }
        return excess.count
    }
}

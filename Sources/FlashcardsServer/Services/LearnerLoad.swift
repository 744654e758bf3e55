import FlashcardsCore
import Foundation
import NIOConcurrencyHelpers

/// What the load balancer weighs when a learner rates a card (docs/fsrs.md "Load balancer and easy
/// days"): how many of the learner's cards (all stacks) wait in the review queue on each of the next
/// `FSRSLoadBalancer.horizon` learner days, and each day's easy-day weight (the learner's weekday
/// setting; planned rest days count as minimum).
///
/// Counting the days reads every review card of the learner, so it is kept per learner for a few
/// minutes and moved along with each rating (`moved`), which keeps a rating at the statements it had.
/// Anything else that moves many due days (a sync, a backlog spread, a changed setting) forgets the
/// learner's entry; the rest (an import, a deleted stack) ages out with `lifetime`. A stale count only
/// makes a day a little more or less attractive: the day stays within the card's fuzz range.
enum LearnerLoad {
    /// The learner's days ahead as of one learner day.
    struct Snapshot: Sendable {
        /// The learner day of offset 0.
        let today: Int
        /// Review cards due on day `today + offset`, for offsets 0 … horizon.
        var counts: [Int]
        /// The easy-day weight of each of those days.
        let weights: [Double]

        /// The days ahead for rating `card` (as it is before the rating): the card itself is not
        /// counted on its own day, and its siblings' days (`siblings`: their due times) are kept apart.
        func days(for card: CardModel, siblings: [Date], scheduler: CardScheduler) -> FSRSLoadBalancer.Days {
            var counts = self.counts
            if card.queue == CardQueue.review.rawValue {
                let offset = scheduler.day(of: card.dueAt) - today
                if counts.indices.contains(offset) { counts[offset] = max(0, counts[offset] - 1) }
            }
            let weights = self.weights
            return FSRSLoadBalancer.Days(
                dueCount: { counts.indices.contains($0) ? counts[$0] : 0 },
                weight: { weights.indices.contains($0) ? weights[$0] : 1 },
                siblingDays: siblings.map { scheduler.day(of: $0) - today })
        }
    }

    private struct Entry {
        /// Nil when the learner turned load balancing off.
        var snapshot: Snapshot?
        let timeZone: String
        let loadedAt: Date
    }

    private static let cache = NIOLockedValueBox<[UUID: Entry]>([:])
    /// How long counted days are used.
    static let lifetime: TimeInterval = 600
    /// Emptied when it holds this many learners.
    static let limit = 10_000

    /// The learner's days ahead at `context.now`, or nil when load balancing is off.
    static func snapshot(userId: UUID, timeZone: String, scheduler: CardScheduler, context: ServiceContext)
        async throws -> Snapshot?
    {
        let now = context.now
        let today = scheduler.day(of: now)
        if let entry = cache.withLockedValue({ $0[userId] }), entry.timeZone == timeZone,
            now.timeIntervalSince(entry.loadedAt) < lifetime, now >= entry.loadedAt,
            entry.snapshot.map({ $0.today == today }) ?? true
        {
            return entry.snapshot
        }
        let snapshot = try await count(userId: userId, today: today, scheduler: scheduler, context: context)
        cache.withLockedValue { cache in
            if cache.count >= limit { cache.removeAll(keepingCapacity: true) }
            cache[userId] = Entry(snapshot: snapshot, timeZone: timeZone, loadedAt: now)
        }
        return snapshot
    }

    /// Moves a card in the learner's kept counts: off the day of `from` and onto the day of `to` (the
    /// due times of a review-queue card before and after a change; nil when it was or is not in review).
    static func moved(userId: UUID, from: Date?, to: Date?, scheduler: CardScheduler) {
        cache.withLockedValue { cache in
            guard var snapshot = cache[userId]?.snapshot else { return }
            for (date, change) in [(from, -1), (to, 1)] {
                guard let date else { continue }
                let offset = scheduler.day(of: date) - snapshot.today
                if snapshot.counts.indices.contains(offset) {
                    snapshot.counts[offset] = max(0, snapshot.counts[offset] + change)
                }
            }
            cache[userId]?.snapshot = snapshot
        }
    }

    /// Forgets the learner's kept counts: the next rating counts again.
    static func forget(userId: UUID) {
        _ = cache.withLockedValue { $0.removeValue(forKey: userId) }
    }

    /// The learner's review cards (all stacks) due on each learner day from `first` through `last`.
    static func dueCounts(
        userId: UUID, from first: Int, through last: Int, scheduler: CardScheduler, context: ServiceContext
    ) async throws -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for (instant, count) in try await context.store.workload.reviewLoad(
            userId: userId, from: scheduler.start(ofDay: first), to: scheduler.start(ofDay: max(last, first) + 1))
        {
            counts[scheduler.day(of: instant), default: 0] += count
        }
        return counts
    }

    private static func count(userId: UUID, today: Int, scheduler: CardScheduler, context: ServiceContext)
        async throws -> Snapshot?
    {
        let settings = try await LearnerSettingsModel.find(for: userId, on: context.db)
        guard settings.loadBalancing else { return nil }
        let horizon = FSRSLoadBalancer.horizon
        let restDays = try await context.store.motivation(of: userId).restDays()
        let byDay = try await dueCounts(
            userId: userId, from: today, through: today + horizon, scheduler: scheduler, context: context)
        let counts = (0...horizon).map { byDay[today + $0] ?? 0 }
        let easyDays = settings.easyDays
        let weights = (0...horizon).map { offset in
            let day = today + offset
            return restDays.contains(day)
                ? EasyDay.minimum.weight : easyDays[CivilDate.weekday(daysSince1970: day)].weight
        }
        return Snapshot(today: today, counts: counts, weights: weights)
    }
}

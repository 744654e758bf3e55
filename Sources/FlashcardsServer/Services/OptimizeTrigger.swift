import FlashcardsCore
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Re-optimization in the background: an `optimize` job is queued (it keeps the learner's
/// parameters unless new ones predict better, `OptimizeJobHandler`) once `reviewsBetween` new reviews
/// came since the last one, and, after a long history, the new reviews are also `growthBetween` of
/// the reviews before it or the last optimization is `ageBetween` old: 500 reviews more change little
/// in a fit to 300,000, which reads them all and costs seconds of CPU. Counting is cheap: each
/// process tallies a learner's ratings and looks at the database only every `lookEvery` of them.
enum OptimizeTrigger {
    /// New reviews between two optimizations.
    static let reviewsBetween = 500
    /// The least growth of the history the last optimization read, before the age says so.
    static let growthBetween = 0.1
    /// The age of the last optimization after which `reviewsBetween` new reviews are enough.
    static let ageBetween: TimeInterval = 30 * 86_400
    /// Ratings of a learner, in this process, between two looks at the database.
    static let lookEvery = 25

    private static let tallies = NIOLockedValueBox<[UUID: Int]>([:])
    /// The reviews a learner made before their last optimization, counted once per optimization.
    private static let histories = NIOLockedValueBox<[UUID: (since: Date, reviews: Int)]>([:])

    /// Notes `count` new reviews of `userId`; queues an optimization when one is due. Never fails the
    /// caller: a problem is logged and the next look tries again.
    static func note(_ count: Int, of userId: UUID, context: ServiceContext, logger: Logger) async {
        let look = tallies.withLockedValue { tallies -> Bool in
            let total = tallies[userId, default: 0] + count
            tallies[userId] = total >= lookEvery ? 0 : total
            return total >= lookEvery
        }
        guard look else { return }
        do {
            _ = try await queueIfDue(userId, context: context)
        } catch {
            logger.warning("automatic optimization not queued: \(error)")
        }
    }

    /// Queues an `optimize` job when none is queued or running and one is due (`isDue`). Returns
    /// whether it queued one.
    static func queueIfDue(_ userId: UUID, context: ServiceContext) async throws -> Bool {
        let jobs = context.store.jobs
        let state = try await jobs.optimizeState(of: userId)
        guard !state.active else { return false }
        let newReviews = try await jobs.reviewCount(of: userId, since: state.since)
        guard newReviews >= reviewsBetween else { return false }
        var history: Int?
        if let since = state.since {
            if let known = histories.withLockedValue({ $0[userId] }), known.since == since {
                history = known.reviews
            } else {
                let reviews = try await jobs.reviewCount(of: userId, before: since)
                histories.withLockedValue { $0[userId] = (since, reviews) }
                history = reviews
            }
        }
        guard isDue(newReviews: newReviews, history: history, since: state.since, now: context.now) else {
            return false
        }
        _ = try await JobQueue(store: context.store, now: context.now).enqueue(
            kind: OptimizeJobHandler.kind, userId: userId, payload: OptimizeJobHandler.Payload())
        return true
    }

    /// Whether `newReviews` reviews since `since` (the last optimization, nil before any) call for
    /// another: at least `reviewsBetween`, and after `history` reviews before it also
    /// `growthBetween` of those or an optimization `ageBetween` old.
    static func isDue(newReviews: Int, history: Int?, since: Date?, now: Date) -> Bool {
        guard newReviews >= reviewsBetween else { return false }
        guard let history, let since else { return true }
        return Double(newReviews) >= growthBetween * Double(history) || now.timeIntervalSince(since) >= ageBetween
    }
}

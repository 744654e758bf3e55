import FlashcardsCore
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Re-optimization in the background: after every `reviewsBetween` new reviews of a learner an
/// `optimize` job is queued (it keeps the learner's parameters unless new ones predict better,
/// `OptimizeJobHandler`). Counting is cheap: each process tallies a learner's ratings and looks at the
/// database only every `lookEvery` of them.
enum OptimizeTrigger {
    /// New reviews between two optimizations.
    static let reviewsBetween = 500
    /// Ratings of a learner, in this process, between two looks at the database.
    static let lookEvery = 25

    private static let tallies = NIOLockedValueBox<[UUID: Int]>([:])

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

    /// Queues an `optimize` job when none is queued or running and `reviewsBetween` reviews came since
    /// the last one (or the parameters' fitting). Returns whether it queued one.
    static func queueIfDue(_ userId: UUID, context: ServiceContext) async throws -> Bool {
        let jobs = context.store.jobs
        let state = try await jobs.optimizeState(of: userId)
        guard !state.active else { return false }
        guard try await jobs.reviewCount(of: userId, since: state.since) >= reviewsBetween else { return false }
        _ = try await JobQueue(store: context.store, now: context.now).enqueue(
            kind: OptimizeJobHandler.kind, userId: userId, payload: OptimizeJobHandler.Payload())
        return true
    }
}

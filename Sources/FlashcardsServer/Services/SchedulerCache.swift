import FlashcardsCore
import Foundation
import NIOConcurrencyHelpers

/// The schedulers of stacks, kept by what they are built from. Building one (steps parsed,
/// parameters decoded, the FSRS scheduler set up) cost a measurable share of every study request,
/// for either scheduler (docs/benchmarks.md); the inputs are a handful of settings most users never
/// change.
enum SchedulerCache {
    /// Everything a scheduler is built from, as stored.
    private struct Inputs: Hashable {
        let scheduler: String
        let desiredRetention: Double
        let learningSteps: String
        let relearningSteps: String
        let timeZone: String
        let parameters: String?
    }

    private static let cache = NIOLockedValueBox<[Inputs: CardScheduler]>([:])
    /// Emptied when it holds this many.
    static let limit = 512

    /// The scheduler of `stack` for `user` with the stored FSRS parameter text `parameters` (nil:
    /// the defaults; ladder stacks never use parameters: their cards carry no memory state).
    static func scheduler(for stack: StackModel, user: UserModel, parameters: String?) -> CardScheduler {
        scheduler(for: stack, timeZone: user.timeZone, parameters: parameters)
    }

    /// The scheduler of `stack` in the time zone named `timeZone` (UTC when unknown).
    static func scheduler(for stack: StackModel, timeZone: String, parameters: String?) -> CardScheduler {
        let inputs = Inputs(
            scheduler: stack.scheduler, desiredRetention: stack.desiredRetention, learningSteps: stack.learningSteps,
            relearningSteps: stack.relearningSteps, timeZone: timeZone, parameters: parameters)
        if let scheduler = cache.withLockedValue({ $0[inputs] }) { return scheduler }
        let scheduler = CardScheduler(
            settings: stack.settings, timeZone: TimeZone(identifier: timeZone) ?? .gmt,
            parameters: parameters.flatMap(SchedulerParametersModel.weights))
        cache.withLockedValue { cache in
            if cache.count >= limit { cache.removeAll(keepingCapacity: true) }
            cache[inputs] = scheduler
        }
        return scheduler
    }
}

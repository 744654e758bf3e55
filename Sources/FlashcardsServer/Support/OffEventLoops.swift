import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLKit

#if canImport(Glibc)
    import Glibc
#endif

/// Runs CPU-bound work (an FSRS fit: seconds for a long history) on a thread pool of its own
/// (`computePool`). Swift concurrency runs on the event loops (`Entry.swift`), so such work done in a
/// task holds one of the two event loops, and every request waiting on it, for its whole length.
/// `body` is told whether the calling task was cancelled meanwhile (`Task.isCancelled` means nothing
/// on a pool thread).
func runOffEventLoops<T: Sendable>(
    _ body: @escaping @Sendable (_ cancelled: @escaping @Sendable () -> Bool) throws -> T
)
    async throws -> T
{
    let cancelled = NIOLockedValueBox(false)
    return try await withTaskCancellationHandler {
        try await computePool.runIfActive {
            yieldToRequests()
            return try body { cancelled.withLockedValue { $0 } }
        }
    } onCancel: {
        cancelled.withLockedValue { $0 = true }
    }
}

/// Lowers the calling pool thread's priority (nice 10) so that, on a machine whose cores are all
/// busy, the event loops and the database get the CPU first: a fit of a long history took one of
/// two cores for seconds, and the requests sharing the other waited twice as long meanwhile
/// (docs/benchmarks.md). Only this thread's: Linux keeps a nice value per thread, and `who` 0 names
/// the calling one (setpriority(2)); raising it needs no privilege. Cheap enough to repeat for every
/// piece of work.
private func yieldToRequests() {
    #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    #endif
}

/// The threads of `runOffEventLoops`, apart from NIO's shared blocking pool: SQLite's driver calls,
/// password hashing and file I/O run there and must never wait behind a fit. Started once, for the
/// life of the process.
private let computePool: NIOThreadPool = {
    let pool = NIOThreadPool(numberOfThreads: max(2, System.coreCount))
    pool.start()
    return pool
}()

extension SQLQueryFetcher {
    /// `all(decoding:)` with the decoding off the event loops (`runOffEventLoops`), for reads of a
    /// learner's whole collection: PostgreSQL's rows decode each value through `Decodable`, and
    /// 100,000 cards held an event loop for 100–260 ms (docs/benchmarks.md).
    func allDecodedOffEventLoops<D: Decodable & Sendable>(_ type: D.Type) async throws -> [D] {
        let rows = try await all()
        return try await runOffEventLoops { _ in try rows.map { try $0.decode(model: D.self) } }
    }
}

import NIOConcurrencyHelpers
import NIOPosix
import SQLKit

/// Runs CPU-bound work (an FSRS fit: seconds for a long history) on NIO's blocking thread pool. Swift
/// concurrency runs on the event loops (`Entry.swift`), so such work done in a task holds one of the
/// two event loops, and every request waiting on it, for its whole length. `body` is told whether the
/// calling task was cancelled meanwhile (`Task.isCancelled` means nothing on a pool thread).
func runOffEventLoops<T: Sendable>(
    _ body: @escaping @Sendable (_ cancelled: @escaping @Sendable () -> Bool) throws -> T
)
    async throws -> T
{
    let cancelled = NIOLockedValueBox(false)
    return try await withTaskCancellationHandler {
        try await NIOThreadPool.singleton.runIfActive { try body { cancelled.withLockedValue { $0 } } }
    } onCancel: {
        cancelled.withLockedValue { $0 = true }
    }
}

extension SQLQueryFetcher {
    /// `all(decoding:)` with the decoding on the blocking pool (`runOffEventLoops`), for reads of a
    /// learner's whole collection: PostgreSQL's rows decode each value through `Decodable`, and
    /// 100,000 cards held an event loop for 100–260 ms (docs/benchmarks.md).
    func allDecodedOffEventLoops<D: Decodable & Sendable>(_ type: D.Type) async throws -> [D] {
        let rows = try await all()
        return try await runOffEventLoops { _ in try rows.map { try $0.decode(model: D.self) } }
    }
}

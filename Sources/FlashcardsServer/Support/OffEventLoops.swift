import NIOConcurrencyHelpers
import NIOPosix

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

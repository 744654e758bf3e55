import NIOConcurrencyHelpers

/// First-in, first-out gates by key: one holder per key at a time, the others wait without holding
/// a thread and enter in the order they came. A key with no holder takes no memory.
///
/// Used for SQLite's one writer (`SQLiteWriteGate`) and for the ratings of a stack on PostgreSQL
/// (`PostgresAppendedReviews.oneAtATime`).
final class KeyedGate<Key: Hashable & Sendable>: @unchecked Sendable {
    private let lock = NIOLock()
    /// The keys held, each with the callers waiting for it.
    private var held: [Key: [CheckedContinuation<Void, Never>]] = [:]

    /// Waits until `key` is free and holds it; `leave` frees it.
    func enter(_ key: Key) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let runNow = lock.withLock {
                if held[key] != nil {
                    held[key]!.append(continuation)
                    return false
                }
                held[key] = []
                return true
            }
            if runNow { continuation.resume() }
        }
    }

    /// Hands `key` to the first caller waiting for it, or frees it.
    func leave(_ key: Key) {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard held[key]?.isEmpty == false else {
                held[key] = nil
                return nil
            }
            return held[key]!.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` holding `key`.
    func run<T>(_ key: Key, _ body: () async throws -> T) async rethrows -> T {
        await enter(key)
        defer { leave(key) }
        return try await body()
    }
}

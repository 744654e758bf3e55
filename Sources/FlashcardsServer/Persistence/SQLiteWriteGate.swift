import NIOConcurrencyHelpers

/// A first-in, first-out gate that lets one SQLite write transaction of a database file run at a time
/// (`InlineSQLite.gate`; `shared` serves in-memory databases).
///
/// SQLite has one writer at a time. Write transactions of this process queue here first, so a
/// second one waits without holding a thread; inside SQLite it would wait in the busy handler on one
/// of the few threads the holder itself needs for its next statement.
final class SQLiteWriteGate: @unchecked Sendable {
    static let shared = SQLiteWriteGate()

    private let lock = NIOLock()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        let start = ServerMetrics.waitStarts()
        defer { ServerMetrics.databaseWaited(since: start, database: "sqlite") }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let runNow = lock.withLock {
                if busy {
                    waiting.append(continuation)
                    return false
                }
                busy = true
                return true
            }
            if runNow { continuation.resume() }
        }
    }

    func leave() {
        let next = lock.withLock {
            if waiting.isEmpty {
                busy = false
                return CheckedContinuation<Void, Never>?.none
            }
            return waiting.removeFirst()
        }
        next?.resume()
    }
}

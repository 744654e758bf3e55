import FluentSQLiteDriver
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Vapor

/// Moves SQLite's write-ahead-log checkpoints off the request path.
///
/// By default the commit that grows the log past 1,000 pages copies the log into the database file
/// and syncs it, so about one rating in a hundred took several times as long as the others (the
/// benchmark's p99). The pooled connections run with `wal_autocheckpoint=0`; this task checkpoints
/// on its own connection every `interval` with `PASSIVE`, which never blocks readers or writers.
/// Several server processes on one file may each run one: a checkpoint that finds another running
/// simply skips its turn.
final class WALCheckpointer: Sendable {
    /// What the last checkpoint found: frames in the log and frames copied into the database.
    struct Progress: Sendable {
        var runs = 0
        var logFrames = 0
        var checkpointedFrames = 0
    }

    private let progressBox = NIOLockedValueBox(Progress())
    private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)

    var progress: Progress { progressBox.withLockedValue { $0 } }

    /// Starts checkpointing the database file at `path`.
    init(
        path: String, synchronous: String, interval: Duration, threadPool: NIOThreadPool, eventLoop: any EventLoop,
        logger: Logger
    ) {
        let progressBox = self.progressBox
        let running = Task {
            let connection: SQLiteConnection
            do {
                connection = try await SQLiteConnection.open(
                    storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop)
                _ = try await connection.query("PRAGMA synchronous=\(synchronous)")
            } catch {
                logger.error("WAL checkpointer could not open the database: \(error)")
                return
            }
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch { break }
                do {
                    // One row: busy (another checkpoint ran), frames in the log, frames checkpointed.
                    guard let row = try await connection.query("PRAGMA wal_checkpoint(PASSIVE)").first else { continue }
                    let values = row.columns.map { $0.data.integer ?? 0 }
                    guard values.count == 3, values[0] == 0 else { continue }
                    progressBox.withLockedValue {
                        $0.runs += 1
                        $0.logFrames = values[1]
                        $0.checkpointedFrames = values[2]
                    }
                } catch {
                    if Task.isCancelled { break }
                    logger.warning("WAL checkpoint failed: \(error)")
                }
            }
            // The future-based close, since this task is cancelled by now and the async one would
            // refuse to run.
            let closed: EventLoopFuture<Void> = connection.close()
            do { try await closed.get() } catch { logger.warning("WAL checkpointer could not close: \(error)") }
        }
        task.withLockedValue { $0 = running }
    }

    /// Stops checkpointing and closes the connection (SQLite checkpoints once more when the last
    /// connection closes).
    func stop() async {
        let running = task.withLockedValue { current -> Task<Void, Never>? in
            defer { current = nil }
            return current
        }
        running?.cancel()
        await running?.value
    }
}

extension Application {
    private struct WALCheckpointerKey: StorageKey { typealias Value = WALCheckpointer }

    /// The background checkpointer of an SQLite file database; nil for other stores.
    var walCheckpointer: WALCheckpointer? {
        get { storage[WALCheckpointerKey.self] }
        set { storage[WALCheckpointerKey.self] = newValue }
    }
}

/// Stops the checkpointer and closes the inline connections before the application's thread pool
/// goes away.
struct WALCheckpointerLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        await application.walCheckpointer?.stop()
        await application.inlineSQLite?.close()
    }
}

import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit

extension Database {
    /// Runs `body` in a transaction that writes. On SQLite it begins with `BEGIN IMMEDIATE`, which
    /// takes the write lock up front: a deferred transaction that reads first and writes later can
    /// fail with SQLITE_BUSY when another connection writes in between, and that would reach the
    /// client as a 500 under concurrent ratings.
    ///
    /// SQLite has one writer at a time. Write transactions of this process queue on an asynchronous
    /// gate first, so a second one waits without holding a thread; inside SQLite it would wait in
    /// the busy handler on one of the few threads the holder itself needs for its next statement.
    func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        guard let sql = self as? any SQLDatabase, sql.dialect.name == "sqlite" else {
            return try await transaction(body)
        }
        await SQLiteWriteGate.shared.enter()
        defer { SQLiteWriteGate.shared.leave() }
        return try await withConnection { connection in
            let sql = connection as! any SQLDatabase
            try await sql.raw("BEGIN IMMEDIATE").run()
            do {
                let result = try await body(connection)
                try await sql.raw("COMMIT").run()
                return result
            } catch {
                try? await sql.raw("ROLLBACK").run()
                throw error
            }
        }
    }
}

/// A first-in, first-out gate that lets one SQLite write transaction of the process run at a time.
final class SQLiteWriteGate: @unchecked Sendable {
    static let shared = SQLiteWriteGate()

    private let lock = NIOLock()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func enter() async {
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

extension SQLDatabase {
    /// Inside a write transaction on PostgreSQL: locks the rows of these cards of `userId` (by
    /// `unique_id`, optionally only in `stackId`) until the transaction ends, in id order so that two
    /// transactions never wait for each other's cards crosswise. A transaction that reads a card to
    /// write the replay of its history must not start from a version that another one is replacing
    /// (two ratings of one card at once would both count it as new, and the second would overwrite
    /// the first's state). Run it before reading the cards: in a statement of its own, so the reads
    /// that follow see what the transaction it waited for committed. SQLite needs nothing: its write
    /// transactions run one at a time.
    func lockCards(_ uniqueIds: [UUID], of userId: UUID, in stackId: Int? = nil) async throws {
        guard dialect.name == "postgresql", !uniqueIds.isEmpty else { return }
        let stackFilter: SQLQueryString = stackId.map { " AND stack_id = \(bind: $0)" } ?? ""
        try await raw(
            "SELECT id FROM cards WHERE user_id = \(bind: userId) AND unique_id IN (\(binds: uniqueIds))"
                + stackFilter + " ORDER BY id FOR UPDATE"
        ).run()
    }
}

import Foundation
import VaporCSQLite

/// Backup and restore of the whole SQLite database for operators (`flashcards backup`, `flashcards
/// restore`; `docs/operations.md`), with SQLite's online backup API: a backup copies the database
/// page by page while the server keeps serving, restarting a step whenever a write came in between,
/// and ends as one consistent snapshot; a restore copies a checked backup into the database file
/// while holding an exclusive lock, so it refuses to run while a server has the database open.
public enum SQLiteBackup {
    /// What a backup or restore copied.
    public struct Copied: Sendable, Equatable {
        public let pages: Int
        public let bytes: Int
    }

    /// Why a backup or restore did not happen.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Pages copied per step; between steps the server's writers get the lock.
    static let pagesPerStep: Int32 = 256

    /// Copies the database at `source` (in use or not) to `target`, a new file: written next to it
    /// under a temporary name, checked (`PRAGMA integrity_check`), then moved into place, so
    /// `target` is never a half-written backup.
    @discardableResult
    public static func backup(from source: String, to target: String) throws -> Copied {
        guard FileManager.default.fileExists(atPath: source) else {
            throw Failure(description: "No database at \(source).")
        }
        guard !FileManager.default.fileExists(atPath: target) else {
            throw Failure(description: "\(target) exists already; name a new file.")
        }
        let temporary = target + ".partial-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let from = try Connection(path: source, readOnly: true)
        let to = try Connection(path: temporary, readOnly: false)
        let pages = try copy(from: from, to: to)
        to.close()
        from.close()
        try check(temporary)
        do {
            try FileManager.default.moveItem(atPath: temporary, toPath: target)
        } catch {
            throw Failure(description: "Cannot write \(target): \(error.localizedDescription)")
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? Int) ?? 0
        return Copied(pages: pages, bytes: bytes)
    }

    /// Replaces the database at `target` with the backup at `source`, after checking the backup
    /// (intact, and a Smart Flashcards database). Refuses while any other connection has `target`
    /// open (a running server): stop the server, restore, start it again.
    @discardableResult
    public static func restore(from source: String, to target: String) throws -> Copied {
        guard FileManager.default.fileExists(atPath: source) else {
            throw Failure(description: "No backup at \(source).")
        }
        try check(source)
        let from = try Connection(path: source, readOnly: true)
        defer { from.close() }
        let to = try Connection(path: target, readOnly: false)
        defer { to.close() }
        // Exclusive locking: the lock taken below is kept until the connection closes, and it cannot
        // be had while another connection (a server) holds the database open in WAL mode.
        try to.execute("PRAGMA locking_mode=EXCLUSIVE")
        do {
            try to.execute("BEGIN EXCLUSIVE")
            try to.execute("COMMIT")
        } catch {
            throw Failure(
                description: "The database at \(target) is in use (is the server running?); stop it before restoring.")
        }
        let pages = try copy(from: from, to: to)
        try to.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let bytes = (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? Int) ?? 0
        return Copied(pages: pages, bytes: bytes)
    }

    /// Copies every page of `from` into `to` in steps; a step that finds the source locked by a
    /// writer waits briefly and goes on (SQLite restarts the copy when the source changed).
    private static func copy(from: Connection, to: Connection) throws -> Int {
        guard let backup = sqlite_nio_sqlite3_backup_init(to.handle, "main", from.handle, "main") else {
            throw Failure(description: "Cannot start the backup: \(to.message)")
        }
        var status: Int32 = SQLITE_OK
        var waits = 0
        repeat {
            status = sqlite_nio_sqlite3_backup_step(backup, pagesPerStep)
            if status == SQLITE_BUSY || status == SQLITE_LOCKED {
                waits += 1
                // About a minute of a busy source before giving up.
                if waits > 6_000 { break }
                usleep(10_000)
            }
        } while status == SQLITE_OK || status == SQLITE_BUSY || status == SQLITE_LOCKED
        let pages = Int(sqlite_nio_sqlite3_backup_pagecount(backup))
        let finished = sqlite_nio_sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE, finished == SQLITE_OK else {
            throw Failure(description: "The copy failed: \(to.message) (\(status))")
        }
        return pages
    }

    /// A file is a usable backup when SQLite finds it intact and it holds this server's tables.
    private static func check(_ path: String) throws {
        let connection = try Connection(path: path, readOnly: true)
        defer { connection.close() }
        guard try connection.firstText("PRAGMA integrity_check") == "ok" else {
            throw Failure(description: "\(path) is damaged (PRAGMA integrity_check failed).")
        }
        let tables = try connection.firstText(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('_fluent_migrations', 'users', 'cards')"
        )
        guard tables == "3" else {
            throw Failure(description: "\(path) is no Smart Flashcards database.")
        }
    }

    /// A bare connection for the backup API.
    private final class Connection {
        private(set) var handle: OpaquePointer?

        init(path: String, readOnly: Bool) throws {
            let flags =
                (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
            let status = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
            guard status == SQLITE_OK else {
                let message = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "out of memory"
                close()
                throw Failure(description: "Cannot open \(path): \(message)")
            }
            sqlite_nio_sqlite3_busy_timeout(handle, 5_000)
            // A file that is not SQLite opens fine and fails on the first read.
            do {
                _ = try firstText("SELECT COUNT(*) FROM sqlite_master")
            } catch {
                close()
                throw Failure(description: "\(path) is no SQLite database.")
            }
        }

        var message: String { handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "closed" }

        func execute(_ sql: String) throws {
            guard sqlite_nio_sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
                throw Failure(description: message)
            }
        }

        /// The first column of the first row, as text.
        func firstText(_ sql: String) throws -> String? {
            var statement: OpaquePointer?
            guard sqlite_nio_sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
                throw Failure(description: message)
            }
            defer { sqlite_nio_sqlite3_finalize(statement) }
            switch sqlite_nio_sqlite3_step(statement) {
            case SQLITE_ROW:
                return sqlite_nio_sqlite3_column_text(statement, 0).map { String(cString: $0) }
            case SQLITE_DONE: return nil
            default: throw Failure(description: message)
            }
        }

        func close() {
            if let handle { sqlite_nio_sqlite3_close_v2(handle) }
            handle = nil
        }
    }
}

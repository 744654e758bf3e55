import Fluent
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import Vapor
// The driver's own SQLite build: the process must use one SQLite library for a database file, since
// two copies would each keep their own table of POSIX locks and release each other's.
import VaporCSQLite

/// SQLite connections that run short statements on the calling thread.
///
/// The driver runs every statement on its thread pool and hands the result back to the event loop:
/// two thread wake-ups per statement, which on this kind of machine cost more than the indexed
/// statements of a learning request themselves (docs/benchmarks.md). The learning path runs its statements here instead: readers from a small pool
/// (one per thread that is running a statement at the moment), and one writer for write transactions,
/// which the process-wide write gate already runs one at a time. Statements are prepared once per
/// connection and reused.
///
/// A connection here never waits for a lock: `busy_timeout` stays 0. A read that finds the database
/// locked (another process in an exclusive mode) runs through the driver instead, and a transaction
/// whose `BEGIN IMMEDIATE` finds another process writing waits for the lock on the thread pool, so
/// an event loop never blocks on a lock.
final class InlineSQLite: Sendable {
    let path: String
    let synchronous: String
    let threadPool: NIOThreadPool
    /// The connection of write transactions; only used inside the write gate.
    let writer: InlineSQLiteConnection
    /// The write gate of this database file: one write transaction at a time, of the writer or of
    /// the driver (`SQLiteStudyStore.modelTransaction`). One per file, not per process: the tests
    /// run many applications, each on a file of its own, whose transactions need not wait for
    /// each other's.
    let gate = SQLiteWriteGate()
    /// Which stacks' due counts last reached the limit (`SQLiteCappedCount.Hints`).
    let cappedCountHints = SQLiteCappedCount.Hints()
    /// The readers: every one opened, those no thread is using, and whether `close` ran.
    private let readers = NIOLockedValueBox<
        (opened: [InlineSQLiteConnection], idle: [InlineSQLiteConnection], closed: Bool)
    >(
        ([], [], false))

    init(path: String, synchronous: String, threadPool: NIOThreadPool) throws {
        self.path = path
        self.synchronous = synchronous
        self.threadPool = threadPool
        self.writer = try InlineSQLiteConnection(path: path, synchronous: synchronous)
    }

    /// Runs `body` with a reader no other thread is using; opens one when all are busy. Nil when a
    /// new reader could not be set up because the database was locked.
    func withReader<T>(_ body: (InlineSQLiteConnection) throws -> T) throws -> T? {
        let reader: InlineSQLiteConnection
        let state = readers.withLockedValue { readers -> (closed: Bool, idle: InlineSQLiteConnection?) in
            (readers.closed, readers.closed ? nil : readers.idle.popLast())
        }
        if state.closed { throw InlineSQLiteError(code: SQLITE_MISUSE, message: "the database is closed") }
        if let idle = state.idle {
            reader = idle
        } else {
            do {
                reader = try InlineSQLiteConnection(path: path, synchronous: synchronous)
            } catch let error as InlineSQLiteError where error.isLocked {
                return nil
            }
            readers.withLockedValue { $0.opened.append(reader) }
        }
        defer {
            // A reader in use while the database closed is closed when its statement is done.
            let closed = readers.withLockedValue { readers in
                if !readers.closed { readers.idle.append(reader) }
                return readers.closed
            }
            if closed { reader.close() }
        }
        return try body(reader)
    }

    /// How often each kept statement was prepared again, over all connections (see
    /// `InlineSQLiteConnection.reprepares`); only while no statement runs.
    var reprepares: [String: Int] {
        (readers.withLockedValue { $0.opened } + [writer]).map(\.reprepares).reduce(into: [:]) { total, counts in
            total.merge(counts, uniquingKeysWith: +)
        }
    }

    /// Closes every connection: idle readers at once, a reader in use when its statement is done,
    /// the writer once the write transaction running now (if any) has ended. Statements asked for
    /// afterwards fail with an error instead of touching a closed connection.
    func close() async {
        let idle = readers.withLockedValue { readers -> [InlineSQLiteConnection] in
            readers.closed = true
            defer { readers.idle = [] }
            return readers.idle
        }
        for reader in idle { reader.close() }
        await gate.enter()
        writer.close()
        gate.leave()
    }

    /// The database for statements outside a transaction; `fallback` (the driver) runs what finds
    /// the database locked.
    func database(fallback: any SQLDatabase) -> any SQLDatabase {
        InlineSQLDatabase(target: .readers(self), fallback: fallback)
    }

    /// The database for statements that read many rows (whole stacks): each runs as one job on the
    /// thread pool and hands its rows to the caller there as SQLite produces them, so no event loop
    /// waits for it and the rows never pile up in memory (the driver queues every row for the event
    /// loop first).
    func bulkDatabase(fallback: any SQLDatabase) -> any SQLDatabase {
        InlineSQLDatabase(target: .bulk(self), fallback: fallback)
    }

    /// Runs `body` in a write transaction on the writer (see `StudyStore.writeTransaction`).
    func writeTransaction<T: Sendable>(
        fallback: any SQLDatabase, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        await gate.enter()
        defer { gate.leave() }
        if try !writer.execute("BEGIN IMMEDIATE") {
            // Another process holds the write lock: wait for it off the event loop, as the driver does.
            let writer = self.writer
            try await threadPool.runIfActive {
                guard try writer.waitingForLock({ try writer.execute("BEGIN IMMEDIATE") }) else {
                    throw InlineSQLiteError.locked
                }
            }
        }
        let database = InlineSQLDatabase(target: .writer(writer, threadPool), fallback: fallback)
        do {
            let result = try await body(database)
            guard try writer.execute("COMMIT") else {
                throw InlineSQLiteError.locked
            }
            return result
        } catch {
            _ = try? writer.execute("ROLLBACK")
            throw error
        }
    }
}

/// One SQLite connection with its prepared statements. Not thread-safe: `InlineSQLite` hands each
/// to one thread at a time (the pool's free list, or the write gate for the writer).
final class InlineSQLiteConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements: [String: PreparedStatement] = [:]
    /// Prepared statements kept per connection; the learning path uses about a dozen.
    static let statementLimit = 64

    private final class PreparedStatement {
        let pointer: OpaquePointer
        var columns: InlineColumns

        init(pointer: OpaquePointer) {
            self.pointer = pointer
            self.columns = InlineColumns(pointer)
        }
    }

    init(path: String, synchronous: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite_nio_sqlite3_close_v2(handle)
            throw InlineSQLiteError(code: status, message: message)
        }
        self.handle = handle
        // As the driver's connections: foreign keys enforced, the chosen durability, and
        // checkpoints left to `WALCheckpointer`.
        for pragma in ["foreign_keys = ON", "synchronous = \(synchronous)", "wal_autocheckpoint = 0"] {
            let result = sqlite_nio_sqlite3_exec(handle, "PRAGMA \(pragma)", nil, nil, nil)
            guard result == SQLITE_OK else {
                let error = InlineSQLiteError(code: result, message: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
                close()
                throw error
            }
        }
    }

    deinit { close() }

    /// Defines collation `name` as a case-insensitive comparison (of ASCII letters): Anki's
    /// collections declare their name columns `COLLATE unicase`, which SQLite must know to plan a read.
    func defineCaseInsensitiveCollation(_ name: String) throws {
        let status = sqlite_nio_sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, nil,
            { _, leftCount, left, rightCount, right in
                let a = UnsafeRawBufferPointer(start: left, count: Int(leftCount))
                let b = UnsafeRawBufferPointer(start: right, count: Int(rightCount))
                func lower(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }
                for (x, y) in zip(a, b) where lower(x) != lower(y) { return lower(x) < lower(y) ? -1 : 1 }
                return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
            }, nil)
        guard status == SQLITE_OK else { throw InlineSQLiteError(code: status, message: "collation \(name)") }
    }

    func close() {
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.pointer) }
        statements = [:]
        if let handle { sqlite_nio_sqlite3_close_v2(handle) }
        handle = nil
    }

    /// How often SQLite prepared each kept statement again since it was prepared here (a schema
    /// change, or a plan that depends on the bound values).
    var reprepares: [String: Int] {
        statements.mapValues {
            Int(sqlite_nio_sqlite3_stmt_status($0.pointer, SQLITE_STMTSTATUS_REPREPARE, 0))
        }
    }

    /// Runs `body` with SQLite's busy handler waiting up to 10 s for a lock (off the event loop only).
    func waitingForLock<T>(_ body: () throws -> T) rethrows -> T {
        sqlite_nio_sqlite3_busy_timeout(handle, 10_000)
        defer { sqlite_nio_sqlite3_busy_timeout(handle, 0) }
        return try body()
    }

    /// Runs `sql` with `binds` and hands each row to `onRow`. Returns false when the database was
    /// locked before the statement produced anything (nothing happened; run it elsewhere).
    func run(_ sql: String, _ binds: [SQLiteData], _ onRow: (InlineRow) throws -> Void) throws -> Bool {
        guard let handle else { throw InlineSQLiteError(code: SQLITE_MISUSE, message: "connection closed") }
        // Preparing reads the schema, which a lock can keep out too.
        guard let statement = try prepared(sql, on: handle) else { return false }
        let pointer = statement.pointer
        // Reset at once, so no read snapshot stays open between requests.
        defer {
            sqlite_nio_sqlite3_reset(pointer)
            sqlite_nio_sqlite3_clear_bindings(pointer)
        }
        try bind(binds, to: pointer, on: handle)
        var produced = false
        while true {
            let status = sqlite_nio_sqlite3_step(pointer)
            switch status {
            case SQLITE_ROW:
                if !produced, sqlite_nio_sqlite3_column_count(pointer) != Int32(statement.columns.names.count) {
                    // The schema changed and the step prepared the statement again (`SELECT *`).
                    statement.columns = InlineColumns(pointer)
                }
                produced = true
                try onRow(InlineRow(columns: statement.columns, values: try values(of: pointer, statement.columns)))
            case SQLITE_DONE:
                return true
            default:
                let error = InlineSQLiteError(code: status, message: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
                if error.isLocked && !produced { return false }
                throw error
            }
        }
    }

    /// Runs a statement without binds or rows; false when the database was locked.
    func execute(_ sql: String) throws -> Bool {
        try run(sql, []) { _ in }
    }

    /// The prepared statement for `sql`; nil when the database was locked.
    private func prepared(_ sql: String, on handle: OpaquePointer) throws -> PreparedStatement? {
        if let cached = statements[sql] { return cached }
        var pointer: OpaquePointer?
        let status = sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard status == SQLITE_OK, let pointer else {
            let error = InlineSQLiteError(code: status, message: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
            if error.isLocked { return nil }
            throw error
        }
        if statements.count >= Self.statementLimit {
            // Statements that differ by their text (batches of other sizes) should not pile up.
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.pointer) }
            statements = [:]
        }
        let statement = PreparedStatement(pointer: pointer)
        statements[sql] = statement
        return statement
    }

    private func bind(_ binds: [SQLiteData], to pointer: OpaquePointer, on handle: OpaquePointer) throws {
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let integer): status = sqlite_nio_sqlite3_bind_int64(pointer, index, Int64(integer))
            case .float(let double): status = sqlite_nio_sqlite3_bind_double(pointer, index, double)
            case .text(let text):
                status = sqlite_nio_sqlite3_bind_text64(
                    pointer, index, text, UInt64(text.utf8.count), transientDestructor, UInt8(SQLITE_UTF8))
            case .blob(let buffer):
                status = buffer.withUnsafeReadableBytes {
                    sqlite_nio_sqlite3_bind_blob64(
                        pointer, index, $0.baseAddress, UInt64($0.count), transientDestructor)
                }
            case .null: status = sqlite_nio_sqlite3_bind_null(pointer, index)
            }
            guard status == SQLITE_OK else {
                throw InlineSQLiteError(code: status, message: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
            }
        }
    }

    private func values(of pointer: OpaquePointer, _ columns: InlineColumns) throws -> [SQLiteData] {
        (0..<Int32(columns.names.count)).map { column in
            switch sqlite_nio_sqlite3_column_type(pointer, column) {
            case SQLITE_INTEGER: return .integer(Int(sqlite_nio_sqlite3_column_int64(pointer, column)))
            case SQLITE_FLOAT: return .float(sqlite_nio_sqlite3_column_double(pointer, column))
            case SQLITE_TEXT:
                let count = Int(sqlite_nio_sqlite3_column_bytes(pointer, column))
                guard let text = sqlite_nio_sqlite3_column_text(pointer, column) else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            case SQLITE_BLOB:
                let count = Int(sqlite_nio_sqlite3_column_bytes(pointer, column))
                guard let bytes = sqlite_nio_sqlite3_column_blob(pointer, column) else { return .blob(ByteBuffer()) }
                return .blob(ByteBuffer(bytes: UnsafeRawBufferPointer(start: bytes, count: count)))
            default: return .null
            }
        }
    }
}

/// SQLite's "copy the bound value now" destructor.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A failed statement: SQLite's result code and message.
struct InlineSQLiteError: Error, CustomStringConvertible, DatabaseError {
    let code: Int32
    let message: String

    var description: String { "SQLite error \(code): \(message)" }
    var isSyntaxError: Bool { code & 0xff == SQLITE_ERROR }
    var isConstraintFailure: Bool { code & 0xff == SQLITE_CONSTRAINT }
    var isConnectionClosed: Bool { code & 0xff == SQLITE_MISUSE }
    /// Another connection holds a lock this statement needs.
    var isLocked: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }
    /// A lock that was still held when the statement gave up waiting.
    static let locked = InlineSQLiteError(code: SQLITE_BUSY, message: "database is locked")
}

/// The column names of a prepared statement and where each is (the first of equal names counts, as
/// in the driver).
final class InlineColumns: Sendable {
    let names: [String]
    let offsets: [String: Int]

    init(_ pointer: OpaquePointer) {
        let names = (0..<sqlite_nio_sqlite3_column_count(pointer)).map { column in
            sqlite_nio_sqlite3_column_name(pointer, column).map { String(cString: $0) } ?? ""
        }
        self.names = names
        self.offsets = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A result row, decoded as the driver decodes its rows.
struct InlineRow: SQLRow {
    let columns: InlineColumns
    let values: [SQLiteData]

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.offsets[column] != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let offset = columns.offsets[column] else { return true }
        return values[offset] == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let offset = columns.offsets[column] else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "No column named \(column)."))
        }
        return try Self.decoder.decode(D.self, from: values[offset])
    }

    private static let decoder = SQLiteDataDecoder()

    /// The stored value of `column` (nil without such a column), for reads that skip the generic
    /// decoder where the storage class is the one wanted (`CardModel.read`).
    func stored(_ column: String) -> SQLiteData? {
        columns.offsets[column].map { values[$0] }
    }
}

/// SQLKit over `InlineSQLite`: the SQLite dialect, binds and rows as the driver encodes and decodes
/// them, statements run without leaving the calling thread.
private struct InlineSQLDatabase: SQLDatabase {
    enum Target {
        case readers(InlineSQLite)
        case bulk(InlineSQLite)
        case writer(InlineSQLiteConnection, NIOThreadPool)
    }

    let target: Target
    let fallback: any SQLDatabase

    private static let encoder = SQLiteDataEncoder()

    var logger: Logger { fallback.logger }
    var eventLoop: any EventLoop { fallback.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { fallback.version }
    var dialect: any SQLDialect { fallback.dialect }
    var queryLogLevel: Logger.Level? { fallback.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<
        Void
    > {
        eventLoop.makeFutureWithTask { try await execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        var serializer = SQLSerializer(database: self)
        query.serialize(to: &serializer)
        let binds = try serializer.binds.map { try Self.encoder.encode($0) }
        if let level = queryLogLevel {
            logger.log(level: level, "Executing query", metadata: ["sql": .string(serializer.sql)])
        }
        switch target {
        case .readers(let pool):
            let ran = try pool.withReader { try $0.run(serializer.sql, binds, onRow) } ?? false
            // Locked by another process: the driver waits for it on its thread pool.
            if !ran { try await fallback.execute(sql: query, onRow) }
        case .bulk(let pool):
            let sql = serializer.sql
            try await pool.threadPool.runIfActive {
                // Off the event loop a lock may be waited for.
                let ran = try pool.withReader { reader in
                    try reader.waitingForLock { try reader.run(sql, binds, onRow) }
                }
                guard ran == true else { throw InlineSQLiteError.locked }
            }
        case .writer(let writer, _):
            // Inside the transaction the write lock is held already, so nothing here waits for one.
            guard try writer.run(serializer.sql, binds, onRow) else {
                throw InlineSQLiteError.locked
            }
        }
    }
}

/// A write transaction's handle that can run a long statement as a job on the thread pool, so that
/// the calling thread is not held for it (the many-row inserts of an import).
protocol SQLiteLongWrites: SQLDatabase {
    func runOnThreadPool(_ sql: String, _ binds: [SQLiteData]) async throws
}

extension InlineSQLDatabase: SQLiteLongWrites {
    func runOnThreadPool(_ sql: String, _ binds: [SQLiteData]) async throws {
        guard case .writer(let writer, let threadPool) = target else {
            // Only a write transaction writes; anything else runs where it was called.
            try await execute(sql: SQLiteStatement(text: sql, binds: binds)) { _ in }
            return
        }
        try await threadPool.runIfActive {
            guard try writer.run(sql, binds, { _ in }) else { throw InlineSQLiteError.locked }
        }
    }
}

extension Application {
    private struct InlineSQLiteKey: StorageKey { typealias Value = InlineSQLite }

    /// The inline connections of an SQLite file database; nil for other stores.
    var inlineSQLite: InlineSQLite? {
        get { storage[InlineSQLiteKey.self] }
        set { storage[InlineSQLiteKey.self] = newValue }
    }
}

/// A statement written out for SQLite alone: its text with `?` placeholders (`+?` for keys and
/// limits, see `SQLKeyBind`) and its binds in the order of the placeholders. For long statements on
/// the learning path, where building and serializing SQLKit fragments cost more than the statement
/// took to run.
struct SQLiteStatement: SQLExpression {
    let text: String
    let binds: [any Encodable & Sendable]

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write(text)
        serializer.binds.append(contentsOf: binds)
    }
}

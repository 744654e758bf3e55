/// A first-in, first-out gate that lets one SQLite write transaction of a database file run at a time
/// (`InlineSQLite.gate`; `shared` serves in-memory databases).
///
/// SQLite has one writer at a time. Write transactions of this process queue here first, so a
/// second one waits without holding a thread; inside SQLite it would wait in the busy handler on one
/// of the few threads the holder itself needs for its next statement.
final class SQLiteWriteGate: Sendable {
    static let shared = SQLiteWriteGate()

    /// One key: the database's writer.
    private let gate = KeyedGate<Bool>()

    func enter() async {
        let start = ServerMetrics.waitStarts()
        defer { ServerMetrics.databaseWaited(since: start, database: "sqlite") }
        await gate.enter(true)
    }

    func leave() {
        gate.leave(true)
    }
}

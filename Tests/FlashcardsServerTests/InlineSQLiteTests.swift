import AsyncKit
import FlashcardsAPI
import Fluent
import Foundation
import NIOCore
import SQLKit
import SQLiteNIO
import Testing
import Vapor

@testable import FlashcardsServer

/// The learning path's own SQLite connections (`InlineSQLite`): same results as the driver, locks
/// held by other connections waited for off the event loop, failed transactions leave nothing.
@Suite("Inline SQLite connections")
struct InlineSQLiteTests {
    private func inline(_ app: Application) throws -> InlineSQLite {
        try #require(app.inlineSQLite)
    }

    private func databasePath(_ app: Application) -> String {
        absolutePath(app.appConfiguration.dataDirectory) + "/flashcards.sqlite"
    }

    /// A connection of the driver's kind of its own, as another process would hold one (on the
    /// app's database unless `path` names another file).
    private func otherConnection(_ app: Application, path: String? = nil) async throws -> SQLiteConnection {
        try await SQLiteConnection.open(
            storage: .file(path: path ?? databasePath(app)), threadPool: app.threadPool, logger: app.logger,
            on: app.eventLoopGroup.any())
    }

    @Test("rows, types and NULLs read as the driver reads them; statements are reused and re-prepared")
    func sameRowsAsTheDriver() async throws {
        try await withApp(.sqlite) { app in
            let driver = try #require(app.db as? any SQLDatabase)
            let inline = try inline(app).database(fallback: driver)
            try await driver.raw("CREATE TABLE probe (id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)").run()
            try await inline.raw(
                "INSERT INTO probe (id, name, score, data) VALUES (1, \(bind: "Grüße 🎓"), \(bind: 0.5), x'00ff'), (2, NULL, NULL, NULL)"
            ).run()
            for database in [driver, inline] {
                let rows = try await database.raw("SELECT * FROM probe ORDER BY id").all()
                #expect(rows.count == 2)
                #expect(rows.first?.allColumns == ["id", "name", "score", "data"])
                #expect(try rows[0].decode(column: "name", as: String.self) == "Grüße 🎓")
                #expect(try rows[0].decode(column: "score", as: Double.self) == 0.5)
                #expect(try rows[0].decode(column: "data", as: Data.self) == Data([0, 255]))
                #expect(try rows[1].decodeNil(column: "name"))
                #expect(try rows[1].decode(column: "score", as: Double?.self) == nil)
                #expect(throws: (any Error).self) { try rows[0].decode(column: "missing", as: Int.self) }
            }
            // More distinct statements than a connection keeps prepared: all still answer right.
            for value in 0..<(InlineSQLiteConnection.statementLimit + 10) {
                let row = try await inline.raw("SELECT \(literal: value) AS v, COUNT(*) AS n FROM probe").first()
                #expect(try row?.decode(column: "v", as: Int.self) == value)
            }
            // A cached `SELECT *` sees a column added later.
            try await driver.raw("ALTER TABLE probe ADD COLUMN extra TEXT DEFAULT 'x'").run()
            let row = try await inline.raw("SELECT * FROM probe ORDER BY id").first()
            #expect(try row?.decode(column: "extra", as: String.self) == "x")
            // Errors are errors, with SQLite's message.
            await #expect(throws: InlineSQLiteError.self) { try await inline.raw("SELECT * FROM nowhere").run() }
            await #expect(throws: InlineSQLiteError.self) {
                try await inline.raw("INSERT INTO probe (id) VALUES (1)").run()
            }
        }
    }

    @Test("the learning path's statements are prepared once and reused", arguments: SchedulerKind.allCases)
    func preparedOnce(scheduler: SchedulerKind) async throws {
        let clock = TestClock()
        try await withApp(.sqlite, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "geheim123")
                let stack = try await client.createStack(name: "Reuse", color: "#336699", scheduler: scheduler)
                for index in 0..<5 { _ = try await client.createCard(in: stack.id, question: "Q\(index)", answer: "A") }
                // Ratings that keep every card due today.
                let rating: RatingKey = scheduler == .fsrs ? .again : .hard
                var warm: [String: Int] = [:]
                for round in 0..<14 {
                    // After two rounds every statement has been prepared (and seen the schema once).
                    if round == 2 { warm = try inline(app).reprepares }
                    let next = try await client.nextCard(in: stack.id)
                    let card = try #require(next.card)
                    _ = try await client.rate(card.id, in: stack.id, rating: rating)
                    clock.advance(by: 37)
                }
                let reprepared = try inline(app).reprepares.filter { $0.value > warm[$0.key, default: 0] }
                #expect(reprepared.isEmpty, "prepared again: \(reprepared)")
            }
        }
    }

    @Test("a rating before the card's last review replays the card's log read on the inline writer")
    func lateRatingReplays() async throws {
        let clock = TestClock()
        try await withApp(.sqlite, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "geheim123")
                let stack = try await client.createStack(name: "Spät", color: "#336699", scheduler: .fsrs)
                let card = try await client.createCard(in: stack.id, question: "F", answer: "A")
                // A review synced from a device whose clock runs an hour ahead.
                _ = try await client.syncReviews([
                    SyncReviewDTO(id: UUID(), cardId: card.id, rating: .good, reviewedAt: clock.now + 3_600)
                ])
                let rated = try await client.rate(card.id, in: stack.id, rating: .again)
                // The rating sorts before the synced review: the card is the replay of both.
                let logs = try await ReviewLogModel.query(on: app.db).sort(\.$reviewedAt).all()
                #expect(logs.map(\.rating) == [1, 3])
                #expect(logs.map(\.seq) == [2, 1])
                #expect(rated.card.lastReviewedAt == clock.now + 3_600)
                #expect(rated.card.reviewCount == 2)
            }
        }
    }

    @Test("a failed transaction writes nothing and the next one runs")
    func rollback() async throws {
        struct Planned: Error {}
        try await withApp(.sqlite) { app in
            let driver = try #require(app.db as? any SQLDatabase)
            try await driver.raw("CREATE TABLE probe (id INTEGER PRIMARY KEY)").run()
            let inline = try inline(app)
            await #expect(throws: Planned.self) {
                try await inline.writeTransaction(fallback: driver) { sql in
                    try await sql.raw("INSERT INTO probe (id) VALUES (1)").run()
                    throw Planned()
                }
            }
            try await inline.writeTransaction(fallback: driver) { sql in
                try await sql.raw("INSERT INTO probe (id) VALUES (2)").run()
            }
            let ids = try await driver.raw("SELECT id FROM probe").all().map {
                try $0.decode(column: "id", as: Int.self)
            }
            #expect(ids == [2])
        }
    }

    @Test("a rating waits while another connection writes, off the event loop, then lands")
    func waitsForAnotherWriter() async throws {
        try await withApp(.sqlite) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "geheim123")
                let stack = try await client.createStack(name: "Wartend", color: "#336699", scheduler: .ladder)
                let card = try await client.createCard(in: stack.id, question: "F", answer: "A")
                let other = try await otherConnection(app)
                _ = try await other.query("BEGIN IMMEDIATE")
                let rating = Task { try await client.rate(card.id, in: stack.id, rating: .easy) }
                try await Task.sleep(for: .milliseconds(400))
                // Meanwhile the server answers reads: no event loop is stuck waiting for the lock.
                let next = try await client.nextCard(in: stack.id)
                #expect(next.card?.id == card.id)
                _ = try await other.query("COMMIT")
                let rated = try await rating.value
                #expect(rated.card.id == card.id && rated.card.reviewCount == 1)
                try await other.close()
                let logs = try await ReviewLogModel.query(on: app.db).count()
                #expect(logs == 1)
            }
        }
    }

    @Test("a read that finds the database locked runs through the driver, which waits for the lock")
    func readFallsBack() async throws {
        // Readers of a write-ahead log are never locked out, so this uses a database with a rollback
        // journal, where a writer's exclusive lock keeps readers out until it commits.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inline-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let threadPool = NIOThreadPool(numberOfThreads: 2)
        threadPool.start()
        let logger = Logger(label: "inline-test")
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let holder = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop)
        let driver = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop)
        _ = try await driver.query("PRAGMA busy_timeout = 10000")
        _ = try await holder.query("CREATE TABLE probe (id INTEGER PRIMARY KEY)")
        _ = try await holder.query("INSERT INTO probe (id) VALUES (7)")
        let inline = try InlineSQLite(path: path, synchronous: "NORMAL", threadPool: threadPool)
        _ = try await holder.query("BEGIN EXCLUSIVE")
        _ = try await holder.query("INSERT INTO probe (id) VALUES (8)")
        let database = inline.database(fallback: driver.sql())
        let read = Task { try await database.raw("SELECT COUNT(*) AS n FROM probe").first(decoding: CountRow.self) }
        try await Task.sleep(for: .milliseconds(300))
        _ = try await holder.query("COMMIT")
        let result = await read.result
        await inline.close()
        // After closing, a statement fails with an error instead of touching a closed connection.
        await #expect(throws: InlineSQLiteError.self) {
            try await database.raw("SELECT COUNT(*) AS n FROM probe").first(decoding: CountRow.self)
        }
        try await holder.close()
        try await driver.close()
        try await threadPool.shutdownGracefully()
        #expect(try result.get()?.n == 2)
    }

    @Test("a lock another process holds past the wait answers 503 database_busy with Retry-After, not a 500")
    func lockTimeoutIsServiceUnavailable() async throws {
        try await withApp(.sqlite) { app in
            // The driver's own error for a lock it gave up on, made for real on a database with a
            // rollback journal that another connection holds exclusively.
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("busy-\(UUID()).sqlite").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let holder = try await otherConnection(app, path: path)
            let impatient = try await otherConnection(app, path: path)
            _ = try await holder.query("CREATE TABLE probe (id INTEGER PRIMARY KEY)")
            _ = try await impatient.query("PRAGMA busy_timeout = 1")
            _ = try await holder.query("BEGIN EXCLUSIVE")
            var driverError: (any Error)?
            do { _ = try await impatient.query("SELECT COUNT(*) FROM probe") } catch { driverError = error }
            _ = try await holder.query("COMMIT")
            try await holder.close()
            try await impatient.close()

            let request = Request(application: app, on: app.eventLoopGroup.any())
            let locked: [any Error] = [
                try #require(driverError), InlineSQLiteError(code: 5, message: "database is locked"),
                ConnectionPoolTimeoutError.connectionRequestTimeout,
            ]
            for error in locked {
                let response = ErrorRenderingMiddleware.response(for: error, request: request)
                #expect(response.status == .serviceUnavailable, "\(error)")
                #expect(response.headers.first(name: .retryAfter) == "1")
                let body = try response.content.decode(ErrorResponse.self)
                #expect(body.code == "database_busy")
                #expect(body.message.contains("Datenbank"))
            }
            // Any other database failure stays an internal error that leaks nothing.
            let other = ErrorRenderingMiddleware.response(
                for: InlineSQLiteError(code: 1, message: "no such table: x"), request: request)
            #expect(other.status == .internalServerError)
            #expect(try other.content.decode(ErrorResponse.self).code == "internal_error")
        }
    }
}

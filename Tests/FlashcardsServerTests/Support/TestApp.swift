import FlashcardsAPI
import FlashcardsClient
import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// The databases every route test runs against: SQLite always, PostgreSQL when the test command
/// started one (it exports `FLASHCARDS_TEST_POSTGRES_URL`).
enum TestDatabase: String, CustomTestStringConvertible, Sendable, CaseIterable {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["FLASHCARDS_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// SQLite, and PostgreSQL when available. `FLASHCARDS_TEST_REQUIRE_POSTGRES=1` (set by the
    /// test command) turns a missing PostgreSQL into a failure instead of a shorter run.
    static var available: [TestDatabase] {
        postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }
}

/// A clock tests can move.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_781_344_800)) {  // 2026-06-13 10:00 UTC
        current = start
    }

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }

    func set(_ date: Date) { lock.withLock { current = date } }
}

/// Boots a fully configured app on a fresh database (a temporary SQLite file, or a fresh schema in
/// PostgreSQL), runs `body`, and always shuts down and cleans up.
func withApp(
    _ database: TestDatabase,
    clock: TestClock? = nil,
    adjust: (inout AppConfiguration) -> Void = { _ in },
    _ body: (Application) async throws -> Void
) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "flashcards-test-\(UUID().uuidString)")
    var configuration = AppConfiguration()
    configuration.dataDirectory = directory.path
    configuration.bcryptCost = 4
    configuration.logLevel = "warning"
    configuration.publicDirectory = publicDirectory
    // Background jobs run only in tests that ask for them, so other tests stay deterministic.
    configuration.jobWorkers = 0
    // The starter catalogue is published only where a test asks for it.
    configuration.starterCatalogue = false
    // Reminders are sent only where a test sends them.
    configuration.reminderIntervalSeconds = 0
    // Hundreds of test servers share one PostgreSQL (and its connection limit).
    configuration.postgresConnectionsPerEventLoop = 2
    let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    switch database {
    case .sqlite:
        configuration.database = .sqliteFile
    case .postgres:
        guard let url = TestDatabase.postgresURL else {
            Issue.record("FLASHCARDS_TEST_POSTGRES_URL is not set")
            return
        }
        configuration.database = .postgres(url: url, schema: String(schema))
    }
    adjust(&configuration)
    let app = try await Application.make(.testing)
    let environment = clock.map { clock in ServerEnvironment(now: { clock.now }, uuid: { UUID() }) } ?? .live
    do {
        try await configure(app, configuration: configuration, environment: environment)
        try await body(app)
    } catch {
        await cleanUp(app, database: database, schema: String(schema), directory: directory)
        throw error
    }
    await cleanUp(app, database: database, schema: String(schema), directory: directory)
}

private func cleanUp(_ app: Application, database: TestDatabase, schema: String, directory: URL) async {
    if database == .postgres, let sql = app.db as? any SQLDatabase {
        try? await sql.raw("DROP SCHEMA IF EXISTS \(ident: schema) CASCADE").run()
    }
    try? await app.asyncShutdown()
    try? FileManager.default.removeItem(at: directory)
}

/// Starts the app on a free loopback port, hands an SDK client for it to `body`, then stops.
func withRunningServer(
    _ app: Application, _ body: (FlashcardsClient, URL) async throws -> Void
) async throws {
    app.http.server.configuration.hostname = "127.0.0.1"
    app.http.server.configuration.port = 0
    try await app.server.start(address: .hostname("127.0.0.1", port: 0))
    guard let port = app.http.server.shared.localAddress?.port else {
        await app.server.shutdown()
        Issue.record("server did not report its port")
        return
    }
    let url = URL(string: "http://127.0.0.1:\(port)")!
    do {
        try await body(FlashcardsClient(baseURL: url), url)
    } catch {
        await app.server.shutdown()
        throw error
    }
    await app.server.shutdown()
}

/// The repository's Public folder, found from this file's path.
let publicDirectory: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Public").path

// MARK: Raw requests for exact wire checks

/// A JSON body from a string, exactly as a client would send it.
func rawJSON(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

/// Headers with a raw token as the original clients send it, and JSON content type.
func compatHeaders(_ token: String?) -> HTTPHeaders {
    var headers = HTTPHeaders()
    headers.contentType = .json
    if let token { headers.add(name: .authorization, value: token) }
    return headers
}

/// Headers with a bearer token.
func bearerHeaders(_ token: String?) -> HTTPHeaders {
    var headers = HTTPHeaders()
    headers.contentType = .json
    if let token { headers.add(name: .authorization, value: "Bearer \(token)") }
    return headers
}

extension TestingHTTPResponse {
    /// The body parsed as untyped JSON, for checking exact shapes.
    var json: Any? {
        try? JSONSerialization.jsonObject(with: Data(body.readableBytesView), options: [.fragmentsAllowed])
    }

    /// The `message` of an error body.
    var message: String? { (json as? [String: Any])?["message"] as? String }

    /// Decodes the body with the shared conventions.
    func decoded<T: Decodable>(_ type: T.Type) throws -> T {
        try FlashcardsJSON.makeDecoder().decode(T.self, from: Data(body.readableBytesView))
    }
}

extension Application {
    /// Signs up through the compatibility route and returns the raw token.
    func compatSignup(name: String = "Ada", mail: String = "ada@example.org", password: String = "correct horse")
        async throws -> String
    {
        var token: String?
        try await testing().test(
            .POST, "signup", headers: compatHeaders(nil),
            body: rawJSON(#"{"name":"\#(name)","mail":"\#(mail)","password":"\#(password)"}"#)
        ) { res in
            #expect(res.status == .ok)
            token = (res.json as? [String: Any])?["token"] as? String
        }
        return try #require(token)
    }
}

/// A configuration change that runs `count` background job workers.
func workers(_ count: Int) -> (inout AppConfiguration) -> Void {
    { $0.jobWorkers = count }
}

/// A compatibility `duration`'s `amount` and `unit`.
struct DurationShape: Equatable, CustomStringConvertible {
    let amount: Int
    let unit: String

    var description: String { "\(amount) \(unit)" }
}

/// The `amount` + `unit` shape of each option's `duration` in a `difficultyAndDurations` array,
/// each checked to name the same interval as its `displayName` ("6 Minuten" ↔ 6 MINUTES).
func durationShapes(_ options: [[String: Any]]) throws -> [DurationShape] {
    let units = [
        "Sekunde": "SECONDS", "Sekunden": "SECONDS", "Minute": "MINUTES", "Minuten": "MINUTES", "Stunde": "HOURS",
        "Stunden": "HOURS", "Tag": "DAYS", "Tage": "DAYS",
    ]
    return try options.map { option in
        let duration = try #require(option["duration"] as? [String: Any])
        let shape = DurationShape(
            amount: try #require(duration["amount"] as? Int), unit: try #require(duration["unit"] as? String))
        let words = try #require(duration["displayName"] as? String).split(separator: " ").map(String.init)
        #expect(words.count == 2 && Int(words[0]) == shape.amount && units[words[1]] == shape.unit, "\(duration)")
        return shape
    }
}

/// A creation time for cards whose tests sync a history of the past (a review may not be older
/// than its card): 2020-01-01, before every history the tests make.
let longAgo = Date(timeIntervalSince1970: 1_577_836_800)

/// The error code an SDK call fails with (nil when it succeeds).
func errorCode(_ call: () async throws -> Void) async -> String? {
    do {
        try await call()
        return nil
    } catch let error as FlashcardsError {
        return error.code
    } catch {
        return "\(error)"
    }
}

import FlashcardsAPI
import FlashcardsServer
import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsBenchmarks

@Suite("Benchmark seeding")
struct BenchmarkSeederTests {
    @Test("the benchmark user's zone has it about noon whenever the run starts")
    func noonZone() throws {
        let midnight = Date(timeIntervalSince1970: 1_795_305_600)  // 2026-11-22 00:00 UTC
        for hour in 0..<24 {
            let now = midnight.addingTimeInterval(Double(hour * 3_600 + 1_799))
            let zone = try #require(TimeZone(identifier: BenchmarkSeeder.noonZone(at: now)))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            #expect(calendar.component(.hour, from: now) == 12, "UTC hour \(hour): \(zone.identifier)")
        }
    }

    /// The seeder writes SQL with the migrations' column names; the server must read what it wrote
    /// through its own models: the user logs in and learns from the seeded stack.
    @Test(
        "a seeded stack is one the server logs in to and learns from",
        arguments: ["ladder", "fsrs"], SeedingDatabase.available)
    func serverReadsSeededStack(scheduler: String, database: SeedingDatabase) async throws {
        try await withConfiguredApp(database) { app in
            let seeded = try await BenchmarkSeeder.seed(app, cardCount: 250, scheduler: scheduler, reviewsPerCard: 3)
            let sql = app.db as! any SQLDatabase
            let counts = try await sql.raw(
                """
                SELECT (SELECT COUNT(*) FROM cards) AS cards, (SELECT COUNT(*) FROM review_logs) AS reviews
                """
            ).first()
            #expect(try counts?.decode(column: "cards", as: Int.self) == 250)
            #expect(try counts?.decode(column: "reviews", as: Int.self) == 750)

            var token = ""
            let login = try JSONEncoder().encode(LoginRequest(mail: seeded.mail, password: seeded.password))
            try await app.testing().test(
                .POST, "/api/v1/auth/login", headers: ["Content-Type": "application/json"],
                body: ByteBuffer(data: login)
            ) { res in
                #expect(res.status == .ok)
                token = try FlashcardsJSON.makeDecoder().decode(AuthResponse.self, from: Data(buffer: res.body)).token
            }
            let path = "/api/v1/stacks/\(seeded.stackId.uuidString.lowercased())/study/next"
            try await app.testing().test(.GET, path, headers: ["Authorization": "Bearer \(token)"]) { res in
                #expect(res.status == .ok)
                let next = try FlashcardsJSON.makeDecoder().decode(StudyNextResponse.self, from: Data(buffer: res.body))
                #expect(next.card != nil)
                #expect(next.dueCount > 0)
            }
        }
    }
}

/// Where the seeding test runs: SQLite always, PostgreSQL when the test command started one (it
/// exports `FLASHCARDS_TEST_POSTGRES_URL`, as for the server's tests).
enum SeedingDatabase: String, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["FLASHCARDS_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var available: [SeedingDatabase] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }
}

/// A configured and migrated app on a fresh database (an SQLite file in a temporary folder, or a
/// fresh PostgreSQL schema), configured from the same keys the benchmark sets; always shut down and
/// cleaned up.
private func withConfiguredApp(_ database: SeedingDatabase, _ body: (Application) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flashcards-seed-\(UUID())")
    let schema = "seed_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    var values = [
        "FLASHCARDS_DATA_DIR": directory.path, "FLASHCARDS_BCRYPT_COST": "4", "LOG_LEVEL": "warning",
        "FLASHCARDS_JOB_WORKERS": "0", "FLASHCARDS_STARTER_CATALOGUE": "0",
    ]
    if database == .postgres, let url = SeedingDatabase.postgresURL {
        values["DATABASE_URL"] = url
        values["DATABASE_SCHEMA"] = String(schema)
    }
    let app = try await Application.make(.testing)
    func cleanUp() async {
        if database == .postgres, let sql = app.db as? any SQLDatabase {
            try? await sql.raw("DROP SCHEMA IF EXISTS \(ident: String(schema)) CASCADE").run()
        }
        try? await app.asyncShutdown()
        try? FileManager.default.removeItem(at: directory)
    }
    do {
        try await configure(app, configuration: try AppConfiguration(values: values))
        try await body(app)
    } catch {
        await cleanUp()
        throw error
    }
    await cleanUp()
}

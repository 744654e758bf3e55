import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FlashcardsServer

/// The embedded database's per-connection settings, which the speed of every rating depends on.
@Suite("SQLite setup")
struct SQLiteSetupTests {
    private struct Setting: Decodable {
        let synchronous: Int
    }

    private struct Timeout: Decodable {
        let timeout: Int
    }

    private func synchronousModes(_ app: Application) async throws -> [Int] {
        var modes: [Int] = []
        for eventLoop in app.eventLoopGroup.makeIterator() {
            let db = try #require(app.databases.database(.sqlite, logger: app.logger, on: eventLoop))
            let row = try await (db as! any SQLDatabase).raw("PRAGMA synchronous").first(decoding: Setting.self)
            modes.append(try #require(row).synchronous)
        }
        return modes
    }

    @Test("every pooled connection runs WAL with synchronous=NORMAL by default")
    func normalByDefault() async throws {
        try await withApp(.sqlite) { app in
            let modes = try await synchronousModes(app)
            #expect(!modes.isEmpty)
            #expect(modes.allSatisfy { $0 == 1 })  // NORMAL
            for eventLoop in app.eventLoopGroup.makeIterator() {
                let db = try #require(app.databases.database(.sqlite, logger: app.logger, on: eventLoop))
                let busy = try await (db as! any SQLDatabase).raw("PRAGMA busy_timeout").first(decoding: Timeout.self)
                #expect(busy?.timeout == 10_000)  // SQLite's sleeping busy handler, not a spinning one
            }
            let row = try await (app.db as! any SQLDatabase).raw("PRAGMA journal_mode").first()
            let journal = try row?.decode(column: "journal_mode", as: String.self)
            #expect(journal == "wal")
        }
    }

    @Test("FLASHCARDS_SQLITE_SYNCHRONOUS=full keeps an fsync per commit; other values are refused")
    func fullOnRequest() async throws {
        let full: (inout AppConfiguration) -> Void = { $0.sqliteSynchronous = "full" }
        try await withApp(.sqlite, adjust: full) { app in
            let modes = try await synchronousModes(app)
            #expect(!modes.isEmpty && modes.allSatisfy { $0 == 2 })  // FULL
        }
        let configuration = try AppConfiguration(values: ["FLASHCARDS_SQLITE_SYNCHRONOUS": "full"])
        #expect(configuration.sqliteSynchronous == "full")
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration(values: ["FLASHCARDS_SQLITE_SYNCHRONOUS": "off"])
        }
    }

    @Test("concurrent ratings from many clients all land, each once, without a 5xx or a stall")
    func concurrentRatings() async throws {
        try await withApp(.sqlite) { app in
            try await withRunningServer(app) { client, _ in
                _ = try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Parallel", color: "#059669", scheduler: "fsrs")
                var cards: [UUID] = []
                for index in 0..<24 {
                    cards.append(
                        try await client.createCard(in: stack.id, question: "Q\(index)", answer: "A\(index)").id)
                }
                let rated = try await withThrowingTaskGroup(of: Int.self) { group in
                    for card in cards {
                        group.addTask {
                            _ = try await client.rate(card, in: stack.id, rating: "good")
                            _ = try await client.rate(card, in: stack.id, rating: "again")
                            return 2
                        }
                    }
                    return try await group.reduce(0, +)
                }
                #expect(rated == 48)
                let logs = try await ReviewLogModel.query(on: app.db).count()
                #expect(logs == 48)
                let states = try await CardModel.query(on: app.db).all().map(\.reviewCount)
                #expect(states.allSatisfy { $0 == 2 })
            }
        }
    }
}

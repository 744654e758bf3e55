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

    private struct AutoCheckpoint: Decodable {
        let wal_autocheckpoint: Int
    }

    @Test("commits never checkpoint the write-ahead log; a background task does")
    func backgroundCheckpoints() async throws {
        try await withApp(.sqlite) { app in
            for eventLoop in app.eventLoopGroup.makeIterator() {
                let db = try #require(app.databases.database(.sqlite, logger: app.logger, on: eventLoop))
                let row = try await (db as! any SQLDatabase).raw("PRAGMA wal_autocheckpoint")
                    .first(decoding: AutoCheckpoint.self)
                #expect(row?.wal_autocheckpoint == 0)
            }
            // With the app's checkpointer stopped, commits alone let the log grow well past the
            // 1,000 pages after which a commit would otherwise checkpoint it and start it over.
            await app.walCheckpointer?.stop()
            let path = absolutePath(app.appConfiguration.dataDirectory) + "/flashcards.sqlite"
            let user = UserModel(
                id: UUID(), name: "Ada", mail: "ada@example.org", passwordHash: "x", timeZone: "UTC", createdAt: Date())
            try await user.create(on: app.db)
            let stack = StackModel(uniqueId: UUID(), userId: user.id!, name: "S", color: "#000000", now: Date())
            try await stack.create(on: app.db)
            let text = String(repeating: "Lorem ipsum dolor sit amet. ", count: 150)
            for _ in 0..<600 {
                let card = CardModel(
                    uniqueId: UUID(), stackId: stack.id!, userId: user.id!, question: text, answer: text, hint: nil,
                    now: Date())
                try await card.create(on: app.db)
            }
            let walBytes = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
            #expect(walBytes > 1_200 * 4_096)

            // A checkpointer copies all of it into the database file.
            let checkpointer = WALCheckpointer(
                path: path, synchronous: "NORMAL", interval: .milliseconds(20), threadPool: app.threadPool,
                eventLoop: app.eventLoopGroup.any(), logger: app.logger)
            var progress = checkpointer.progress
            for _ in 0..<250 where progress.runs == 0 || progress.checkpointedFrames < progress.logFrames {
                try await Task.sleep(for: .milliseconds(20))
                progress = checkpointer.progress
            }
            await checkpointer.stop()
            #expect(progress.logFrames > 1_200)
            #expect(progress.checkpointedFrames == progress.logFrames)
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
                let stack = try await client.createStack(name: "Parallel", color: "#059669", scheduler: .fsrs)
                var cards: [UUID] = []
                for index in 0..<24 {
                    cards.append(
                        try await client.createCard(in: stack.id, question: "Q\(index)", answer: "A\(index)").id)
                }
                let rated = try await withThrowingTaskGroup(of: Int.self) { group in
                    for card in cards {
                        group.addTask {
                            _ = try await client.rate(card, in: stack.id, rating: .good)
                            _ = try await client.rate(card, in: stack.id, rating: .again)
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

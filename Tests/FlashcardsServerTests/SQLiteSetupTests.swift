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
}

import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// The persistence seam: every write transaction goes through the store's one path (on SQLite
/// behind the write gate), and SQL, its handles and the driver's type stay in `Persistence/`.
@Suite("Persistence seam")
struct PersistenceSeamTests {
    /// What may not appear in a server source outside `Persistence/` and `Migrations/`.
    static let sealed: [(name: String, pattern: String)] = [
        ("a Fluent transaction", #"\.transaction\s*[({]"#),
        ("an SQL statement", #"\.raw\(\s*($|""|"\s*(?i:select|insert|update|delete|pragma|create|begin|with)\b)"#),
        ("an SQLKit statement", #"\b(sql|db|store|tx|transaction)\.(insert\(into|update\(|delete\(from|select\(\))"#),
        ("SQL text", #"\bSQLQueryString\b|\.sql\(embed"#),
        ("an SQL handle", #"\bany SQLDatabase\b|\b(db|store|studyStore|tx|transaction)\.(sql|bulk)\b"#),
        ("a check of the driver", #"\b(is|as\??) any (Postgres|SQLite|SQL)Database\b"#),
    ]

    /// Files allowed one of those, and why. The original API's whole-stack documents stream their
    /// rows straight into the response buffer (`CompatRendering`, docs/server.md).
    static let exceptions: [String: Set<String>] = [
        "HTTP/Compat/CompatRendering.swift": ["an SQL statement", "an SQLKit statement", "an SQL handle"],
        "HTTP/Compat/CompatRoutes.swift": ["an SQL handle"],
    ]

    static var serverSources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/FlashcardsServer")
    }

    @Test("no Fluent transaction, SQL, SQL handle or driver check outside Persistence/ and Migrations/")
    func sealedOutsidePersistence() throws {
        let root = Self.serverSources
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Persistence/") && !$0.hasPrefix("Migrations/") }
        #expect(files.count > 50, "the server's sources were not found at \(root.path)")
        let patterns = try Self.sealed.map { ($0.name, try Regex($0.pattern).wordBoundaryKind(.simple)) }
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                for (name, pattern) in patterns where line.contains(pattern) {
                    if Self.exceptions[file]?.contains(name) == true { continue }
                    found.append("\(file):\(number + 1): \(name): \(code)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.count) found:\n\(found.joined(separator: "\n"))")
    }

    @Test("the seal's patterns find what they are for")
    func patternsMatch() throws {
        let samples = [
            "try await context.db.transaction { db in",
            #"try await sql.raw("SELECT 1").run()"#,
            "let row = try await sql.raw(",
            #"try await tx.sql.update("cards")"#,
            #"try await sql.insert(into: "cards")"#,
            "var query: SQLQueryString = \"\"",
            "on sql: any SQLDatabase",
            "let sqlite = db is any SQLiteDatabase",
            "guard let sql = db as? any SQLDatabase else { return }",
            "try await context.store.sql.raw(query)",
        ]
        let patterns = try Self.sealed.map { try Regex($0.pattern).wordBoundaryKind(.simple) }
        for sample in samples {
            #expect(patterns.contains { sample.contains($0) }, "not found: \(sample)")
        }
        // The response writers' raw JSON is not SQL.
        #expect(!patterns.contains { #"writer.raw("{\"card\":")"#.contains($0) })
    }

    @Test("a model transaction queues behind a write transaction at SQLite's write gate")
    func modelTransactionWaitsAtTheGate() async throws {
        try await withApp(.sqlite) { app in
            let store = app.studyStore(on: app.db)
            let events = Events()
            let holding = Latch()
            let release = Latch()
            let first = Task {
                try await store.writeTransaction { _ in
                    await events.add("first begins")
                    await holding.open()
                    await release.wait()
                    await events.add("first ends")
                }
            }
            await holding.wait()
            let second = Task {
                try await store.modelTransaction { tx in
                    await events.add("second begins")
                    try await ServerSettingModel(key: "probe", value: "1").create(on: tx.db)
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(await events.all == ["first begins"])
            await release.open()
            try await first.value
            try await second.value
            #expect(await events.all == ["first begins", "first ends", "second begins"])
            #expect(try await ServerSettingModel.find("probe", on: app.db)?.value == "1")
        }
    }

    @Test(
        "notes of several cards are made while cards are rated: every write succeeds",
        arguments: TestDatabase.available)
    func notesWhileRating(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "geheim123")
                let stack = try await client.createStack(name: "Gleichzeitig", color: "#336699")
                var cards: [UUID] = []
                for index in 0..<12 {
                    cards.append(try await client.createCard(in: stack.id, question: "Q\(index)", answer: "A").id)
                }
                let rated = cards
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<12 {
                        group.addTask {
                            _ = try await client.createCard(
                                in: stack.id, question: "Hund \(index)", answer: "dog", kind: .reversed)
                        }
                        group.addTask { _ = try await client.rate(rated[index], in: stack.id, rating: .easy) }
                    }
                    try await group.waitForAll()
                }
                #expect(try await CardModel.query(on: app.db).count() == 12 + 24)
                #expect(try await ReviewLogModel.query(on: app.db).count() == 12)
            }
        }
    }

    @Test("a wire rating key maps to the rating Core finds for its text, in both schedulers")
    func ratingKeys() {
        for scheduler in SchedulerKind.allCases {
            for key in RatingKey.allCases {
                let typed = StudyRating(key, scheduler: scheduler)
                #expect(typed == StudyRating(key: key.rawValue, scheduler: scheduler), "\(key) in \(scheduler)")
                if let typed { #expect(typed.wireKey == key) }
            }
        }
    }
}

/// Events in the order they happened.
private actor Events {
    private(set) var all: [String] = []
    func add(_ event: String) { all.append(event) }
}

/// Opened once; waiters go on from then.
private actor Latch {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

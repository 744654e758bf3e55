import FlashcardsAPI
import FlashcardsClient
import Foundation
import Testing

@testable import FlashcardsServer

@Suite("Online backup and restore of the SQLite database (a restore drill)")
struct DatabaseBackupTests {
    @Test("a backup taken while learners write restores into a new server with every account")
    func drill() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let backup = folder.appendingPathComponent("backup.sqlite").path
        var before = 0
        try await withApp(.sqlite) { app in
            let database = try #require(app.inlineSQLite?.path)
            try await withRunningServer(app) { client, url in
                _ = try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Biologie", color: "#059669", scheduler: .fsrs)
                for index in 1...200 {
                    _ = try await client.createCard(
                        in: stack.id, question: "Frage \(index)", answer: "Antwort \(index)")
                }
                before = try await client.cards(in: stack.id, perPage: 1).total
                // A second learner keeps writing while the backup runs.
                let writer = Task {
                    let other = FlashcardsClient(baseURL: url)
                    _ = try await other.signup(name: "Grace", mail: "grace@example.org", password: "correct horse")
                    let theirs = try await other.createStack(name: "Chemie", color: "#2563EB")
                    for index in 1...100 {
                        _ = try await other.createCard(in: theirs.id, question: "Q\(index)", answer: "A\(index)")
                    }
                }
                let copied = try SQLiteBackup.backup(from: database, to: backup)
                #expect(copied.pages > 0 && copied.bytes > 0)
                try await writer.value
                // The running server's database cannot be overwritten.
                do {
                    try SQLiteBackup.restore(from: backup, to: database)
                    Issue.record("a restore overwrote the running server's database")
                } catch let failure as SQLiteBackup.Failure {
                    #expect(failure.description.contains("in use"))
                }
                // Nor can a backup overwrite a file.
                #expect(throws: SQLiteBackup.Failure.self) { try SQLiteBackup.backup(from: database, to: backup) }
            }
        }
        // The drill: the backup restored as the database of a new server.
        let restored = folder.appendingPathComponent("restored")
        try FileManager.default.createDirectory(at: restored, withIntermediateDirectories: true)
        let copied = try SQLiteBackup.restore(
            from: backup, to: restored.appendingPathComponent("flashcards.sqlite").path)
        #expect(copied.pages > 0)
        let onRestored: (inout AppConfiguration) -> Void = { $0.dataDirectory = restored.path }
        try await withApp(.sqlite, adjust: onRestored) { app in
            try await withRunningServer(app) { client, _ in
                _ = try await client.login(mail: "ada@example.org", password: "correct horse")
                let stacks = try await client.stacks()
                #expect(stacks.map(\.name) == ["Biologie"])
                let cards = try await client.cards(in: stacks[0].id, perPage: 1).total
                #expect(cards == before)
                let next = try await client.nextCard(in: stacks[0].id)
                #expect(next.card != nil)
            }
        }

        // Files that are no backup are refused before anything is overwritten.
        let junk = folder.appendingPathComponent("junk.sqlite").path
        try Data(repeating: 0x41, count: 8_192).write(to: URL(fileURLWithPath: junk))
        let target = restored.appendingPathComponent("flashcards.sqlite").path
        let size = try FileManager.default.attributesOfItem(atPath: target)[.size] as? Int
        #expect(throws: SQLiteBackup.Failure.self) { try SQLiteBackup.restore(from: junk, to: target) }
        #expect(throws: SQLiteBackup.Failure.self) {
            try SQLiteBackup.restore(from: folder.path + "/missing", to: target)
        }
        #expect(try FileManager.default.attributesOfItem(atPath: target)[.size] as? Int == size)
    }
}

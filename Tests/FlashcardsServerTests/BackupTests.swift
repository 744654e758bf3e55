import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// A learner with a bit of everything: an FSRS stack and a ladder stack, hints, tags, a bookmark,
/// ratings in two modes, an undo, changed settings and a rest day. Returns the stacks' ids.
private func buildAccount(_ client: FlashcardsClient) async throws -> (fsrs: UUID, ladder: UUID) {
    let fsrs = try await client.createStack(name: "Biologie", color: "#059669", scheduler: .fsrs)
    let ladder = try await client.createStack(name: "Vokabeln", color: "#2563EB", scheduler: .ladder)
    for index in 1...4 {
        _ = try await client.createCard(
            in: fsrs.id, question: "Frage \(index) <script>", answer: "Antwort \(index)",
            hint: index == 2 ? "Ein Hinweis" : nil)
        _ = try await client.createCard(in: ladder.id, question: "word \(index)", answer: "Wort \(index)")
    }
    let first = try #require(try await client.nextCard(in: fsrs.id).card)
    _ = try await client.setBookmark(first.id, in: fsrs.id, true)
    var next = try await client.rate(first.id, in: fsrs.id, rating: .good, durationMs: 4_200).next
    _ = try await client.undoLastReview(of: first.id, in: fsrs.id)
    next = try await client.rate(first.id, in: fsrs.id, rating: .easy, durationMs: 3_100, mode: .quiz).next
    if let card = next.card { _ = try await client.rate(card.id, in: fsrs.id, rating: .again) }
    let word = try #require(try await client.nextCard(in: ladder.id).card)
    _ = try await client.rate(word.id, in: ladder.id, rating: .easy, mode: .write)
    _ = try await client.updateSettings(
        UpdateSettingsRequest(dailyGoal: 35, focusMode: true, reminderTime: "07:30", leaderboardOptIn: true))
    let tomorrow = FlashcardsJSON.string(from: Date().addingTimeInterval(86_400)).prefix(10)
    try await client.setRestDay(String(tomorrow), true)
    return (fsrs.id, ladder.id)
}

/// The document with what differs between two accounts holding the same data set aside: the time
/// it was written, and, when `ids` is false, the ids (cards and reviews numbered in their order).
private func comparable(_ data: Data, ids: Bool) throws -> BackupDocumentDTO {
    var document = try FlashcardsJSON.makeDecoder().decode(BackupDocumentDTO.self, from: data)
    document.createdAt = Date(timeIntervalSince1970: 0)
    guard !ids else { return document }
    func number(_ index: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", index))! }
    for stackIndex in document.stacks.indices {
        var stack = document.stacks[stackIndex]
        stack.id = number(stackIndex)
        var cards: [UUID: UUID] = [:]
        for index in stack.cards.indices {
            cards[stack.cards[index].id] = number(index)
            stack.cards[index].id = number(index)
        }
        var reviews: [UUID: UUID] = [:]
        for index in stack.reviews.indices { reviews[stack.reviews[index].id] = number(index) }
        for index in stack.reviews.indices {
            stack.reviews[index].id = reviews[stack.reviews[index].id]!
            stack.reviews[index].card = cards[stack.reviews[index].card]!
            stack.reviews[index].undoes = stack.reviews[index].undoes.map { reviews[$0]! }
        }
        document.stacks[stackIndex] = stack
    }
    return document
}

@Suite("Backup and restore of an account, stacks as JSON")
struct BackupTests {
    @Test(
        "an account restored into an empty account reproduces it: stacks, cards, schedules, history, settings, progress",
        arguments: TestDatabase.available)
    func roundTrip(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            try await withRunningServer(app) { ada, url in
                _ = try await ada.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stacks = try await buildAccount(ada)
                // Progress first: it stores the achievements the history earned.
                let adaProgress = try await ada.progress()
                let backup = try await ada.backup()
                let document = try FlashcardsJSON.makeDecoder().decode(BackupDocumentDTO.self, from: backup)
                #expect(document.format == "smart-flashcards-backup" && document.version == 1)
                #expect(document.scope == .account && document.stacks.count == 2)
                #expect(document.stacks.flatMap(\.cards).count == 8)
                let log = document.stacks[0].reviews
                #expect(log.count == 4 && log.filter { $0.kind == "undo" }.count == 1)
                #expect(log.contains { $0.mode == "quiz" } && document.stacks[1].reviews.first?.mode == "write")
                #expect(document.account?.settings?.dailyGoal == 35 && document.account?.restDays.count == 1)
                #expect(document.stacks[0].cards.contains { $0.bookmarked })
                #expect(document.stacks[0].cards.contains { $0.hint == "Ein Hinweis" && $0.hintSource == "user" })
                #expect(document.account?.achievements.map(\.kind) == ["firstSteps"])
                let zipped = try await ada.backup(zipped: true)
                #expect(zipped.starts(with: [0x50, 0x4B]) && zipped.count * 3 < backup.count)

                // Another account on the same server: the ids are taken, so new ones are made.
                let grace = FlashcardsClient(baseURL: url)
                _ = try await grace.signup(name: "Grace", mail: "grace@example.org", password: "correct horse")
                let result = try await grace.restoreAccount(backup)
                #expect(result.cardsCreated == 8 && result.reviewsImported == 5 && result.stacks.count == 2)
                let restored = try await grace.backup()
                #expect(try comparable(restored, ids: false) == (try comparable(backup, ids: false)))
                #expect(try await grace.me().name == "Ada")
                let graceProgress = try await grace.progress()
                #expect(graceProgress.level == adaProgress.level && graceProgress.xpToday == adaProgress.xpToday)
                #expect(
                    graceProgress.calendar == adaProgress.calendar && graceProgress.cardsToday == adaProgress.cardsToday
                )
                #expect(try await grace.settings().dailyGoal == 35)
                // The restored stack is studied on as before: the next card is the same card.
                let graceStacks = try await grace.stacks()
                let graceFSRS = try #require(graceStacks.first { $0.name == "Biologie" })
                #expect(
                    try await grace.nextCard(in: graceFSRS.id).card?.question
                        == (try await ada.nextCard(in: stacks.fsrs).card?.question))

                // A second restore is refused: the account has stacks now.
                do {
                    _ = try await grace.restoreAccount(backup)
                    Issue.record("a restore into an account with stacks went through")
                } catch FlashcardsError.http(let status, let error) {
                    #expect(status == 409 && error?.code == "account_not_empty")
                }

                // After the original account is gone, a restore keeps every id (a restore after a
                // loss): the document comes back byte for byte but for its date.
                try await ada.deleteAccount(password: "correct horse")
                let carol = FlashcardsClient(baseURL: url)
                _ = try await carol.signup(name: "Carol", mail: "carol@example.org", password: "correct horse")
                _ = try await carol.restoreAccount(zipped, fileName: "Sicherung.zip")
                // Compared with the zipped document itself: the hint job may have filled hints
                // between the two downloads.
                let zippedDocument = try #require(
                    try ZipArchive(zipped).contents(
                        of: BackupService.zipEntryName, limit: BackupService.maximumDocument))
                #expect(
                    try comparable(try await carol.backup(zipped: false), ids: true)
                        == (try comparable(zippedDocument, ids: true)))
            }
        }
    }
}

@Suite("Stacks as JSON backups; broken backups refused")
struct StackBackupTests {
    @Test(
        "a stack exported as JSON imports back as a copy with its schedules and history",
        arguments: TestDatabase.available)
    func stackCopy(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            try await withRunningServer(app) { client, _ in
                _ = try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stacks = try await buildAccount(client)
                let file = try await client.exportStack(stacks.fsrs, format: .json)
                let document = try FlashcardsJSON.makeDecoder().decode(BackupDocumentDTO.self, from: file)
                #expect(document.scope == .stacks && document.account == nil && document.stacks.count == 1)
                let preview = try await client.previewImport(file, fileName: "Biologie.json")
                #expect(preview.format == "json" && preview.cards == 4 && preview.reviews == 4)
                #expect(preview.decks?.map(\.name) == ["Biologie"] && preview.problems.isEmpty)
                for _ in 0..<2 {
                    let result = try await client.importFile(
                        file, fileName: "Biologie.json", options: ImportOptionsDTO(stackName: "Biologie (Kopie)"))
                    #expect(result.stacks.map(\.name) == ["Biologie (Kopie)"] && result.reviewsImported == 4)
                    #expect(result.stacks[0].id != stacks.fsrs)
                    let copy = try FlashcardsJSON.makeDecoder().decode(
                        BackupDocumentDTO.self, from: try await client.exportStack(result.stacks[0].id, format: .json))
                    // Cards, schedules and history as they were; new ids, so it can be imported again.
                    #expect(copy.stacks[0].cards.map(\.stability) == document.stacks[0].cards.map(\.stability))
                    #expect(copy.stacks[0].cards.map(\.dueAt) == document.stacks[0].cards.map(\.dueAt))
                    #expect(copy.stacks[0].reviews.map(\.stateAfter) == document.stacks[0].reviews.map(\.stateAfter))
                    #expect(Set(copy.stacks[0].cards.map(\.id)).isDisjoint(with: document.stacks[0].cards.map(\.id)))
                }
                #expect(try await client.stacks().count == 4)
            }
        }
    }

    @Test("broken or foreign backups are refused with a reason and write nothing", arguments: TestDatabase.available)
    func refusals(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            try await withRunningServer(app) { client, url in
                _ = try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stacks = try await buildAccount(client)
                let valid = try await client.exportStack(stacks.fsrs, format: .json)
                let cardsBefore = try await CardModel.query(on: app.db).count()
                func edited(_ change: (inout [String: Any]) -> Void) throws -> Data {
                    var object = try #require(try JSONSerialization.jsonObject(with: valid) as? [String: Any])
                    change(&object)
                    return try JSONSerialization.data(withJSONObject: object)
                }
                func stack0(_ object: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
                    var stacks = object["stacks"] as! [[String: Any]]
                    change(&stacks[0])
                    object["stacks"] = stacks
                }
                let cases: [(String, Data)] = [
                    ("backup_too_new", try edited { $0["version"] = 99 }),
                    ("not_a_backup", try edited { $0["format"] = "anki" }),
                    ("not_a_backup", Data("{\"hello\": 1}".utf8)),
                    ("backup_invalid", try edited { $0["stacks"] = "nope" }),
                    (
                        "backup_invalid",
                        try edited {
                            stack0(&$0) { stack in
                                var reviews = stack["reviews"] as! [[String: Any]]
                                reviews[1]["card"] = UUID().uuidString
                                stack["reviews"] = reviews
                            }
                        }
                    ),
                    (
                        "front_empty",
                        try edited {
                            stack0(&$0) { stack in
                                var cards = stack["cards"] as! [[String: Any]]
                                cards[3]["question"] = "  "
                                stack["cards"] = cards
                            }
                        }
                    ),
                    (
                        "duplicate_id",
                        try edited {
                            stack0(&$0) { stack in
                                var cards = stack["cards"] as! [[String: Any]]
                                cards[1]["id"] = cards[0]["id"]
                                stack["cards"] = cards
                            }
                        }
                    ),
                    (
                        "backup_invalid",
                        try edited {
                            stack0(&$0) { stack in
                                var reviews = stack["reviews"] as! [[String: Any]]
                                reviews[0]["stateAfter"] = "not json"
                                stack["reviews"] = reviews
                            }
                        }
                    ),
                    ("backup_invalid", try edited { stack0(&$0) { $0["scheduler"] = "leitner" } }),
                ]
                for (code, file) in cases {
                    let preview = try await client.previewImport(file, fileName: "x.json")
                    #expect(preview.problems.first?.code == code, "\(preview.problems)")
                    do {
                        _ = try await client.importFile(file, fileName: "x.json")
                        Issue.record("a broken backup was imported (\(code))")
                    } catch FlashcardsError.importRefused(let problem) {
                        #expect(problem.code == code && !problem.message.isEmpty)
                    }
                }
                #expect(try await CardModel.query(on: app.db).count() == cardsBefore)
                #expect(try await client.stacks().count == 2)

                // A backup names its own stacks: no existing stack as the target.
                do {
                    _ = try await client.startImport(valid, fileName: "x.json", options: .init(stackId: stacks.fsrs))
                    Issue.record("a backup was imported into an existing stack")
                } catch FlashcardsError.invalid(let error) {
                    #expect(error?.message.contains("Sicherung") == true)
                }
                // Restoring needs an account backup and an empty account.
                let empty = FlashcardsClient(baseURL: url)
                _ = try await empty.signup(name: "Eve", mail: "eve@example.org", password: "correct horse")
                do {
                    _ = try await empty.restoreAccount(valid)
                    Issue.record("a stack backup was restored as an account")
                } catch FlashcardsError.jobFailed(let code, _) {
                    #expect(code == "not_an_account_backup")
                }
                do {
                    _ = try await empty.restoreAccount(Data("Hund\tdog\n".utf8), fileName: "x.tsv")
                    Issue.record("a TSV file was restored")
                } catch FlashcardsError.http(let status, _) {
                    #expect(status == 415)
                }
                // A zip that holds no backup is named as such, not as a broken Anki package.
                do {
                    _ = try await empty.restoreAccount(
                        ZipArchive.make([("notiz.txt", Data("x".utf8))]), fileName: "x.zip")
                    Issue.record("a zip without a backup was restored")
                } catch FlashcardsError.http(let status, let error) {
                    #expect(status == 415 && error?.message.contains("keine Sicherung") == true)
                }
                #expect(try await empty.stacks().isEmpty)
                // Without a token: 401.
                do {
                    _ = try await FlashcardsClient(baseURL: url).backup()
                    Issue.record("a backup without a token")
                } catch FlashcardsError.unauthorized {}
            }
        }
    }
}

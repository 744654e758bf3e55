import FlashcardsAPI
import FlashcardsClient
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// The public catalogue (issue 20): publish, browse, search, copy, report; private stacks never
/// appear; the starter decks are published once.
@Suite("Explore: the public catalogue")
struct CatalogueTests {
    /// The error code a failing call answers.
    private static func code(_ call: () async throws -> Void) async -> String? {
        do {
            try await call()
            return nil
        } catch {
            return (error as? FlashcardsError)?.code ?? "\(error)"
        }
    }

    @Test(
        "publish, browse by category and language, search, preview, copy, unpublish", arguments: TestDatabase.available)
    func story(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { ada, url in
                try await ada.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let bio = try await ada.createStack(name: "Zellbiologie für Anfänger", color: "#059669")
                for index in 1...5 {
                    _ = try await ada.createCard(in: bio.id, question: "Frage \(index)", answer: "Antwort \(index)")
                }
                let secret = try await ada.createStack(name: "Geheime Notizen", color: "#DC2626")
                _ = try await ada.createCard(in: secret.id, question: "Privat", answer: "Ja")
                let empty = try await ada.createStack(name: "Leer", color: "#2563EB")

                #expect(await Self.code { _ = try await ada.publication(of: bio.id) } == "not_published")
                #expect(
                    await Self.code { try await ada.publish(empty.id, category: .science, language: .de) }
                        == "stack_empty")
                let entry = try await ada.publish(bio.id, category: .science, language: .de)
                #expect(entry.path == "/app/explore/" + entry.entryId.uuidString.lowercased())
                let moved = try await ada.publish(bio.id, category: .medicine, language: .de)
                #expect(
                    moved.entryId == entry.entryId && moved.category == .medicine, "publishing again changes the entry")
                #expect(try await ada.publication(of: bio.id) == moved)

                // Bea browses: only the published stack, never the private one.
                let bea = FlashcardsClient(baseURL: url)
                try await bea.signup(name: "Bea", mail: "bea@example.org", password: "correct horse")
                let all = try await bea.explore()
                #expect(all.total == 1 && all.items.map(\.name) == ["Zellbiologie für Anfänger"])
                let listed = try #require(all.items.first)
                #expect(listed.cardCount == 5 && listed.author == "Ada" && !listed.mine && !listed.official)
                #expect(listed.preview.map(\.question) == ["Frage 1", "Frage 2", "Frage 3"])
                #expect(try await ada.explore().items.first?.mine == true)
                #expect(try await bea.explore(category: .medicine).total == 1)
                #expect(try await bea.explore(category: .science).total == 0)
                #expect(try await bea.explore(language: .en).total == 0)
                #expect(try await bea.explore(search: "ZELLBIOLOGIE anfänger").total == 1, "every word, any case")
                #expect(try await bea.explore(search: "Geheime").total == 0)
                #expect(try await bea.explore(search: "100%_").total == 0, "LIKE's signs are taken literally")
                #expect(
                    await Self.code { _ = try await bea.explore(search: String(repeating: "a", count: 201)) }
                        == "validation_failed")

                // A rename is found by the new name.
                _ = try await ada.updateStack(bio.id, name: "Die Zelle")
                #expect(try await bea.explore(search: "zelle").items.first?.name == "Die Zelle")

                let page = try await bea.catalogueEntry(entry.entryId, page: 2, perPage: 2)
                #expect(
                    page.entry.name == "Die Zelle" && page.cards.total == 5
                        && page.cards.items.map(\.question) == ["Frage 3", "Frage 4"])
                let copy = try await bea.copyFromCatalogue(entry.entryId)
                #expect(copy.name == "Die Zelle" && copy.cardCount == 5 && copy.dueCount == 5)
                #expect(try await bea.stacks().map(\.id) == [copy.id])

                // Foreign and unknown ids.
                #expect(
                    await Self.code { _ = try await bea.publish(bio.id, category: .science, language: .de) }
                        == "stack_not_found")
                #expect(await Self.code { try await bea.unpublish(bio.id) } == "stack_not_found")
                #expect(await Self.code { _ = try await bea.catalogueEntry(UUID()) } == "catalogue_entry_not_found")
                let anonymous = FlashcardsClient(baseURL: url)
                #expect(
                    await Self.code { _ = try await anonymous.explore() } != nil,
                    "the catalogue is for signed-in learners")

                // Unpublished: gone at once; Bea's copy stays hers.
                try await ada.unpublish(bio.id)
                #expect(try await bea.explore().total == 0)
                #expect(
                    await Self.code { _ = try await bea.catalogueEntry(entry.entryId) } == "catalogue_entry_not_found")
                #expect(
                    await Self.code { _ = try await bea.copyFromCatalogue(entry.entryId) }
                        == "catalogue_entry_not_found")
                #expect(try await bea.cards(in: copy.id).total == 5)
                try await ada.unpublish(bio.id)
            }
        }
    }

    @Test(
        "a report hides the entry for the reporter only and waits for the operator", arguments: TestDatabase.available)
    func report(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { ada, url in
                try await ada.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await ada.createStack(name: "Werbung", color: "#DC2626")
                _ = try await ada.createCard(in: stack.id, question: "Kaufen?", answer: "Ja")
                let entry = try await ada.publish(stack.id, category: .business, language: .de)
                #expect(await Self.code { try await ada.report(entry.entryId, reason: .spam) } == "own_entry")

                let bea = FlashcardsClient(baseURL: url)
                try await bea.signup(name: "Bea", mail: "bea@example.org", password: "correct horse")
                let cleo = FlashcardsClient(baseURL: url)
                try await cleo.signup(name: "Cleo", mail: "cleo@example.org", password: "correct horse")
                try await bea.report(entry.entryId, reason: .spam, note: "Nur Werbung")
                #expect(try await bea.explore().total == 0)
                #expect(
                    await Self.code { _ = try await bea.catalogueEntry(entry.entryId) } == "catalogue_entry_not_found")
                #expect(try await cleo.explore().total == 1, "others still see it")

                let queued = try await CatalogueOperator(application: app).reports()
                #expect(queued.count == 1 && queued.first?.reason == "spam" && queued.first?.note == "Nur Werbung")
                #expect(queued.first?.stackName == "Werbung" && queued.first?.entryId == entry.entryId)
                try await CatalogueOperator(application: app).hide(entry.entryId)
                #expect(try await cleo.explore().total == 0, "hidden for everyone")
                #expect(
                    try await CatalogueOperator(application: app).reports().isEmpty,
                    "a hidden entry's reports are resolved")
            }
        }
    }

    @Test(
        "the starter decks are published once, and their texts are checked like any card",
        arguments: TestDatabase.available)
    func starterDecks(db: TestDatabase) async throws {
        let seeded: (inout AppConfiguration) -> Void = { $0.starterCatalogue = true }
        try await withApp(db, adjust: seeded) { app in
            try await StarterCatalogue.seedIfNeeded(app.studyStore(on: app.db), logger: app.logger)
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let page = try await client.explore(perPage: 100)
                #expect(page.total == StarterDecks.all.count && page.items.allSatisfy(\.official))
                #expect(Set(page.items.map(\.language)) == [.de, .en])
                let physics = try #require(page.items.first { $0.name == "Physics Formulas" })
                #expect(physics.preview.first?.rendered?.answer.contains("<span class=\"math\">") == true)
                let copy = try await client.copyFromCatalogue(physics.id)
                #expect(copy.cardCount == StarterDecks.all.first { $0.name == "Physics Formulas" }?.cards.count)
                // Nobody can sign in as the catalogue's account.
                let login = FlashcardsClient(baseURL: client.baseURL)
                await #expect(throws: FlashcardsError.self) {
                    try await login.login(mail: StarterCatalogue.mail, password: "")
                }
            }
        }
        for deck in StarterDecks.all {
            for card in deck.cards {
                #expect((try? TextCheck.checked(card.question, max: 10_000, required: true).get()) == card.question)
                #expect((try? TextCheck.checked(card.answer, max: 20_000, required: true).get()) == card.answer)
            }
        }
    }
}

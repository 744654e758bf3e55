import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// A package from `Fixtures/anki` (see its README for what each holds).
func ankiFixture(_ name: String) throws -> Data {
    try Data(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/anki/\(name)"))
}

@Suite("Anki packages: import with review history, refusals")
struct AnkiImportTests {
    @Test(
        "the current format (anki21b, zstd, protobuf) previews its decks and imports cards with their history",
        arguments: TestDatabase.available)
    func modern(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let file = try ankiFixture("modern.apkg")
            try await send(app, token: token, path: "api/v1/imports/preview", file: file, name: "Biologie.apkg") {
                res in
                #expect(res.status == .ok, "\(res.body.string)")
                let preview = try res.decoded(ImportPreviewDTO.self)
                #expect(preview.format == "apkg" && preview.cards == 7 && preview.rejected == 0)
                #expect(preview.notes == 5 && preview.reviews == 18 && preview.media == 2 && preview.images == 2)
                #expect(
                    preview.decks == [
                        ImportDeckDTO(name: "Biologie", cards: 3, reviews: 3),
                        ImportDeckDTO(name: "Biologie::Zellen", cards: 4, reviews: 15),
                    ])
                // Rows are plain text: an image without a description shows as "[Bild]".
                #expect(
                    preview.rows.contains([
                        "Was ist die Mitochondrie?", "Das Kraftwerk der Zelle.\nSie erzeugt ATP & Wärme.\n[Bild]",
                    ]))
            }
            let job = try await importFile(app, token: token, file: file, name: "Biologie.apkg")
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            let result = try JSONDecoder().decode(ImportResultDTO.self, from: Data(try #require(job.result).utf8))
            #expect(result.cardsCreated == 7 && result.reviewsImported == 18 && result.mediaSkipped == 0)
            #expect(result.imagesImported == 2)
            #expect(
                result.stacks.map(\.name) == ["Biologie", "Biologie::Zellen"] && result.stacks.map(\.cards) == [3, 4])

            let cards = try await cardRows(app)
            // Cards are found by the sides a learner sees.
            func card(_ question: String) throws -> CardModel {
                try #require(try cards.first { try $0.sides.question == question })
            }
            #expect(try card("Ist das harmlos?").answer == "Nein, <script> ist gefährlich.")
            // The notes with images are rich cards showing the importer's copies.
            let mito = try card("Was ist die Mitochondrie?")
            let image = try #require(RichText.imageIds(mito.answer).first)
            #expect(try mito.cardFormat == .markdown)
            #expect(mito.answer == "Das Kraftwerk der Zelle.\nSie erzeugt ATP & Wärme.\n![](image:\(image))")
            // A cloze note stays one note of cloze cards, one per gap, its extra notes on the back.
            let membrane = try card("Die […] umgibt die Zelle.")
            let cell = try card("Die Zellmembran umgibt die [Hülle?].")
            #expect(try membrane.cardKind == .cloze && membrane.variant == 1 && cell.variant == 2)
            #expect(membrane.noteId != nil && membrane.noteId == cell.noteId)
            #expect(membrane.question == "Die {{c1::Zellmembran}} umgibt die {{c2::Zelle::Hülle?}}.")
            #expect(try membrane.sides.answer == "Die Zellmembran umgibt die Zelle.\n\nSiehe auch: Zellwand")
            #expect(try membrane.sides.expected == "Zellmembran" && cell.sides.expected == "Zelle")
            #expect(try card("Umwandlung von Licht in chemische Energie").answer == "Photosynthese")
            #expect(try card("Zellkern & DNA").tags == "bild zelle")
            // The history arrives in the review log; each card is the replay of its history.
            let logs = try await ReviewLogModel.query(on: app.db).all()
            #expect(logs.count == 18 && logs.allSatisfy { $0.scheduler == "fsrs" && $0.kind == "review" })
            let kern = try card("Zellkern & DNA")
            #expect(kern.reviewCount == 6 && logs.filter { $0.cardId == kern.id }.map(\.rating) == [3, 3, 3, 1, 1, 2])
            #expect(try kern.cardState == .relearning || kern.cardState == .review)
            #expect(kern.lastReviewedAt == Date(timeIntervalSince1970: 1_709_720_527))
            #expect(try card("Umwandlung von Licht in chemische Energie").cardState == .new)
            #expect(cards.filter { $0.reviewCount > 0 }.allSatisfy { $0.stability != nil && $0.difficulty != nil })
            // An undo or a scheduler change replays the log: the card comes out the same.
            let stack = try #require(try await StackModel.find(kern.stackId, on: app.db))
            let user = try #require(try await UserModel.query(on: app.db).first())
            let scheduler = SchedulerCache.scheduler(for: stack, user: user, parameters: nil)
            let replayed = scheduler.replay(
                try logs.filter { $0.cardId == kern.id }.map { try $0.logged }, cardID: Int64(kern.id!),
                createdAt: kern.createdAt)
            #expect(try replayed.schedule == kern.schedule)
            // The stack studies as any other.
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stack.uniqueId.uuidString.lowercased())/study/next?daysAhead=30",
                headers: bearerHeaders(token)
            ) { res in #expect(res.status == .ok) }
        }
    }

    @Test("the legacy formats: genanki's anki2 and Anki's anki21, and a note type of its own")
    func legacy() async throws {
        try await withApp(.sqlite, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let genanki = try await importFile(app, token: token, file: try ankiFixture("legacy-genanki.apkg"))
            #expect(genanki.status == "succeeded", "\(genanki.error ?? "")")
            var cards = try await cardRows(app)
            #expect(cards.count == 7)
            #expect(try cards.allSatisfy { try $0.cardState == .new })
            #expect(try await ReviewLogModel.query(on: app.db).count() == 0)
            let legacy = try await importFile(
                app, token: token, file: try ankiFixture("modern-legacy.apkg"),
                options: ImportOptionsDTO(stackName: "Alles in einem"))
            #expect(legacy.status == "succeeded", "\(legacy.error ?? "")")
            let result = try JSONDecoder().decode(ImportResultDTO.self, from: Data(try #require(legacy.result).utf8))
            #expect(result.stacks.map(\.name) == ["Alles in einem"] && result.reviewsImported == 18)
            #expect(try await ReviewLogModel.query(on: app.db).count() == 18)
            let own = try await importFile(app, token: token, file: try ankiFixture("unknown-notetype.apkg"))
            #expect(own.status == "succeeded", "\(own.error ?? "")")
            cards = try await cardRows(app)
            #expect(cards.contains { $0.question == "die Zelle\nDie Zelle teilt sich." && $0.answer == "cell" })
            #expect(cards.contains { $0.question == "der Kern" && $0.answer == "nucleus" })
            #expect(
                try await StackModel.query(on: app.db).all().map(\.name).sorted() == [
                    "Alles in einem", "Biologie", "Biologie::Zellen", "Vokabeln",
                ])
        }
    }

    @Test("bombs, unsafe names, broken collections and other zips are refused and nothing is written")
    func refusals() async throws {
        try await withApp(.sqlite, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let cases = [
                ("zip-bomb.apkg", "package_too_large"), ("zip-bomb-understated.apkg", "not_a_package"),
                ("corrupt-collection.apkg", "corrupt_collection"), ("corrupt-anki21b.apkg", "corrupt_collection"),
            ]
            for (name, code) in cases {
                try await send(app, token: token, path: "api/v1/imports/preview", file: try ankiFixture(name)) { res in
                    #expect(res.status == .ok, "\(name): \(res.body.string)")
                    let preview = try res.decoded(ImportPreviewDTO.self)
                    #expect(preview.problems.map(\.code) == [code], "\(name)")
                    #expect(preview.cards == 0 && preview.problems.first?.message.isEmpty == false)
                }
            }
            // Refused with the upload: a zip without a collection, and names that leave the folder.
            for (name, status, message) in [
                ("not-anki.zip", HTTPStatus.unsupportedMediaType, "kein Anki-Paket"),
                ("traversal.apkg", .badRequest, "../../evil.txt"),
            ] {
                try await send(app, token: token, path: "api/v1/imports", file: try ankiFixture(name)) { res in
                    #expect(res.status == status && res.body.string.contains(message), "\(name): \(res.body.string)")
                }
            }
            let job = try await importFile(app, token: token, file: try ankiFixture("corrupt-collection.apkg"))
            #expect(try job.status == "failed" && job.dto.errorCode == "corrupt_collection")
            #expect(job.error == "Die Sammlung im Anki-Paket ist beschädigt und kann nicht gelesen werden.")
            #expect(try await StackModel.query(on: app.db).count() == 0)
            #expect(try await CardModel.query(on: app.db).count() == 0)
        }
    }
}

@Suite("Anki packages: export")
struct AnkiExportTests {
    @Test("a stack exports as a package that imports back with its cards, states and history")
    func roundTrip() async throws {
        try await withApp(.sqlite, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let job = try await importFile(
                app, token: token, file: try ankiFixture("modern.apkg"), options: ImportOptionsDTO(stackName: "Bio"))
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            let stack = try #require(try await StackModel.query(on: app.db).first())
            var package = Data()
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stack.uniqueId.uuidString.lowercased())/export?format=apkg",
                headers: bearerHeaders(token)
            ) { res in
                #expect(res.status == .ok)
                #expect(res.headers.first(name: .contentDisposition)?.contains("Bio.apkg") == true)
                package = Data(res.body.readableBytesView)
            }
            if let path = ProcessInfo.processInfo.environment["FLASHCARDS_EXPORT_SAMPLE"] {
                try package.write(to: URL(fileURLWithPath: path))
            }
            let zip = try ZipArchive(package)
            #expect(zip.entries.map(\.name) == ["collection.anki21", "media", "0", "1"])
            let again = try await importFile(app, token: token, file: package, name: "Bio.apkg")
            #expect(again.status == "succeeded", "\(again.error ?? "")")
            let result = try JSONDecoder().decode(ImportResultDTO.self, from: Data(try #require(again.result).utf8))
            #expect(result.stacks.map(\.name) == ["Bio"] && result.cardsCreated == 7 && result.reviewsImported == 18)
            let cards = try await cardRows(app)
            let first = cards.filter { $0.stackId == stack.id }
            let second = cards.filter { $0.stackId != stack.id }
            // An export writes each card as a note of its sides.
            #expect(try first.map { try $0.sides.question } == second.map { try $0.sides.question })
            // (The images come back as copies with ids of their own.)
            #expect(
                try first.map { RichText.plainText(try $0.sides.answer) }
                    == second.map { RichText.plainText(try $0.sides.answer) })
            #expect(first.map(\.tags) == second.map(\.tags))
            // The history came back whole, so each card replays to the same schedule.
            #expect(first.map(\.reviewCount) == second.map(\.reviewCount) && first.map(\.state) == second.map(\.state))
            #expect(first.map(\.stability) == second.map(\.stability))
        }
    }

    @Test("a rich card's fields are its sanitised HTML with formulas for Anki's MathJax; a plain card's are text")
    func richFields() {
        #expect(
            AnkiPackageWriter.field(.markdown, "**Kraft**: $F = m \\cdot a$ <b>")
                == "<p><strong>Kraft</strong>: \\(F = m \\cdot a\\) &lt;b&gt;</p>")
        #expect(AnkiPackageWriter.field(.markdown, "$$E < mc^2$$") == "\\[E &lt; mc^2\\]")
        #expect(AnkiPackageWriter.field(.plain, "**a** <b>\nc") == "**a** &lt;b&gt;<br>c")
        #expect(AnkiPackageWriter.field(.markdown, "") == "")
    }
}

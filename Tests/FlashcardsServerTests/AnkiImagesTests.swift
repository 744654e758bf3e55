import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// The images of an account, as stored.
private struct ImageRow: Decodable {
    let id: UUID
    let user_id: UUID
    let media_type: String
    let byte_count: Int
}

private func imageRows(_ app: Application) async throws -> [ImageRow] {
    try await app.db.sql.raw("SELECT id, user_id, media_type, byte_count FROM card_images ORDER BY created_at, id")
        .all(decoding: ImageRow.self)
}

/// `GET /api/v1/images/{id}`: its status, media type and bytes.
private func fetchImage(_ app: Application, _ id: String, token: String) async throws -> (
    status: HTTPStatus, type: String?, data: Data
) {
    var result: (HTTPStatus, String?, Data) = (.internalServerError, nil, Data())
    try await app.testing().test(.GET, "api/v1/images/\(id)", headers: bearerHeaders(token)) { res in
        result = (res.status, res.headers.first(name: .contentType), Data(res.body.readableBytesView))
    }
    return result
}

/// The card whose (plain) question is `question`.
private func card(_ cards: [CardModel], _ question: String) throws -> CardModel {
    try #require(try cards.first { try $0.cardFormat.plainText($0.question) == question }, "\(question)")
}

@Suite("Anki packages with images: import, export, backups")
struct AnkiImagesTests {
    @Test(
        "images in notes become images of the importer's rich cards (current and legacy format)",
        arguments: TestDatabase.available, ["images.apkg", "images-legacy.apkg"])
    func importImages(db: TestDatabase, fixture: String) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let file = try ankiFixture(fixture)
            try await send(app, token: token, path: "api/v1/imports/preview", file: file, name: "Bilder.apkg") { res in
                #expect(res.status == .ok, "\(res.body.string)")
                let preview = try res.decoded(ImportPreviewDTO.self)
                // jpg, gif, webp, zelle.png and the broken png read as images; svg and mp3 do not.
                #expect(preview.cards == 6 && preview.rejected == 0 && preview.media == 7 && preview.images == 5)
                // Rows are plain text: an image shows as its description.
                #expect(
                    preview.rows.contains([
                        "Was zeigt das Bild?\nZelle & Kern", "Eine Zelle: 5 * 3 = 15 und 1_000 $ | [Teil] - kein Punkt",
                    ]))
            }
            let job = try await importFile(app, token: token, file: file, name: "Bilder.apkg")
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            let result = try JSONDecoder().decode(ImportResultDTO.self, from: Data(try #require(job.result).utf8))
            #expect(result.cardsCreated == 6 && result.imagesImported == 4 && result.mediaSkipped == 3)

            let user = try #require(try await UserModel.query(on: app.db).first())
            let images = try await imageRows(app)
            #expect(images.count == 4 && images.allSatisfy { $0.user_id == user.id })
            #expect(Set(images.map(\.media_type)) == ["image/jpeg", "image/png", "image/webp"])
            let cards = try await cardRows(app)
            #expect(cards.count == 6)

            // A source with a character reference, its description kept, the rest escaped.
            let jpgCard = try card(cards, "Was zeigt das Bild?\nZelle & Kern")
            #expect(try jpgCard.cardFormat == .markdown)
            let jpg = try #require(RichText.imageIds(jpgCard.question).first)
            #expect(jpgCard.question == "Was zeigt das Bild?\n![Zelle & Kern](image:\(jpg))")
            #expect(jpgCard.answer == #"Eine Zelle: 5 \* 3 = 15 und 1\_000 \$ \| \[Teil\] - kein Punkt"#)
            #expect(
                RichText.plainText(jpgCard.answer) == "Eine Zelle: 5 * 3 = 15 und 1_000 $ | [Teil] - kein Punkt")
            // An image alone (a GIF, stored as PNG).
            let gifCard = try card(cards, "Blüte")
            let gif = try #require(RichText.imageIds(gifCard.answer).first)
            #expect(try gifCard.cardFormat == .markdown && gifCard.answer == "![](image:\(gif))")
            // A description with Markdown characters; the sound beside it is left out.
            let webpCard = try card(cards, "Kreis *rot* [1] Welche Farbe?")
            let webp = try #require(RichText.imageIds(webpCard.question).first)
            #expect(webpCard.question == #"![Kreis *rot* \[1\]](image:\#(webp)) Welche Farbe?"#)
            #expect(webpCard.answer == "Rot")
            // An SVG and a broken image become their descriptions: the cards stay plain.
            let svg = try card(cards, "Formel E = mc²")
            #expect(try svg.cardFormat == .plain && svg.answer == "Energie")
            #expect(try card(cards, "Kaputt\nkaputtes Bild").cardFormat == .plain)
            // The same file twice is one image; a URL-encoded source finds its file; lines that
            // would start a list stay text.
            let twice = try card(cards, "[Bild]")
            let png = try #require(RichText.imageIds(twice.question).first)
            #expect(twice.question == "![](image:\(png))")
            #expect(twice.answer == "![](image:\(png))\n\\- Zelle\n1\\. Teil\n![](image:\(jpg))")
            #expect(Set([jpg, gif, webp, png]) == Set(images.map { $0.id.uuidString.lowercased() }))

            // Each is served to the importer, re-encoded (no EXIF), and to nobody else.
            for (id, type) in [(jpg, ImageType.jpeg), (gif, .png), (webp, .webp), (png, .png)] {
                let image = try await fetchImage(app, id, token: token)
                #expect(image.status == .ok && image.type == type.mediaType, "\(id)")
                #expect(ImageType.sniff(image.data) == type && PixelSize.read(image.data, type: type) != nil)
                #expect(image.data.range(of: Data("Exif".utf8)) == nil)
            }
            let jpeg = try await fetchImage(app, jpg, token: token).data
            #expect(PixelSize.read(jpeg, type: .jpeg) == PixelSize(width: 40, height: 30))
            let other = try await app.compatSignup(name: "Eve", mail: "eve@example.org")
            #expect(try await fetchImage(app, jpg, token: other).status == .notFound)
            // The rich cards render the images for the web app.
            let stack = try #require(try await StackModel.find(jpgCard.stackId, on: app.db))
            try await app.testing().test(
                .GET,
                "api/v1/stacks/\(stack.uniqueId.uuidString.lowercased())/cards/\(jpgCard.uniqueId.uuidString.lowercased())",
                headers: bearerHeaders(token)
            ) { res in
                #expect(res.status == .ok)
                #expect(res.body.string.contains("data-image=\\\"\(jpg)\\\""), "\(res.body.string)")
            }
        }
    }

    @Test(
        "a stack with images exports as a package with its media, and imports back with them",
        arguments: TestDatabase.available)
    func exportImages(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let job = try await importFile(
                app, token: token, file: try ankiFixture("images.apkg"), options: ImportOptionsDTO(stackName: "Bilder"))
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            let stack = try #require(try await StackModel.query(on: app.db).first())
            var package = Data()
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stack.uniqueId.uuidString.lowercased())/export?format=apkg",
                headers: bearerHeaders(token)
            ) { res in
                #expect(res.status == .ok)
                package = Data(res.body.readableBytesView)
            }
            let zip = try ZipArchive(package)
            #expect(zip.entries.map(\.name) == ["collection.anki21", "media", "0", "1", "2", "3"])
            let map = try JSONDecoder().decode(
                [String: String].self, from: try #require(try zip.contents(of: "media", limit: 1 << 20)))
            let before = try await imageRows(app)
            #expect(
                Set(map.values)
                    == Set(
                        before.map { row in
                            row.id.uuidString.lowercased() + "."
                                + (ImageType.allCases.first { $0.mediaType == row.media_type }!.fileExtension)
                        }))
            for (entry, name) in map {
                let data = try #require(try zip.contents(of: entry, limit: 1 << 20))
                let row = try #require(before.first { name.hasPrefix($0.id.uuidString.lowercased()) })
                #expect(data.count == row.byte_count, "\(name)")
            }

            let again = try await importFile(app, token: token, file: package, name: "Bilder.apkg")
            #expect(again.status == "succeeded", "\(again.error ?? "")")
            let result = try JSONDecoder().decode(ImportResultDTO.self, from: Data(try #require(again.result).utf8))
            #expect(result.cardsCreated == 6 && result.imagesImported == 4 && result.mediaSkipped == 0)
            let cards = try await cardRows(app)
            let first = cards.filter { $0.stackId == stack.id }
            let second = cards.filter { $0.stackId != stack.id }
            #expect(try first.map { try $0.cardFormat } == second.map { try $0.cardFormat })
            // The same texts as seen, the images under new ids of their own.
            #expect(
                try first.map { try $0.cardFormat.plainText($0.question) }
                    == second.map { try $0.cardFormat.plainText($0.question) }
            )
            #expect(
                first.map { RichText.imageIds($0.question + "\n" + $0.answer).count }
                    == second.map { RichText.imageIds($0.question + "\n" + $0.answer).count })
            let after = try await imageRows(app)
            #expect(after.count == 8)
            let copies = after.filter { row in !before.contains { $0.id == row.id } }
            #expect(Set(copies.map(\.media_type)) == Set(before.map(\.media_type)))
            // Re-encoded once more: within the same size class.
            for type in Set(before.map(\.media_type)) {
                let old = before.filter { $0.media_type == type }.map(\.byte_count).reduce(0, +)
                let new = copies.filter { $0.media_type == type }.map(\.byte_count).reduce(0, +)
                #expect(new * 2 >= old && new <= old * 2, "\(type): \(old) → \(new)")
            }
        }
    }

    @Test("a backup carries the images its cards show; a restore writes them anew", arguments: TestDatabase.available)
    func backupImages(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let ada = try await app.compatSignup()
            let job = try await importFile(app, token: ada, file: try ankiFixture("images.apkg"))
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            var backup = Data()
            try await app.testing().test(.GET, "api/v1/me/backup", headers: bearerHeaders(ada)) { res in
                #expect(res.status == .ok)
                backup = Data(res.body.readableBytesView)
            }
            let document = try FlashcardsJSON.makeDecoder().decode(BackupDocumentDTO.self, from: backup)
            let images = try #require(document.images)
            let stored = try await imageRows(app)
            #expect(Set(images.map(\.id)) == Set(stored.map(\.id)))
            #expect(images.map(\.data.count).sorted() == stored.map(\.byte_count).sorted())

            // Restored into another account: new image ids, the texts rewritten, the images its own.
            let grace = try await app.compatSignup(name: "Grace", mail: "grace@example.org")
            var jobId: UUID?
            try await send(app, token: grace, path: "api/v1/me/restore", file: backup, name: "konto.json") { res in
                #expect(res.status == .accepted, "\(res.body.string)")
                jobId = try res.decoded(JobDTO.self).id
            }
            let restore = try await waitForJob(app, try #require(jobId))
            #expect(restore.status == "succeeded", "\(restore.error ?? "")")
            let graceUser = try #require(
                try await UserModel.query(on: app.db).filter(\.$mail == "grace@example.org").first())
            let graceImages = try await imageRows(app).filter { $0.user_id == graceUser.id }
            #expect(graceImages.count == 4 && Set(graceImages.map(\.id)).isDisjoint(with: stored.map(\.id)))
            let graceCards = try await CardModel.query(on: app.db).filter(\.$userId == graceUser.id!).all()
            let shown = Set(graceCards.flatMap { RichText.imageIds($0.question + "\n" + $0.answer) })
            #expect(shown == Set(graceImages.map { $0.id.uuidString.lowercased() }))
            for image in graceImages {
                let fetched = try await fetchImage(app, image.id.uuidString.lowercased(), token: grace)
                #expect(fetched.status == .ok && fetched.data.count == image.byte_count)
            }
            // Restoring again gives the same document but for the ids and the date.
            var again = Data()
            try await app.testing().test(.GET, "api/v1/me/backup", headers: bearerHeaders(grace)) { res in
                again = Data(res.body.readableBytesView)
            }
            let second = try FlashcardsJSON.makeDecoder().decode(BackupDocumentDTO.self, from: again)
            #expect(second.images?.map(\.data) == images.map(\.data))
            #expect(
                second.stacks.flatMap(\.cards).map { RichText.plainText($0.question) }
                    == document.stacks.flatMap(\.cards).map { RichText.plainText($0.question) })

            // A stack export imports as a copy with its images.
            let stack = try #require(try await StackModel.query(on: app.db).filter(\.$userId == graceUser.id!).first())
            var stackDocument = Data()
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stack.uniqueId.uuidString.lowercased())/export?format=json",
                headers: bearerHeaders(grace)
            ) { res in stackDocument = Data(res.body.readableBytesView) }
            let copy = try await importFile(app, token: grace, file: stackDocument, name: "stapel.json")
            #expect(copy.status == "succeeded", "\(copy.error ?? "")")
            #expect(try await imageRows(app).filter { $0.user_id == graceUser.id }.count == 8)

            // Bytes that are not what their type says refuse the document, and nothing is written.
            var object = try #require(try JSONSerialization.jsonObject(with: backup) as? [String: Any])
            var list = try #require(object["images"] as? [[String: Any]])
            list[0]["data"] = Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8).base64EncodedString()
            object["images"] = list
            let broken = try JSONSerialization.data(withJSONObject: object)
            let eve = try await app.compatSignup(name: "Eve", mail: "eve@example.org")
            let refused = try await importFile(app, token: eve, file: broken, name: "kaputt.json")
            #expect(
                try refused.status == "failed" && refused.dto.errorCode == "backup_invalid", "\(refused.error ?? "")")
            // A document from before images (no `images`) still restores.
            object.removeValue(forKey: "images")
            let old = try await importFile(
                app, token: eve, file: try JSONSerialization.data(withJSONObject: object), name: "alt.json")
            #expect(old.status == "succeeded", "\(old.error ?? "")")
        }
    }
}

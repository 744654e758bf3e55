import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FlashcardsServer

/// Images on cards (issue 20): stored re-encoded, shown by rich cards, served only to whoever may
/// see a card showing them.
@Suite("Card images")
struct CardImageRoutesTests {
    @Test(
        "upload, show on a card, share, copy, publish, revoke: who sees which image", arguments: TestDatabase.available)
    func story(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { ada, url in
                try await ada.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let photo = try generationFixture("notes.jpg")
                let image = try await ada.uploadImage(photo, fileName: "notes.jpg")
                #expect(image.mediaType == "image/jpeg" && image.width == 1_400 && image.height == 520)
                #expect(image.markdown == "![](image:\(image.id.uuidString.lowercased()))")
                let bytes = try await ada.image(image.id)
                #expect(bytes.count == image.bytes && bytes.starts(with: [0xFF, 0xD8, 0xFF]))

                let stack = try await ada.createStack(name: "Biologie", color: "#059669")
                let other = try await ada.createStack(name: "Anderes", color: "#DC2626")
                _ = try await ada.createCard(in: other.id, question: "Ohne Bild?", answer: "Ja")
                let markdown = RichText.imageMarkdown(id: image.id.uuidString, description: "Mitose \"Phase\"")
                let card = try await ada.createCard(
                    in: stack.id, question: "Welche Phase? " + markdown, answer: "Anaphase", format: .markdown)
                let id = image.id.uuidString.lowercased()
                #expect(
                    card.rendered?.question
                        == "<p>Welche Phase? <img class=\"card-image\" data-image=\"\(id)\" alt=\"Mitose &quot;Phase&quot;\"></p>"
                )

                // Nobody else: not signed in, another learner, a card of theirs pointing at it.
                let anonymous = FlashcardsClient(baseURL: url)
                let bea = FlashcardsClient(baseURL: url)
                try await bea.signup(name: "Bea", mail: "bea@example.org", password: "correct horse")
                #expect(await errorCode { _ = try await anonymous.image(image.id) } == "image_not_found")
                #expect(await errorCode { _ = try await bea.image(image.id) } == "image_not_found")
                let beas = try await bea.createStack(name: "Beas", color: "#2563EB")
                #expect(
                    await errorCode {
                        _ = try await bea.createCard(in: beas.id, question: markdown, answer: "x", format: .markdown)
                    } == "unknown_image")
                // As a plain card the same text is only text (nothing is shown, nothing to check).
                let plain = try await bea.createCard(in: beas.id, question: markdown, answer: "x")
                #expect(plain.rendered == nil)
                #expect(await errorCode { _ = try await bea.image(image.id) } == "image_not_found")
                // Nor by turning her plain card rich.
                #expect(
                    await errorCode { _ = try await bea.updateCard(plain.id, in: beas.id, format: .markdown) }
                        == "unknown_image")

                // A share link shows the stack's images, to anyone holding it, and only those.
                let link = try await ada.share(stack.id)
                #expect(try await anonymous.image(image.id, shareToken: link.token) == bytes)
                let otherLink = try await ada.share(other.id)
                #expect(
                    await errorCode { _ = try await anonymous.image(image.id, shareToken: otherLink.token) }
                        == "image_not_found")
                // Copying makes the copier's own image.
                let copy = try await bea.copySharedStack(token: link.token)
                let copied = try await bea.cards(in: copy.id).items[0]
                let copiedId = try #require(RichText.imageIds(copied.question).first.flatMap(UUID.init(uuidString:)))
                #expect(copiedId != image.id)
                #expect(try await bea.image(copiedId) == bytes)
                #expect(await errorCode { _ = try await ada.image(copiedId) } == "image_not_found")
                // Revoked: at once.
                try await ada.stopSharing(stack.id)
                #expect(
                    await errorCode { _ = try await anonymous.image(image.id, shareToken: link.token) }
                        == "share_not_found")

                // Published: signed-in learners see it, until it is taken out.
                _ = try await ada.publish(stack.id, category: .science, language: .de)
                #expect(try await bea.image(image.id) == bytes)
                #expect(await errorCode { _ = try await anonymous.image(image.id) } == "image_not_found")
                try await ada.unpublish(stack.id)
                #expect(await errorCode { _ = try await bea.image(image.id) } == "image_not_found")

                // An image no card shows goes a day after it was uploaded; one still shown stays.
                let second = try await ada.uploadImage(try generationFixture("notes.png"))
                #expect(second.mediaType == "image/png")
                _ = try await ada.updateCard(card.id, in: stack.id, question: "Welche Phase? (ohne Bild)")
                _ = try await ada.createCard(in: stack.id, question: second.markdown, answer: "b", format: .markdown)
                clock.advance(by: 2 * 86_400)
                _ = try await ada.uploadImage(photo)
                #expect(await errorCode { _ = try await ada.image(image.id) } == "image_not_found")
                #expect(try await ada.image(second.id).starts(with: [0x89, 0x50, 0x4E, 0x47]))
                #expect(try await bea.image(copiedId) == bytes, "Bea's copy is hers")
            }
        }
    }

    @Test("bad uploads get a clear 4xx and store nothing", arguments: TestDatabase.available)
    func badUploads(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup()
            func upload(_ body: Data, contentType: String = "application/octet-stream", auth: Bool = true)
                async throws -> (HTTPStatus, String?)
            {
                var status = HTTPStatus.ok
                var code: String?
                var headers = bearerHeaders(auth ? token : nil)
                headers.replaceOrAdd(name: .contentType, value: contentType)
                try await app.testing().test(.POST, "api/v1/images", headers: headers, body: ByteBuffer(data: body)) {
                    res in
                    status = res.status
                    code = (res.json as? [String: Any])?["code"] as? String
                }
                return (status, code)
            }
            #expect(try await upload(Data("Hallo".utf8)) == (.unsupportedMediaType, "unsupported_media_type"))
            #expect(try await upload(Data()) == (.badRequest, "image_invalid"))
            #expect(try await upload(Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0])) == (.badRequest, "image_invalid"))
            #expect(try await upload(Data(count: 10 * 1_024 * 1_024 + 1)) == (.payloadTooLarge, "payload_too_large"))
            #expect(
                try await upload(Data("--x\r\n\r\n".utf8), contentType: "multipart/form-data; boundary=x").0
                    == .badRequest)
            #expect(
                try await upload(try generationFixture("notes.png"), auth: false) == (.unauthorized, "unauthorized"))
            // The raw body of a pasted picture works as a form does.
            #expect(try await upload(try generationFixture("notes.png"), contentType: "image/png").0 == .created)
            let rows = try await (app.db as! any SQLDatabase).raw("SELECT COUNT(*) AS n FROM card_images").first()?
                .decode(column: "n", as: Int.self)
            #expect(rows == 1)
            // Ids that are none, and a token that is no token.
            for path in ["/api/v1/images/x", "/api/v1/images/\(UUID())"] {
                try await app.testing().test(.GET, path) { res in #expect(res.status == .notFound) }
            }
            try await app.testing().test(.GET, "api/v1/images/\(UUID())", headers: bearerHeaders("nope")) { res in
                #expect(res.status == .unauthorized)
            }
        }
    }
}

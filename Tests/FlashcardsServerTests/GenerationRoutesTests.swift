import FlashcardsAPI
import FlashcardsGeneration
import Fluent
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// A lecture page with definitions the offline generator finds.
let lectureText = """
    Zellbiologie – Kapitel 1

    Die Zelle ist die kleinste lebende Einheit aller Organismen.
    Das Mitochondrium ist das Kraftwerk der Zelle, in dem ATP gebildet wird.
    Unter Osmose versteht man die Diffusion von Wasser durch eine semipermeable Membran.
    Ribosomen sind Zellorganellen, an denen Proteine synthetisiert werden.
    """

func generationFixture(_ name: String) throws -> Data {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FlashcardsGenerationTests/Fixtures/\(name)")
    return try Data(contentsOf: url)
}

/// A multipart body with a file part and optional text fields.
func multipart(
    file: Data?, fileField: String = "file", fileName: String = "../../etc/passwd", fields: [String: String] = [:]
) -> (HTTPHeaders, ByteBuffer) {
    let boundary = "----flashcards-test-boundary"
    var body = ByteBuffer()
    for (name, value) in fields {
        body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
    }
    if let file {
        body.writeString(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(fileField)\"; filename=\"\(fileName)\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n")
        body.writeBytes(file)
        body.writeString("\r\n")
    }
    body.writeString("--\(boundary)--\r\n")
    var headers = HTTPHeaders()
    headers.add(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
    return (headers, body)
}

@Suite("Card generation over HTTP")
struct GenerationRoutesTests {
    @Test("pasted text becomes drafts the user edits, discards and accepts", arguments: TestDatabase.available)
    func textToDrafts(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let body = try JSONEncoder().encode(GenerationRequestDTO(text: lectureText, customInstructions: ""))
            var jobId: UUID?
            try await app.testing().test(
                .POST, "api/v1/stacks/\(stackId)/generations", headers: bearerHeaders(token),
                body: ByteBuffer(data: body)
            ) { res in
                #expect(res.status == .accepted)
                jobId = try res.decoded(JobDTO.self).id
                // Absent values are explicit nulls, as everywhere in /api/v1.
                let json = try #require(res.json as? [String: Any])
                #expect(json["result"] is NSNull && json["error"] is NSNull)
                let progress = try #require(json["progress"] as? [String: Any])
                #expect(progress["current"] is NSNull && progress["total"] is NSNull)
            }
            let job = try await waitForJob(app, try #require(jobId))
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            var drafts: [DraftDTO] = []
            try await app.testing().test(.GET, "api/v1/stacks/\(stackId)/drafts", headers: bearerHeaders(token)) {
                res in
                drafts = try res.decoded([DraftDTO].self)
            }
            #expect(drafts.count >= 3)
            #expect(drafts.contains { $0.answer.contains("Kraftwerk der Zelle") })
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stackId)/drafts?jobId=\(try #require(jobId))", headers: bearerHeaders(token)
            ) { res in
                let listed = try res.decoded([DraftDTO].self)
                #expect(listed == drafts)
            }
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stackId)/drafts?jobId=kein-auftrag", headers: bearerHeaders(token)
            ) { res in
                #expect(res.status == .badRequest, "a malformed jobId must not list every draft")
            }
            #expect(try job.dto.progress.cardsCreated == drafts.count)
            // Nothing is in the stack until the user accepts.
            #expect(try await CardModel.query(on: app.db).count() == 0)

            let edit = try JSONEncoder().encode(UpdateDraftRequest(question: "Was ist die Zelle? (bearbeitet)"))
            try await app.testing().test(
                .PATCH, "api/v1/stacks/\(stackId)/drafts/\(drafts[0].id)", headers: bearerHeaders(token),
                body: ByteBuffer(data: edit)
            ) { res in
                #expect(res.status == .ok)
                let draft = try res.decoded(DraftDTO.self)
                #expect(draft.question == "Was ist die Zelle? (bearbeitet)")
            }
            try await app.testing().test(
                .DELETE, "api/v1/stacks/\(stackId)/drafts/\(drafts[1].id)", headers: bearerHeaders(token)
            ) { res in #expect(res.status == .noContent) }
            try await app.testing().test(
                .POST, "api/v1/stacks/\(stackId)/drafts/accept", headers: bearerHeaders(token)
            ) { res in
                #expect(res.status == .ok)
                let accepted = try res.decoded(AcceptDraftsResponse.self)
                #expect(accepted.accepted == drafts.count - 1)
            }
            let cards = try await CardModel.query(on: app.db).all()
            #expect(cards.count == drafts.count - 1)
            #expect(cards.contains { $0.question == "Was ist die Zelle? (bearbeitet)" })
            #expect(!cards.contains { $0.question == drafts[1].question })
            // A second accept finds nothing pending.
            try await app.testing().test(
                .POST, "api/v1/stacks/\(stackId)/drafts/accept", headers: bearerHeaders(token)
            ) { res in
                let accepted = try res.decoded(AcceptDraftsResponse.self)
                #expect(accepted.accepted == 0)
            }
        }
    }

    @Test(
        "compatibility route 13 turns a PDF into cards and answers 200 once they exist",
        arguments: TestDatabase.available)
    func createFromFile(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let pdf = MinimalPDFWriter.document(pages: [lectureText.split(separator: "\n").map(String.init)])
            let (headers, body) = multipart(
                file: pdf, fields: ["custom-instructions": "Formuliere alle Karteikarten in Stichpunkten."])
            var auth = headers
            auth.add(name: .authorization, value: token)
            var cardsCreated: Int?
            try await app.testing().test(.POST, "stack/\(stackId)/createFromFile", headers: auth, body: body) { res in
                #expect(res.status == .ok, "\(res.body.string)")
                cardsCreated = (res.json as? [String: Any])?["cardsCreated"] as? Int
            }
            let stack = try await getStack(app, token: token, id: stackId)
            let cards = try #require(stack["cards"] as? [[String: Any]])
            #expect(cards.count >= 3)
            #expect(cardsCreated == cards.count, "cardsCreated is the number of cards, as a JSON number")
            #expect(cards.contains { ($0["answer"] as? String)?.contains("Kraftwerk der Zelle") == true })
        }
    }

    @Test("route 13 refuses what it cannot use, with a message and nothing written")
    func createFromFileErrors() async throws {
        try await withApp(.sqlite) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            func post(_ file: Data?, stack: String? = nil, field: String = "file") async throws -> (HTTPStatus, String?)
            {
                var (headers, body) = multipart(file: file, fileField: field)
                headers.add(name: .authorization, value: token)
                var result: (HTTPStatus, String?) = (.ok, nil)
                try await app.testing(method: .running(port: 0)).test(
                    .POST, "stack/\(stack ?? stackId)/createFromFile", headers: headers, body: body
                ) { res in result = (res.status, res.message) }
                return result
            }
            var (status, message) = try await post(try generationFixture("notes.png"))
            #expect(status == .unsupportedMediaType)
            #expect(message?.contains("PDF") == true)
            (status, message) = try await post(try generationFixture("encrypted.pdf"))
            #expect(status == .badRequest)
            #expect(message?.isEmpty == false)
            (status, _) = try await post(try generationFixture("broken.pdf"))
            #expect(status == .badRequest)
            (status, message) = try await post(nil)
            #expect(status == .badRequest)
            #expect(message == "Bitte wähle eine Datei aus, bevor du fortfährst.")
            (status, _) = try await post(Data(), field: "file")
            #expect(status == .badRequest)
            var huge = MinimalPDFWriter.document(pages: [["x"]])
            huge.append(Data(repeating: 0x20, count: 11 * 1_024 * 1_024))
            (status, _) = try await post(huge)
            #expect(status == .payloadTooLarge)
            (status, message) = try await post(try generationFixture("blank.pdf"), stack: UUID().uuidString)
            #expect(status == .notFound)
            #expect(message == "Stack not found")
            #expect(try await CardModel.query(on: app.db).count() == 0)
        }
    }

    @Test(
        "drafts carry their source sentence, the same fact as a cloze, and a mark when the stack has them",
        arguments: TestDatabase.available)
    func draftDetails(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            // Public, before anyone signs in: the page words itself by it.
            try await app.testing().test(.GET, "api/v1/generation") { res in
                #expect(res.status == .ok)
                let info = try res.decoded(GenerationInfoDTO.self)
                #expect(info.generator == "offline" && info.model == nil && !info.topics)
                #expect(info.maxUploadBytes == 10 * 1_024 * 1_024)
                #expect((res.json as? [String: Any])?["model"] is NSNull)
            }
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            func generate() async throws -> (drafts: [DraftDTO], result: [String: Any]) {
                let body = try JSONEncoder().encode(GenerationRequestDTO(text: lectureText))
                var jobId: UUID?
                try await app.testing().test(
                    .POST, "api/v1/stacks/\(stackId)/generations", headers: bearerHeaders(token),
                    body: ByteBuffer(data: body)
                ) { res in jobId = try res.decoded(JobDTO.self).id }
                let job = try await waitForJob(app, try #require(jobId))
                #expect(job.status == "succeeded", "\(job.error ?? "")")
                var drafts: [DraftDTO] = []
                try await app.testing().test(
                    .GET, "api/v1/stacks/\(stackId)/drafts?jobId=\(try #require(jobId))", headers: bearerHeaders(token)
                ) { res in drafts = try res.decoded([DraftDTO].self) }
                let result = try JSONSerialization.jsonObject(with: Data((try job.dto.result ?? "{}").utf8))
                return (drafts, try #require(result as? [String: Any]))
            }
            let first = try await generate()
            let power = try #require(first.drafts.first { $0.answer.contains("Kraftwerk der Zelle") })
            #expect(power.source == "Das Mitochondrium ist das Kraftwerk der Zelle, in dem ATP gebildet wird.")
            #expect(power.alternative?.kind == "cloze" && power.alternative?.answer == "Mitochondrium")
            #expect(power.alternative?.question.contains("_____") == true)
            #expect(first.drafts.allSatisfy { $0.duplicateOf == nil })
            #expect(first.result["duplicates"] as? Int == 0)
            #expect(first.result["generator"] as? String == "offline")
            #expect(first.result["drafts"] as? Int == first.drafts.count)
            try await app.testing().test(
                .POST, "api/v1/stacks/\(stackId)/drafts/accept", headers: bearerHeaders(token)
            ) { res in #expect(res.status == .ok) }

            // The same text again: every draft is one the stack has, and says which.
            let second = try await generate()
            #expect(second.drafts.count == first.drafts.count)
            #expect(second.drafts.allSatisfy { $0.duplicateOf != nil })
            #expect(second.drafts.first { $0.answer.contains("Kraftwerk") }?.duplicateOf == power.question)
            #expect(second.result["duplicates"] as? Int == second.drafts.count)
            // Pasted text has no pages; absent values are explicit nulls.
            #expect(second.result["pages"] is NSNull && second.result["model"] is NSNull)

            // A job that makes nothing says so for programs too.
            let nothing = try JSONEncoder().encode(GenerationRequestDTO(text: "ok ok ok"))
            var failedId: UUID?
            try await app.testing().test(
                .POST, "api/v1/stacks/\(stackId)/generations", headers: bearerHeaders(token),
                body: ByteBuffer(data: nothing)
            ) { res in failedId = try res.decoded(JobDTO.self).id }
            let failed = try await waitForJob(app, try #require(failedId))
            #expect(failed.status == "failed")
            #expect(try failed.dto.errorCode == "nothing_generated")
        }
    }

    @Test("a topic batch's depth is checked before a job is queued", arguments: TestDatabase.available)
    func topicDepth(db: TestDatabase) async throws {
        let withModel: (inout AppConfiguration) -> Void = {
            $0.jobWorkers = 0
            $0.llm = LLMConfiguration(baseURL: "http://127.0.0.1:9/v1", model: "test-model")
        }
        try await withApp(db, adjust: withModel) { app in
            try await app.testing().test(.GET, "api/v1/generation") { res in
                let info = try res.decoded(GenerationInfoDTO.self)
                #expect(info.generator == "model" && info.model == "test-model" && info.topics)
                #expect(info.topicBatchSize == 15)
            }
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            for (depth, status) in [(0, HTTPStatus.badRequest), (21, .badRequest), (3, .accepted)] {
                let body = try JSONEncoder().encode(GenerationRequestDTO(topic: "Zellbiologie", depth: depth))
                try await app.testing().test(
                    .POST, "api/v1/stacks/\(stackId)/generations", headers: bearerHeaders(token),
                    body: ByteBuffer(data: body)
                ) { res in
                    #expect(res.status == status, "depth \(depth)")
                    if status == .accepted {
                        let job = try #require(try await JobModel.find(try res.decoded(JobDTO.self).id, on: app.db))
                        let payload = try FlashcardsJSON.makeDecoder().decode(
                            GenerationPayload.self, from: Data(job.payload.utf8))
                        #expect(payload.depth == 3)
                    }
                }
            }
        }
    }

    @Test(
        "every new card gets a hint from a hint job that never gives the answer away; user hints stay",
        arguments: TestDatabase.available)
    func hints(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let first = try await createCard(
                app, token: token, stackId: stackId, question: "Hauptstadt von Frankreich?")
            let deadline = Date().addingTimeInterval(15)
            var card = try await CardModel.query(on: app.db).first()
            while card?.hint == nil, Date() < deadline {
                try await Task.sleep(nanoseconds: 50_000_000)
                card = try await CardModel.query(on: app.db).first()
            }
            let hint = try #require(card?.hint)
            #expect(card?.hintSource == "generated")
            #expect(!hint.localizedCaseInsensitiveContains("Antwort"))
            // The compatibility API shows it.
            try await app.testing().test(.GET, "stack/\(stackId)/card/\(first)", headers: compatHeaders(token)) { res in
                #expect((res.json as? [String: Any])?["hint"] as? String == hint)
            }
            // A hint the user writes is theirs: an edit of the answer keeps it.
            let stack = try #require(try await StackModel.query(on: app.db).first())
            let edit = try JSONEncoder().encode(UpdateCardRequest(answer: "Paris", hint: "Stadt der Liebe"))
            try await app.testing().test(
                .PATCH, "api/v1/stacks/\(stack.uniqueId)/cards/\(first)", headers: bearerHeaders(token),
                body: ByteBuffer(data: edit)
            ) { res in #expect(res.status == .ok) }
            let answer = try JSONEncoder().encode(UpdateCardRequest(answer: "Paris, an der Seine"))
            try await app.testing().test(
                .PATCH, "api/v1/stacks/\(stack.uniqueId)/cards/\(first)", headers: bearerHeaders(token),
                body: ByteBuffer(data: answer)
            ) { res in
                let card = try res.decoded(CardDTO.self)
                #expect(card.hint == "Stadt der Liebe")
            }
        }
    }
}

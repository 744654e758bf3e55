import FlashcardsAPI
import FlashcardsGeneration
import FlashcardsTestServer
import Fluent
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

@Suite("The source beside the drafts")
struct GenerationSourceTests {
    static let notes = """
        Zellbiologie – Vorlesung 2

        # 1. Organellen

        Das Mitochondrium ist das Kraftwerk der Zelle, in dem ATP gebildet wird.
        Unter Osmose versteht man die Diffusion von Wasser durch eine semipermeable Membran.

        # 2. Ausblick

        Wir schauen uns nächste Woche noch einmal alles in Ruhe gemeinsam an, bitte bringt eure Fragen mit.
        """

    /// A finished generation of `notes` in the stack: its id and its row.
    static func generate(_ app: Application, token: String, stack: String) async throws -> (UUID, JobModel) {
        var jobId: UUID?
        try await app.testing().test(
            .POST, "api/v1/stacks/\(stack)/generations", headers: bearerHeaders(token),
            body: ByteBuffer(data: try JSONEncoder().encode(GenerationRequestDTO(text: notes)))
        ) { res in jobId = try res.decoded(JobDTO.self).id }
        let id = try #require(jobId)
        return (id, try await waitForJob(app, id))
    }

    @Test(
        "the source is kept with marks; uncovered sections are named; a passage becomes a draft that marks it",
        arguments: TestDatabase.available)
    func sourceView(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let headers = bearerHeaders(token)
            func call(
                _ method: HTTPMethod, _ path: String, _ body: (any Encodable)? = nil, headers: HTTPHeaders = headers
            ) async throws -> (status: HTTPStatus, body: Data) {
                var result: (HTTPStatus, Data) = (.internalServerError, Data())
                let buffer = try body.map { ByteBuffer(data: try JSONEncoder().encode($0)) }
                var sent = headers
                if buffer != nil { sent.contentType = .json }
                try await app.testing().test(method, "api/v1/stacks/\(stackId)/\(path)", headers: sent, body: buffer) {
                    res in result = (res.status, Data(res.body.readableBytesView))
                }
                return result
            }
            func code(_ data: Data) -> String? {
                (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["code"] as? String
            }

            let started = try await call(.POST, "generations", GenerationRequestDTO(text: Self.notes))
            let jobId = try FlashcardsJSON.makeDecoder().decode(JobDTO.self, from: started.body).id
            let job = try await waitForJob(app, jobId)
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            let result = try #require(
                try JSONSerialization.jsonObject(with: Data((job.result ?? "{}").utf8)) as? [String: Any])
            #expect(result["sectionsWithoutCards"] as? [String] == ["2. Ausblick"])
            #expect(
                (result["warnings"] as? [String])?.contains(
                    "Zu einem Abschnitt wurden keine Karten erstellt: „2. Ausblick“.") == true)

            var response = try await call(.GET, "generations/\(jobId)/source")
            #expect(response.status == .ok)
            var source = try FlashcardsJSON.makeDecoder().decode(GenerationSourceDTO.self, from: response.body)
            #expect(source.origin == "text" && source.language == "de")
            #expect(source.sections.map(\.title) == ["1. Organellen", "2. Ausblick"])
            #expect(source.sections.map(\.covered) == [true, false])
            #expect(source.sectionsWithoutDrafts == ["2. Ausblick"])
            let organelles = source.sections[0].blocks.flatMap(\.sentences).filter(\.covered)
            #expect(organelles.count == 2 && organelles.allSatisfy { $0.draftIds.count == 1 })
            let markedIds = Set(organelles.flatMap(\.draftIds))
            let listed = try await call(.GET, "drafts?jobId=\(jobId)")
            let drafts = try FlashcardsJSON.makeDecoder().decode([DraftDTO].self, from: listed.body)
            #expect(markedIds == Set(drafts.map { $0.id.uuidString.lowercased() }))

            // The passage the generator left out: the rules find no card, the learner writes one.
            let passage = try #require(source.sections[1].blocks.last?.sentences.first?.text)
            response = try await call(
                .POST, "drafts/suggestion", DraftSuggestionRequest(passage: passage, jobId: jobId))
            var suggestion = try FlashcardsJSON.makeDecoder().decode(DraftSuggestionDTO.self, from: response.body)
            #expect(suggestion.kind == "manual" && suggestion.question.isEmpty && suggestion.answer == passage)
            // A definition gets the rules' question.
            response = try await call(
                .POST, "drafts/suggestion",
                DraftSuggestionRequest(passage: "Ein Ribosom ist ein Komplex, an dem Proteine gebildet werden."))
            suggestion = try FlashcardsJSON.makeDecoder().decode(DraftSuggestionDTO.self, from: response.body)
            #expect(suggestion.kind == "definition" && suggestion.question == "Was ist ein Ribosom?")
            #expect(suggestion.cardKind == .basic)

            response = try await call(
                .POST, "drafts",
                CreateDraftRequest(
                    jobId: jobId, question: "Was passiert nächste Woche?", answer: "Wiederholung", source: passage,
                    sourcePage: 1))
            #expect(response.status == .created)
            let made = try FlashcardsJSON.makeDecoder().decode(DraftDTO.self, from: response.body)
            #expect(made.kind == "manual" && made.status == "pending" && made.jobId == jobId && made.source == passage)
            response = try await call(.GET, "generations/\(jobId)/source")
            source = try FlashcardsJSON.makeDecoder().decode(GenerationSourceDTO.self, from: response.body)
            #expect(source.sectionsWithoutDrafts.isEmpty && source.sections.allSatisfy(\.covered))
            #expect(source.sections[1].blocks.last?.sentences.first?.draftIds == [made.id.uuidString.lowercased()])
            let all = try FlashcardsJSON.makeDecoder().decode(
                [DraftDTO].self, from: try await call(.GET, "drafts?jobId=\(jobId)").body)
            #expect(all.last?.id == made.id && all.count == drafts.count + 1)

            // A discarded draft no longer covers its sentence; an accepted one does.
            #expect(try await call(.DELETE, "drafts/\(made.id)").status == .noContent)
            let accepted = try #require(drafts.first)
            #expect(try await call(.POST, "drafts/accept", AcceptDraftsRequest(ids: [accepted.id])).status == .ok)
            source = try FlashcardsJSON.makeDecoder().decode(
                GenerationSourceDTO.self, from: try await call(.GET, "generations/\(jobId)/source").body)
            #expect(source.sectionsWithoutDrafts == ["2. Ausblick"])
            let acceptedSentence = source.sections[0].blocks.flatMap(\.sentences).first { $0.text == accepted.source }
            #expect(acceptedSentence?.covered == true && acceptedSentence?.draftIds.isEmpty == true)

            // Bad input and other learners' jobs.
            response = try await call(.POST, "drafts/suggestion", DraftSuggestionRequest(passage: "  "))
            #expect(response.status == .badRequest)
            response = try await call(
                .POST, "drafts/suggestion", DraftSuggestionRequest(passage: String(repeating: "a", count: 4_001)))
            #expect(response.status == .badRequest)
            response = try await call(.POST, "drafts", CreateDraftRequest(question: "F?", answer: "A"))
            #expect(response.status == .badRequest)
            response = try await call(.POST, "drafts", CreateDraftRequest(jobId: jobId, question: " ", answer: "A"))
            #expect(response.status == .badRequest)
            response = try await call(
                .POST, "drafts", CreateDraftRequest(jobId: jobId, question: "F?", answer: "A", kind: "poem"))
            #expect(response.status == .badRequest)
            response = try await call(.POST, "drafts", CreateDraftRequest(jobId: UUID(), question: "F?", answer: "A"))
            #expect(response.status == .notFound && code(response.body) == "job_not_found")
            response = try await call(.GET, "generations/\(UUID())/source")
            #expect(response.status == .notFound && code(response.body) == "job_not_found")
            response = try await call(.GET, "generations/kein-uuid/source")
            #expect(response.status == .notFound)

            let otherToken = try await app.compatSignup(name: "Bo", mail: "bo@example.org")
            let otherStack = try await createStack(app, token: otherToken)
            let other = bearerHeaders(otherToken)
            var status: HTTPStatus = .ok
            try await app.testing().test(
                .GET, "api/v1/stacks/\(otherStack)/generations/\(jobId)/source", headers: other
            ) { res in status = res.status }
            #expect(status == .notFound)
            try await app.testing().test(
                .POST, "api/v1/stacks/\(otherStack)/drafts", headers: other,
                body: ByteBuffer(
                    data: try JSONEncoder().encode(CreateDraftRequest(jobId: jobId, question: "F?", answer: "A")))
            ) { res in status = res.status }
            #expect(status == .notFound)
        }
    }

    @Test(
        "a model's drafts of every kind become cards of their kind; its quotes mark the source",
        arguments: TestDatabase.available)
    func modelKinds(db: TestDatabase) async throws {
        let cards = """
            {"cards":[
              {"kind":"multipleChoice","question":"Was ist das Kraftwerk der Zelle?","answer":"Das Mitochondrium",
               "distractors":["Das Ribosom","Der Zellkern","Die Vakuole"],
               "quote":"Das Mitochondrium ist das Kraftwerk der Zelle"},
              {"kind":"trueFalse","statement":"Osmose ist die Diffusion von Wasser durch eine Membran.","answer":"true",
               "quote":"Unter Osmose versteht man die Diffusion von Wasser"},
              {"kind":"cloze","text":"In den Mitochondrien wird _____ gebildet.","answer":"ATP",
               "quote":"in dem ATP gebildet wird"}
            ]}
            """
        let model = try await MockLLMServer.start([.content(cards)])
        defer { Task { await model.shutdown() } }
        let url = model.baseURL
        let configure: (inout AppConfiguration) -> Void = {
            workers(1)(&$0)
            $0.llm = LLMConfiguration(baseURL: url, model: "fake", requestTimeoutSeconds: 10, maximumRetries: 0)
        }
        try await withApp(db, adjust: configure) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let (id, job) = try await Self.generate(app, token: token, stack: stackId)
            #expect(job.status == "succeeded", "\(job.error ?? "")")
            var drafts: [DraftDTO] = []
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stackId)/drafts?jobId=\(id)", headers: bearerHeaders(token)
            ) { res in drafts = try res.decoded([DraftDTO].self) }
            #expect(drafts.map(\.cardKind) == [.multipleChoice, .trueFalse, .fillBlank])
            #expect(drafts[0].choices == ["Das Ribosom", "Der Zellkern", "Die Vakuole"] && drafts[1].choices == nil)
            #expect(drafts.allSatisfy { $0.kind == "model" && $0.source != nil })
            // The learner's language (German by default) went to the model.
            #expect(model.requests.first?.messagesText.contains("Schreibe auf Deutsch") == true)
            // The quotes mark their sentences; the section without one is named.
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stackId)/generations/\(id)/source", headers: bearerHeaders(token)
            ) { res in
                let source = try res.decoded(GenerationSourceDTO.self)
                #expect(source.sections[0].blocks.flatMap(\.sentences).filter(\.covered).count == 2)
                #expect(source.sectionsWithoutDrafts == ["2. Ausblick"])
            }
            // A true/false statement edited into a question with another answer is a basic card.
            let edited = try JSONEncoder().encode(UpdateDraftRequest(answer: "Ja"))
            try await app.testing().test(
                .PATCH, "api/v1/stacks/\(stackId)/drafts/\(drafts[1].id)", headers: bearerHeaders(token),
                body: ByteBuffer(data: edited)
            ) { res in
                let changed = try res.decoded(DraftDTO.self)
                #expect(changed.cardKind == .basic)
            }
            try await app.testing().test(
                .POST, "api/v1/stacks/\(stackId)/drafts/accept", headers: bearerHeaders(token)
            ) { res in #expect(res.status == .ok) }
            let made = try await CardModel.query(on: app.db).sort(\.$question).all()
            #expect(made.first { $0.answer == "Ja" }?.kind == "basic")
            #expect(Set(made.map(\.kind)) == ["multipleChoice", "basic", "fillBlank"])
            let choice = try #require(made.first { $0.kind == "multipleChoice" })
            #expect(choice.answer == "Das Mitochondrium" && choice.choices?.count == 3)
        }
    }

    @Test(
        "a job without a kept source (from before they were kept) says so; the job goes, its source goes",
        arguments: TestDatabase.available)
    func noSource(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let (id, _) = try await Self.generate(app, token: token, stack: stackId)
            #expect(try await GenerationSourceModel.find(id, on: app.db) != nil)
            // A job of the stack from before sources were kept.
            try await GenerationSourceModel.query(on: app.db).filter(\.$id == id).delete()
            try await app.testing().test(
                .GET, "api/v1/stacks/\(stackId)/generations/\(id)/source", headers: bearerHeaders(token)
            ) { res in
                #expect(res.status == .notFound)
                #expect(res.body.string.contains("source_not_found"))
            }
            _ = try await waitForJob(app, id)
            try await JobModel.query(on: app.db).filter(\.$id == id).delete()
            #expect(try await GenerationSourceModel.query(on: app.db).count() == 0)
        }
    }
}

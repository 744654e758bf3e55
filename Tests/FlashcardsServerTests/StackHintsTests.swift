import FlashcardsAPI
import FlashcardsClient
import Fluent
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// `hintsEnabled` of a stack: the switch on the API, what it does to hint jobs and to learning.
@Suite("Stack hints switch")
struct StackHintsTests {
    @Test("hintsEnabled is created, read, listed and changed; left out it stays", arguments: TestDatabase.available)
    func createPatchGet(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                _ = try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let plain = try await client.createStack(name: "Mit", color: "#059669")
                #expect(plain.hintsEnabled)
                let quiet = try await client.createStack(name: "Ohne", color: "#059669", hintsEnabled: false)
                #expect(!quiet.hintsEnabled)
                #expect(try await client.stack(quiet.id).hintsEnabled == false)
                #expect(try await client.stacks().map(\.hintsEnabled) == [true, false])

                // Other changes leave it as it is.
                let renamed = try await client.updateStack(quiet.id, name: "Still ohne")
                #expect(renamed.name == "Still ohne")
                #expect(!renamed.hintsEnabled)
                let ladder = try await client.updateStack(quiet.id, UpdateStackRequest(scheduler: .ladder))
                #expect(!ladder.hintsEnabled)

                let on = try await client.updateStack(quiet.id, hintsEnabled: true)
                #expect(on.hintsEnabled)
                #expect(try await client.stack(quiet.id).hintsEnabled)
                let off = try await client.updateStack(plain.id, UpdateStackRequest(hintsEnabled: false))
                #expect(!off.hintsEnabled)
                #expect(off.name == "Mit")
            }
        }
    }

    @Test("the wire: an explicit boolean; null leaves it; other types are 400", arguments: TestDatabase.available)
    func wire(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup()
            var stackId = ""
            try await app.testing().test(
                .POST, "api/v1/stacks", headers: bearerHeaders(token),
                body: rawJSON(##"{"name":"Roh","color":"#000000","hintsEnabled":false}"##)
            ) { res in
                #expect(res.status == .created)
                let json = res.json as? [String: Any]
                #expect(json?["hintsEnabled"] as? Bool == false)
                stackId = json?["id"] as? String ?? ""
            }
            try await app.testing().test(
                .PATCH, "api/v1/stacks/\(stackId)", headers: bearerHeaders(token),
                body: rawJSON(#"{"hintsEnabled":null,"name":"Roh 2"}"#)
            ) { res in
                #expect(res.status == .ok)
                #expect((res.json as? [String: Any])?["hintsEnabled"] as? Bool == false)
            }
            let wrong: [(HTTPMethod, String, String)] = [
                (.POST, "api/v1/stacks", ##"{"name":"X","color":"#000000","hintsEnabled":"yes"}"##),
                (.POST, "api/v1/stacks", ##"{"name":"X","color":"#000000","hintsEnabled":1}"##),
                (.PATCH, "api/v1/stacks/\(stackId)", #"{"hintsEnabled":"true"}"#),
                (.PATCH, "api/v1/stacks/\(stackId)", #"{"hintsEnabled":1}"#),
                (.PATCH, "api/v1/stacks/\(stackId)", #"{"hintsEnabled":[true],"name":"Nicht"}"#),
                (.PATCH, "api/v1/stacks/\(stackId)", #"{"hintsEnabled":{}}"#),
            ]
            for (method, path, body) in wrong {
                try await app.testing().test(method, path, headers: bearerHeaders(token), body: rawJSON(body)) { res in
                    #expect(res.status == .badRequest, "\(method) \(body) → \(res.status)")
                    #expect(res.message?.isEmpty == false)
                    #expect((res.json as? [String: Any])?["code"] as? String == "malformed_json")
                }
            }
            // Nothing was created or changed.
            let stacks = try await StackModel.query(on: app.db).all()
            #expect(stacks.map(\.name) == ["Roh 2"])
            #expect(stacks.map(\.hintsEnabled) == [false])
        }
    }

    @Test(
        "switching hints on queues one job that fills the cards without a hint; user hints stay",
        arguments: TestDatabase.available)
    func switchingOnQueuesHints(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                _ = try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Ohne", color: "#059669", hintsEnabled: false)
                var blank: [UUID] = []
                for question in ["Hauptstadt von Frankreich?", "Hauptstadt von Italien?", "Größter Planet?"] {
                    blank.append(try await client.createCard(in: stack.id, question: question, answer: "Paris").id)
                }
                let written = try await client.createCard(
                    in: stack.id, question: "Erfinder des Telefons?", answer: "Bell", hint: "Eine Glocke")
                let removed = try await client.createCard(
                    in: stack.id, question: "Lichtgeschwindigkeit?", answer: "300.000 km/s", hint: "schnell")
                _ = try await client.updateCard(removed.id, in: stack.id, hint: "")
                // Hints are off: cards were made without queueing any hint job.
                #expect(try await hintJobs(app).isEmpty)

                _ = try await client.updateStack(stack.id, hintsEnabled: true)
                let queued = try await hintJobs(app)
                #expect(queued.count == 1)
                #expect(queued.first?.status == "queued")
                // Already on: no second job.
                _ = try await client.updateStack(stack.id, hintsEnabled: true)
                #expect(try await hintJobs(app).count == 1)

                let worker = JobWorker(application: app)
                #expect(try await worker.runOnce())
                #expect(try await hintJobs(app).map(\.status) == ["succeeded"])
                for id in blank {
                    let card = try await client.card(id, in: stack.id)
                    let hint = try #require(card.hint)
                    #expect(!hint.isEmpty)
                    #expect(!hint.localizedCaseInsensitiveContains("Paris"))
                }
                #expect(try await client.card(written.id, in: stack.id).hint == "Eine Glocke")
                #expect(try await client.card(removed.id, in: stack.id).hint == nil)
                let sources = try await CardModel.query(on: app.db).sort(\.$id).all().map(\.hintSource)
                #expect(sources == ["generated", "generated", "generated", "user", "user"])
                // A generated hint is the user's to edit.
                let edited = try await client.updateCard(blank[0], in: stack.id, hint: "Stadt der Liebe")
                #expect(edited.hint == "Stadt der Liebe")

                // Off and on again with every card settled: nothing to queue.
                _ = try await client.updateStack(stack.id, hintsEnabled: false)
                _ = try await client.updateStack(stack.id, hintsEnabled: true)
                #expect(try await hintJobs(app).count == 1)
            }
        }
    }

    @Test(
        "hints off: stored hints stay and are editable, study routes hide them, queued jobs make none",
        arguments: TestDatabase.available)
    func switchedOff(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                _ = try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Stapel", color: "#059669", scheduler: .ladder)
                let hinted = try await client.createCard(
                    in: stack.id, question: "Erfinder des Telefons?", answer: "Bell", hint: "Eine Glocke")
                let blank = try await client.createCard(in: stack.id, question: "Größter Planet?", answer: "Jupiter")
                #expect(try await hintJobs(app).count == 1)

                _ = try await client.updateStack(stack.id, hintsEnabled: false)
                // The queued job finds hints off and makes none.
                #expect(try await JobWorker(application: app).runOnce())
                #expect(try await hintJobs(app).map(\.status) == ["succeeded"])
                #expect(try await client.card(blank.id, in: stack.id).hint == nil)

                // The card routes keep the hint (for editing), the study routes leave it out.
                #expect(try await client.card(hinted.id, in: stack.id).hint == "Eine Glocke")
                let next = try await client.nextCard(in: stack.id)
                #expect(next.card?.id == hinted.id)
                #expect(next.card?.hint == nil)
                // The original clients' learning route: "" is their "no hint"; the stack document keeps it.
                let stackId = stack.id.uuidString.lowercased()
                let compatNext = try await client.compat.nextCard(stackId: stackId)
                #expect(compatNext?.hint == "")
                let document = try await client.compat.stack(stackId)
                #expect(document.cards.first?.hint == "Eine Glocke")
                let edited = try await client.updateCard(hinted.id, in: stack.id, hint: "Ein Klingeln")
                #expect(edited.hint == "Ein Klingeln")
                // Edits of cards without a hint queue nothing while hints are off.
                _ = try await client.updateCard(blank.id, in: stack.id, answer: "Der Jupiter")
                #expect(try await hintJobs(app).count == 1)

                // Back on: the stored hint is shown again and the missing one is queued.
                _ = try await client.updateStack(stack.id, hintsEnabled: true)
                #expect(try await client.nextCard(in: stack.id).card?.hint == "Ein Klingeln")
                #expect(try await hintJobs(app).filter { $0.status == "queued" }.count == 1)
            }
        }
    }
}

/// The hint jobs in the order they were queued.
private func hintJobs(_ app: Application) async throws -> [JobModel] {
    try await JobModel.query(on: app.db).filter(\.$kind == HintJobHandler.kind).sort(\.$createdAt).all()
}

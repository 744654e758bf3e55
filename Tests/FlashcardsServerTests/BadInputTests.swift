import FlashcardsAPI
import FlashcardsCore
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// Bad input gets a 4xx with a message, never a 500, and nothing is half-written.
@Suite("Bad input")
struct BadInputTests {
    @Test("malformed, mistyped, incomplete and empty bodies are 400 with a message", arguments: TestDatabase.available)
    func malformedBodies(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let cases: [(HTTPMethod, String, String)] = [
                (.POST, "stack", "{"),
                (.POST, "stack", "not json"),
                (.POST, "stack", ""),
                (.POST, "stack", ##"{"name": 5, "color": "#000000"}"##),
                (.POST, "stack", ##"{"color": "#000000"}"##),
                (.POST, "stack", "[]"),
                (.POST, "card", #"{"stackId":"\#(stackId)","question":"","answer":"A"}"#),
                (.POST, "card", #"{"stackId":"\#(stackId)","question":"Q","answer":"   "}"#),
                (.POST, "card", #"{"stackId":"\#(stackId)","question":null,"answer":"A"}"#),
                (.POST, "stack/rating", #"{"stackId":"\#(stackId)","cardId":"x","difficulty":"easy"}"#),
                (.POST, "stack/rating", #"{"stackId":"\#(stackId)","cardId":"x"}"#),
                (.POST, "api/v1/stacks", #"{"name":"X","color":"green"}"#),
                (
                    .POST, "api/v1/stacks",
                    ##"{"name":"\##(String(repeating: "n", count: TextLimits.stackName + 1))","color":"#000000"}"##
                ),
                (.POST, "api/v1/stacks/\(stackId)/cards", #"{"question":"Q\u0000","answer":"A"}"#),
                (.POST, "api/v1/stacks/\(stackId)/study/rate", #"{"cardId":"not-a-uuid","rating":"easy"}"#),
                (.POST, "api/v1/auth/signup", #"{"name":"A","mail":"not a mail","password":"12345678"}"#),
                (.POST, "api/v1/auth/signup", #"{"name":"","mail":"a@b.de","password":"12345678"}"#),
                (.POST, "api/v1/auth/signup", #"{"name":"A","mail":"a@b.de","password":"1234567"}"#),
                (.POST, "api/v1/auth/login", #"{"mail":"","password":""}"#),
                (.PATCH, "api/v1/me", #"{"timeZone":"Europe/Nowhere"}"#),
            ]
            for (method, path, body) in cases {
                try await app.testing().test(method, path, headers: bearerHeaders(token), body: rawJSON(body)) { res in
                    #expect(res.status == .badRequest, "\(method) \(path) \(body.prefix(80)) → \(res.status)")
                    #expect(res.message?.isEmpty == false, "\(method) \(path) has no message")
                }
            }
            // Nothing was created by any of them.
            #expect(try await StackModel.query(on: app.db).count() == 1)
            #expect(try await CardModel.query(on: app.db).count() == 0)
            #expect(try await UserModel.query(on: app.db).count() == 1)
        }
    }

    @Test("a 10 MB body is refused with 413 and a message")
    func hugeBody() async throws {
        try await withApp(.sqlite) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let huge =
                #"{"stackId":"\#(stackId)","question":""# + String(repeating: "x", count: 10_000_000)
                + #"","answer":"A"}"#
            try await app.testing(method: .running(port: 0)).test(
                .POST, "card", headers: compatHeaders(token), body: rawJSON(huge)
            ) { res in
                #expect(res.status == .payloadTooLarge)
                #expect(res.message?.isEmpty == false)
            }
            #expect(try await CardModel.query(on: app.db).count() == 0)
        }
    }

    @Test("unknown ids and invalid UUIDs are 404s, invalid days-ahead a 400", arguments: TestDatabase.available)
    func unknownIds(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            for path in [
                "stack/\(UUID())", "stack/not-a-uuid", "stack/%20", "stack/\(stackId)/card/\(UUID())",
                "stack/\(stackId)/card/123", "api/v1/stacks/\(UUID())", "api/v1/stacks/zzz/cards",
                "api/v1/stacks/\(stackId)/cards/\(UUID())",
            ] {
                try await app.testing().test(.GET, path, headers: bearerHeaders(token)) { res in
                    #expect(res.status == .notFound, "\(path) → \(res.status)")
                    #expect(res.message?.isEmpty == false)
                }
            }
            for query in ["-1", "abc", "1.5", "99999", "1e3"] {
                try await app.testing().test(
                    .GET, "stack/\(stackId)/card/next?days-ahead=\(query)", headers: compatHeaders(token)
                ) { res in
                    #expect(res.status == .badRequest, "days-ahead=\(query) → \(res.status)")
                }
                try await app.testing().test(
                    .GET, "api/v1/stacks/\(stackId)/study/next?daysAhead=\(query)", headers: bearerHeaders(token)
                ) { res in #expect(res.status == .badRequest) }
            }
            for query in ["page=0", "page=x", "perPage=0", "perPage=201"] {
                try await app.testing().test(
                    .GET, "api/v1/stacks/\(stackId)/cards?\(query)", headers: bearerHeaders(token)
                ) { res in #expect(res.status == .badRequest, "\(query) → \(res.status)") }
            }
        }
    }

    @Test(
        "unicode, emoji and long questions are kept exactly, up to the documented limit",
        arguments: TestDatabase.available)
    func unicodeAndLength(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token, name: "Ünïcödé 🧠 Stapel")
            let long = String(repeating: "Lärm 🚀 ", count: 1_200)  // 8,400 characters, far beyond 255
            let question = String(long.prefix(TextLimits.question)).trimmingCharacters(in: .whitespaces)
            let body = try JSONSerialization.data(withJSONObject: [
                "stackId": stackId, "question": question, "answer": "日本語の答え — ½ ✓ \"quoted\" <b>tag</b>",
            ])
            var cardId: String?
            try await app.testing().test(
                .POST, "card", headers: compatHeaders(token), body: ByteBuffer(data: body)
            ) { res in
                #expect(res.status == .ok)
                let card = try res.decoded(CompatCard.self)
                #expect(card.question == question)
                #expect(card.answer == "日本語の答え — ½ ✓ \"quoted\" <b>tag</b>")
                cardId = card.uniqueId
            }
            let stack = try await getStack(app, token: token, id: stackId)
            #expect(stack["name"] as? String == "Ünïcödé 🧠 Stapel")
            #expect((stack["cards"] as? [[String: Any]])?.first?["uniqueId"] as? String == cardId)
            let tooLong = try JSONSerialization.data(withJSONObject: [
                "stackId": stackId, "question": String(repeating: "ä", count: TextLimits.question + 1), "answer": "A",
            ])
            try await app.testing().test(
                .POST, "card", headers: compatHeaders(token), body: ByteBuffer(data: tooLong)
            ) { res in
                #expect(res.status == .badRequest)
                #expect(res.message?.contains("\(TextLimits.question)") == true)
            }
        }
    }

    @Test("GET and DELETE with Content-Type JSON but no body work (the iOS app sends that)")
    func emptyBodies() async throws {
        try await withApp(.sqlite) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            try await app.testing().test(.GET, "stack", headers: compatHeaders(token)) { #expect($0.status == .ok) }
            try await app.testing().test(.DELETE, "stack/\(stackId)", headers: compatHeaders(token)) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test("unknown routes and methods answer 404/405 as JSON")
    func unknownRoutes() async throws {
        try await withApp(.sqlite) { app in
            try await app.testing().test(.GET, "api/v1/nothing-here") { res in
                #expect(res.status == .notFound)
                #expect(res.message?.isEmpty == false)
            }
        }
    }
}

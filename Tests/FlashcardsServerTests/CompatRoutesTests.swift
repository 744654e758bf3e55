import FlashcardsAPI
import Fluent
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// The original clients' contract (spec/compat-api.md, routes 1–12), checked on the wire.
@Suite("Compatibility routes")
struct CompatRoutesTests {
    @Test(
        "signup and login answer 200 LoginResult; errors are 400 with the original messages",
        arguments: TestDatabase.available)
    func accounts(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup(name: "Ada Lovelace", mail: "Ada@Example.org")
            #expect(token.split(separator: ".").count == 3)
            // Mail is compared case-insensitively.
            try await app.testing().test(
                .POST, "signup", headers: compatHeaders(nil),
                body: rawJSON(#"{"name":"Other","mail":"ada@EXAMPLE.org","password":"12345678"}"#)
            ) { res in
                #expect(res.status == .badRequest)
                #expect(res.message == "USER_ALREADY_EXISTS")
            }
            // A stale or garbage token on login is ignored.
            try await app.testing().test(
                .POST, "login", headers: compatHeaders("garbage.token.here"),
                body: rawJSON(#"{"mail":"ADA@example.org","password":"correct horse"}"#)
            ) { res in
                #expect(res.status == .ok)
                let body = try #require(res.json as? [String: Any])
                #expect(body["username"] as? String == "Ada Lovelace")
                #expect((body["token"] as? String)?.isEmpty == false)
            }
            try await app.testing().test(
                .POST, "login", headers: compatHeaders(nil),
                body: rawJSON(#"{"mail":"nobody@example.org","password":"whatever1"}"#)
            ) { res in
                #expect(res.status == .badRequest)
                #expect(res.message == "USER_NOT_FOUND")
            }
            try await app.testing().test(
                .POST, "login", headers: compatHeaders(nil),
                body: rawJSON(#"{"mail":"ada@example.org","password":"wrong password"}"#)
            ) { res in
                #expect(res.status == .badRequest)
                #expect(res.message == "WRONG_PASSWORD")
            }
            // Short passwords are refused for new accounts.
            try await app.testing().test(
                .POST, "signup", headers: compatHeaders(nil),
                body: rawJSON(#"{"name":"Bob","mail":"bob@example.org","password":"short"}"#)
            ) { res in
                #expect(res.status == .badRequest)
                #expect(res.message?.contains("8") == true)
            }
        }
    }

    @Test(
        "stacks: create is 200 with cards [], list in creation order, show, delete", arguments: TestDatabase.available)
    func stacks(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup()
            var ids: [String] = []
            for name in ["Biologie", "Chemie 🧪"] {
                try await app.testing().test(
                    .POST, "stack", headers: compatHeaders(token),
                    body: rawJSON(##"{"name":"\##(name)","color":"#059669"}"##)
                ) { res in
                    #expect(res.status == .ok)
                    let stack = try #require(res.json as? [String: Any])
                    #expect(stack["id"] is Int)
                    #expect(stack["name"] as? String == name)
                    #expect(stack["color"] as? String == "#059669")
                    #expect((stack["cards"] as? [Any])?.isEmpty == true)
                    let uniqueId = try #require(stack["uniqueId"] as? String)
                    #expect(uniqueId == uniqueId.lowercased())
                    #expect(UUID(uuidString: uniqueId) != nil)
                    ids.append(uniqueId)
                }
            }
            try await app.testing().test(.GET, "stack", headers: compatHeaders(token)) { res in
                #expect(res.status == .ok)
                let stacks = try #require(res.json as? [[String: Any]])
                #expect(stacks.map { $0["uniqueId"] as? String } == ids)
                #expect(stacks.allSatisfy { $0["cards"] is [Any] })
            }
            try await app.testing().test(.GET, "stack/\(ids[0])", headers: compatHeaders(token)) { res in
                #expect(res.status == .ok)
                #expect((res.json as? [String: Any])?["name"] as? String == "Biologie")
            }
            try await app.testing().test(.DELETE, "stack/\(ids[0])", headers: compatHeaders(token)) { res in
                #expect(res.status == .ok)
            }
            try await app.testing().test(.GET, "stack/\(ids[0])", headers: compatHeaders(token)) { res in
                #expect(res.status == .notFound)
                #expect(res.message == "Stack not found")
            }
            try await app.testing().test(.DELETE, "stack/\(ids[0])", headers: compatHeaders(token)) { res in
                #expect(res.status == .notFound)
            }
            // Blank name or colour: 400.
            try await app.testing().test(
                .POST, "stack", headers: compatHeaders(token), body: rawJSON(##"{"name":"  ","color":"#000000"}"##)
            ) { res in #expect(res.status == .badRequest) }
            try await app.testing().test(
                .POST, "stack", headers: compatHeaders(token), body: rawJSON(#"{"name":"X","color":""}"#)
            ) { res in #expect(res.status == .badRequest) }
        }
    }

    @Test(
        "cards: create, read with maturity, update answers the card, delete without a body really deletes",
        arguments: TestDatabase.available)
    func cards(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            var cardId = ""
            // The Vue app sends cardId "" on create; the iOS app omits it.
            for body in [
                #"{"stackId":"\#(stackId)","cardId":"","question":"Was ist ATP?","answer":"Energieträger"}"#,
                #"{"stackId":"\#(stackId)","question":"Mitochondrium?","answer":"Kraftwerk der Zelle"}"#,
            ] {
                try await app.testing().test(.POST, "card", headers: compatHeaders(token), body: rawJSON(body)) { res in
                    #expect(res.status == .ok)
                    let card = try #require(res.json as? [String: Any])
                    #expect(card["id"] is Int)
                    #expect(card["hint"] as? String == "")
                    #expect((card["difficultyAndDurations"] as? [Any])?.isEmpty == true)
                    let maturity = try #require(card["maturity"] as? [String: Any])
                    #expect(maturity["level"] as? Int == 0)
                    #expect(maturity["id"] is Int)
                    // ISO-8601 string with fractional seconds and Z: new cards are due at once.
                    let text = try #require(maturity["maturity"] as? String)
                    #expect(text == "2026-06-13T10:00:00.000Z")
                    if cardId.isEmpty { cardId = try #require(card["uniqueId"] as? String) }
                }
            }
            try await app.testing().test(.GET, "stack/\(stackId)/card/\(cardId)", headers: compatHeaders(token)) {
                res in
                #expect(res.status == .ok)
                #expect((res.json as? [String: Any])?["question"] as? String == "Was ist ATP?")
            }
            try await app.testing().test(
                .PUT, "stack/\(stackId)/card/\(cardId)", headers: compatHeaders(token),
                body: rawJSON(
                    #"{"stackId":"\#(stackId)","cardId":"\#(cardId)","question":"Was ist ATP genau?","answer":"Adenosintriphosphat"}"#
                )
            ) { res in
                #expect(res.status == .ok)
                let card = try #require(res.json as? [String: Any])
                #expect(card["question"] as? String == "Was ist ATP genau?")
                #expect(card["answer"] as? String == "Adenosintriphosphat")
                #expect(card["uniqueId"] as? String == cardId)
            }
            // A body whose ids contradict the path is refused, and nothing changes.
            try await app.testing().test(
                .PUT, "stack/\(stackId)/card/\(cardId)", headers: compatHeaders(token),
                body: rawJSON(
                    #"{"stackId":"\#(stackId)","cardId":"\#(UUID().uuidString)","question":"X","answer":"Y"}"#)
            ) { res in #expect(res.status == .badRequest) }
            try await app.testing().test(.GET, "stack/\(stackId)/card/\(cardId)", headers: compatHeaders(token)) {
                res in
                #expect((res.json as? [String: Any])?["question"] as? String == "Was ist ATP genau?")
            }
            // DELETE without a body (Vue) and with an iOS CardContext body both delete.
            try await app.testing().test(.DELETE, "stack/\(stackId)/card/\(cardId)", headers: compatHeaders(token)) {
                res in #expect(res.status == .ok)
            }
            try await app.testing().test(.GET, "stack/\(stackId)/card/\(cardId)", headers: compatHeaders(token)) {
                res in
                #expect(res.status == .notFound)
                #expect(res.message == "Card not found")
            }
            let stack = try await getStack(app, token: token, id: stackId)
            let remaining = try #require(stack["cards"] as? [[String: Any]])
            #expect(remaining.count == 1)
            let second = try #require(remaining.first?["uniqueId"] as? String)
            try await app.testing().test(
                .DELETE, "stack/\(stackId)/card/\(second)", headers: compatHeaders(token),
                body: rawJSON(
                    #"{"stackId":"\#(stackId)","cardId":"\#(second)","question":"Mitochondrium?","answer":"Kraftwerk der Zelle"}"#
                )
            ) { res in #expect(res.status == .ok) }
            #expect((try await getStack(app, token: token, id: stackId)["cards"] as? [Any])?.isEmpty == true)
            // Unknown stack on create: 404 Stack not found.
            try await app.testing().test(
                .POST, "card", headers: compatHeaders(token),
                body: rawJSON(#"{"stackId":"\#(UUID().uuidString)","question":"Q","answer":"A"}"#)
            ) { res in
                #expect(res.status == .notFound)
                #expect(res.message == "Stack not found")
            }
        }
    }

    @Test(
        "learning: next card with three options, rating by difficulty or difficultyId, 404 when done",
        arguments: TestDatabase.available)
    func learning(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let first = try await createCard(app, token: token, stackId: stackId, question: "Eins")
            clock.advance(by: 1)
            let second = try await createCard(app, token: token, stackId: stackId, question: "Zwei")

            // The earliest maturity first; "next" is not captured by the card route.
            var next = try await nextCard(app, token: token, stackId: stackId)
            #expect(next?["uniqueId"] as? String == first)
            let options = try #require(next?["difficultyAndDurations"] as? [[String: Any]])
            #expect(options.count == 3)
            let difficulties = options.compactMap { $0["difficulty"] as? [String: Any] }
            #expect(difficulties.map { $0["id"] as? Int } == [0, 1, 2])
            #expect(difficulties.map { $0["name"] as? String } == ["Einfach", "Mittel", "Schwer"])
            #expect(difficulties.map { $0["color"] as? String } == ["#22C55E", "#F97316", "#EF4444"])
            let durations = options.compactMap { ($0["duration"] as? [String: Any])?["displayName"] as? String }
            #expect(durations == ["10 Minuten", "2 Minuten", "1 Minute"])
            // The documented `Duration {amount, unit}` shape travels in the same object.
            #expect(
                try durationShapes(options)
                    == [(10, "MINUTES"), (2, "MINUTES"), (1, "MINUTES")].map(DurationShape.init))

            // Vue sends `difficulty`: EASY, due in 10 minutes, still today, so it comes back this session.
            try await rate(app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(first)","difficulty":0}"#)
            next = try await nextCard(app, token: token, stackId: stackId)
            #expect(next?["uniqueId"] as? String == second)
            // iOS sends `difficultyId`.
            try await rate(
                app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(second)","difficultyId":0}"#)
            next = try await nextCard(app, token: token, stackId: stackId)
            #expect(next?["uniqueId"] as? String == first)
            #expect(((next?["maturity"] as? [String: Any])?["level"] as? Int) == 1)
            let again = try #require(next?["difficultyAndDurations"] as? [[String: Any]])
            #expect((again[0]["duration"] as? [String: Any])?["displayName"] as? String == "1 Stunde")

            // Level 1 EASY: due in an hour (11:00 UTC), still before the end of the Berlin day.
            try await rate(app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(first)","difficulty":0}"#)
            try await rate(app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(second)","difficulty":0}"#)
            #expect(try await nextCard(app, token: token, stackId: stackId)?["uniqueId"] as? String == first)
            // Level 2 EASY: 6 hours → 17:00 UTC = 19:00 Berlin, still today; level 3 EASY: 12 hours → tomorrow.
            for _ in 0..<2 {
                try await rate(
                    app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(first)","difficulty":0}"#)
                try await rate(
                    app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(second)","difficulty":0}"#)
            }
            // Nothing due before the end of today: 404 Card not found (the iOS app ends the session on 404).
            try await app.testing().test(.GET, "stack/\(stackId)/card/next", headers: compatHeaders(token)) { res in
                #expect(res.status == .notFound)
                #expect(res.message == "Card not found")
            }
            // days-ahead=0 equals no parameter; days-ahead=1 learns tomorrow's cards.
            try await app.testing().test(
                .GET, "stack/\(stackId)/card/next?days-ahead=0", headers: compatHeaders(token)
            ) { res in #expect(res.status == .notFound) }
            #expect(try await nextCard(app, token: token, stackId: stackId, daysAhead: 1) != nil)

            // Ratings outside 0…2 are a 400 and change nothing.
            try await app.testing().test(
                .POST, "stack/rating", headers: compatHeaders(token),
                body: rawJSON(#"{"stackId":"\#(stackId)","cardId":"\#(first)","difficulty":3}"#)
            ) { res in #expect(res.status == .badRequest) }
            try await app.testing().test(
                .POST, "stack/rating", headers: compatHeaders(token),
                body: rawJSON(#"{"stackId":"\#(stackId)","cardId":"\#(UUID().uuidString)","difficulty":1}"#)
            ) { res in
                #expect(res.status == .notFound)
                #expect(res.message == "Card not found")
            }
            try await app.testing().test(
                .POST, "stack/rating", headers: compatHeaders(token),
                body: rawJSON(#"{"stackId":"\#(UUID().uuidString)","cardId":"\#(first)","difficulty":1}"#)
            ) { res in
                #expect(res.status == .notFound)
                #expect(res.message == "Stack not found")
            }
            // Every rating was logged with the state before and after.
            let logs = try await ReviewLogModel.query(on: app.db).sort(\.$reviewedAt).all()
            #expect(logs.count == 8)
            #expect(logs.allSatisfy { $0.scheduler == "ladder" })
            #expect(logs.first?.stateBefore.contains(#""level":0"#) == true)
            #expect(logs.first?.stateAfter.contains(#""level":1"#) == true)
        }
    }

    @Test("HARD at level 5 drops to 3 and level 10 EASY stays usable", arguments: TestDatabase.available)
    func levelRules(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let card = try await createCard(app, token: token, stackId: stackId, question: "Q")
            for _ in 0..<11 {
                try await rate(
                    app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(card)","difficulty":0}"#)
            }
            var state = try await cardMaturity(app, token: token, stackId: stackId, cardId: card)
            #expect(state.level == 10)
            try await rate(app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(card)","difficulty":2}"#)
            state = try await cardMaturity(app, token: token, stackId: stackId, cardId: card)
            #expect(state.level == 5)
            try await rate(app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(card)","difficulty":2}"#)
            state = try await cardMaturity(app, token: token, stackId: stackId, cardId: card)
            #expect(state.level == 3)
            #expect(state.maturity == FlashcardsJSON.string(from: clock.now.addingTimeInterval(600)))
        }
    }

    @Test(
        "stack documents written from rows decode equal to the Codable cards, whatever the text",
        arguments: TestDatabase.available)
    func stackDocumentsMatchCodable(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup()
            let first = try await createStack(app, token: token, name: "Zeichen")
            let second = try await createStack(app, token: token, name: "Leer")
            let texts = [
                "Anführungszeichen \" und Backslash \\ und /Schrägstrich/",
                "Zeilen\nUmbruch\r\nund\tTab",
                "Steuerzeichen \u{01}\u{1F} Ende", "Emoji 🧠🇩🇪 und Umlaute äöüß", String(repeating: "lang ", count: 400),
            ]
            var cardIds: [String] = []
            for (index, text) in texts.enumerated() {
                let body = try JSONEncoder().encode(
                    CompatCardContext(stackId: first, question: text, answer: texts[(index + 1) % texts.count]))
                try await app.testing().test(
                    .POST, "card", headers: compatHeaders(token), body: ByteBuffer(data: body)
                ) { res in
                    #expect(res.status == .ok)
                    cardIds.append(try res.decoded(CompatCard.self).uniqueId)
                }
            }
            // A hint with the same characters, and one card rated so its maturity differs.
            let hinted = try #require(
                try await CardModel.query(on: app.db).filter(\.$uniqueId == UUID(uuidString: cardIds[1])!).first())
            hinted.hint = texts[2]
            try await hinted.save(on: app.db)
            try await rate(
                app, token: token,
                body: #"{"stackId":"\#(first)","cardId":"\#(cardIds[0])","difficultyId":2}"#)

            var expected: [CompatCard] = []
            for id in cardIds {
                try await app.testing().test(.GET, "stack/\(first)/card/\(id)", headers: compatHeaders(token)) { res in
                    expected.append(try res.decoded(CompatCard.self))
                }
            }
            var document: CompatStack?
            try await app.testing().test(.GET, "stack/\(first)", headers: compatHeaders(token)) { res in
                #expect(res.status == .ok)
                #expect(res.headers.contentType == .json)
                document = try res.decoded(CompatStack.self)
            }
            let stack = try #require(document)
            #expect(stack.name == "Zeichen")
            #expect(stack.cards == expected)
            #expect(stack.cards[1].hint == texts[2])
            #expect(stack.cards[2].hint == "")
            try await app.testing().test(.GET, "stack", headers: compatHeaders(token)) { res in
                let all = try res.decoded([CompatStack].self)
                #expect(all.map(\.uniqueId) == [first, second])
                #expect(all.first == stack)
                #expect(all.last?.cards == [])
            }
        }
    }

    @Test("CORS preflight is answered without auth and responses carry the allow-origin header")
    func cors() async throws {
        try await withApp(.sqlite) { app in
            var headers = HTTPHeaders()
            headers.add(name: .origin, value: "http://localhost:5173")
            headers.add(name: .accessControlRequestMethod, value: "POST")
            headers.add(name: .accessControlRequestHeaders, value: "authorization,content-type")
            try await app.testing().test(.OPTIONS, "stack", headers: headers) { res in
                #expect(res.status == .ok)
                #expect(res.headers.first(name: .accessControlAllowOrigin) != nil)
                let allowed = res.headers.first(name: .accessControlAllowHeaders)?.lowercased() ?? ""
                #expect(allowed.contains("authorization"))
                #expect(allowed.contains("content-type"))
            }
            var get = compatHeaders(nil)
            get.add(name: .origin, value: "http://localhost:5173")
            try await app.testing().test(.GET, "stack", headers: get) { res in
                #expect(res.status == .unauthorized)
                #expect(res.headers.first(name: .accessControlAllowOrigin) != nil)
            }
        }
    }

    @Test("a foreign stack or card behaves exactly like a missing one", arguments: TestDatabase.available)
    func isolation(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let ada = try await app.compatSignup()
            let eve = try await app.compatSignup(name: "Eve", mail: "eve@example.org")
            let stackId = try await createStack(app, token: ada)
            let cardId = try await createCard(app, token: ada, stackId: stackId, question: "Geheim")
            for (method, path) in [
                (HTTPMethod.GET, "stack/\(stackId)"), (.DELETE, "stack/\(stackId)"),
                (.GET, "stack/\(stackId)/card/\(cardId)"), (.DELETE, "stack/\(stackId)/card/\(cardId)"),
                (.GET, "stack/\(stackId)/card/next"),
            ] {
                try await app.testing().test(method, path, headers: compatHeaders(eve)) { res in
                    #expect(res.status == .notFound)
                    #expect(res.message == "Stack not found")
                }
            }
            try await app.testing().test(
                .POST, "stack/rating", headers: compatHeaders(eve),
                body: rawJSON(#"{"stackId":"\#(stackId)","cardId":"\#(cardId)","difficulty":0}"#)
            ) { res in #expect(res.status == .notFound) }
            try await app.testing().test(.GET, "stack", headers: compatHeaders(eve)) { res in
                #expect((res.json as? [Any])?.isEmpty == true)
            }
            // Ada still has everything.
            let stack = try await getStack(app, token: ada, id: stackId)
            #expect((stack["cards"] as? [Any])?.count == 1)
        }
    }
}

// MARK: Helpers

func createStack(_ app: Application, token: String, name: String = "Biologie") async throws -> String {
    var id: String?
    try await app.testing().test(
        .POST, "stack", headers: compatHeaders(token), body: rawJSON(##"{"name":"\##(name)","color":"#059669"}"##)
    ) { res in
        #expect(res.status == .ok)
        id = (res.json as? [String: Any])?["uniqueId"] as? String
    }
    return try #require(id)
}

func createCard(_ app: Application, token: String, stackId: String, question: String) async throws -> String {
    var id: String?
    try await app.testing().test(
        .POST, "card", headers: compatHeaders(token),
        body: rawJSON(#"{"stackId":"\#(stackId)","question":"\#(question)","answer":"Antwort"}"#)
    ) { res in
        #expect(res.status == .ok)
        id = (res.json as? [String: Any])?["uniqueId"] as? String
    }
    return try #require(id)
}

func getStack(_ app: Application, token: String, id: String) async throws -> [String: Any] {
    var stack: [String: Any]?
    try await app.testing().test(.GET, "stack/\(id)", headers: compatHeaders(token)) { res in
        #expect(res.status == .ok)
        stack = res.json as? [String: Any]
    }
    return try #require(stack)
}

func nextCard(_ app: Application, token: String, stackId: String, daysAhead: Int? = nil) async throws -> [String: Any]?
{
    var card: [String: Any]?
    let query = daysAhead.map { "?days-ahead=\($0)" } ?? ""
    try await app.testing().test(.GET, "stack/\(stackId)/card/next\(query)", headers: compatHeaders(token)) { res in
        if res.status == .ok { card = res.json as? [String: Any] } else { #expect(res.status == .notFound) }
    }
    return card
}

func rate(_ app: Application, token: String, body: String) async throws {
    try await app.testing().test(.POST, "stack/rating", headers: compatHeaders(token), body: rawJSON(body)) { res in
        #expect(res.status == .ok)
    }
}

func cardMaturity(_ app: Application, token: String, stackId: String, cardId: String) async throws -> CompatMaturity {
    var maturity: CompatMaturity?
    try await app.testing().test(.GET, "stack/\(stackId)/card/\(cardId)", headers: compatHeaders(token)) { res in
        maturity = try res.decoded(CompatCard.self).maturity
    }
    return try #require(maturity)
}

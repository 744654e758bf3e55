import FlashcardsAPI
import Fluent
import Foundation
import JWTKit
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// Bad requests the API probe found, each refused as `docs/api.md` says.
@Suite("Hardening: every bad input refused as documented")
struct HardeningTests {
    /// A stack of the caller's, by `/api/v1`.
    private func makeStack(_ app: Application, token: String) async throws -> String {
        var id: String?
        try await app.testing().test(
            .POST, "api/v1/stacks", headers: jsonHeaders(token), body: rawJSON(##"{"name":"S","color":"#000000"}"##)
        ) { res in
            #expect(res.status == .created, "\(res.body.string)")
            id = (res.json as? [String: Any])?["id"] as? String
        }
        return try #require(id)
    }

    private func jsonHeaders(_ token: String, type: String? = "application/json") -> HTTPHeaders {
        var headers = bearerHeaders(token)
        headers.remove(name: .contentType)
        if let type { headers.replaceOrAdd(name: .contentType, value: type) }
        return headers
    }

    @Test("a NUL byte in a path id is an unknown id, not its prefix", arguments: TestDatabase.available)
    func nulInPath(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup()
            let stack = try await makeStack(app, token: token)
            for path in ["api/v1/stacks/\(stack)%00abc", "api/v1/stacks/\(stack)%00", "stack/\(stack)%00x"] {
                try await app.testing().test(.GET, path, headers: bearerHeaders(token)) { res in
                    #expect(res.status == .notFound, "\(path): \(res.status)")
                }
            }
            try await app.testing().test(.GET, "api/v1/stacks/\(stack)", headers: bearerHeaders(token)) { res in
                #expect(res.status == .ok)
            }
        }
    }

    @Test("a JSON route refuses another content type with 415; the original routes keep taking none")
    func contentTypes() async throws {
        try await withApp(.sqlite) { app in
            let token = try await app.compatSignup()
            let body = ##"{"name":"S","color":"#000000"}"##
            for (type, status) in [
                ("text/plain", HTTPStatus.unsupportedMediaType),
                ("application/x-www-form-urlencoded", .unsupportedMediaType),
                (nil, .unsupportedMediaType), ("application/json; charset=utf-8", .created),
                ("Application/JSON", .created), ("application/merge-patch+json", .created),
            ] as [(String?, HTTPStatus)] {
                try await app.testing().test(
                    .POST, "api/v1/stacks", headers: jsonHeaders(token, type: type), body: rawJSON(body)
                ) { res in
                    #expect(res.status == status, "\(type ?? "none"): \(res.body.string)")
                    if status == .unsupportedMediaType {
                        #expect((res.json as? [String: Any])?["code"] as? String == "unsupported_media_type")
                    }
                }
            }
            // The original clients' routes: a declared non-JSON type is refused, none is taken.
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .authorization, value: token)
            try await app.testing().test(.POST, "stack", headers: headers, body: rawJSON(body)) { res in
                #expect(res.status == .ok, "\(res.body.string)")
            }
            headers.replaceOrAdd(name: .contentType, value: "text/plain")
            try await app.testing().test(.POST, "stack", headers: headers, body: rawJSON(body)) { res in
                #expect(res.status == .unsupportedMediaType)
            }
        }
    }

    @Test("a known path with another method is 405 with Allow; an unknown path stays 404")
    func methodNotAllowed() async throws {
        try await withApp(.sqlite) { app in
            let token = try await app.compatSignup()
            let stack = try await makeStack(app, token: token)
            for (method, path, allow) in [
                (HTTPMethod.PUT, "api/v1/stacks", "GET, POST"), (.DELETE, "api/v1/auth/login", "POST"),
                (.POST, "api/v1/stacks/\(stack)", "DELETE, GET, PATCH"), (.PATCH, "stack", "GET, POST"),
            ] {
                try await app.testing().test(method, path, headers: bearerHeaders(token)) { res in
                    #expect(res.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(res.headers.first(name: .allow) == allow, "\(method) \(path)")
                    #expect((res.json as? [String: Any])?["code"] as? String == "method_not_allowed")
                }
            }
            try await app.testing().test(.GET, "api/v1/nothing-here", headers: bearerHeaders(token)) { res in
                #expect(res.status == .notFound)
            }
        }
    }

    @Test("an empty jobId is 400, an oversized address 414, oversized headers 431")
    func queryAndSizes() async throws {
        try await withApp(.sqlite) { app in
            let token = try await app.compatSignup()
            let stack = try await makeStack(app, token: token)
            try await app.testing().test(.GET, "api/v1/stacks/\(stack)/drafts?jobId=", headers: bearerHeaders(token)) {
                res in
                #expect(res.status == .badRequest)
            }
            try await app.testing().test(.GET, "api/v1/stacks/\(stack)/drafts", headers: bearerHeaders(token)) { res in
                #expect(res.status == .ok)
            }
            let long = String(repeating: "a", count: RequestLimitsMiddleware.maximumURI)
            try await app.testing().test(.GET, "api/v1/stacks?q=\(long)", headers: bearerHeaders(token)) { res in
                #expect(res.status == .uriTooLong)
                #expect((res.json as? [String: Any])?["code"] as? String == "uri_too_long")
            }
            var big = bearerHeaders(token)
            big.add(name: "X-Filler", value: String(repeating: "b", count: RequestLimitsMiddleware.maximumHeaders))
            try await app.testing().test(.GET, "api/v1/stacks", headers: big) { res in
                #expect(res.status == .requestHeaderFieldsTooLarge)
                #expect((res.json as? [String: Any])?["code"] as? String == "headers_too_large")
            }
        }
    }

    @Test(
        "a review before 2000 or before its card was made is refused; a card made offline keeps its time",
        arguments: TestDatabase.available)
    func reviewedAtLowerBound(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup()
            let stack = try await makeStack(app, token: token)
            var card: String?
            try await app.testing().test(
                .POST, "api/v1/stacks/\(stack)/cards", headers: jsonHeaders(token),
                body: rawJSON(#"{"question":"Q","answer":"A"}"#)
            ) { res in
                card = (res.json as? [String: Any])?["id"] as? String
            }
            let cardId = try #require(card)
            func sync(_ reviewedAt: String) async throws -> HTTPStatus {
                var status = HTTPStatus.ok
                try await app.testing().test(
                    .POST, "api/v1/reviews", headers: jsonHeaders(token),
                    body: rawJSON(
                        #"{"reviews":[{"id":"\#(UUID().uuidString)","cardId":"\#(cardId)","rating":"good","reviewedAt":"\#(reviewedAt)"}]}"#
                    )
                ) { res in status = res.status }
                return status
            }
            #expect(try await sync("1999-12-31T23:59:59.000Z") == .badRequest)
            // Nor before the card was made (ten minutes of a slow device clock aside).
            #expect(try await sync(FlashcardsJSON.string(from: Date().addingTimeInterval(-86_400))) == .conflict)
            #expect(try await ReviewLogModel.query(on: app.db).count() == 0)
            #expect(try await sync(FlashcardsJSON.string(from: Date())) == .ok)
            #expect(try await ReviewLogModel.query(on: app.db).count() == 1)
            // A card made offline two days ago takes yesterday's review; a time before 2000 is refused.
            let twoDaysAgo = FlashcardsJSON.string(from: Date().addingTimeInterval(-2 * 86_400))
            for (createdAt, status) in [("1999-06-01T00:00:00.000Z", HTTPStatus.badRequest), (twoDaysAgo, .created)] {
                try await app.testing().test(
                    .POST, "api/v1/stacks/\(stack)/cards", headers: jsonHeaders(token),
                    body: rawJSON(#"{"question":"Offline","answer":"A","createdAt":"\#(createdAt)"}"#)
                ) { res in
                    #expect(res.status == status, "\(res.body.string)")
                    if status == .created { card = (res.json as? [String: Any])?["id"] as? String }
                }
            }
            let offline = try #require(card)
            try await app.testing().test(
                .POST, "api/v1/reviews", headers: jsonHeaders(token),
                body: rawJSON(
                    #"{"reviews":[{"id":"\#(UUID().uuidString)","cardId":"\#(offline)","rating":"good","reviewedAt":"\#(FlashcardsJSON.string(from: Date().addingTimeInterval(-86_400)))"}]}"#
                )
            ) { res in #expect(res.status == .ok, "\(res.body.string)") }
        }
    }

    @Test("values the document refuses are refused even where they would do no harm")
    func asStrictAsTheDocument() async throws {
        try await withApp(.sqlite) { app in
            let token = try await app.compatSignup()
            let stack = try await makeStack(app, token: token)
            try await app.testing().test(
                .POST, "api/v1/stacks/\(stack)/generations", headers: jsonHeaders(token),
                body: rawJSON(#"{"text":"Die Zelle ist die kleinste Einheit des Lebens.","depth":21}"#)
            ) { res in #expect(res.status == .badRequest, "\(res.body.string)") }
            let thirteen = Array(repeating: #""Biologie""#, count: 13).joined(separator: ",")
            try await app.testing().test(
                .PATCH, "api/v1/me/settings", headers: jsonHeaders(token),
                body: rawJSON(#"{"onboarding":{"interests":[\#(thirteen)]}}"#)
            ) { res in #expect(res.status == .badRequest, "\(res.body.string)") }
        }
    }

    @Test("a token not valid yet or issued in the future is refused")
    func tokenTimes() async throws {
        try await withApp(.sqlite) { app in
            _ = try await app.compatSignup()
            let user = try #require(try await UserModel.query(on: app.db).first())
            let now = Date()
            func token(iat: Date, nbf: Date?) async throws -> String {
                try await app.tokens.keys.sign(
                    TokenPayload(
                        sub: SubjectClaim(value: user.id!.uuidString.lowercased()),
                        exp: ExpirationClaim(value: now.addingTimeInterval(3_600)), iat: IssuedAtClaim(value: iat),
                        nbf: nbf.map { NotBeforeClaim(value: $0) }, ver: user.tokenVersion,
                        jti: IDClaim(value: UUID().uuidString)))
            }
            for (iat, nbf, status) in [
                (now, now, HTTPStatus.ok), (now, nil, .ok),
                (now.addingTimeInterval(-30), now.addingTimeInterval(30), .ok),
                (now, now.addingTimeInterval(3_600), .unauthorized),
                (now.addingTimeInterval(3_600), nil, .unauthorized),
            ] as [(Date, Date?, HTTPStatus)] {
                let value = try await token(iat: iat, nbf: nbf)
                try await app.testing().test(.GET, "api/v1/me", headers: bearerHeaders(value)) { res in
                    #expect(res.status == status, "iat \(iat), nbf \(String(describing: nbf))")
                }
            }
        }
    }
}

@Suite("Client addresses behind trusted proxies; login and sign-up limits per address")
struct ClientAddressTests {
    @Test("X-Forwarded-For is believed only from trusted proxies, right to left")
    func resolution() throws {
        let trusted = try ["10.0.0.0/8", "::1", "fd00::/8"].map { try #require(AddressRange($0)) }
        // Not from a trusted proxy: the header is the client's own writing.
        #expect(
            ClientAddress.resolve(peer: "203.0.113.9", forwardedFor: ["198.51.100.1"], trusted: trusted)
                == "203.0.113.9")
        // From a proxy: the right-most address that is not a proxy; what a client wrote to the left is ignored.
        #expect(
            ClientAddress.resolve(
                peer: "10.1.2.3", forwardedFor: ["1.1.1.1, 198.51.100.7", "10.9.9.9"], trusted: trusted)
                == "198.51.100.7")
        #expect(
            ClientAddress.resolve(peer: "::1", forwardedFor: ["2001:db8::5"], trusted: trusted)
                == "2001:db8:0:0:0:0:0:5")
        #expect(
            ClientAddress.resolve(peer: "::ffff:10.0.0.1", forwardedFor: ["192.0.2.4"], trusted: trusted) == "192.0.2.4"
        )
        // No header, or garbage in it: the proxy (or the last good hop) stands for the client.
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: [], trusted: trusted) == "10.0.0.1")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: ["nonsense"], trusted: trusted) == "10.0.0.1")
        #expect(ClientAddress.resolve(peer: nil, forwardedFor: ["192.0.2.4"], trusted: trusted) == nil)
        #expect(AddressRange("10.0.0.0/33") == nil && AddressRange("300.1.1.1") == nil && AddressRange("::/129") == nil)
        #expect(throws: ConfigurationError.self) {
            _ = try AppConfiguration(values: ["FLASHCARDS_TRUSTED_PROXIES": "10.0.0.0/8, proxy.local"])
        }
        #expect(
            try AppConfiguration(values: ["FLASHCARDS_TRUSTED_PROXIES": "127.0.0.1, ::1"]).trustedProxies.count == 2)
    }

    @Test("one client's failed logins lock neither the others behind the same proxy nor their accounts")
    func limitsPerClient() async throws {
        let adjust: (inout AppConfiguration) -> Void = {
            $0.trustedProxies = [AddressRange("127.0.0.1")!]
            $0.loginMaxFailures = 3
            $0.loginMaxFailuresPerAddress = 5
            $0.signupsPerHour = 3
        }
        try await withApp(.sqlite, adjust: adjust) { app in
            let tester = try app.testing(method: .running(port: 0))
            func send(_ path: String, _ body: String, from client: String) async throws -> HTTPStatus {
                var headers = HTTPHeaders()
                headers.replaceOrAdd(name: .contentType, value: "application/json")
                headers.replaceOrAdd(name: .xForwardedFor, value: client)
                var status = HTTPStatus.ok
                try await tester.test(.POST, path, headers: headers, body: rawJSON(body)) { res in status = res.status }
                return status
            }
            func signup(_ mail: String, from client: String) async throws -> HTTPStatus {
                try await send(
                    "api/v1/auth/signup", #"{"name":"N","mail":"\#(mail)","password":"correct horse"}"#, from: client)
            }
            func login(_ mail: String, _ password: String, from client: String) async throws -> HTTPStatus {
                try await send("api/v1/auth/login", #"{"mail":"\#(mail)","password":"\#(password)"}"#, from: client)
            }
            // Three sign-ups per address and hour; another address may still sign up.
            for index in 1...3 { #expect(try await signup("a\(index)@example.org", from: "198.51.100.1") == .created) }
            #expect(try await signup("a4@example.org", from: "198.51.100.1") == .tooManyRequests)
            #expect(try await signup("b1@example.org", from: "198.51.100.2") == .created)
            // Client 1 guesses passwords of several accounts: past five failures it is refused …
            for index in 1...5 {
                #expect(
                    try await login("x\(index)@example.org", "wrong password", from: "198.51.100.1") == .unauthorized)
            }
            #expect(try await login("a1@example.org", "correct horse", from: "198.51.100.1") == .tooManyRequests)
            // … while client 2 behind the same proxy signs in as usual.
            #expect(try await login("b1@example.org", "correct horse", from: "198.51.100.2") == .ok)
            // Three wrong passwords for one account lock that account, from any address.
            for _ in 1...3 {
                #expect(try await login("b1@example.org", "nope nope", from: "198.51.100.3") == .unauthorized)
            }
            #expect(try await login("b1@example.org", "correct horse", from: "198.51.100.4") == .tooManyRequests)
        }
    }
}

import FlashcardsAPI
import Fluent
import Foundation
import JWTKit
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

@Suite("Authentication")
struct AuthTests {
    @Test(
        "raw and Bearer tokens work; missing, malformed, forged and expired ones are 401",
        arguments: TestDatabase.available)
    func tokens(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            let token = try await app.compatSignup()
            try await app.testing().test(.GET, "stack", headers: compatHeaders(token)) { #expect($0.status == .ok) }
            try await app.testing().test(.GET, "stack", headers: bearerHeaders(token)) { #expect($0.status == .ok) }
            try await app.testing().test(.GET, "api/v1/stacks", headers: bearerHeaders(token)) {
                #expect($0.status == .ok)
            }
            // A token signed with another secret.
            let forgedKeys = JWTKeyCollection()
            await forgedKeys.add(hmac: HMACKey(from: String(repeating: "x", count: 48)), digestAlgorithm: .sha256)
            let user = try #require(try await UserModel.query(on: app.db).first())
            let forged = try await forgedKeys.sign(
                TokenPayload(
                    sub: .init(value: user.id!.uuidString.lowercased()),
                    exp: .init(value: clock.now.addingTimeInterval(3600)),
                    iat: .init(value: clock.now), ver: 0))
            for bad in [
                nil, "", "garbage", "a.b.c", "Bearer ", forged, token + "x", String(repeating: "a", count: 10_000),
            ] {
                for path in ["stack", "api/v1/stacks", "api/v1/me"] {
                    try await app.testing().test(.GET, path, headers: compatHeaders(bad)) { res in
                        #expect(res.status == .unauthorized, "\(path) with \(bad ?? "no token")")
                        #expect((res.json as? [String: Any])?["code"] as? String == "unauthorized")
                    }
                }
            }
            // Seven days later the token has expired.
            clock.advance(by: 7 * 86_400 + 1)
            try await app.testing().test(.GET, "stack", headers: compatHeaders(token)) { res in
                #expect(res.status == .unauthorized)
            }
        }
    }

    @Test("the generated secret is stored once and reused across restarts")
    func secretPersists() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flashcards-secret-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = AppConfiguration()
        configuration.dataDirectory = directory.path
        configuration.bcryptCost = 4
        configuration.publicDirectory = publicDirectory
        var token = ""
        for round in 0..<2 {
            let app = try await Application.make(.testing)
            do {
                try await configure(app, configuration: configuration)
                if round == 0 {
                    token = try await app.compatSignup()
                } else {
                    try await app.testing().test(.GET, "stack", headers: compatHeaders(token)) { res in
                        #expect(res.status == .ok)
                    }
                }
            } catch {
                try? await app.asyncShutdown()
                throw error
            }
            try await app.asyncShutdown()
        }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("flashcards.sqlite").path))
    }

    @Test("a configured secret shorter than 32 bytes is refused with a clear message")
    func shortSecret() {
        #expect(throws: ConfigurationError.self) {
            _ = try AppConfiguration(values: ["FLASHCARDS_JWT_SECRET": "short"])
        }
        #expect(throws: ConfigurationError.self) { _ = try AppConfiguration(values: ["PORT": "eighty"]) }
        #expect(throws: ConfigurationError.self) {
            _ = try AppConfiguration(values: ["FLASHCARDS_DEFAULT_TIME_ZONE": "Nowhere/Land"])
        }
        #expect(throws: ConfigurationError.self) { _ = try AppConfiguration(values: ["DATABASE_URL": "mysql://x"]) }
        let ok = try? AppConfiguration(values: ["PORT": "8080", "DATABASE_URL": "postgres://u@localhost/db"])
        #expect(ok?.port == 8080)
        #expect(ok?.database == .postgres(url: "postgres://u@localhost/db", schema: nil))
    }

    @Test("repeated failed logins are limited per account with 429 and Retry-After", arguments: TestDatabase.available)
    func loginRateLimit(db: TestDatabase) async throws {
        let clock = TestClock()
        func limit(_ configuration: inout AppConfiguration) {
            configuration.loginMaxFailures = 3
            configuration.loginWindowSeconds = 900
        }
        try await withApp(db, clock: clock, adjust: limit) { app in
            _ = try await app.compatSignup()
            let wrong = rawJSON(#"{"mail":"ada@example.org","password":"wrong password"}"#)
            for _ in 0..<3 {
                try await app.testing().test(.POST, "login", headers: compatHeaders(nil), body: wrong) { res in
                    #expect(res.status == .badRequest)
                }
            }
            clock.advance(by: 60)
            // Now even the right password is refused until the window has passed.
            let right = rawJSON(#"{"mail":"ada@example.org","password":"correct horse"}"#)
            try await app.testing().test(.POST, "api/v1/auth/login", headers: compatHeaders(nil), body: right) { res in
                #expect(res.status == .tooManyRequests)
                #expect(res.headers.first(name: .retryAfter) == "840")
                #expect((res.json as? [String: Any])?["code"] as? String == "too_many_attempts")
            }
            clock.advance(by: 841)
            try await app.testing().test(.POST, "login", headers: compatHeaders(nil), body: right) { res in
                #expect(res.status == .ok)
            }
        }
    }

    @Test("v1 signup answers 201 with a token; login 200; taken mail 409")
    func v1Signup() async throws {
        try await withApp(.sqlite) { app in
            let body = rawJSON(#"{"name":"Ada","mail":"ada@example.org","password":"correct horse"}"#)
            try await app.testing().test(.POST, "api/v1/auth/signup", headers: compatHeaders(nil), body: body) { res in
                #expect(res.status == .created)
                let auth = try res.decoded(AuthResponse.self)
                #expect(auth.user.mail == "ada@example.org")
                #expect(auth.user.timeZone == "Europe/Berlin")
            }
            try await app.testing().test(.POST, "api/v1/auth/signup", headers: compatHeaders(nil), body: body) { res in
                #expect(res.status == .conflict)
                #expect((res.json as? [String: Any])?["code"] as? String == "user_already_exists")
            }
            // Passwords are stored as bcrypt hashes, never in clear.
            let user = try #require(try await UserModel.query(on: app.db).first())
            #expect(user.passwordHash.hasPrefix("$2"))
            #expect(!user.passwordHash.contains("correct horse"))
        }
    }

    @Test(
        "the user and stack read field by field equal Fluent's reading, stay clean and save only changes",
        arguments: TestDatabase.available)
    func fieldByFieldReading(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let created = try await client.createStack(name: "Chemie", color: "#112233", scheduler: .fsrs)
                let sql = app.db.sql
                let userRow = try #require(try await sql.raw("SELECT * FROM users").first())
                let stackRow = try #require(
                    try await sql.raw("SELECT * FROM stacks WHERE unique_id = \(bind: created.id)").first())

                func same<M: Model>(_ make: () -> M, _ row: any SQLRow, read: (M, any DatabaseOutput) throws -> Void)
                    throws
                {
                    let byField = make()
                    let fieldKeys = RecordingOutput(row: row)
                    try read(byField, fieldKeys)
                    let byFluent = make()
                    let fluentKeys = RecordingOutput(row: row)
                    try byFluent.output(from: fluentKeys)
                    // Every field Fluent reads is read, so the two readings can be compared.
                    #expect(fieldKeys.keys == fluentKeys.keys, "\(M.schema)")
                    guard fieldKeys.keys == fluentKeys.keys else { return }
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = .sortedKeys
                    #expect(try encoder.encode(byField) == encoder.encode(byFluent), "\(M.schema)")
                    #expect(!byField.hasChanges && byField._$idExists, "\(M.schema)")
                }
                try same(UserModel.init, userRow) { try $0.read(from: $1) }
                try same(StackModel.init, stackRow) { try $0.read(from: $1) }

                // A stack read this way and saved writes only what changed, not a stale copy of the rest.
                let stack = StackModel()
                try stack.read(from: PrefixedOutput(row: stackRow, prefix: ""))
                try await sql.update("stacks").set("reviewed_today", to: 7).where("id", .equal, stack.id!).run()
                stack.name = "Physik"
                try await stack.save(on: app.db)
                let saved = try #require(try await StackModel.find(stack.id, on: app.db))
                #expect(saved.name == "Physik" && saved.reviewedToday == 7 && saved.color == "#112233")
            }
        }
    }
}

/// A row as a Fluent model reads it, remembering which fields were read.
private final class RecordingOutput: DatabaseOutput, @unchecked Sendable {
    let row: any SQLRow
    var keys = Set<String>()

    init(row: any SQLRow) { self.row = row }

    var description: String { "recording \(row)" }
    func schema(_ schema: String) -> any DatabaseOutput { self }
    func contains(_ key: FieldKey) -> Bool { row.contains(column: key.description) }
    func decodeNil(_ key: FieldKey) throws -> Bool {
        keys.insert(key.description)
        return try row.decodeNil(column: key.description)
    }
    func decode<T: Decodable>(_ key: FieldKey, as type: T.Type) throws -> T {
        keys.insert(key.description)
        return try row.decode(column: key.description, as: T.self)
    }
}

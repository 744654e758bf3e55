import FlashcardsAPI
import FlashcardsClient
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FlashcardsServer

/// Personal access tokens (issue 36): made and revoked with the session, shown once, stored hashed,
/// working for the SDK within their scopes, their writes in their activity, limited in rate, and
/// refused when revoked, expired or another learner's.
@Suite("Personal access tokens")
struct AccessTokenTests {
    @Test("scopes, activity, revocation, expiry and another learner", arguments: TestDatabase.available)
    func story(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { ada, url in
                try await ada.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await ada.createStack(name: "Chemie", color: "#DC2626")
                let reader = try await ada.createAccessToken(name: "Claude (lesen)", scopes: [.read])
                let writer = try await ada.createAccessToken(name: "Skript", scopes: [.write], expiresInDays: 30)
                #expect(reader.secret.hasPrefix("fcpat_") && reader.secret.count == 49)
                #expect(reader.token.prefix == String(reader.secret.prefix(12)))
                #expect(reader.token.scopes == [.read] && writer.token.scopes == [.read, .write])
                #expect(writer.token.expiresAt == clock.now.addingTimeInterval(30 * 86_400))
                #expect(try await ada.accessTokens().map(\.name).sorted() == ["Claude (lesen)", "Skript"])

                // Only the hash is stored.
                let sql = try #require(app.db as? any SQLDatabase)
                let rows = try await sql.raw("SELECT * FROM access_tokens").all()
                for row in rows {
                    let hash = try row.decode(column: "token_hash", as: String.self)
                    #expect(hash.count == 64 && hash != reader.secret && hash != writer.secret)
                }

                // Reading works with read; writing needs write, and is noted.
                let readClient = FlashcardsClient(baseURL: url, token: reader.secret)
                #expect(try await readClient.stacks().map(\.name) == ["Chemie"])
                #expect(
                    await errorCode { _ = try await readClient.createStack(name: "Nein", color: "#059669") }
                        == "token_read_only")
                let writeClient = FlashcardsClient(baseURL: url, token: writer.secret)
                let made = try await writeClient.createCard(in: stack.id, question: "H2O?", answer: "Wasser")
                #expect(try await ada.cards(in: stack.id).items.map(\.id) == [made.id])
                let activity = try await ada.accessTokenActivity(writer.token.id)
                #expect(activity.items.map(\.action) == ["POST /api/v1/stacks/:stackId/cards"])
                #expect(activity.items.first?.via == "api")
                #expect(try await ada.accessTokenActivity(reader.token.id).total == 0, "reads are not noted")
                #expect(try await ada.accessTokens().first { $0.id == reader.token.id }?.lastUsedAt == clock.now)

                // The account's own keys stay with the session.
                #expect(await errorCode { _ = try await writeClient.accessTokens() } == "session_required")
                #expect(
                    await errorCode {
                        try await writeClient.changePassword(current: "correct horse", new: "x y z w v u")
                    }
                        == "session_required")
                #expect(
                    await errorCode { try await writeClient.deleteAccount(password: "correct horse") }
                        == "session_required")

                // Another learner sees none of it.
                let bea = FlashcardsClient(baseURL: url)
                try await bea.signup(name: "Bea", mail: "bea@example.org", password: "correct horse")
                #expect(await errorCode { try await bea.revokeAccessToken(reader.token.id) } == "token_not_found")
                #expect(await errorCode { _ = try await bea.accessTokenActivity(reader.token.id) } == "token_not_found")
                #expect(
                    await errorCode { _ = try await writeClient.stack(try await bea.stacks().first?.id ?? UUID()) }
                        != nil)

                // Expired after its days; revoked at once.
                clock.advance(by: 30 * 86_400 + 1)
                #expect(await errorCode { _ = try await writeClient.stacks() } == "invalid_token")
                _ = try await ada.login(mail: "ada@example.org", password: "correct horse")
                try await ada.revokeAccessToken(reader.token.id)
                try await ada.revokeAccessToken(reader.token.id)
                #expect(await errorCode { _ = try await readClient.stacks() } == "invalid_token")
                #expect(try await ada.accessTokens().first { $0.id == reader.token.id }?.revokedAt == clock.now)
                let forged = FlashcardsClient(baseURL: url, token: "fcpat_" + String(repeating: "A", count: 43))
                #expect(await errorCode { _ = try await forged.stacks() } == "invalid_token")
            }
        }
    }

    @Test("bad requests, the number of tokens and the rate limit", arguments: TestDatabase.available)
    func limits(db: TestDatabase) async throws {
        let eightAMinute: (inout AppConfiguration) -> Void = { $0.tokenRequestsPerMinute = 8 }
        // A clock that stands still: the burst below must not refill while a loaded machine runs it
        // (one request every 7.5 s at this rate).
        try await withApp(db, clock: TestClock(), adjust: eightAMinute) { app in
            try await withRunningServer(app) { ada, url in
                try await ada.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                #expect(
                    await errorCode { _ = try await ada.createAccessToken(name: " ", scopes: [.read]) }
                        == "validation_failed")
                #expect(
                    await errorCode { _ = try await ada.createAccessToken(name: "x", scopes: []) }
                        == "validation_failed")
                #expect(
                    await errorCode {
                        _ = try await ada.createAccessToken(name: "x", scopes: [.read], expiresInDays: 0)
                    }
                        == "validation_failed")
                // Two per burst at 8 a minute: the third request waits.
                let token = try await ada.createAccessToken(name: "schnell", scopes: [.read])
                let client = FlashcardsClient(baseURL: url, token: token.secret)
                _ = try await client.stacks()
                _ = try await client.stacks()
                do {
                    _ = try await client.stacks()
                    Issue.record("the third request in a burst of two went through")
                } catch FlashcardsError.rateLimited(let retryAfter, _) {
                    #expect((1...8).contains(retryAfter ?? 0))
                }
                for index in 1..<AccessTokenService.maximumActive {
                    _ = try await ada.createAccessToken(name: "t\(index)", scopes: [.read])
                }
                #expect(
                    await errorCode { _ = try await ada.createAccessToken(name: "zu viel", scopes: [.read]) }
                        == "too_many_tokens")
                try await ada.revokeAccessToken(token.token.id)
                _ = try await ada.createAccessToken(name: "wieder Platz", scopes: [.read])
            }
        }
    }
}

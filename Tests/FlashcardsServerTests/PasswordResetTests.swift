import AsyncHTTPClient
import FlashcardsAPI
import FlashcardsClient
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Mail settings for a test SMTP server on this machine.
/// The timeout is generous: the whole suite shares two event loop threads with the server under test.
func testMail(port: Int, security: MailConfiguration.Security = .none, caFile: String? = nil, timeout: Int = 60)
    -> MailConfiguration
{
    MailConfiguration(
        host: security == .none ? "127.0.0.1" : "localhost", port: port, security: security,
        sender: MailAddress("noreply@example.org", name: "Smart Flashcards")!, caFile: caFile,
        timeoutSeconds: timeout, heloName: "cards.example.org")
}

/// A configuration change that mails through `smtp` with links to https://cards.example.org and
/// short pauses between sending attempts.
func mailing(_ smtp: MailConfiguration?, maxPerMail: Int = 3, maxPerClient: Int = 20)
    -> (inout AppConfiguration) -> Void
{
    { configuration in
        configuration.mail = smtp
        configuration.publicURL = URL(string: "https://cards.example.org")
        configuration.passwordReset.retryDelays = [0.05, 0.05]
        configuration.passwordReset.maxPerMail = maxPerMail
        configuration.passwordReset.maxPerClient = maxPerClient
    }
}

/// Runs every queued job now (the tests run no background workers).
func runQueuedJobs(_ app: Application) async throws {
    while try await app.jobWorker.runOnce() {}
}

/// The single job of this kind, after it ran.
func onlyJob(_ app: Application, kind: String) async throws -> JobModel {
    let jobs = try await JobModel.query(on: app.db).filter(\.$kind == kind).all()
    #expect(jobs.count == 1)
    return try #require(jobs.first)
}

@Suite("Password reset by mail")
struct PasswordResetTests {
    @Test(
        "a mailed link sets a new password once, signs in and ends every older token",
        arguments: TestDatabase.available)
    func fullFlow(db: TestDatabase) async throws {
        let smtp = try await TestSMTPServer.start()
        defer { Task { await smtp.stop() } }
        try await withApp(db, adjust: mailing(testMail(port: smtp.port))) { app in
            try await withRunningServer(app) { client, url in
                let old = try await client.signup(
                    name: "Ada Lovelace", mail: "ada@example.org", password: "altes-passwort")
                #expect(try await client.passwordResetStatus() == PasswordResetStatus(available: true))
                let anonymous = FlashcardsClient(baseURL: url)
                try await anonymous.requestPasswordReset(mail: "  ADA@Example.org ", language: "de")
                #expect(smtp.received.isEmpty, "the mail goes out from the job, not in the request")
                try await runQueuedJobs(app)

                let mail = try #require(smtp.received.first)
                #expect(smtp.received.count == 1)
                #expect(mail.from == "noreply@example.org" && mail.recipients == ["ada@example.org"])
                #expect(mail.data.contains("Subject: =?UTF-8?B?"))
                #expect(mail.data.contains("From: \"Smart Flashcards\" <noreply@example.org>"))
                #expect(mail.data.contains("Content-Transfer-Encoding: quoted-printable"))
                #expect(mail.data.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 78 })
                let body = TestSMTPServer.decodeQuotedPrintable(mail.data)
                #expect(body.contains("Hallo Ada Lovelace,") && body.contains("30 Minuten"))
                let token = try #require(TestSMTPServer.resetToken(in: mail))
                #expect(token.count == 43)
                #expect(body.contains("https://cards.example.org/app/reset?token=\(token)"))

                // Only the hash is stored; the job forgot the sealed token.
                let rows = try await app.db.sql.raw("SELECT token_hash FROM password_resets").all()
                #expect(rows.count == 1)
                #expect(try rows[0].decode(column: "token_hash", as: String.self) == RandomToken.hash(token))
                let job = try await onlyJob(app, kind: PasswordResetMailHandler.kind)
                #expect(job.status == "succeeded" && job.payload == "{}")

                // Too short a password: refused, and the link stays usable.
                await #expect(throws: FlashcardsError.self) {
                    try await anonymous.confirmPasswordReset(token: token, newPassword: "kurz")
                }
                let auth = try await anonymous.confirmPasswordReset(token: token, newPassword: "neues-passwort")
                #expect(auth.user.mail == "ada@example.org")
                #expect(try await anonymous.me().name == "Ada Lovelace")

                // The token from before the reset no longer works; the old password neither.
                let before = FlashcardsClient(baseURL: url, token: old.token)
                do {
                    _ = try await before.me()
                } catch let error as FlashcardsError {
                    #expect(error.code == "unauthorized")
                }
                await #expect(throws: FlashcardsError.self) {
                    try await FlashcardsClient(baseURL: url).login(mail: "ada@example.org", password: "altes-passwort")
                }
                try await FlashcardsClient(baseURL: url).login(mail: "ada@example.org", password: "neues-passwort")

                // Single use.
                do {
                    try await anonymous.confirmPasswordReset(token: token, newPassword: "noch-ein-passwort")
                    Issue.record("a spent link worked twice")
                } catch let error as FlashcardsError {
                    guard case .unauthorized(let body) = error else { throw error }
                    #expect(body?.code == "invalid_reset_token")
                    #expect(body?.message.contains("ungültig, abgelaufen oder wurde schon benutzt") == true)
                }
            }
        }
    }

    @Test(
        "a link expires; a newer request spends the earlier link; malformed tokens are 401",
        arguments: TestDatabase.available)
    func expiryAndSupersede(db: TestDatabase) async throws {
        let smtp = try await TestSMTPServer.start()
        defer { Task { await smtp.stop() } }
        let clock = TestClock()
        try await withApp(db, clock: clock, adjust: mailing(testMail(port: smtp.port), maxPerMail: 10)) { app in
            _ = try await app.compatSignup(name: "Bea", mail: "bea@example.org")
            func request(_ language: String? = nil) async throws {
                let body =
                    language.map { #"{"mail":"bea@example.org","language":"\#($0)"}"# }
                    ?? #"{"mail":"bea@example.org"}"#
                try await app.testing().test(
                    .POST, "api/v1/auth/password-reset", headers: bearerHeaders(nil), body: rawJSON(body)
                ) { res in #expect(res.status == .accepted) }
                try await runQueuedJobs(app)
            }
            func confirm(_ token: String, _ password: String = "ein-neues-passwort") async throws -> TestingHTTPResponse
            {
                var response: TestingHTTPResponse?
                try await app.testing().test(
                    .POST, "api/v1/auth/password-reset/confirm", headers: bearerHeaders(nil),
                    body: rawJSON(#"{"token":"\#(token)","newPassword":"\#(password)"}"#)
                ) { response = $0 }
                return try #require(response)
            }
            try await request()
            try await request("en")
            #expect(smtp.received.count == 2)
            let first = try #require(TestSMTPServer.resetToken(in: smtp.received[0]))
            let second = try #require(TestSMTPServer.resetToken(in: smtp.received[1]))
            let english = TestSMTPServer.decodeQuotedPrintable(smtp.received[1].data)
            #expect(english.contains("Hello Bea,") && english.contains("30 minutes"))

            let spent = try await confirm(first)
            #expect(spent.status == .unauthorized)
            #expect((spent.json as? [String: Any])?["code"] as? String == "invalid_reset_token")

            clock.advance(by: 30 * 60 + 1)
            let expired = try await confirm(second)
            #expect(expired.status == .unauthorized)
            #expect((expired.json as? [String: Any])?["code"] as? String == "invalid_reset_token")

            for bad in ["", "abc", String(repeating: "A", count: 43), String(repeating: "!", count: 43), first + "x"] {
                let response = try await confirm(bad)
                #expect(response.status == .unauthorized, "\(bad)")
                #expect((response.json as? [String: Any])?["code"] as? String == "invalid_reset_token")
            }
            try await app.testing().test(
                .POST, "api/v1/auth/password-reset/confirm", headers: bearerHeaders(nil), body: rawJSON(#"{"token":1}"#)
            ) { res in #expect(res.status == .badRequest) }
            try await app.testing().test(
                .POST, "api/v1/auth/password-reset", headers: bearerHeaders(nil),
                body: rawJSON(#"{"mail":"bea@example.org","language":"fr"}"#)
            ) { res in
                #expect(res.status == .badRequest)
                #expect(res.message == "Die Sprache muss de oder en sein.")
            }

            // A link mailed after its request expired is not sent at all.
            try await app.testing().test(
                .POST, "api/v1/auth/password-reset", headers: bearerHeaders(nil),
                body: rawJSON(#"{"mail":"bea@example.org"}"#)
            ) { res in #expect(res.status == .accepted) }
            clock.advance(by: 31 * 60)
            try await runQueuedJobs(app)
            #expect(smtp.received.count == 2)
        }
    }

    @Test("two confirmations of one link at once: exactly one succeeds", arguments: TestDatabase.available)
    func concurrentUse(db: TestDatabase) async throws {
        let smtp = try await TestSMTPServer.start()
        defer { Task { await smtp.stop() } }
        try await withApp(db, adjust: mailing(testMail(port: smtp.port))) { app in
            try await withRunningServer(app) { client, url in
                try await client.signup(name: "Cem", mail: "cem@example.org", password: "altes-passwort")
                try await client.requestPasswordReset(mail: "cem@example.org")
                try await runQueuedJobs(app)
                let token = try #require(smtp.received.first.flatMap(TestSMTPServer.resetToken))
                let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<4 {
                        group.addTask {
                            do {
                                try await FlashcardsClient(baseURL: url).confirmPasswordReset(
                                    token: token, newPassword: "passwort-\(index)-neu")
                                return true
                            } catch FlashcardsError.unauthorized(let body) where body?.code == "invalid_reset_token" {
                                return false
                            }
                        }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 }.count == 1)
                let user = try #require(try await UserModel.query(on: app.db).first())
                #expect(user.tokenVersion == 1)
            }
        }
    }

    @Test(
        "an unknown address gets the same 202 and no mail; requests are limited per address and per client",
        arguments: TestDatabase.available)
    func noEnumerationAndLimits(db: TestDatabase) async throws {
        let smtp = try await TestSMTPServer.start()
        defer { Task { await smtp.stop() } }
        try await withApp(db, adjust: mailing(testMail(port: smtp.port), maxPerMail: 2, maxPerClient: 5)) { app in
            try await withRunningServer(app) { client, url in
                try await client.signup(name: "Dora", mail: "dora@example.org", password: "altes-passwort")
                func raw(_ mail: String) async throws -> (Int, String, String?) {
                    var request = HTTPClientRequest(
                        url: url.appendingPathComponent("api/v1/auth/password-reset").absoluteString)
                    request.method = .POST
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.body = .bytes(ByteBuffer(string: #"{"mail":"\#(mail)"}"#))
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                    let body = try await response.body.collect(upTo: 1 << 20)
                    return (
                        Int(response.status.code), String(buffer: body), response.headers.first(name: "Retry-After")
                    )
                }
                let known = try await raw("dora@example.org")
                let unknown = try await raw("niemand@example.org")
                #expect(known.0 == 202 && unknown.0 == 202)
                #expect(known.1 == unknown.1, "the same answer with and without an account")
                try await runQueuedJobs(app)
                #expect(smtp.received.count == 1 && smtp.received[0].recipients == ["dora@example.org"])

                // The second request per address is the last one within the window, account or not.
                #expect(try await raw("dora@example.org").0 == 202)
                #expect(try await raw("niemand@example.org").0 == 202)
                for mail in ["dora@example.org", "niemand@example.org"] {
                    let refused = try await raw(mail)
                    #expect(refused.0 == 429)
                    #expect(refused.1.contains("too_many_attempts"))
                    #expect(Int(refused.2 ?? "") ?? 0 > 0)
                }
                // Five requests per client (refused ones do not count): a fifth is taken, a sixth refused.
                #expect(try await raw("eins@example.org").0 == 202)
                await #expect(throws: FlashcardsError.self) {
                    try await FlashcardsClient(baseURL: url).requestPasswordReset(mail: "zwei@example.org")
                }
                try await runQueuedJobs(app)
                #expect(smtp.received.count == 2)
            }
        }
    }

    @Test("without mail settings the feature says it is unavailable", arguments: TestDatabase.available)
    func unavailable(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await app.testing().test(.GET, "api/v1/auth/password-reset") { res in
                #expect(res.status == .ok)
                #expect((res.json as? [String: Any])?["available"] as? Bool == false)
            }
            try await app.testing().test(
                .POST, "api/v1/auth/password-reset", headers: bearerHeaders(nil),
                body: rawJSON(#"{"mail":"ada@example.org"}"#)
            ) { res in
                #expect(res.status == .serviceUnavailable)
                #expect((res.json as? [String: Any])?["code"] as? String == "password_reset_unavailable")
                #expect(res.message == "Passwort-Zurücksetzen ist auf diesem Server nicht eingerichtet.")
            }
            try await app.testing().test(
                .POST, "api/v1/auth/password-reset/confirm", headers: bearerHeaders(nil),
                body: rawJSON(#"{"token":"\#(String(repeating: "a", count: 43))","newPassword":"neues-passwort"}"#)
            ) { res in #expect(res.status == .unauthorized) }
        }
    }

    @Test(
        "a mail server that is down or refuses: the request is still 202, the job tries again and fails with the reason",
        arguments: TestDatabase.available)
    func mailServerDown(db: TestDatabase) async throws {
        let smtp = try await TestSMTPServer.start(behaviour: .refuseMail(451))
        defer { Task { await smtp.stop() } }
        try await withApp(db, adjust: mailing(testMail(port: smtp.port))) { app in
            _ = try await app.compatSignup(name: "Emil", mail: "emil@example.org")
            func request() async throws {
                try await app.testing().test(
                    .POST, "api/v1/auth/password-reset", headers: bearerHeaders(nil),
                    body: rawJSON(#"{"mail":"emil@example.org"}"#)
                ) { res in #expect(res.status == .accepted) }
            }
            // 451 (try later): three attempts, then the job fails saying why.
            try await request()
            try await runQueuedJobs(app)
            #expect(smtp.connections == 3 && smtp.received.isEmpty)
            var job = try await onlyJob(app, kind: PasswordResetMailHandler.kind)
            #expect(job.status == "failed" && job.errorCode == "mail_failed" && job.payload == "{}")
            #expect(job.error?.contains("nach 3 Versuch(en)") == true)
            #expect(job.error?.contains("451") == true)
            try await JobModel.query(on: app.db).delete()

            // 550 (refused for good): one attempt.
            smtp.behaviour = .refuseMail(550)
            try await request()
            try await runQueuedJobs(app)
            #expect(smtp.connections == 4)
            job = try await onlyJob(app, kind: PasswordResetMailHandler.kind)
            #expect(job.status == "failed" && job.error?.contains("nach 1 Versuch(en)") == true)
            try await JobModel.query(on: app.db).delete()

            // Recovered: the next request is mailed.
            smtp.behaviour = .accept
            try await request()
            try await runQueuedJobs(app)
            #expect(smtp.received.count == 1)
        }
        // Nobody listening at all.
        await smtp.stop()
        try await withApp(db, adjust: mailing(testMail(port: smtp.port))) { app in
            _ = try await app.compatSignup(name: "Emil", mail: "emil@example.org")
            try await app.testing().test(
                .POST, "api/v1/auth/password-reset", headers: bearerHeaders(nil),
                body: rawJSON(#"{"mail":"emil@example.org"}"#)
            ) { res in #expect(res.status == .accepted) }
            try await runQueuedJobs(app)
            let job = try await onlyJob(app, kind: PasswordResetMailHandler.kind)
            #expect(job.status == "failed")
            #expect(job.error?.contains("cannot connect to the SMTP server 127.0.0.1:\(smtp.port)") == true)
        }
    }
}

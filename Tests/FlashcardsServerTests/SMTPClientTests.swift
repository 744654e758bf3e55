import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import FlashcardsServer

@Suite("SMTP client and mail format")
struct SMTPClientTests {
    private func message(to: String = "ada@example.org", body: String = "Hallo\n.\n..zwei\nEnde") -> MailMessage {
        MailMessage(
            from: MailAddress("noreply@example.org", name: "Smart Flashcards")!, to: MailAddress(to)!,
            subject: "Passwort zurücksetzen – Smart Flashcards", body: body,
            date: Date(timeIntervalSince1970: 1_781_344_800), messageID: "test-1")
    }

    @Test("plain SMTP: the message arrives whole, dot-stuffing undone by the server")
    func plain() async throws {
        let smtp = try await TestSMTPServer.start()
        defer { Task { await smtp.stop() } }
        try await SMTPClient(configuration: testMail(port: smtp.port)).send(message())
        let received = try #require(smtp.received.first)
        #expect(received.from == "noreply@example.org" && received.recipients == ["ada@example.org"])
        #expect(!received.overTLS && received.login == nil)
        #expect(received.data == message().rendered)
        #expect(TestSMTPServer.decodeQuotedPrintable(received.data).hasSuffix("Hallo\r\n.\r\n..zwei\r\nEnde"))
        #expect(received.data.contains("Date: Sat, 13 Jun 2026 10:00:00 +0000"))
        #expect(received.data.contains("Message-ID: <test-1@example.org>"))
    }

    @Test("STARTTLS with a login, the certificate checked against FLASHCARDS_SMTP_CA_FILE")
    func startTLS() async throws {
        let tls = try TestSMTPServer.makeTLS()
        defer { try? FileManager.default.removeItem(atPath: tls.caFile) }
        let smtp = try await TestSMTPServer.start(security: .starttls(tls.context))
        defer { Task { await smtp.stop() } }
        var configuration = testMail(port: smtp.port, security: .starttls, caFile: tls.caFile)
        configuration.username = "mailer"
        configuration.password = "geheim"
        try await SMTPClient(configuration: configuration).send(message())
        let received = try #require(smtp.received.first)
        #expect(received.overTLS)
        #expect(received.login == ["mailer", "geheim"])

        // Without the CA file the self-signed certificate is refused: no mail, a TLS error.
        configuration.caFile = nil
        await #expect {
            try await SMTPClient(configuration: configuration).send(message())
        } throws: { error in
            guard case .tls = error as? SMTPError else { return false }
            return !(error as! SMTPError).isPermanent
        }
        #expect(smtp.received.count == 1)
    }

    @Test("TLS from the first byte")
    func implicitTLS() async throws {
        let tls = try TestSMTPServer.makeTLS()
        defer { try? FileManager.default.removeItem(atPath: tls.caFile) }
        let smtp = try await TestSMTPServer.start(security: .tls(tls.context))
        defer { Task { await smtp.stop() } }
        try await SMTPClient(configuration: testMail(port: smtp.port, security: .tls, caFile: tls.caFile)).send(
            message())
        #expect(smtp.received.first?.overTLS == true)
    }

    @Test("STARTTLS required but not offered: refused before anything is sent")
    func startTLSMissing() async throws {
        let smtp = try await TestSMTPServer.start()
        defer { Task { await smtp.stop() } }
        var configuration = testMail(port: smtp.port, security: .starttls)
        configuration.host = "127.0.0.1"
        await #expect(throws: SMTPError.startTLSUnavailable) {
            try await SMTPClient(configuration: configuration).send(message())
        }
        #expect(SMTPError.startTLSUnavailable.isPermanent)
        #expect(smtp.received.isEmpty)
    }

    @Test("a server that never answers times out; refusals name the step and the reply")
    func timeoutsAndRefusals() async throws {
        let silent = try await TestSMTPServer.start(behaviour: .silent)
        defer { Task { await silent.stop() } }
        let started = Date()
        await #expect(throws: SMTPError.timedOut) {
            try await SMTPClient(configuration: testMail(port: silent.port, timeout: 1)).send(message())
        }
        #expect(Date().timeIntervalSince(started) < 10)

        let refusing = try await TestSMTPServer.start(behaviour: .refuseMail(550))
        defer { Task { await refusing.stop() } }
        await #expect(throws: SMTPError.rejected(step: "MAIL FROM", code: 550, text: "not now")) {
            try await SMTPClient(configuration: testMail(port: refusing.port)).send(message())
        }
        #expect(SMTPError.rejected(step: "MAIL FROM", code: 550, text: "").isPermanent)
        #expect(!SMTPError.rejected(step: "MAIL FROM", code: 451, text: "").isPermanent)

        // A non-ASCII address needs SMTPUTF8, which the test server does not offer.
        let plain = try await TestSMTPServer.start()
        defer { Task { await plain.stop() } }
        await #expect(throws: SMTPError.internationalAddress) {
            try await SMTPClient(configuration: testMail(port: plain.port)).send(message(to: "jürgen@example.org"))
        }
    }

    @Test("dot-stuffing and CRLF for DATA")
    func dataBlock() {
        #expect(SMTPClient.dataBlock("a\n.b\r\n.\rc\r\n") == "a\r\n..b\r\n..\r\nc\r\n.\r\n")
        #expect(SMTPClient.dataBlock("") == "\r\n.\r\n")
    }

    @Test("subjects and names as RFC 2047 encoded words, bodies as quoted-printable")
    func encodings() throws {
        #expect(MIMEEncoding.encodedWords("Hello") == "Hello")
        let subject = "Passwort zurücksetzen – Smart Flashcards 🔑 " + String(repeating: "ä", count: 40)
        let encoded = MIMEEncoding.encodedWords(subject, prefixLength: 9)
        let words = encoded.components(separatedBy: "\r\n ")
        #expect(
            words.count > 1 && words.allSatisfy { $0.count <= 75 && $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") })
        let decoded = words.map { word -> String in
            let base64 = word.dropFirst(10).dropLast(2)
            return String(decoding: Data(base64Encoded: String(base64))!, as: UTF8.self)
        }
        #expect(decoded.joined() == subject, "each word holds whole characters")

        let text =
            "Grüße an Jürgen = 100 %  \nEine sehr lange Zeile " + String(repeating: "x", count: 200) + "\n\tEnde\t"
        let qp = MIMEEncoding.quotedPrintable(text)
        #expect(qp.split(separator: "\r\n").allSatisfy { $0.count <= 76 })
        #expect(qp.allSatisfy { $0.isASCII })
        #expect(qp.contains("Gr=C3=BC=C3=9Fe") && qp.contains("=3D 100 % =20\r\n") && qp.hasSuffix("\tEnde=09"))
        #expect(
            TestSMTPServer.decodeQuotedPrintable(qp) == text.replacingOccurrences(of: "\n", with: "\r\n"))

        let named = MailMessage(
            from: MailAddress("a@example.org", name: "Jürgen's Karten")!, to: MailAddress("b@example.org")!,
            subject: "Hi", body: "x", date: Date(timeIntervalSince1970: 0), messageID: "m")
        #expect(named.rendered.contains("From: =?UTF-8?B?"))
        #expect(named.rendered.contains("Subject: Hi\r\n"))
    }

    @Test("addresses: display names parsed, anything that could break a command refused")
    func addresses() {
        #expect(
            MailAddress(parsing: "Smart Flashcards <noreply@example.org>")
                == MailAddress("noreply@example.org", name: "Smart Flashcards"))
        #expect(MailAddress(parsing: "\"Karten, Team\" <a@example.org>")?.name == "Karten, Team")
        #expect(MailAddress(parsing: "a@example.org")?.name == nil)
        for bad in ["", "a", "a@", "@b", "a@b@c", "a b@c.de", "a@b.de\r\nRCPT TO:<x@y.z>", "<a@b.de>x", "a>@b.de"] {
            #expect(MailAddress(bad) == nil, "\(bad)")
        }
    }

    @Test("configuration: SMTP keys read and checked")
    func configuration() throws {
        let base = [
            "FLASHCARDS_SMTP_HOST": "mail.example.org", "FLASHCARDS_SMTP_FROM": "Karten <noreply@example.org>",
            "FLASHCARDS_PUBLIC_URL": "https://cards.example.org/",
        ]
        let loaded = try AppConfiguration(values: base)
        #expect(loaded.publicURL?.absoluteString == "https://cards.example.org")
        let mail = try #require(loaded.mail)
        #expect(mail.security == .starttls && mail.port == 587 && mail.heloName == "cards.example.org")
        #expect(mail.sender == MailAddress("noreply@example.org", name: "Karten"))
        #expect(try AppConfiguration(values: base.merging(["FLASHCARDS_SMTP_TLS": "tls"]) { $1 }).mail?.port == 465)
        #expect(try AppConfiguration(values: base.merging(["FLASHCARDS_SMTP_TLS": "none"]) { $1 }).mail?.port == 25)
        #expect(try AppConfiguration(values: [:]).mail == nil)
        let reset = try AppConfiguration(values: ["FLASHCARDS_PASSWORD_RESET_TTL_SECONDS": "600"]).passwordReset
        #expect(reset.lifetimeSeconds == 600 && reset.maxPerMail == 3)

        let broken: [[String: String]] = [
            ["FLASHCARDS_SMTP_FROM": "a@example.org"],
            base.filter { $0.key != "FLASHCARDS_PUBLIC_URL" },
            base.filter { $0.key != "FLASHCARDS_SMTP_FROM" },
            base.merging(["FLASHCARDS_SMTP_TLS": "ssl"]) { $1 },
            base.merging(["FLASHCARDS_SMTP_PORT": "0"]) { $1 },
            base.merging(["FLASHCARDS_SMTP_USERNAME": "u"]) { $1 },
            base.merging([
                "FLASHCARDS_SMTP_TLS": "none", "FLASHCARDS_SMTP_USERNAME": "u", "FLASHCARDS_SMTP_PASSWORD": "p",
            ]) {
                $1
            },
            base.merging(["FLASHCARDS_SMTP_FROM": "kein-absender"]) { $1 },
            base.merging(["FLASHCARDS_PUBLIC_URL": "ftp://cards.example.org"]) { $1 },
            base.merging(["FLASHCARDS_SMTP_CA_FILE": "/nicht/da.pem"]) { $1 },
            ["FLASHCARDS_PASSWORD_RESET_TTL_SECONDS": "10"],
        ]
        for values in broken {
            #expect(throws: ConfigurationError.self, "\(values)") { try AppConfiguration(values: values) }
        }
        // A password over a plain connection is fine to a relay on this machine.
        let local = base.merging([
            "FLASHCARDS_SMTP_HOST": "127.0.0.1", "FLASHCARDS_SMTP_TLS": "none", "FLASHCARDS_SMTP_USERNAME": "u",
            "FLASHCARDS_SMTP_PASSWORD": "p",
        ]) { $1 }
        #expect(try AppConfiguration(values: local).mail?.password == "p")
    }
}

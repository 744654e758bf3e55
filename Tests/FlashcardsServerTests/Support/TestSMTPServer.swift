import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Vapor
import X509

/// A small SMTP server on a loopback port for the mail tests: it speaks enough of RFC 5321 for our
/// client (EHLO/HELO, STARTTLS, AUTH PLAIN, MAIL, RCPT, DATA with dot-stuffing undone, RSET, QUIT)
/// and keeps what it received. It can also misbehave on purpose.
final class TestSMTPServer: @unchecked Sendable {
    /// How the server behaves.
    enum Behaviour: Sendable {
        /// Takes every message.
        case accept
        /// Answers `MAIL FROM` with this code (`451`: try later, `550`: refused for good).
        case refuseMail(Int)
        /// Accepts connections and never says a word.
        case silent
    }

    /// A message as it arrived.
    struct Received: Sendable {
        let from: String
        let recipients: [String]
        /// The message text, line ends as sent (CRLF), the transfer's dot-stuffing undone.
        let data: String
        /// Whether the session was protected by TLS when the message came.
        let overTLS: Bool
        /// The AUTH PLAIN login, if any: (user, password).
        let login: [String]?
    }

    enum Security: Sendable {
        case none
        case starttls(NIOSSLContext)
        case tls(NIOSSLContext)
    }

    let port: Int
    private let channel: any Channel
    private let lock = NSLock()
    private var messages: [Received] = []
    private var connectionCount = 0
    private var behaviourValue: Behaviour

    private init(port: Int, channel: any Channel, behaviour: Behaviour) {
        self.port = port
        self.channel = channel
        self.behaviourValue = behaviour
    }

    /// What the server received so far.
    var received: [Received] { lock.withLock { messages } }
    /// Connections accepted so far.
    var connections: Int { lock.withLock { connectionCount } }
    /// The behaviour for the next commands (may be changed while running).
    var behaviour: Behaviour {
        get { lock.withLock { behaviourValue } }
        set { lock.withLock { behaviourValue = newValue } }
    }

    fileprivate func record(_ message: Received) { lock.withLock { messages.append(message) } }
    fileprivate func connected() { lock.withLock { connectionCount += 1 } }

    /// Starts a server on 127.0.0.1 with a free port.
    static func start(behaviour: Behaviour = .accept, security: Security = .none) async throws -> TestSMTPServer {
        let box = ServerBox()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    var overTLS = false
                    var startTLS: NIOSSLContext?
                    switch security {
                    case .none: break
                    case .tls(let context):
                        try sync.addHandler(NIOSSLServerHandler(context: context))
                        overTLS = true
                    case .starttls(let context): startTLS = context
                    }
                    try sync.addHandler(ByteToMessageHandler(TestLineDecoder()))
                    try sync.addHandler(TestSMTPSession(server: box.server!, startTLS: startTLS, overTLS: overTLS))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = TestSMTPServer(port: channel.localAddress!.port!, channel: channel, behaviour: behaviour)
        box.server = server
        return server
    }

    /// Stops listening.
    func stop() async {
        try? await channel.close()
    }

    /// The messages' first link to `/app/reset?token=…`, decoded from quoted-printable.
    static func resetToken(in message: Received) -> String? {
        let body = decodeQuotedPrintable(String(message.data.split(separator: "\r\n\r\n", maxSplits: 1).last ?? ""))
        guard let range = body.range(of: "/app/reset?token=") else { return nil }
        return String(body[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    /// The body of a quoted-printable text.
    static func decodeQuotedPrintable(_ text: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "="), index + 2 < source.count,
                let value = UInt8(String(decoding: source[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A self-signed certificate for `localhost`, written as PEM to a temporary
    /// file (for `FLASHCARDS_SMTP_CA_FILE`), and a server TLS context with it.
    static func makeTLS() throws -> (context: NIOSSLContext, caFile: String) {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("localhost") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3_600), notValidAfter: now.addingTimeInterval(86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                KeyUsage(digitalSignature: true, keyCertSign: true)
                SubjectAlternativeNames([.dnsName("localhost")])
            }, issuerPrivateKey: .init(key))
        let pem = try certificate.serializeAsPEM().pemString
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-test-ca-\(UUID()).pem").path
        try pem.write(toFile: file, atomically: true, encoding: .utf8)
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)))
        return (try NIOSSLContext(configuration: configuration), file)
    }
}

/// Hands the server to the connections made before `start` returned it.
private final class ServerBox: @unchecked Sendable {
    var server: TestSMTPServer?
}

/// Lines without their CRLF.
private struct TestLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = String

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else { return .needMoreData }
        var line = buffer.readString(length: newline - view.startIndex + 1) ?? ""
        while let last = line.unicodeScalars.last, last == "\n" || last == "\r" { line.unicodeScalars.removeLast() }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }
}

/// One SMTP session on the server's side.
private final class TestSMTPSession: ChannelInboundHandler {
    typealias InboundIn = String

    let server: TestSMTPServer
    let startTLS: NIOSSLContext?
    var overTLS: Bool
    var from: String?
    var recipients: [String] = []
    var data: [String]?
    var login: [String]?

    init(server: TestSMTPServer, startTLS: NIOSSLContext?, overTLS: Bool) {
        self.server = server
        self.startTLS = startTLS
        self.overTLS = overTLS
    }

    func channelActive(context: ChannelHandlerContext) {
        server.connected()
        if case .silent = server.behaviour { return }
        reply(context, "220 test.local ESMTP ready")
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        if case .silent = server.behaviour { return }
        if var lines = self.data {
            if line == "." {
                server.record(
                    .init(
                        from: from ?? "", recipients: recipients, data: lines.joined(separator: "\r\n"),
                        overTLS: overTLS, login: login))
                self.data = nil
                from = nil
                recipients = []
                reply(context, "250 2.0.0 queued")
            } else {
                lines.append(line.hasPrefix(".") ? String(line.dropFirst()) : line)
                self.data = lines
            }
            return
        }
        let verb = line.split(separator: " ").first.map { $0.uppercased() } ?? ""
        switch verb {
        case "EHLO":
            var lines = ["250-test.local", "250-8BITMIME", "250-AUTH PLAIN"]
            if startTLS != nil, !overTLS { lines.append("250-STARTTLS") }
            lines.append("250 SIZE 1000000")
            reply(context, lines.joined(separator: "\r\n"))
        case "HELO": reply(context, "250 test.local")
        case "STARTTLS":
            guard let startTLS, !overTLS else { return reply(context, "502 no TLS here") }
            reply(context, "220 go ahead")
            try? context.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: startTLS), position: .first)
            overTLS = true
        case "AUTH":
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[1].uppercased() == "PLAIN",
                let decoded = Data(base64Encoded: String(parts[2]))
            else { return reply(context, "504 only AUTH PLAIN with the response") }
            login = String(decoding: decoded, as: UTF8.self).split(separator: "\0").map(String.init)
            reply(context, "235 2.7.0 ok")
        case "MAIL":
            if case .refuseMail(let code) = server.behaviour { return reply(context, "\(code) not now") }
            from = Self.address(in: line)
            reply(context, "250 2.1.0 ok")
        case "RCPT":
            recipients.append(Self.address(in: line))
            reply(context, "250 2.1.5 ok")
        case "DATA":
            guard from != nil, !recipients.isEmpty else { return reply(context, "503 need MAIL and RCPT") }
            self.data = []
            reply(context, "354 end with <CRLF>.<CRLF>")
        case "RSET", "NOOP": reply(context, "250 ok")
        case "QUIT":
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "221 bye\r\n"))).whenComplete { _ in
                context.close(promise: nil)
            }
        default: reply(context, "500 unknown command")
        }
    }

    private func reply(_ context: ChannelHandlerContext, _ text: String) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text + "\r\n")), promise: nil)
    }

    private static func address(in line: String) -> String {
        guard let open = line.firstIndex(of: "<"), let close = line.firstIndex(of: ">"), open < close else { return "" }
        return String(line[line.index(after: open)..<close])
    }

    typealias OutboundOut = ByteBuffer
}

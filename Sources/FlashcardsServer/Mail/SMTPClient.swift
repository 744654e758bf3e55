import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Hands one message at a time to an SMTP server (RFC 5321): `EHLO` (or `HELO`), `STARTTLS` or TLS
/// from the start as configured, `AUTH PLAIN` or `AUTH LOGIN` when a login is set, then
/// `MAIL FROM`, `RCPT TO` and `DATA` with the message dot-stuffed, and `QUIT`. Every answer is
/// awaited at most the configured timeout; every failure is an ``SMTPError`` that says which step
/// failed and what the server answered.
struct SMTPClient: Sendable {
    let configuration: MailConfiguration
    let group: any EventLoopGroup

    init(configuration: MailConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.configuration = configuration
        self.group = group
    }

    /// Sends `message` to its recipient.
    func send(_ message: MailMessage) async throws {
        do {
            try await deliver(message)
            ServerMetrics.mailSent(result: "sent")
        } catch {
            ServerMetrics.mailSent(result: "failed")
            throw error
        }
    }

    private func deliver(_ message: MailMessage) async throws {
        let configuration = self.configuration
        let tls = try makeTLSContext()
        let timeout = TimeAmount.seconds(Int64(configuration.timeoutSeconds))
        let serverName = Self.serverName(for: configuration.host)
        let channel: NIOAsyncChannel<SMTPReply, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(timeout)
                .connect(host: configuration.host, port: configuration.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        if configuration.security == .tls, let tls {
                            try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName))
                        }
                        try pipeline.addHandler(IdleStateHandler(readTimeout: timeout))
                        try pipeline.addHandler(ByteToMessageHandler(SMTPReplyDecoder()))
                        try pipeline.addHandler(SMTPTimeoutHandler())
                        return try NIOAsyncChannel<SMTPReply, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw SMTPError.connectionFailed(
                "\(configuration.host):\(configuration.port)", reason: Self.describe(error))
        }
        let raw = channel.channel
        do {
            try await channel.executeThenClose { inbound, outbound in
                var smtp = SMTPConversation(replies: inbound.makeAsyncIterator(), writer: outbound)
                try await smtp.expect([220], after: "connect")
                var extensions = try await smtp.hello(configuration.heloName)
                if configuration.security == .starttls {
                    guard extensions.contains("STARTTLS"), let tls else { throw SMTPError.startTLSUnavailable }
                    try await smtp.command("STARTTLS", expect: [220])
                    try await raw.eventLoop.submit {
                        let handler = try NIOSSLClientHandler(context: tls, serverHostname: serverName)
                        try raw.pipeline.syncOperations.addHandler(handler, position: .first)
                    }.get()
                    extensions = try await smtp.hello(configuration.heloName)
                }
                if let username = configuration.username, let password = configuration.password {
                    try await smtp.authenticate(username: username, password: password, extensions: extensions)
                }
                let international = !message.from.isASCII || !message.to.isASCII
                if international, !extensions.contains("SMTPUTF8") { throw SMTPError.internationalAddress }
                try await smtp.command(
                    "MAIL FROM:<\(message.from.address)>" + (international ? " SMTPUTF8" : ""), name: "MAIL FROM",
                    expect: [250])
                try await smtp.command("RCPT TO:<\(message.to.address)>", name: "RCPT TO", expect: [250, 251])
                try await smtp.command("DATA", expect: [354])
                try await smtp.send(Self.dataBlock(message.rendered), name: "DATA (message)", expect: [250])
                // The message is accepted; a failing QUIT changes nothing.
                _ = try? await smtp.command("QUIT", expect: [221])
            }
        } catch let error as SMTPError {
            throw error
        } catch let error as NIOSSLError {
            throw SMTPError.tls(Self.describe(error))
        } catch let error as BoringSSLError {
            throw SMTPError.tls(Self.describe(error))
        } catch {
            throw SMTPError.connectionLost(Self.describe(error))
        }
    }

    /// The message as the `DATA` command carries it: CRLF line ends, a `.` doubled at the start of
    /// a line (so no line of the message ends the transfer early), and the closing `.` line.
    static func dataBlock(_ message: String) -> String {
        let normalized = message.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") ? "." + line : String(line)
        }
        if lines.last == "" { lines.removeLast() }
        return lines.joined(separator: "\r\n") + "\r\n.\r\n"
    }

    private func makeTLSContext() throws -> NIOSSLContext? {
        guard configuration.security != .none else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let caFile = configuration.caFile {
            tls.trustRoots = .file(caFile)
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw SMTPError.tls("the TLS settings cannot be used: \(Self.describe(error))")
        }
    }

    /// The name for SNI and certificate checks; nil for an IP address (SNI takes no addresses).
    private static func serverName(for host: String) -> String? {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let isAddress = (try? SocketAddress(ipAddress: bare, port: 0)) != nil
        return isAddress ? nil : host
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? SMTPError { return error.description }
        return String(describing: error)
    }
}

/// What went wrong while sending, with what the server said.
enum SMTPError: Error, CustomStringConvertible, Equatable {
    /// No connection (refused, unreachable, name not found, connect timeout).
    case connectionFailed(String, reason: String)
    /// The server did not answer within the timeout.
    case timedOut
    /// The connection ended during a step.
    case connectionLost(String)
    /// The server answered a step with an unexpected code.
    case rejected(step: String, code: Int, text: String)
    /// The server sent something that is no SMTP reply.
    case invalidReply(String)
    /// `FLASHCARDS_SMTP_TLS=starttls`, but the server does not offer STARTTLS.
    case startTLSUnavailable
    /// A login is configured, but the server offers neither AUTH PLAIN nor AUTH LOGIN.
    case authenticationUnavailable
    /// A non-ASCII address, but the server does not offer SMTPUTF8.
    case internationalAddress
    /// The TLS handshake or certificate check failed.
    case tls(String)

    /// Whether sending again cannot help (the server refused for good, or cannot do what we need).
    var isPermanent: Bool {
        switch self {
        case .rejected(_, let code, _): code >= 500
        case .startTLSUnavailable, .authenticationUnavailable, .internationalAddress: true
        case .connectionFailed, .timedOut, .connectionLost, .invalidReply, .tls: false
        }
    }

    var description: String {
        switch self {
        case .connectionFailed(let address, let reason): "cannot connect to the SMTP server \(address): \(reason)"
        case .timedOut: "the SMTP server did not answer in time"
        case .connectionLost(let reason): "the SMTP connection was lost: \(reason)"
        case .rejected(let step, let code, let text): "the SMTP server answered \(step) with \(code) \(text)"
        case .invalidReply(let line): "the SMTP server sent no valid reply: \(line)"
        case .startTLSUnavailable: "the SMTP server does not offer STARTTLS (FLASHCARDS_SMTP_TLS=starttls)"
        case .authenticationUnavailable: "the SMTP server offers neither AUTH PLAIN nor AUTH LOGIN"
        case .internationalAddress: "the address is not ASCII and the SMTP server does not offer SMTPUTF8"
        case .tls(let reason): "TLS with the SMTP server failed: \(reason)"
        }
    }
}

/// One reply: its code and text lines (a multi-line reply's lines in order).
struct SMTPReply: Sendable, Equatable {
    let code: Int
    let lines: [String]

    var text: String { lines.joined(separator: " / ") }
}

/// The client's side of one SMTP session: a command, then its reply.
private struct SMTPConversation {
    var replies: NIOAsyncChannelInboundStream<SMTPReply>.AsyncIterator
    let writer: NIOAsyncChannelOutboundWriter<ByteBuffer>

    /// Reads the next reply; it must have one of the `codes`.
    @discardableResult
    mutating func expect(_ codes: Set<Int>, after step: String) async throws -> SMTPReply {
        let reply: SMTPReply?
        do {
            reply = try await replies.next()
        } catch let error as SMTPError {
            throw error
        } catch let error as NIOSSLError {
            throw SMTPError.tls("during \(step): \(error)")
        } catch {
            throw SMTPError.connectionLost("during \(step): \(error)")
        }
        guard let reply else { throw SMTPError.connectionLost("the server closed the connection during \(step)") }
        guard codes.contains(reply.code) else {
            throw SMTPError.rejected(step: step, code: reply.code, text: String(reply.text.prefix(500)))
        }
        return reply
    }

    /// Sends a command line and reads its reply. `name` is what errors call the step (so that
    /// an AUTH line's credentials never appear in a message).
    @discardableResult
    mutating func command(_ line: String, name: String? = nil, expect codes: Set<Int>) async throws -> SMTPReply {
        // An address or name with a line break would smuggle in a command of its own.
        guard !line.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
            throw SMTPError.invalidReply("refusing to send a command with a line break in it (\(name ?? "?"))")
        }
        return try await send(line + "\r\n", name: name ?? line, expect: codes)
    }

    /// Sends raw text and reads the reply.
    @discardableResult
    mutating func send(_ text: String, name: String, expect codes: Set<Int>) async throws -> SMTPReply {
        do {
            try await writer.write(ByteBuffer(string: text))
        } catch {
            // The connection's own error (a timeout, a TLS failure) says more than the failed write.
            _ = try await expect(codes, after: name)
            throw SMTPError.connectionLost("during \(name): \(error)")
        }
        return try await expect(codes, after: name)
    }

    /// `EHLO`, or `HELO` for a server that knows no extensions. Returns the offered extensions'
    /// keywords, and `AUTH=<mechanism>` for each login mechanism.
    mutating func hello(_ name: String) async throws -> Set<String> {
        let reply: SMTPReply
        do {
            reply = try await command("EHLO \(name)", name: "EHLO", expect: [250])
        } catch SMTPError.rejected(_, let code, _) where code >= 500 {
            try await command("HELO \(name)", name: "HELO", expect: [250])
            return []
        }
        var offered: Set<String> = []
        for line in reply.lines.dropFirst() {
            let words = line.uppercased().split(separator: " ").map(String.init)
            guard let keyword = words.first else { continue }
            offered.insert(keyword)
            if keyword == "AUTH" { offered.formUnion(words.dropFirst().map { "AUTH=" + $0 }) }
        }
        return offered
    }

    /// Logs in with PLAIN (preferred) or LOGIN.
    mutating func authenticate(username: String, password: String, extensions: Set<String>) async throws {
        let mechanisms = Set(extensions.filter { $0.hasPrefix("AUTH=") }.map { String($0.dropFirst(5)) })
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        if mechanisms.contains("PLAIN") {
            try await command("AUTH PLAIN " + base64("\0\(username)\0\(password)"), name: "AUTH PLAIN", expect: [235])
        } else if mechanisms.contains("LOGIN") {
            try await command("AUTH LOGIN", expect: [334])
            try await command(base64(username), name: "AUTH LOGIN (user name)", expect: [334])
            try await command(base64(password), name: "AUTH LOGIN (password)", expect: [235])
        } else {
            throw SMTPError.authenticationUnavailable
        }
    }
}

/// Splits the server's bytes into replies: lines `NNN-text` continue a reply, `NNN text` (or
/// `NNN` alone) ends it.
struct SMTPReplyDecoder: ByteToMessageDecoder {
    typealias InboundOut = SMTPReply

    private var lines: [String] = []

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > 4_096 { throw SMTPError.invalidReply("a line of more than 4096 bytes") }
            return .needMoreData
        }
        var line = buffer.readString(length: newline - view.startIndex + 1) ?? ""
        // By scalars: "\r\n" is a single Character, which neither "\r" nor "\n" matches.
        while let last = line.unicodeScalars.last, last == "\n" || last == "\r" { line.unicodeScalars.removeLast() }
        let digits = line.prefix(3)
        guard digits.count == 3, digits.allSatisfy(\.isASCII), let code = Int(digits), (200...599).contains(code) else {
            throw SMTPError.invalidReply(String(line.prefix(200)))
        }
        let rest = line.dropFirst(3)
        lines.append(String(rest.dropFirst()))
        if rest.first == "-" { return .continue }
        guard rest.isEmpty || rest.first == " " else { throw SMTPError.invalidReply(String(line.prefix(200))) }
        let reply = SMTPReply(code: code, lines: lines)
        lines = []
        context.fireChannelRead(wrapInboundOut(reply))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue, buffer.readableBytes > 0 {}
        return .needMoreData
    }
}

/// Turns the idle handler's read timeout into an ``SMTPError/timedOut`` and closes the connection.
private final class SMTPTimeoutHandler: ChannelInboundHandler {
    typealias InboundIn = SMTPReply
    typealias InboundOut = SMTPReply

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.fireErrorCaught(SMTPError.timedOut)
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}

import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A tiny OpenAI-compatible chat-completions server for tests (generation, the study partner, the app
/// core against a started server). It plays a script of replies, one per
/// request, and records what it received. After the script, it repeats the last reply.
public final class MockLLMServer: @unchecked Sendable {
    /// What to answer to one request.
    public indirect enum Reply: Sendable {
        /// A completion whose assistant message is `content`.
        case content(String, finishReason: String = "stop")
        /// A raw HTTP response.
        case raw(status: Int, body: String, headers: [String: String] = [:])
        /// Wait, then answer.
        case delay(seconds: Double, then: Reply)
    }

    /// A request as received.
    public struct Recorded: Sendable {
        public var path: String
        public var headers: [String: String]
        public var body: String

        /// The `messages` of the JSON body, joined, for assertions about prompts.
        public var messagesText: String {
            guard let data = body.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let messages = object["messages"] as? [[String: Any]]
            else { return "" }
            return messages.compactMap { $0["content"] as? String }.joined(separator: "\n")
        }

        public var json: [String: Any] {
            guard let data = body.data(using: .utf8) else { return [:] }
            return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        }
    }

    private let lock = NSLock()
    private var script: [Reply]
    private var recorded: [Recorded] = []
    private let group: MultiThreadedEventLoopGroup
    private var channel: Channel?

    /// The port on 127.0.0.1.
    public private(set) var port: Int = 0
    /// The base URL to configure clients with.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(script: [Reply]) {
        self.script = script
        self.group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    /// Starts a server on a free port.
    public static func start(_ script: [Reply]) async throws -> MockLLMServer {
        let server = MockLLMServer(script: script)
        let bootstrap = ServerBootstrap(group: server.group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(server: server))
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        server.channel = channel
        server.port = channel.localAddress?.port ?? 0
        return server
    }

    /// Stops the server.
    public func shutdown() async {
        try? await channel?.close().get()
        try? await group.shutdownGracefully()
    }

    /// Requests received so far.
    public var requests: [Recorded] { lock.withLock { recorded } }

    fileprivate func next(for request: Recorded) -> Reply {
        lock.withLock {
            recorded.append(request)
            if script.count > 1 { return script.removeFirst() }
            return script.first ?? .raw(status: 500, body: "no script")
        }
    }

    /// The JSON body of a completion with `content` as the assistant's message.
    public static func completionBody(_ content: String, finishReason: String) -> String {
        let object: [String: Any] = [
            "id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": "mock",
            "choices": [
                ["index": 0, "message": ["role": "assistant", "content": content], "finish_reason": finishReason]
            ],
        ]
        let data = try! JSONSerialization.data(withJSONObject: object)
        return String(decoding: data, as: UTF8.self)
    }

    /// Card JSON as a model would write it.
    public static func cardsJSON(_ cards: [(String, String)], page: Int? = nil) -> String {
        let items: [[String: Any]] = cards.map { card in
            var item: [String: Any] = ["question": card.0, "answer": card.1]
            if let page { item["page"] = page }
            return item
        }
        let data = try! JSONSerialization.data(withJSONObject: ["cards": items])
        return String(decoding: data, as: UTF8.self)
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let server: MockLLMServer
        var head: HTTPRequestHead?
        /// The body's bytes: decoded only at the end, as a multi-byte character may span two buffers.
        var body: [UInt8] = []

        init(server: MockLLMServer) { self.server = server }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = []
            case .body(var buffer):
                body += buffer.readBytes(length: buffer.readableBytes) ?? []
            case .end:
                guard let head else { return }
                var headers: [String: String] = [:]
                for (name, value) in head.headers { headers[name.lowercased()] = value }
                let reply = server.next(
                    for: Recorded(path: head.uri, headers: headers, body: String(decoding: body, as: UTF8.self)))
                respond(reply, context: context)
            }
        }

        func respond(_ reply: Reply, context: ChannelHandlerContext) {
            switch reply {
            case .delay(let seconds, let then):
                let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
                    let context = loopBoundContext.value
                    guard context.channel.isActive else { return }
                    self.respond(then, context: context)
                }
            case .content(let content, let finishReason):
                write(
                    status: 200, body: MockLLMServer.completionBody(content, finishReason: finishReason), headers: [:],
                    context: context)
            case .raw(let status, let body, let headers):
                write(status: status, body: body, headers: headers, context: context)
            }
        }

        func write(status: Int, body: String, headers extra: [String: String], context: ChannelHandlerContext) {
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Content-Length", value: String(body.utf8.count))
            headers.add(name: "Connection", value: "close")
            for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
            let head = HTTPResponseHead(
                version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
            buffer.writeString(body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
    }
}

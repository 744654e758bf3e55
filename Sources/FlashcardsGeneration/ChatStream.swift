import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Streams a chat completion as the model writes it (`"stream": true`, Server-Sent Events as the
/// OpenAI API sends them: `data: {"choices":[{"delta":{"content":"…"}}]}` chunks, then
/// `data: [DONE]`). A server that ignores `stream` and answers with one JSON completion is read as
/// one piece. No retries: a stream that breaks off is reported to the reader, with what came so far
/// already handed on.
extension ChatCompletionClient {
    /// The pieces of the first choice's content, in order.
    public func stream(messages: [ChatMessage]) -> AsyncThrowingStream<String, any Error> {
        let payload: JSONValue = .object([
            .init("model", .string(configuration.model)),
            .init(
                "messages",
                .array(
                    Self.placed(messages, configuration.systemPrompt).map {
                        ["role": .string($0.role), "content": .string($0.content)]
                    })),
            .init("temperature", .number(configuration.temperature)),
            .init("max_tokens", .integer(configuration.maximumTokens)),
            .init("stream", true),
        ])
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let task = Task {
            do {
                try await send(streaming: Data(payload.text.utf8)) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func send(streaming body: Data, yield: (String) -> Void) async throws {
        var request = HTTPClientRequest(url: configuration.completionsURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "text/event-stream, application/json")
        if let key = configuration.apiKey { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        request.body = .bytes(ByteBuffer(bytes: body))
        let timeout = TimeAmount.milliseconds(Int64(configuration.requestTimeoutSeconds * 1000))
        let response = try await httpClient.execute(request, timeout: timeout)
        guard (200...299).contains(response.status.code) else {
            let text = String(buffer: try await response.body.collect(upTo: 64 * 1024)).prefix(300)
            throw GenerationError.modelUnavailable(detail: "HTTP \(response.status.code): \(text)")
        }
        let contentType = response.headers.first(name: "Content-Type") ?? ""
        guard contentType.contains("text/event-stream") else {
            // One completion for the whole answer.
            let bytes = try await response.body.collect(upTo: 8 * 1024 * 1024)
            yield(try ChatStreamParser.completionContent(Data(bytes.readableBytesView)))
            return
        }
        var parser = ChatStreamParser()
        for try await buffer in response.body {
            for piece in try parser.feed(String(buffer: buffer)) { yield(piece) }
            if parser.isDone { return }
        }
        for piece in try parser.feed("\n\n") { yield(piece) }
    }
}

/// Reads the events of a streamed completion: lines are buffered until complete, `data:` lines
/// decoded, comments and other fields ignored.
public struct ChatStreamParser: Sendable {
    private var pending = ""
    /// Whether `data: [DONE]` came.
    public private(set) var isDone = false

    public init() {}

    private struct Chunk: Decodable {
        struct Choice: Decodable {
            struct Delta: Decodable { var content: String? }
            var delta: Delta?
        }
        var choices: [Choice]?
        struct Failure: Decodable { var message: String? }
        var error: Failure?
    }

    /// The content pieces in `text` (which may end mid-line; the rest waits for the next call).
    public mutating func feed(_ text: String) throws -> [String] {
        pending += text
        var pieces: [String] = []
        while let newline = pending.firstIndex(where: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = String(pending[..<newline])
            pending = String(pending[pending.index(after: newline)...])
            guard line.hasPrefix("data:") else { continue }
            let data = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
            if data == "[DONE]" {
                isDone = true
                return pieces
            }
            guard let chunk = try? JSONDecoder().decode(Chunk.self, from: Data(data.utf8)) else {
                throw GenerationError.modelUnavailable(detail: "malformed stream chunk")
            }
            if let failure = chunk.error {
                throw GenerationError.modelUnavailable(detail: failure.message ?? "error in stream")
            }
            if let content = chunk.choices?.first?.delta?.content, !content.isEmpty { pieces.append(content) }
        }
        return pieces
    }

    /// The first choice's message of a whole (not streamed) completion.
    static func completionContent(_ data: Data) throws -> String {
        struct Body: Decodable {
            struct Choice: Decodable {
                struct Message: Decodable { var content: String? }
                var message: Message?
            }
            var choices: [Choice]
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: data), let choice = body.choices.first else {
            throw GenerationError.modelUnavailable(detail: "malformed completion envelope")
        }
        return choice.message?.content ?? ""
    }
}

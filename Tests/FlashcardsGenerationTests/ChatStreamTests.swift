import FlashcardsTestServer
import Foundation
import Testing

@testable import FlashcardsGeneration

/// Streamed chat completions (the study partner): OpenAI's Server-Sent Events read piece by piece,
/// a server that answers with one JSON completion instead, and refusals.
@Suite("Streamed chat completions")
struct ChatStreamTests {
    private static func chunk(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: ["choices": [["index": 0, "delta": ["content": text]]]])
        return "data: " + String(decoding: data, as: UTF8.self) + "\n\n"
    }

    private static func collect(_ server: MockLLMServer) async throws -> [String] {
        let client = ChatCompletionClient(
            configuration: LLMConfiguration(baseURL: server.baseURL + "/v1", model: "mock"))
        var pieces: [String] = []
        for try await piece in client.stream(messages: [ChatMessage(role: "user", content: "Hallo")]) {
            pieces.append(piece)
        }
        return pieces
    }

    @Test("events arrive as pieces; comments, role-only and empty deltas are skipped; [DONE] ends it")
    func events() async throws {
        let body =
            ": keep-alive\n\n"
            + #"data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}"# + "\n\n"
            + Self.chunk("Die **Zelle**") + Self.chunk(" ist ") + Self.chunk("") + Self.chunk("die Einheit.")
            + #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\n"
            + "data: [DONE]\n\n" + Self.chunk("nach dem Ende")
        let server = try await MockLLMServer.start([
            .raw(status: 200, body: body, headers: ["Content-Type": "text/event-stream"])
        ])
        defer { Task { await server.shutdown() } }
        #expect(try await Self.collect(server) == ["Die **Zelle**", " ist ", "die Einheit."])
        let sent = server.requests.first?.json
        #expect(sent?["stream"] as? Bool == true && sent?["model"] as? String == "mock")
    }

    @Test("a line split across reads is put together; CRLF lines too")
    func parser() throws {
        var parser = ChatStreamParser()
        let line = Self.chunk("Mitochondrien")
        let cut = line.index(line.startIndex, offsetBy: 20)
        #expect(try parser.feed(String(line[..<cut])) == [])
        #expect(try parser.feed(String(line[cut...])) == ["Mitochondrien"])
        #expect(try parser.feed(Self.chunk("a").replacingOccurrences(of: "\n", with: "\r\n")) == ["a"])
        #expect(throws: GenerationError.self) { _ = try parser.feed("data: {kein json\n\n") }
        var failing = ChatStreamParser()
        #expect(throws: GenerationError.self) {
            _ = try failing.feed(#"data: {"error":{"message":"overloaded"}}"# + "\n\n")
        }
    }

    @Test("a server that ignores stream answers in one piece; an error status is the model being unavailable")
    func fallbacks() async throws {
        let whole = try await MockLLMServer.start([.content("Ganz auf einmal.")])
        defer { Task { await whole.shutdown() } }
        #expect(try await Self.collect(whole) == ["Ganz auf einmal."])
        let broken = try await MockLLMServer.start([.raw(status: 503, body: "busy")])
        defer { Task { await broken.shutdown() } }
        await #expect(throws: GenerationError.self) { _ = try await Self.collect(broken) }
    }
}

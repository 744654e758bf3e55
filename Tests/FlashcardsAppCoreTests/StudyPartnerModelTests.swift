import FlashcardsAPI
import FlashcardsAppCore
import FlashcardsClient
import FlashcardsTestServer
import Foundation
import Testing

/// `StudyPartnerModel` against the real server (its own process) with a fake OpenAI-compatible
/// model, and against one without a model.
@Suite("FlashcardsAppCore: the study partner")
struct StudyPartnerModelTests {
    private static func stream(_ pieces: [String]) -> MockLLMServer.Reply {
        var body = ""
        for piece in pieces {
            let data = try! JSONSerialization.data(withJSONObject: [
                "choices": [["index": 0, "delta": ["content": piece]]]
            ])
            body += "data: " + String(decoding: data, as: UTF8.self) + "\n\n"
        }
        return .raw(status: 200, body: body + "data: [DONE]\n\n", headers: ["Content-Type": "text/event-stream"])
    }

    @Test("a conversation: answers with their sources, the history sent along, a quick action")
    func conversation() async throws {
        let model = try await MockLLMServer.start([
            Self.stream(["Mitochondrien ", "liefern **Energie**."]), Self.stream(["Was ", "ist ATP?"]),
        ])
        defer { Task { await model.shutdown() } }
        try await TestServer.with(environment: ["FLASHCARDS_LLM_BASE_URL": model.baseURL, "FLASHCARDS_LLM_MODEL": "m"])
        {
            server in
            let client = server.client()
            try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
            let stack = try await client.createStack(name: "Zelle", color: "#059669")
            let card = try await client.createCard(
                in: stack.id, question: "Was machen Mitochondrien?", answer: "Sie liefern Energie.")
            try await Self.talk(client: client, stack: stack.id, card: card.id, model: model)
        }
    }

    @MainActor
    private static func talk(client: FlashcardsClient, stack: UUID, card: UUID, model: MockLLMServer) async throws {
        let partner = StudyPartnerModel(client: client, stack: stack, card: card)
        await partner.ask("Erklär mir das", action: .explain)
        #expect(partner.status == .ready)
        #expect(partner.turns.map(\.fromLearner) == [true, false])
        #expect(partner.turns[1].text == "Mitochondrien liefern **Energie**.")
        #expect(partner.turns[1].html == "<p>Mitochondrien liefern <strong>Energie</strong>.</p>")
        #expect(partner.turns[1].sources.map(\.cardId) == [card])
        await partner.ask("Frag mich ab", action: .quiz)
        #expect(partner.turns.count == 4 && partner.turns[3].text == "Was ist ATP?")
        // The second request carries the first turn.
        #expect(model.requests.last?.messagesText.contains("Mitochondrien liefern **Energie**.") == true)
        await partner.ask("   ")
        #expect(partner.turns.count == 4, "an empty question is not sent")
    }

    @Test("without a model: the sentence about MCP, nothing asked")
    func needsModel() async throws {
        try await TestServer.with { server in
            let client = server.client()
            try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
            let stack = try await client.createStack(name: "Zelle", color: "#059669")
            try await Self.refused(client: client, stack: stack.id)
        }
    }

    @MainActor
    private static func refused(client: FlashcardsClient, stack: UUID) async throws {
        let partner = StudyPartnerModel(client: client, stack: stack)
        await partner.ask(StudyPartnerModel.quickActions[0].label, action: StudyPartnerModel.quickActions[0].action)
        #expect(partner.status == .needsModel && partner.turns.isEmpty)
        #expect(StudyPartnerModel.needsModelSentence.contains("MCP"))
    }
}

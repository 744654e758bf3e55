import FlashcardsCore
import FlashcardsTestServer
import Foundation
import Testing

@testable import FlashcardsGeneration

/// Records backoff delays instead of sleeping, so retry tests are fast and can check `Retry-After`.
final class DelayRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Double] = []
    var delays: [Double] { lock.withLock { storage } }
    func record(_ seconds: Double) { lock.withLock { storage.append(seconds) } }
}

final class ProgressRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [GenerationProgress] = []
    var events: [GenerationProgress] { lock.withLock { storage } }
    func record(_ event: GenerationProgress) { lock.withLock { storage.append(event) } }
    /// The drafts reported as final while the generator worked, in order.
    var drafts: [DraftCard] {
        events.flatMap { event -> [DraftCard] in
            if case .draftsMade(let drafts) = event { return drafts }
            return []
        }
    }
}

@Suite("Language-model generator against a mock OpenAI-compatible server")
struct OpenAICompatibleGeneratorTests {
    static let lecture = ExtractedDocument(
        contentType: .text,
        pages: [
            SourcePage(
                number: 1, text: "Ein Prozess ist ein Programm in Ausführung. Ein Thread ist ein Ausführungsstrang."),
            SourcePage(number: 2, text: "Eine Semaphore ist eine Zählvariable mit atomaren Operationen."),
        ], usedOCR: false)

    static let goodCards = MockLLMServer.cardsJSON(
        [
            ("Was ist ein Prozess?", "Ein Programm in Ausführung"),
            ("Was ist eine Semaphore?", "Eine Zählvariable mit atomaren Operationen"),
        ], page: 2)

    func generator(
        _ server: MockLLMServer, delays: DelayRecorder = DelayRecorder(), timeout: Double = 5,
        memory: ResponseFormatMemory = ResponseFormatMemory(), configure: (inout LLMConfiguration) -> Void = { _ in }
    ) -> OpenAICompatibleGenerator {
        var configuration = LLMConfiguration(
            baseURL: server.baseURL, model: "mock-model", apiKey: "sk-test", requestTimeoutSeconds: timeout,
            maximumRetries: 3, initialBackoffSeconds: 0.01)
        configure(&configuration)
        return OpenAICompatibleGenerator(
            client: ChatCompletionClient(configuration: configuration, memory: memory, sleep: { delays.record($0) }))
    }

    func run(_ generator: OpenAICompatibleGenerator, instructions: String = "") async throws -> GenerationResult {
        try await generator.generate(
            GenerationRequest(source: .document(Self.lecture), customInstructions: instructions)
        ) { _ in }
    }

    @Test("valid output becomes drafts; model, auth, the JSON schema as structured output and instructions are sent")
    func validOutput() async throws {
        let server = try await MockLLMServer.start([.content(Self.goodCards)])
        defer { Task { await server.shutdown() } }
        let result = try await run(generator(server), instructions: "Formuliere alle Karteikarten in Stichpunkten.")
        #expect(result.cards.map(\.question) == ["Was ist ein Prozess?", "Was ist eine Semaphore?"])
        #expect(result.cards.allSatisfy { $0.kind == .model && $0.sourcePage == 2 })
        let request = try #require(server.requests.first)
        #expect(request.path == "/v1/chat/completions")
        #expect(request.headers["authorization"] == "Bearer sk-test")
        #expect(request.json["model"] as? String == "mock-model")
        #expect(
            canonical(request.json["response_format"])
                == canonical([
                    "type": "json_schema",
                    "json_schema": [
                        "name": "flashcards", "strict": true,
                        "schema": ModelCardSchema.schema(
                            maximumCards: 15, kinds: ModelCardKind.allCases, quotes: true
                        ).foundationObject,
                    ] as [String: Any],
                ]))
        #expect(request.messagesText.contains("Formuliere alle Karteikarten in Stichpunkten."))
        #expect(request.messagesText.contains("[Seite 2]"))
        #expect(request.json["temperature"] as? Double == 0.2)
        #expect(request.json["max_tokens"] as? Int == 2_048)
    }

    @Test("429 with Retry-After is retried after the announced delay")
    func rateLimited() async throws {
        let server = try await MockLLMServer.start([
            .raw(status: 429, body: "{\"error\":\"slow down\"}", headers: ["Retry-After": "7"]),
            .content(Self.goodCards),
        ])
        defer { Task { await server.shutdown() } }
        let delays = DelayRecorder()
        let result = try await run(generator(server, delays: delays))
        #expect(result.cards.count == 2)
        #expect(delays.delays == [7])
        #expect(server.requests.count == 2)
    }

    @Test("500s back off exponentially, then succeed")
    func serverErrors() async throws {
        let server = try await MockLLMServer.start([
            .raw(status: 500, body: "oops"), .raw(status: 503, body: "busy"), .content(Self.goodCards),
        ])
        defer { Task { await server.shutdown() } }
        let delays = DelayRecorder()
        let result = try await run(generator(server, delays: delays))
        #expect(result.cards.count == 2)
        #expect(delays.delays == [0.01, 0.02])
    }

    @Test("persistent 5xx ends in modelUnavailable after the retries")
    func retriesExhausted() async throws {
        let server = try await MockLLMServer.start([.raw(status: 502, body: "bad gateway")])
        defer { Task { await server.shutdown() } }
        await #expect(throws: GenerationError.self) { try await run(generator(server)) }
        #expect(server.requests.count == 4)
    }

    @Test("401 is not retried")
    func unauthorized() async throws {
        let server = try await MockLLMServer.start([.raw(status: 401, body: "{\"error\":\"bad key\"}")])
        defer { Task { await server.shutdown() } }
        do {
            _ = try await run(generator(server))
            Issue.record("expected an error")
        } catch let error as GenerationError {
            guard case .modelUnavailable(let detail) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(detail.contains("401"))
        }
        #expect(server.requests.count == 1)
    }

    @Test("a request that times out is retried")
    func timeout() async throws {
        let server = try await MockLLMServer.start([
            .delay(seconds: 30, then: .content(Self.goodCards)), .content(Self.goodCards),
        ])
        defer { Task { await server.shutdown() } }
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await run(generator(server, timeout: 0.5))
        #expect(result.cards.count == 2)
        // Well before the delayed answer: the 0.5 s timeout fired, not the server.
        #expect(clock.now - start < .seconds(20))
        #expect(server.requests.count == 2)
    }

    @Test("malformed JSON gets one repair attempt that is used")
    func repairMalformed() async throws {
        let server = try await MockLLMServer.start([
            .content("Hier sind deine Karten: {cards: [question: Prozess"), .content("```json\n\(Self.goodCards)\n```"),
        ])
        defer { Task { await server.shutdown() } }
        let result = try await run(generator(server))
        #expect(result.cards.count == 2)
        #expect(server.requests.count == 2)
        #expect(server.requests[1].messagesText.contains("kein gültiges JSON"))
    }

    @Test("truncated JSON twice: the chunk is skipped and, with nothing else, the job fails clearly")
    func truncatedTwice() async throws {
        let truncated = String(Self.goodCards.prefix(40))
        let server = try await MockLLMServer.start([.content(truncated, finishReason: "length")])
        defer { Task { await server.shutdown() } }
        await #expect(throws: GenerationError.modelOutputInvalid) { try await run(generator(server)) }
        #expect(server.requests.count == 2)
        #expect(server.requests[1].messagesText.contains("abgeschnitten"))
    }

    @Test("wrong JSON shape is repaired too")
    func wrongShape() async throws {
        let server = try await MockLLMServer.start([
            .content("{\"karten\": 3}"), .content(Self.goodCards),
        ])
        defer { Task { await server.shutdown() } }
        let result = try await run(generator(server))
        #expect(result.cards.count == 2)
        #expect(server.requests[1].messagesText.contains("nicht die verlangte Form"))
    }

    @Test("bad cards from the model never become drafts")
    func untrustedCards() async throws {
        let long = String(repeating: "sehr lang ", count: 80)
        let content =
            MockLLMServer.cardsJSON([
                ("Was ist ein Prozess?", "Ein Programm in Ausführung"),
                ("", "leer"),
                ("Was ist leer?", "   "),
                ("Was ist lang?", long),
                ("Was ist kaputt?", "Ein Spei- cher mit Trennfehler"),
                ("Was ist abgeschnitten?", "Eine Zählvariable mit den"),
                ("Steuerzeichen?", "Text\u{0007} mit Glocke und \u{FFFD}"),
                ("Was ist eine Seite?", "Seite 3 von 9"),
                ("  Was   ist\n ein Thread?  ", "  Ein Ausführungsstrang.  "),
                ("Was ist ein Prozess?", "Ein Programm in Ausführung"),
            ]) + ""
        let raw = content.replacingOccurrences(of: "]}", with: ",{\"question\": 5},\"kein Objekt\"]}")
        let server = try await MockLLMServer.start([.content(raw)])
        defer { Task { await server.shutdown() } }
        let result = try await run(generator(server))
        #expect(result.cards.map(\.question) == ["Was ist ein Prozess?", "Was ist ein Thread?"])
        #expect(result.cards.map(\.answer) == ["Ein Programm in Ausführung", "Ein Ausführungsstrang"])
        for card in result.cards {
            #expect(
                CardQuality.problems(question: card.question, answer: card.answer, requireQuestionMark: false).isEmpty)
        }
        #expect(result.warnings.contains(.cardsDropped(count: 9)))
    }

    @Test("long documents are chunked by pages, capped, and progress is reported")
    func chunkingAndCap() async throws {
        let pages = (1...30).map { number in
            SourcePage(number: number, text: String(repeating: "Ein Satz über das Thema Nummer \(number). ", count: 40))
        }
        let document = ExtractedDocument(contentType: .pdf, pages: pages, usedOCR: false)
        let server = try await MockLLMServer.start([.content(Self.goodCards)])
        defer { Task { await server.shutdown() } }
        let generator = generator(server) {
            $0.maximumChunks = 3
            $0.chunkCharacters = 4_000
        }
        let progress = ProgressRecorder()
        let result = try await generator.generate(GenerationRequest(source: .document(document))) {
            progress.record($0)
        }
        #expect(server.requests.count == 3)
        let chunks = TextChunker.chunks(of: TextCleaner.clean(pages: pages), maximumCharacters: 4_000)
        #expect(chunks.count > 3)
        #expect(chunks.allSatisfy { $0.text.count <= 4_000 })
        #expect(result.warnings.contains(.chunksCapped(used: 3, total: chunks.count)))
        #expect(progress.events.contains(.chunkStarted(index: 3, total: 3)))
        #expect(progress.events.contains(.cardsMade(count: 2)))
        // Identical cards from every chunk are merged.
        #expect(result.cards.count == 2)
        // Pages outside the chunk fall back to the chunk's first page.
        #expect(result.cards.allSatisfy { ($0.sourcePage ?? 0) >= 1 })
        #expect(progress.events.first?.germanText == "Abschnitt 1 von 3")
    }

    @Test("topic-only generation asks the model about the topic")
    func topic() async throws {
        let server = try await MockLLMServer.start([.content(Self.goodCards)])
        defer { Task { await server.shutdown() } }
        let result = try await generator(server).generate(
            GenerationRequest(source: .topic("Betriebssysteme"), customInstructions: "Nur Grundlagen")
        ) { _ in }
        #expect(result.cards.count == 2)
        #expect(server.requests[0].messagesText.contains("<<<Betriebssysteme>>>"))
        #expect(server.requests[0].messagesText.contains("Nur Grundlagen"))
        await #expect(throws: GenerationError.invalidTopic) {
            try await generator(server).generate(GenerationRequest(source: .topic("  \n "))) { _ in }
        }
        #expect(server.requests.count == 1)
    }

    @Test("a deeper topic batch lists the questions made before and never repeats one")
    func topicDepth() async throws {
        let server = try await MockLLMServer.start([
            .content(
                MockLLMServer.cardsJSON([
                    ("Was ist ein Prozess?", "Ein Programm in Ausführung."),
                    ("Was ist ein Deadlock?", "Eine zyklische Wartesituation."),
                ]))
        ])
        defer { Task { await server.shutdown() } }
        let progress = ProgressRecorder()
        let result = try await generator(server).generate(
            GenerationRequest(
                source: .topic("Betriebssysteme"), existingQuestions: ["Was ist ein Prozess?"], depth: 2),
            progress: progress.record)
        #expect(result.cards.map(\.question) == ["Was ist ein Deadlock?"])
        #expect(progress.drafts == result.cards, "the drafts reported while working are the result")
        let prompt = server.requests[0].messagesText
        #expect(prompt.contains("Stufe 2"))
        #expect(prompt.contains("- Was ist ein Prozess?"))
        // The first batch asks for the basics and lists nothing.
        #expect(!OpenAICompatibleGenerator.topicPrompt("X", count: 15, depth: 1, known: ["Q?"]).contains("Q?"))
    }

    @Test("questions already in the stack are marked, not dropped, when cards come from a document")
    func documentDuplicatesMarked() async throws {
        let server = try await MockLLMServer.start([.content(Self.goodCards)])
        defer { Task { await server.shutdown() } }
        let document = ExtractedDocument(
            contentType: .text, pages: [SourcePage(number: 1, text: "Ein Prozess ist ein Programm in Ausführung.")],
            usedOCR: false)
        let result = try await generator(server).generate(
            GenerationRequest(source: .document(document), existingQuestions: ["Was ist ein Prozess?"])
        ) { _ in }
        #expect(result.cards.count == 2)
        #expect(result.cards.first { $0.question == "Was ist ein Prozess?" }?.duplicateOf == "Was ist ein Prozess?")
        #expect(result.cards.first { $0.question == "Was ist eine Semaphore?" }?.duplicateOf == nil)
    }

    @Test("topic-only generation without a model says so")
    func topicOffline() async throws {
        await #expect(throws: GenerationError.topicNeedsModel) {
            try await OfflineCardGenerator().generate(GenerationRequest(source: .topic("Zellbiologie"))) { _ in }
        }
    }

    @Test("cancellation stops the generation")
    func cancellation() async throws {
        let server = try await MockLLMServer.start([.delay(seconds: 30, then: .content(Self.goodCards))])
        defer { Task { await server.shutdown() } }
        let generator = generator(server, timeout: 60)
        let task = Task { try await run(generator) }
        try await Task.sleep(nanoseconds: 300_000_000)
        task.cancel()
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = await task.result
        // Well before the server's delayed answer.
        #expect(clock.now - start < .seconds(20))
        #expect(throws: (any Error).self) { try outcome.get() }
    }

    @Test("configuration from the environment")
    func environment() {
        #expect(LLMConfiguration(environment: [:]) == nil)
        let configuration = LLMConfiguration(environment: [
            "FLASHCARDS_LLM_BASE_URL": "http://127.0.0.1:11434/", "FLASHCARDS_LLM_MODEL": "gemma3",
            "FLASHCARDS_LLM_MAX_CHUNKS": "4", "FLASHCARDS_LLM_TIMEOUT_SECONDS": "30",
            "FLASHCARDS_LLM_RESPONSE_FORMAT": "none",
        ])
        #expect(configuration?.completionsURL == "http://127.0.0.1:11434/v1/chat/completions")
        #expect(configuration?.maximumChunks == 4)
        #expect(configuration?.requestTimeoutSeconds == 30)
        #expect(configuration?.responseFormat == LLMConfiguration.ResponseFormat.none)
        #expect(configuration?.apiKey == nil)
        #expect(
            LLMConfiguration(baseURL: "https://api.openai.com/v1", model: "m").completionsURL
                == "https://api.openai.com/v1/chat/completions")
    }
}

@Suite("Model hints")
struct ModelHintTests {
    @Test("a good model hint is kept as it is, without a label")
    func goodHint() async throws {
        let server = try await MockLLMServer.start([.content("Denk an ein Programm, das gerade läuft.")])
        defer { Task { await server.shutdown() } }
        let hint = try await server.hintMaker.hint(
            question: "Was ist ein Prozess?", answer: "Ein Programm in Ausführung", language: .de)
        #expect(hint == "Denk an ein Programm, das gerade läuft.")
        #expect(
            server.requests[0].messagesText.contains(
                "Frage: Was ist ein Prozess?\n Antwort: Ein Programm in Ausführung"))
    }

    @Test("a hint that leaks the answer is replaced by the offline hint")
    func leakingHint() async throws {
        let server = try await MockLLMServer.start([.content("Hinweis: Die Antwort ist Mitochondrien.")])
        defer { Task { await server.shutdown() } }
        let hint = try await server.hintMaker.hint(
            question: "Wo wird ATP gebildet?", answer: "Mitochondrien", language: .de)
        #expect(!OfflineHints.leaks(hint: hint, answer: "Mitochondrien"))
        #expect(hint == OfflineHints.hint(answer: "Mitochondrien", language: .de))
    }

    @Test("a failing model falls back to the offline hint")
    func failingModel() async throws {
        let server = try await MockLLMServer.start([.raw(status: 500, body: "down")])
        defer { Task { await server.shutdown() } }
        let hint = try await server.hintMaker.hint(
            question: "What is TCP?", answer: "A reliable transport protocol", language: .en)
        #expect(hint == OfflineHints.hint(answer: "A reliable transport protocol", language: .en))
        #expect(!OfflineHints.leaks(hint: hint, answer: "A reliable transport protocol"))
    }
}

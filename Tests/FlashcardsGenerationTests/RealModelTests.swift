import FlashcardsCore
import Foundation
import Testing

@testable import FlashcardsGeneration

/// What the real model answered, chunk by chunk.
final class CompletionRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var chunk = 0
    private var storage: [(chunk: Int, completion: ChatCompletion)] = []
    var completions: [(chunk: Int, completion: ChatCompletion)] { lock.withLock { storage } }
    func progress(_ event: GenerationProgress) {
        if case .chunkStarted(let index, _) = event { lock.withLock { chunk = index } }
    }
    func record(_ completion: ChatCompletion) { lock.withLock { storage.append((chunk, completion)) } }
}

/// Runs only under `scripts/test-llm`, which starts llama-cpp-python's server with Gemma 3 270M and sets
/// `FLASHCARDS_TEST_LLM_URL`. The small model's cards are modest; what is proven is the real protocol
/// path with structured output: every answer validates against the card schema, every chunk yields
/// drafts, and nothing the model writes becomes a broken card.
@Suite(
    "Real local model (scripts/test-llm)",
    .enabled(if: ProcessInfo.processInfo.environment["FLASHCARDS_TEST_LLM_URL"] != nil),
    .serialized)
struct RealModelTests {
    static let environment = ProcessInfo.processInfo.environment
    /// One memory for the suite: the response_format probe happens once, as in a server process.
    static let memory = ResponseFormatMemory()

    /// Settings for a 270M model with a 4,096-token context: chunks of ~1,000 characters (~350 tokens)
    /// plus the prompt and at most 3 cards (~500 tokens by the schema's bounds) fit with room to spare.
    static var configuration: LLMConfiguration {
        LLMConfiguration(
            baseURL: environment["FLASHCARDS_TEST_LLM_URL"] ?? "http://127.0.0.1:1",
            model: environment["FLASHCARDS_TEST_LLM_MODEL"] ?? "gemma-3-270m", maximumChunks: 8,
            // No retries: llama.cpp keeps generating an abandoned request, so a retry would queue behind it.
            chunkCharacters: 1_000, requestTimeoutSeconds: 600, maximumRetries: 0,
            responseFormat: environment["FLASHCARDS_TEST_LLM_RESPONSE_FORMAT"].flatMap(
                LLMConfiguration.ResponseFormat.init(rawValue:)) ?? .auto,
            cardsPerChunk: 3, maximumTokens: 768, temperature: 0,
            // scripts/test-llm runs the server with `--chat_format gemma`, which drops system messages.
            systemPrompt: environment["FLASHCARDS_TEST_LLM_SYSTEM_PROMPT"].flatMap(
                LLMConfiguration.SystemPrompt.init(rawValue:)) ?? .user)
    }

    /// A handful of the corpus texts (German and English, two of them held out), so that the run stays
    /// within minutes on two cores; `FLASHCARDS_TEST_LLM_CORPUS=a.md,b.md` picks others.
    static var corpusTexts: [String] {
        if let list = environment["FLASHCARDS_TEST_LLM_CORPUS"], !list.isEmpty {
            return list.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        }
        return ["de_zellbiologie.md", "en_networks.md", "de_heldout_recht.md", "en_heldout_astronomy.md"]
    }

    static var corpusDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/corpus")
    }

    @Test("a plain chat completion comes back over the real protocol")
    func plainCompletion() async throws {
        var configuration = Self.configuration
        configuration.maximumTokens = 20
        let client = ChatCompletionClient(configuration: configuration, memory: Self.memory)
        let completion = try await client.complete(messages: [
            ChatMessage(role: "user", content: "Antworte mit einem Wort: Wie heißt die Hauptstadt von Frankreich?")
        ])
        #expect(!completion.content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test("the study partner's stream: the real model's answer comes in pieces (llama.cpp's SSE)")
    func streamedAnswer() async throws {
        var configuration = Self.configuration
        configuration.maximumTokens = 60
        let client = ChatCompletionClient(configuration: configuration, memory: Self.memory)
        var pieces: [String] = []
        for try await piece in client.stream(messages: [
            ChatMessage(role: "system", content: "Du bist der Lernpartner. Antworte kurz auf Deutsch."),
            ChatMessage(
                role: "user",
                content: "<<<KARTEN\nKarte 1\nVorderseite: Was machen Mitochondrien?\nRückseite: Sie liefern Energie.\n"
                    + "KARTEN>>>\nFrage: Erklär mir das."),
        ]) {
            pieces.append(piece)
        }
        #expect(pieces.count >= 2, "a stream, not one piece")
        #expect(!pieces.joined().trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test("the server accepts a schema-enforcing response_format and its output validates")
    func structuredOutputMode() async throws {
        let client = ChatCompletionClient(configuration: Self.configuration, memory: Self.memory)
        let schema = ModelCardSchema.schema(maximumCards: 2)
        let clock = ContinuousClock()
        let start = clock.now
        let completion = try await client.complete(
            messages: [
                ChatMessage(
                    role: "system",
                    content: OpenAICompatibleGenerator.systemPrompt(language: .de, format: .plain(maximumCards: 2))),
                ChatMessage(
                    role: "user",
                    content: "Erstelle höchstens 2 Karteikarten aus diesem Text (Seiten 1 bis 1):\n<<<\n[Seite 1]\n"
                        + "Ein Prozess ist ein Programm in Ausführung.\n>>>"),
            ], jsonSchema: schema)
        print("real model: response_format accepted: \(completion.responseFormat.rawValue) (\(clock.now - start))")
        print("real model: \(completion.content)")
        #expect(completion.responseFormat.enforcesSchema)
        #expect(JSONSchemaValidator.violations(of: completion.content, against: schema).isEmpty)
    }

    @Test("every kind of card alone: the real model's answers validate against its schema and give drafts of it")
    func everyKind() async throws {
        let text = try String(
            contentsOf: Self.corpusDirectory.appendingPathComponent("de_zellbiologie.md"), encoding: .utf8)
        let document = ExtractedDocument(
            contentType: .text, pages: [SourcePage(number: 1, text: String(text.prefix(900)))], usedOCR: false)
        for kind in ModelCardKind.allCases {
            var configuration = Self.configuration
            configuration.cardKinds = [kind]
            let schema = ModelCardSchema.schema(
                maximumCards: configuration.cardsPerChunk, kinds: [kind], quotes: configuration.quotes)
            let recorder = CompletionRecorder()
            let client = ChatCompletionClient(
                configuration: configuration, memory: Self.memory, observer: { recorder.record($0) })
            let result = try? await OpenAICompatibleGenerator(client: client).generate(
                GenerationRequest(source: .document(document), maximumCards: 10)
            ) { recorder.progress($0) }
            for (_, completion) in recorder.completions {
                print("real model, \(kind.rawValue): \(completion.content)")
                let violations = JSONSchemaValidator.violations(of: completion.content, against: schema)
                #expect(violations.isEmpty, "\(kind): \(violations)")
            }
            #expect(!recorder.completions.isEmpty)
            let drafts = result?.cards ?? []
            print("real model, \(kind.rawValue): \(drafts.count) drafts")
            for draft in drafts { print("   \(draft.question) → \(draft.answer) \(draft.choices ?? [])") }
            #expect(drafts.allSatisfy { $0.cardKind == kind.cardKind }, "\(kind)")
        }
    }

    @Test("corpus texts: every answer validates against the schema, every chunk yields drafts")
    func corpus() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        // Basic cards with quotes: the 270M model's yield per chunk is measured on the simplest kind;
        // every kind is checked for schema validity above.
        var configuration = Self.configuration
        configuration.cardKinds = [.basic]
        let schema = ModelCardSchema.schema(
            maximumCards: configuration.cardsPerChunk, kinds: configuration.cardKinds, quotes: configuration.quotes)
        let cardSchema = try #require(schema["properties"]?["cards"]?["items"]?.foundationObject as? [String: Any])
        var chunks = 0
        var answers = 0
        var validAnswers = 0
        var rawCards = 0
        var validCards = 0
        var drafts = 0
        var chunksWithDrafts = 0
        var modes = Set<String>()
        for name in Self.corpusTexts {
            let text = try String(contentsOf: Self.corpusDirectory.appendingPathComponent(name), encoding: .utf8)
            let document = ExtractedDocument(
                contentType: .text, pages: [SourcePage(number: 1, text: text)], usedOCR: false)
            let recorder = CompletionRecorder()
            let client = ChatCompletionClient(
                configuration: configuration, memory: Self.memory, observer: { recorder.record($0) })
            let textStart = clock.now
            let result: GenerationResult
            do {
                result = try await OpenAICompatibleGenerator(client: client).generate(
                    GenerationRequest(source: .document(document), maximumCards: 100)
                ) { recorder.progress($0) }
            } catch {
                Issue.record("\(name): \(error)")
                result = GenerationResult(cards: [], language: .de, warnings: [])
            }
            let chunkCount = TextChunker.chunks(
                of: TextCleaner.clean(pages: document.pages), maximumCharacters: configuration.chunkCharacters
            ).count
            chunks += chunkCount
            print("== \(name): \(chunkCount) chunks, \(result.cards.count) drafts, \(clock.now - textStart)")
            for (chunk, completion) in recorder.completions {
                answers += 1
                modes.insert(completion.responseFormat.rawValue)
                let violations = JSONSchemaValidator.violations(of: completion.content, against: schema)
                #expect(violations.isEmpty, "\(name) chunk \(chunk): \(violations) in \(completion.content)")
                if violations.isEmpty { validAnswers += 1 }
                let items =
                    ((try? JSONSerialization.jsonObject(with: Data(completion.content.utf8))) as? [String: Any])?[
                        "cards"] as? [Any] ?? []
                rawCards += items.count
                validCards +=
                    items.filter { JSONSchemaValidator.violations(of: $0, against: cardSchema, at: "card").isEmpty }
                    .count
                print("   chunk \(chunk) [\(completion.finishReason ?? "-")]: \(completion.content)")
            }
            // No repair was needed: one valid answer per chunk.
            #expect(recorder.completions.count == chunkCount, "\(name): repairs were needed")
            for chunk in 1...chunkCount {
                let screened = recorder.completions.filter { $0.chunk == chunk }.flatMap { entry -> [DraftCard] in
                    guard case .success(let parsed) = ModelCardParser.parse(entry.completion.content) else { return [] }
                    return parsed.cards.compactMap { ModelCardParser.draft($0, sourcePage: 1) }
                }
                #expect(!screened.isEmpty, "\(name): chunk \(chunk) yielded no draft")
                if !screened.isEmpty { chunksWithDrafts += 1 }
            }
            drafts += result.cards.count
            for card in result.cards {
                print("   draft: \(card.question) → \(card.answer)")
                #expect(card.kind == .model && card.sourcePage == 1)
                let kind = card.cardKind ?? .basic
                #expect(kind.problem(question: card.question, answer: card.answer, choices: card.choices) == nil)
                if kind == .basic || kind == .fillBlank {
                    #expect(
                        CardQuality.problems(question: card.question, answer: card.answer, requireQuestionMark: false)
                            .isEmpty)
                }
                #expect(card.question.count <= ModelCardSchema.maximumQuestionLength)
                #expect(card.answer.count <= ModelCardSchema.maximumAnswerLength)
            }
        }
        let seconds = Double((clock.now - start).components.seconds)
        print(
            String(
                format: """
                    real model figures: %d texts, %d chunks, %d answers (%.1f %% schema-valid), %d cards in them \
                    (%.1f %% schema-valid), %d drafts after screening and de-duplication, %d/%d chunks with drafts, \
                    %.0f s, response_format %@
                    """, Self.corpusTexts.count, chunks, answers,
                answers == 0 ? 0 : Double(validAnswers) * 100 / Double(answers), rawCards,
                rawCards == 0 ? 0 : Double(validCards) * 100 / Double(rawCards), drafts, chunksWithDrafts, chunks,
                seconds, modes.sorted().joined(separator: ",")))
        #expect(answers > 0 && validAnswers == answers)
        #expect(chunksWithDrafts == chunks)
    }

    @Test("model hints never leak the answer and carry no Hinweis: label")
    func hint() async throws {
        var configuration = Self.configuration
        configuration.maximumTokens = 60
        let maker = ModelHintMaker(
            client: ChatCompletionClient(configuration: configuration, memory: Self.memory), fallbackOnError: false)
        var fromModel = 0
        let cards = [
            ("Was ist ein Prozess?", "Ein Programm in Ausführung", DocumentLanguage.de),
            ("Wo wird ATP gebildet?", "Mitochondrien", .de),
            ("What does TCP provide?", "Reliable, ordered delivery of a byte stream", .en),
        ]
        for (question, answer, language) in cards {
            let hint = try await maker.hint(question: question, answer: answer, language: language)
            let offline = OfflineHints.hint(answer: answer, language: language)
            if hint != offline { fromModel += 1 }
            print("hint (\(hint == offline ? "offline fallback" : "model")): \(hint)")
            #expect(!hint.lowercased().hasPrefix("hinweis") && !hint.lowercased().hasPrefix("hint"))
            #expect(!OfflineHints.leaks(hint: hint, answer: answer))
            #expect(hint.count <= HintText.maximumModelLength)
        }
        print("real model hints: \(fromModel) of \(cards.count) from the model, the rest offline")
    }
}

import FlashcardsCore
import FlashcardsTestServer
import Foundation
import Testing

@testable import FlashcardsGeneration

/// JSON text with sorted keys, to compare request bodies exactly.
func canonical(_ value: Any?) -> String {
    guard let value, JSONSerialization.isValidJSONObject(value),
        let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
    else { return "<\(String(describing: value))>" }
    return String(decoding: data, as: UTF8.self)
}

@Suite("Structured output: response_format modes and their fallback")
struct StructuredOutputTests {
    static let cards = OpenAICompatibleGeneratorTests.goodCards
    /// Two pages of ~700 characters: two chunks of at most 800 characters.
    static let twoChunks = ExtractedDocument(
        contentType: .text,
        pages: [
            SourcePage(
                number: 1, text: String(repeating: "Ein Prozess ist ein Programm in Ausführung. ", count: 16)),
            SourcePage(
                number: 2, text: String(repeating: "Eine Semaphore ist eine Zählvariable mit Operationen. ", count: 13)),
        ], usedOCR: false)

    static let schemaValue = ModelCardSchema.schema(maximumCards: 4)
    static var schema: [String: Any] { schemaValue.foundationObject as? [String: Any] ?? [:] }

    static func configuration(_ server: MockLLMServer, format: LLMConfiguration.ResponseFormat = .auto)
        -> LLMConfiguration
    {
        LLMConfiguration(
            baseURL: server.baseURL, model: "small-model", chunkCharacters: 800, requestTimeoutSeconds: 5,
            maximumRetries: 2, initialBackoffSeconds: 0.01, responseFormat: format, cardsPerChunk: 4,
            maximumTokens: 700, temperature: 0, cardKinds: [.basic], quotes: false)
    }

    static func run(
        _ server: MockLLMServer, format: LLMConfiguration.ResponseFormat = .auto,
        memory: ResponseFormatMemory = ResponseFormatMemory()
    ) async throws -> GenerationResult {
        let client = ChatCompletionClient(
            configuration: configuration(server, format: format), memory: memory, sleep: { _ in })
        return try await OpenAICompatibleGenerator(client: client).generate(
            GenerationRequest(source: .document(twoChunks))
        ) { _ in }
    }

    /// The exact body the generator sends for `chunk` (1 or 2) with `format` as `response_format`; in
    /// modes without a schema, the system message also carries the schema and the example.
    static func expectedBody(chunk: Int, format: [String: Any]?, extraMessages: [[String: String]] = []) -> String {
        let chunks = TextChunker.chunks(of: TextCleaner.clean(pages: twoChunks.pages), maximumCharacters: 800)
        var system = OpenAICompatibleGenerator.systemPrompt(language: .de, format: .plain(maximumCards: 4))
        if format == nil || (format?["schema"] == nil && format?["json_schema"] == nil) {
            system +=
                "\n" + OpenAICompatibleGenerator.formatInstructions(language: .de, format: .plain(maximumCards: 4))
        }
        var body: [String: Any] = [
            "model": "small-model",
            "messages": [
                ["role": "system", "content": system],
                [
                    "role": "user",
                    "content": OpenAICompatibleGenerator.documentPrompt(chunks[chunk - 1], count: 4, language: .de),
                ],
            ] + extraMessages,
            "temperature": 0,
            "max_tokens": 700,
            "stream": false,
        ]
        if let format { body["response_format"] = format }
        return canonical(body)
    }

    static var jsonSchemaFormat: [String: Any] {
        [
            "type": "json_schema",
            "json_schema": ["name": "flashcards", "strict": true, "schema": schema] as [String: Any],
        ]
    }
    static var jsonObjectSchemaFormat: [String: Any] { ["type": "json_object", "schema": schema] }
    static var jsonObjectFormat: [String: Any] { ["type": "json_object"] }

    /// FastAPI's answer to a `response_format` it does not know (llama-cpp-python's server).
    static let unprocessable = MockLLMServer.Reply.raw(
        status: 422,
        body:
            #"{"detail":[{"type":"literal_error","loc":["body","response_format","type"],"msg":"Input should be 'text' or 'json_object'"}]}"#
    )
    static let badRequest = MockLLMServer.Reply.raw(
        status: 400, body: #"{"error":{"message":"Invalid parameter: 'response_format'","param":"response_format"}}"#)

    @Test("the schema is tight: 1…n cards of non-empty, bounded strings, an optional page, nothing else")
    func schemaShape() throws {
        let text = { (maximum: Int, pattern: String) -> [String: Any] in
            ["type": "string", "minLength": 1, "maxLength": maximum, "pattern": pattern]
        }
        #expect(
            canonical(Self.schema)
                == canonical(
                    [
                        "type": "object",
                        "properties": [
                            "cards": [
                                "type": "array", "minItems": 1, "maxItems": 4,
                                "items": [
                                    "type": "object",
                                    "properties": [
                                        "question": text(200, #"^[^\x00-\x1f"\\{}\[\]?]{2,199}\?$"#),
                                        "answer": text(250, #"^[^\x00-\x1f"\\{}\[\]]{1,250}$"#),
                                        "page": ["type": "integer"],
                                    ],
                                    "required": ["question", "answer"],
                                    "additionalProperties": false,
                                ] as [String: Any],
                            ] as [String: Any]
                        ],
                        "required": ["cards"],
                        "additionalProperties": false,
                    ] as [String: Any]))
        // What the schema allows, the screen accepts.
        #expect(ModelCardSchema.maximumQuestionLength <= CardQuality.maximumQuestionLength)
        #expect(ModelCardSchema.maximumAnswerLength <= CardQuality.maximumAnswerLength)
        // Grammar-based decoders write members in schema order: question before answer before page.
        let schemaText = Self.schemaValue.text
        let question = try #require(schemaText.range(of: "\"question\""))
        let answer = try #require(schemaText.range(of: "\"answer\""))
        let page = try #require(schemaText.range(of: "\"page\""))
        #expect(question.lowerBound < answer.lowerBound && answer.lowerBound < page.lowerBound)

        let valid = Self.schemaValue
        #expect(JSONSchemaValidator.violations(of: Self.cards, against: valid).isEmpty)
        for invalid in [
            #"{"cards":[]}"#, #"{"cards":[{"question":"Q?","answer":""}]}"#,
            #"{"cards":[{"question":"Q?","answer":"A","hint":"x"}]}"#,
            #"{"cards":[{"question":"Q?","answer":"A","page":"3"}]}"#,
            #"{"cards":[{"question":"Q?","answer":"A} ] }"}]}"#,
            #"{"cards":[{"question":"Q?","answer":"A \"quoted\" word"}]}"#,
            "{\"cards\":[{\"question\":\"Q?\",\"answer\":\"raw\nline break\"}]}",
            #"{"cards":[{"question":"Q?","answer":"A"}],"more":1}"#,
            #"{"cards":[{"question":"page","answer":"1"}]}"#,
            #"{"cards":[{"question":"Was? Wer? Wo?","answer":"1"}]}"#,
            #"{"cards":[{"question":"1?","answer":"1"},{"question":"2?","answer":"2"},{"question":"3?","answer":"3"},{"question":"4?","answer":"4"},{"question":"5?","answer":"5"}]}"#,
            "{\"cards\":[{\"question\":\"Q?\",\"answer\":\"" + String(repeating: "a", count: 251) + "\"}]}",
        ] {
            #expect(!JSONSchemaValidator.violations(of: invalid, against: valid).isEmpty, "\(invalid)")
        }
    }

    @Test("auto: json_schema first, exactly as OpenAI defines it; accepted, it is kept for the next chunk")
    func jsonSchemaAccepted() async throws {
        let server = try await MockLLMServer.start([.content(Self.cards)])
        defer { Task { await server.shutdown() } }
        let result = try await Self.run(server)
        #expect(result.cards.count == 2)
        #expect(server.requests.count == 2)
        #expect(canonical(server.requests[0].json) == Self.expectedBody(chunk: 1, format: Self.jsonSchemaFormat))
        #expect(canonical(server.requests[1].json) == Self.expectedBody(chunk: 2, format: Self.jsonSchemaFormat))
    }

    @Test("a server that rejects json_schema (422) gets json_object with the schema, remembered for later chunks")
    func rejectsJSONSchema() async throws {
        let server = try await MockLLMServer.start([Self.unprocessable, .content(Self.cards)])
        defer { Task { await server.shutdown() } }
        let memory = ResponseFormatMemory()
        let result = try await Self.run(server, memory: memory)
        #expect(result.cards.count == 2)
        #expect(
            server.requests.map { canonical($0.json) } == [
                Self.expectedBody(chunk: 1, format: Self.jsonSchemaFormat),
                Self.expectedBody(chunk: 1, format: Self.jsonObjectSchemaFormat),
                // The second chunk does not probe again.
                Self.expectedBody(chunk: 2, format: Self.jsonObjectSchemaFormat),
            ])
        #expect(memory.mode(for: Self.configuration(server)) == .jsonObjectSchema)
        // A later document (a new generator, same server and model) starts with the remembered mode.
        _ = try await Self.run(server, memory: memory)
        #expect(server.requests.count == 5)
        #expect(server.requests[3].json["response_format"].map(canonical) == canonical(Self.jsonObjectSchemaFormat))
    }

    @Test("a server that rejects both schema modes (400) gets plain JSON mode")
    func rejectsSchemas() async throws {
        let server = try await MockLLMServer.start([Self.badRequest, Self.badRequest, .content(Self.cards)])
        defer { Task { await server.shutdown() } }
        let result = try await Self.run(server)
        #expect(result.cards.count == 2)
        #expect(
            server.requests.map { canonical($0.json) } == [
                Self.expectedBody(chunk: 1, format: Self.jsonSchemaFormat),
                Self.expectedBody(chunk: 1, format: Self.jsonObjectSchemaFormat),
                Self.expectedBody(chunk: 1, format: Self.jsonObjectFormat),
                Self.expectedBody(chunk: 2, format: Self.jsonObjectFormat),
            ])
    }

    @Test("a server that rejects every response_format gets none; the schema is then only asked for")
    func rejectsEveryFormat() async throws {
        let server = try await MockLLMServer.start([
            Self.badRequest, Self.unprocessable, Self.badRequest, .content(Self.cards),
        ])
        defer { Task { await server.shutdown() } }
        let result = try await Self.run(server)
        #expect(result.cards.count == 2)
        #expect(
            server.requests.map { canonical($0.json) } == [
                Self.expectedBody(chunk: 1, format: Self.jsonSchemaFormat),
                Self.expectedBody(chunk: 1, format: Self.jsonObjectSchemaFormat),
                Self.expectedBody(chunk: 1, format: Self.jsonObjectFormat),
                Self.expectedBody(chunk: 1, format: nil),
                Self.expectedBody(chunk: 2, format: nil),
            ])
        #expect(server.requests[3].json["response_format"] == nil)
    }

    @Test("a 400 without a response_format is an error, not a fallback")
    func rejectedWithoutFormat() async throws {
        let server = try await MockLLMServer.start([Self.badRequest])
        defer { Task { await server.shutdown() } }
        await #expect(throws: GenerationError.self) { try await Self.run(server) }
        #expect(server.requests.count == 4)
        #expect(server.requests.last?.json["response_format"] == nil)
    }

    @Test("invalid JSON in a schema mode: one repair request in the same mode, with the schema")
    func repairInSchemaMode() async throws {
        let garbage = #"{"cards":[{"question":"Was ist ein Proz"#
        let server = try await MockLLMServer.start([
            Self.unprocessable, .content(garbage, finishReason: "length"), .content(Self.cards),
        ])
        defer { Task { await server.shutdown() } }
        let result = try await Self.run(server)
        #expect(result.cards.count == 2)
        let repair = OpenAICompatibleGenerator.repairPrompt(
            .notJSON, truncated: true, format: .plain(maximumCards: 4), language: .de)
        #expect(repair.contains("abgeschnitten") && repair.contains(ModelCardSchema.text(maximumCards: 4)))
        #expect(
            server.requests.map { canonical($0.json) } == [
                Self.expectedBody(chunk: 1, format: Self.jsonSchemaFormat),
                Self.expectedBody(chunk: 1, format: Self.jsonObjectSchemaFormat),
                Self.expectedBody(
                    chunk: 1, format: Self.jsonObjectSchemaFormat,
                    extraMessages: [["role": "assistant", "content": garbage], ["role": "user", "content": repair]]),
                Self.expectedBody(chunk: 2, format: Self.jsonObjectSchemaFormat),
            ])
    }

    @Test("a forced mode is the only one sent; the server rejecting it is an error")
    func forcedMode() async throws {
        let server = try await MockLLMServer.start([.content(Self.cards)])
        defer { Task { await server.shutdown() } }
        _ = try await Self.run(server, format: .jsonObjectSchema)
        #expect(
            server.requests.map { canonical($0.json) } == [
                Self.expectedBody(chunk: 1, format: Self.jsonObjectSchemaFormat),
                Self.expectedBody(chunk: 2, format: Self.jsonObjectSchemaFormat),
            ])

        let rejecting = try await MockLLMServer.start([Self.unprocessable])
        defer { Task { await rejecting.shutdown() } }
        do {
            _ = try await Self.run(rejecting, format: .jsonSchema)
            Issue.record("expected an error")
        } catch let error as GenerationError {
            guard case .modelUnavailable(let detail) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(detail.contains("422"))
        }
        #expect(rejecting.requests.count == 1)

        let none = try await MockLLMServer.start([.content(Self.cards)])
        defer { Task { await none.shutdown() } }
        _ = try await Self.run(none, format: .none)
        #expect(none.requests.allSatisfy { $0.json["response_format"] == nil })
    }

    @Test("5xx in a schema mode is retried in that mode, not taken for a rejection")
    func serverErrorIsNoRejection() async throws {
        let server = try await MockLLMServer.start([.raw(status: 503, body: "busy"), .content(Self.cards)])
        defer { Task { await server.shutdown() } }
        _ = try await Self.run(server)
        #expect(server.requests.count == 3)
        #expect(canonical(server.requests[0].json) == canonical(server.requests[1].json))
        #expect(canonical(server.requests[1].json) == Self.expectedBody(chunk: 1, format: Self.jsonSchemaFormat))
    }

    @Test("the mode setting from the environment")
    func environment() {
        let base = ["FLASHCARDS_LLM_BASE_URL": "http://127.0.0.1:8080", "FLASHCARDS_LLM_MODEL": "gemma"]
        #expect(LLMConfiguration(environment: base)?.responseFormat == .auto)
        for format in LLMConfiguration.ResponseFormat.allCases {
            let configuration = LLMConfiguration(
                environment: base.merging(["FLASHCARDS_LLM_RESPONSE_FORMAT": format.rawValue]) { $1 })
            #expect(configuration?.responseFormat == format)
        }
        let tuned = LLMConfiguration(
            environment: base.merging([
                "FLASHCARDS_LLM_CARDS_PER_CHUNK": "3", "FLASHCARDS_LLM_MAX_TOKENS": "600",
                "FLASHCARDS_LLM_TEMPERATURE": "0", "FLASHCARDS_LLM_CHUNK_CHARS": "1200",
            ]) { $1 })
        #expect(tuned?.cardsPerChunk == 3)
        #expect(tuned?.maximumTokens == 600)
        #expect(tuned?.temperature == 0)
        #expect(tuned?.chunkCharacters == 1_200)
        #expect(
            LLMConfiguration.ResponseFormat.auto.candidates == [.jsonSchema, .jsonObjectSchema, .jsonObject, .none])
    }

    @Test("English documents get the English prompt, German ones the German; the example only without a schema")
    func promptLanguage() {
        let german = OpenAICompatibleGenerator.systemPrompt(language: .de, format: .plain(maximumCards: 4))
        let english = OpenAICompatibleGenerator.systemPrompt(language: .en, format: .plain(maximumCards: 4))
        #expect(german.contains("Schreibe auf Deutsch") && german.contains("höchstens 4 Karten"))
        #expect(english.contains("Write in English") && english.contains("at most 4 cards"))
        #expect(!german.contains("Vulkan") && !english.contains("volcano"))
        for language in DocumentLanguage.allCases {
            let format = OpenAICompatibleGenerator.formatInstructions(
                language: language, format: .plain(maximumCards: 4))
            #expect(format.contains(ModelCardSchema.text(maximumCards: 4)))
            // One example, and it is valid output itself.
            guard let example = format.range(of: #"{"cards":[{"question":"W"#) else {
                Issue.record("no example in \(format)")
                continue
            }
            let json = String(format[example.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(JSONSchemaValidator.violations(of: json, against: Self.schemaValue).isEmpty, "\(json)")
        }
    }

    @Test("llama-cpp-python's 500 for a response_format it cannot validate is a rejection, not retried")
    func llamaCppPythonRejection() async throws {
        // What llama-cpp-python 0.3.36's server answered to "type": "json_schema" (shortened).
        let body =
            #"{"error":{"message":"1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}","type":"internal_server_error","param":null,"code":null}}"#
        let server = try await MockLLMServer.start([.raw(status: 500, body: body), .content(Self.cards)])
        defer { Task { await server.shutdown() } }
        _ = try await Self.run(server)
        #expect(
            server.requests.map { canonical($0.json) } == [
                Self.expectedBody(chunk: 1, format: Self.jsonSchemaFormat),
                Self.expectedBody(chunk: 1, format: Self.jsonObjectSchemaFormat),
                Self.expectedBody(chunk: 2, format: Self.jsonObjectSchemaFormat),
            ])
    }

    @Test("system prompt placement user: the instructions open the user message (chat templates without a system role)")
    func systemPromptInUserMessage() async throws {
        let server = try await MockLLMServer.start([.content(Self.cards)])
        defer { Task { await server.shutdown() } }
        var configuration = Self.configuration(server)
        configuration.systemPrompt = .user
        let client = ChatCompletionClient(configuration: configuration, memory: ResponseFormatMemory())
        _ = try await OpenAICompatibleGenerator(client: client).generate(
            GenerationRequest(source: .document(Self.twoChunks))
        ) { _ in }
        let messages = try #require(server.requests.first?.json["messages"] as? [[String: String]])
        let chunk = TextChunker.chunks(of: TextCleaner.clean(pages: Self.twoChunks.pages), maximumCharacters: 800)[0]
        #expect(
            messages == [
                [
                    "role": "user",
                    "content": OpenAICompatibleGenerator.systemPrompt(language: .de, format: .plain(maximumCards: 4))
                        + "\n\n"
                        + OpenAICompatibleGenerator.documentPrompt(chunk, count: 4, language: .de),
                ]
            ])
        // Hints too.
        let hints = ModelHintMaker(client: client)
        _ = try await hints.hint(question: "Was ist ein Prozess?", answer: "Ein Programm in Ausführung", language: .de)
        let hintMessages = try #require(server.requests.last?.json["messages"] as? [[String: String]])
        #expect(hintMessages.map { $0["role"] } == ["user"])
        #expect(
            hintMessages[0]["content"]?.hasSuffix("Frage: Was ist ein Prozess?\n Antwort: Ein Programm in Ausführung")
                == true)
    }

    @Test("the prompt's example handed back and answers cut off at the schema's limit do not become drafts")
    func copiedAndCutOff() async throws {
        let example = OpenAICompatibleGenerator.example(.de)
        let long = "Ein Prozess ist ein Programm in Ausführung. " + String(repeating: "und dann noch mehr ", count: 20)
        let cutOff = String(long.prefix(ModelCardSchema.maximumAnswerLength))
        let content = MockLLMServer.cardsJSON([
            (example.question, example.answer), ("Was ist ein Prozess?", cutOff),
            ("Was ist eine Semaphore?", String(repeating: "Zähler ", count: 40).prefix(250).description),
        ])
        let server = try await MockLLMServer.start([.content(content)])
        defer { Task { await server.shutdown() } }
        let result = try await Self.run(server)
        #expect(result.cards.map(\.question) == ["Was ist ein Prozess?"])
        #expect(result.cards.map(\.answer) == ["Ein Prozess ist ein Programm in Ausführung"])
        #expect(result.warnings.contains(.cardsDropped(count: 4)))
        // Longer than the schema allows: a server that does not enforce it; the screen decides.
        let longer = ModelCardParser.RawCard(
            question: "Was ist ein Prozess?", answer: long + long.prefix(30), page: nil)
        #expect(OpenAICompatibleGenerator.withoutCutOffEnd(longer) == longer)
    }
}

@Suite("Hint text: no label, no word cut")
struct HintTextTests {
    @Test("labels are stripped from model hints")
    func labels() {
        #expect(HintText.withoutLabel("Hinweis: Denk an ein Programm.") == "Denk an ein Programm.")
        #expect(HintText.withoutLabel("**Hinweis:** denk an Kraftwerke.") == "Denk an Kraftwerke.")
        #expect(
            HintText.withoutLabel(HintText.unquoted("\"Hint: think of power plants.\"")) == "Think of power plants.")
        #expect(HintText.withoutLabel("Hinweis: „Denk an Kraftwerke“") == "Denk an Kraftwerke")
        #expect(HintText.withoutLabel("„Ein Programm in A___ …“") == "„Ein Programm in A___ …“")
        #expect(HintText.withoutLabel("Tipp - Hinweis: zwei Wörter") == "Zwei Wörter")
        #expect(HintText.withoutLabel("Hinweise gibt es keine") == "Hinweise gibt es keine")
        #expect(HintText.withoutLabel("Denk an „Kraftwerke“") == "Denk an „Kraftwerke“")
    }

    @Test("clipping ends at a word boundary, within the limit")
    func clipping() {
        let text = "Denk an die kleinen Kraftwerke in jeder Zelle, die Energie liefern."
        #expect(HintText.clipped(text, to: 200) == text)
        #expect(HintText.clipped(text, to: 30) == "Denk an die kleinen…")
        #expect(HintText.clipped(text, to: 25) == "Denk an die kleinen…")
        #expect(HintText.clipped(text, to: 21) == "Denk an die kleinen…")
        #expect(HintText.clipped(text, to: 20) == "Denk an die kleinen…")
        #expect(HintText.clipped(text, to: 19) == "Denk an die…")
        #expect(HintText.clipped(text, to: 48) == "Denk an die kleinen Kraftwerke in jeder Zelle…")
        #expect(HintText.clipped("Donaudampfschifffahrt", to: 10) == "")
        for limit in 1...text.count {
            let clipped = HintText.clipped(text, to: limit)
            #expect(clipped.count <= limit)
            let body = clipped.hasSuffix("…") ? String(clipped.dropLast()) : clipped
            // Every word kept is a whole word of the text.
            #expect(body.isEmpty || text.hasPrefix(body))
            let words = text.split(separator: " ").map(String.init)
            for word in body.split(separator: " ").map(String.init) {
                #expect(words.contains(word) || words.contains(word + ","), "\(limit): \(clipped)")
            }
        }
    }

    @Test("a model hint is stored without its Hinweis: label; the prompt no longer asks for one")
    func modelHintWithoutLabel() async throws {
        let server = try await MockLLMServer.start([.content("Hinweis: Denk an ein Programm, das gerade läuft.")])
        defer { Task { await server.shutdown() } }
        let hint = try await server.hintMaker.hint(
            question: "Was ist ein Prozess?", answer: "Ein Programm in Ausführung", language: .de)
        #expect(hint == "Denk an ein Programm, das gerade läuft.")
        #expect(!server.requests[0].messagesText.contains("beginnt"))
        #expect(server.requests[0].json["response_format"] == nil)
    }

    @Test("a model hint cut off by max_tokens is not kept: the offline hint replaces it, unlabelled")
    func cutOffHint() async throws {
        let server = try await MockLLMServer.start([.content("Denk an die kleinen Kraftw", finishReason: "length")])
        defer { Task { await server.shutdown() } }
        let hint = try await server.hintMaker.hint(
            question: "Wo wird ATP gebildet?", answer: "Mitochondrien", language: .de)
        #expect(hint == OfflineHints.hint(answer: "Mitochondrien", language: .de))
        #expect(!hint.hasPrefix("Hinweis"))
    }

    @Test("offline hints carry no label in either language")
    func offlineHints() {
        for (answer, language) in [
            ("Mitochondrien", DocumentLanguage.de), ("Ein Programm in Ausführung mit eigenem Adressraum", .de),
            ("A reliable transport protocol", .en), ("1965", .de), ("", .en),
        ] {
            for strength in HintStrength.allCases {
                let hint = OfflineHints.hint(answer: answer, language: language, strength: strength)
                #expect(!hint.lowercased().hasPrefix("hinweis") && !hint.lowercased().hasPrefix("hint"), "\(hint)")
                #expect(HintText.withoutLabel(hint) == hint)
            }
        }
    }
}

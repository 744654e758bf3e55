import Foundation

/// How to reach an OpenAI-compatible chat-completions server (OpenAI, Ollama, llama.cpp, vLLM).
public struct LLMConfiguration: Sendable, Hashable {
    /// How the server is asked for JSON (`response_format`).
    public enum ResponseFormat: String, Sendable, Hashable, CaseIterable {
        /// Tries `jsonSchema`, then `jsonObjectSchema`, then `jsonObject`, then `none`: a server that
        /// rejects a mode (HTTP 400/422) gets the next one, and the mode that worked is remembered.
        case auto
        /// `{"type": "json_schema", "json_schema": {"name", "strict": true, "schema"}}`: OpenAI's
        /// structured outputs; llama.cpp's own server, vLLM and Ollama turn it into a grammar too.
        case jsonSchema = "json_schema"
        /// `{"type": "json_object", "schema": {…}}`: JSON mode with a schema, the shape
        /// llama-cpp-python's server (0.3.x) understands and turns into a grammar.
        case jsonObjectSchema = "json_object_schema"
        /// `{"type": "json_object"}`: plain JSON mode (any JSON, the shape is only asked for).
        case jsonObject = "json_object"
        /// No `response_format`; the shape in the prompt, validation and the repair request still apply.
        case none

        /// The modes to try, in order.
        public var candidates: [ResponseFormat] {
            self == .auto ? [.jsonSchema, .jsonObjectSchema, .jsonObject, .none] : [self]
        }

        /// Whether the server is asked to follow the card schema itself (grammar-constrained decoding).
        public var enforcesSchema: Bool { self == .jsonSchema || self == .jsonObjectSchema }
    }

    /// Where the instructions go.
    public enum SystemPrompt: String, Sendable, Hashable, CaseIterable {
        /// A `system` message, as OpenAI-compatible servers expect.
        case system
        /// Put in front of the first user message: for chat templates without a system role, such as
        /// llama-cpp-python's `--chat_format gemma`, which silently drops system messages.
        case user
    }

    /// Base URL, with or without a trailing `/v1` (e.g. `http://127.0.0.1:11434`, `https://api.openai.com/v1`).
    public var baseURL: String
    /// Model name sent with each request.
    public var model: String
    /// Bearer token, when the server needs one.
    public var apiKey: String?
    /// The most chunks (model requests, repairs aside) per document: bounds cost.
    public var maximumChunks: Int
    /// Characters of source text per chunk.
    public var chunkCharacters: Int
    /// Timeout of one HTTP request in seconds.
    public var requestTimeoutSeconds: Double
    /// Retries after 429/5xx/network errors.
    public var maximumRetries: Int
    /// First backoff delay in seconds; doubles with every retry.
    public var initialBackoffSeconds: Double
    /// The longest wait between retries, also for `Retry-After`.
    public var maximumBackoffSeconds: Double
    /// How JSON output is requested.
    public var responseFormat: ResponseFormat
    /// Upper bound of cards requested per chunk.
    public var cardsPerChunk: Int
    /// Cards asked for per section (and per topic batch) unless configured otherwise.
    public static let defaultCardsPerChunk = 15
    /// `max_tokens` of each completion.
    public var maximumTokens: Int
    /// Sampling temperature; low for factual cards.
    public var temperature: Double
    /// Where the instructions go.
    public var systemPrompt: SystemPrompt
    /// The kinds of card asked for, each with its own schema (`ModelCardSchema`).
    public var cardKinds: [ModelCardKind]
    /// Whether each card from a document quotes the words it was made from (the draft review
    /// marks them in the source).
    public var quotes: Bool

    /// Creates a configuration.
    public init(
        baseURL: String, model: String, apiKey: String? = nil, maximumChunks: Int = 8, chunkCharacters: Int = 6_000,
        requestTimeoutSeconds: Double = 120, maximumRetries: Int = 3, initialBackoffSeconds: Double = 1,
        maximumBackoffSeconds: Double = 30, responseFormat: ResponseFormat = .auto,
        cardsPerChunk: Int = defaultCardsPerChunk,
        maximumTokens: Int = 2_048, temperature: Double = 0.2, systemPrompt: SystemPrompt = .system,
        cardKinds: [ModelCardKind] = ModelCardKind.allCases, quotes: Bool = true
    ) {
        self.cardKinds = cardKinds.isEmpty ? [.basic] : cardKinds
        self.quotes = quotes
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
        self.maximumChunks = maximumChunks
        self.chunkCharacters = chunkCharacters
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.maximumRetries = maximumRetries
        self.initialBackoffSeconds = initialBackoffSeconds
        self.maximumBackoffSeconds = maximumBackoffSeconds
        self.responseFormat = responseFormat
        self.cardsPerChunk = cardsPerChunk
        self.maximumTokens = maximumTokens
        self.temperature = temperature
        self.systemPrompt = systemPrompt
    }

    /// Reads `FLASHCARDS_LLM_*` keys; nil when no base URL or model is set (offline generator only).
    /// Keys: `FLASHCARDS_LLM_BASE_URL`, `FLASHCARDS_LLM_MODEL`, `FLASHCARDS_LLM_API_KEY`,
    /// `FLASHCARDS_LLM_MAX_CHUNKS`, `FLASHCARDS_LLM_CHUNK_CHARS`, `FLASHCARDS_LLM_TIMEOUT_SECONDS`,
    /// `FLASHCARDS_LLM_MAX_RETRIES`, `FLASHCARDS_LLM_RESPONSE_FORMAT` (auto, json_schema, json_object_schema,
    /// json_object, none), `FLASHCARDS_LLM_CARDS_PER_CHUNK`, `FLASHCARDS_LLM_MAX_TOKENS`,
    /// `FLASHCARDS_LLM_TEMPERATURE`, `FLASHCARDS_LLM_SYSTEM_PROMPT` (system, user),
    /// `FLASHCARDS_LLM_CARD_KINDS` (comma-separated: basic, cloze, multipleChoice, trueFalse),
    /// `FLASHCARDS_LLM_QUOTES` (`false` to ask for no quotes).
    public init?(environment: [String: String]) {
        guard let base = environment["FLASHCARDS_LLM_BASE_URL"], !base.isEmpty,
            let model = environment["FLASHCARDS_LLM_MODEL"], !model.isEmpty
        else { return nil }
        self.init(baseURL: base, model: model)
        if let key = environment["FLASHCARDS_LLM_API_KEY"], !key.isEmpty { apiKey = key }
        if let value = environment["FLASHCARDS_LLM_MAX_CHUNKS"].flatMap(Int.init), value > 0 { maximumChunks = value }
        if let value = environment["FLASHCARDS_LLM_CHUNK_CHARS"].flatMap(Int.init), value >= 500 {
            chunkCharacters = value
        }
        if let value = environment["FLASHCARDS_LLM_TIMEOUT_SECONDS"].flatMap(Double.init), value > 0 {
            requestTimeoutSeconds = value
        }
        if let value = environment["FLASHCARDS_LLM_MAX_RETRIES"].flatMap(Int.init), value >= 0 {
            maximumRetries = value
        }
        if let value = environment["FLASHCARDS_LLM_RESPONSE_FORMAT"].flatMap(ResponseFormat.init(rawValue:)) {
            responseFormat = value
        }
        if let value = environment["FLASHCARDS_LLM_CARDS_PER_CHUNK"].flatMap(Int.init), (1...50).contains(value) {
            cardsPerChunk = value
        }
        if let value = environment["FLASHCARDS_LLM_MAX_TOKENS"].flatMap(Int.init), value >= 64 {
            maximumTokens = value
        }
        if let value = environment["FLASHCARDS_LLM_TEMPERATURE"].flatMap(Double.init), (0...2).contains(value) {
            temperature = value
        }
        if let value = environment["FLASHCARDS_LLM_SYSTEM_PROMPT"].flatMap(SystemPrompt.init(rawValue:)) {
            systemPrompt = value
        }
        if let value = environment["FLASHCARDS_LLM_CARD_KINDS"] {
            let kinds = value.split(separator: ",").compactMap {
                ModelCardKind(rawValue: $0.trimmingCharacters(in: .whitespaces))
            }
            if !kinds.isEmpty { cardKinds = kinds }
        }
        if let value = environment["FLASHCARDS_LLM_QUOTES"] { quotes = !["0", "false", "no", "off"].contains(value) }
    }

    /// The chat-completions endpoint derived from the base URL.
    public var completionsURL: String {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasSuffix("/chat/completions") { return base }
        if base.hasSuffix("/v1") { return base + "/chat/completions" }
        return base + "/v1/chat/completions"
    }
}

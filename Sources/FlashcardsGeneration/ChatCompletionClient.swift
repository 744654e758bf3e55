import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One message of a chat.
public struct ChatMessage: Sendable, Hashable, Codable {
    /// "system", "user" or "assistant".
    public var role: String
    /// The text.
    public var content: String

    /// Creates a message.
    public init(role: String, content: String) {
        self.role = role
        self.content = content
    }
}

/// What a completion returned.
public struct ChatCompletion: Sendable, Hashable {
    /// The assistant's text.
    public var content: String
    /// Why generation stopped ("stop", "length", …); "length" means the output was cut off.
    public var finishReason: String?
    /// The `response_format` mode the server accepted for this completion (`.none` without a schema).
    public var responseFormat: LLMConfiguration.ResponseFormat = .none
}

/// Remembers, per server and model, the structured-output mode that server accepted, so that only the
/// first request of a process probes the modes a server rejects. Process-wide by default.
public final class ResponseFormatMemory: @unchecked Sendable {
    /// The memory shared by every client of the process.
    public static let shared = ResponseFormatMemory()
    private let lock = NSLock()
    private var modes: [String: LLMConfiguration.ResponseFormat] = [:]

    /// Creates an empty memory (tests use their own).
    public init() {}

    /// The mode that last worked for `configuration`'s server and model, if any.
    public func mode(for configuration: LLMConfiguration) -> LLMConfiguration.ResponseFormat? {
        lock.withLock { modes[Self.key(configuration)] }
    }

    /// Notes that the server accepted `mode`.
    public func remember(_ mode: LLMConfiguration.ResponseFormat, for configuration: LLMConfiguration) {
        lock.withLock { modes[Self.key(configuration)] = mode }
    }

    private static func key(_ configuration: LLMConfiguration) -> String {
        "\(configuration.completionsURL)\n\(configuration.model)\n\(configuration.responseFormat.rawValue)"
    }
}

/// Talks to `/v1/chat/completions`: request timeouts, retries with exponential backoff on 429 and
/// 5xx (honouring `Retry-After`) and on network errors, bounded response sizes, and structured
/// output: with a schema it asks for the strictest `response_format` the server accepts
/// (`LLMConfiguration.ResponseFormat.candidates`) and falls back when the server rejects one.
public struct ChatCompletionClient: Sendable {
    /// Where and how to connect.
    public let configuration: LLMConfiguration
    let httpClient: HTTPClient
    private let sleeper: @Sendable (Double) async throws -> Void
    private let memory: ResponseFormatMemory
    private let observer: (@Sendable (ChatCompletion) -> Void)?

    /// A process-wide HTTP client without a read timeout: `HTTPClient.shared` cuts reads off after
    /// 90 s, but a slow local model may need longer; the per-request deadline
    /// (`requestTimeoutSeconds`) is the limit instead. Like `.shared`, it lives as long as the process.
    public static let defaultHTTPClient = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(
            timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10), read: nil)))

    /// Creates a client; `httpClient` defaults to `defaultHTTPClient`, `memory` to the process-wide one.
    /// `observer` sees every completion as it came back (the raw model output), e.g. for diagnostics.
    public init(
        configuration: LLMConfiguration, httpClient: HTTPClient = ChatCompletionClient.defaultHTTPClient,
        memory: ResponseFormatMemory = .shared, observer: (@Sendable (ChatCompletion) -> Void)? = nil,
        sleep: @escaping @Sendable (Double) async throws -> Void = { seconds in
            try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
        }
    ) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.memory = memory
        self.observer = observer
        self.sleeper = sleep
    }

    private struct ResponseBody: Decodable {
        struct Choice: Decodable {
            struct Message: Decodable { var content: String? }
            var message: Message?
            var finish_reason: String?
        }
        var choices: [Choice]
    }

    /// The `response_format` value of `mode` for `schema`; nil for `.none`.
    public static func responseFormat(_ mode: LLMConfiguration.ResponseFormat, schema: JSONValue) -> JSONValue? {
        switch mode {
        case .jsonSchema, .auto:
            return ["type": "json_schema", "json_schema": ["name": "flashcards", "strict": true, "schema": schema]]
        case .jsonObjectSchema: return ["type": "json_object", "schema": schema]
        case .jsonObject: return ["type": "json_object"]
        case .none: return nil
        }
    }

    /// Sends the messages and returns the first choice. With `jsonSchema` the output is requested as
    /// structured output: in the remembered mode, else in the configuration's candidates in order; a
    /// server that rejects a mode (400/422, or llama-cpp-python's 500 naming `response_format`) gets the
    /// next one at once, without retries. `formatInstructions` (the shape, an
    /// example) are added to the system message only in modes where the server does not enforce the
    /// schema: a small model copies an example it does not need.
    public func complete(messages: [ChatMessage], jsonSchema: JSONValue? = nil, formatInstructions: String? = nil)
        async throws -> ChatCompletion
    {
        let candidates = jsonSchema == nil ? [.none] : configuration.responseFormat.candidates
        var index = memory.mode(for: configuration).flatMap { candidates.firstIndex(of: $0) } ?? 0
        while true {
            let mode = candidates[index]
            var sent = messages
            if let formatInstructions, jsonSchema != nil, !mode.enforcesSchema {
                sent = Self.adding(formatInstructions, to: messages)
            }
            var payload: [JSONValue.Member] = [
                .init("model", .string(configuration.model)),
                .init(
                    "messages",
                    .array(
                        Self.placed(sent, configuration.systemPrompt).map {
                            ["role": .string($0.role), "content": .string($0.content)]
                        })),
                .init("temperature", .number(configuration.temperature)),
                .init("max_tokens", .integer(configuration.maximumTokens)),
                .init("stream", false),
            ]
            if let jsonSchema, let format = Self.responseFormat(mode, schema: jsonSchema) {
                payload.append(.init("response_format", format))
            }
            do {
                var completion = try await send(
                    body: Data(JSONValue.object(payload).text.utf8), formatMayBeRejected: mode != .none)
                completion.responseFormat = mode
                if jsonSchema != nil { memory.remember(mode, for: configuration) }
                observer?(completion)
                return completion
            } catch FormatRejected.rejected(let detail) {
                guard index + 1 < candidates.count else { throw GenerationError.modelUnavailable(detail: detail) }
                index += 1
            }
        }
    }

    /// `text` appended to the first system message (or as one in front).
    static func adding(_ text: String, to messages: [ChatMessage]) -> [ChatMessage] {
        guard let index = messages.firstIndex(where: { $0.role == "system" }) else {
            return [ChatMessage(role: "system", content: text)] + messages
        }
        var result = messages
        result[index].content += "\n" + text
        return result
    }

    /// `messages` as sent: with `.user`, system messages are put in front of the next user message.
    static func placed(_ messages: [ChatMessage], _ placement: LLMConfiguration.SystemPrompt) -> [ChatMessage] {
        guard placement == .user else { return messages }
        var result: [ChatMessage] = []
        var pending: [String] = []
        for message in messages {
            if message.role == "system" {
                pending.append(message.content)
            } else if message.role == "user", !pending.isEmpty {
                result.append(
                    ChatMessage(role: "user", content: (pending + [message.content]).joined(separator: "\n\n")))
                pending = []
            } else {
                result.append(message)
            }
        }
        if !pending.isEmpty { result.append(ChatMessage(role: "user", content: pending.joined(separator: "\n\n"))) }
        return result
    }

    /// The server refused the request itself (400/422): with a `response_format`, perhaps because of it.
    private enum FormatRejected: Error {
        case rejected(String)
    }

    private func send(body: Data, formatMayBeRejected: Bool) async throws -> ChatCompletion {
        var attempt = 0
        while true {
            try Task.checkCancellation()
            let outcome: Outcome
            do {
                outcome = try await send(body)
            } catch let error as CancellationError {
                throw error
            } catch {
                if Task.isCancelled { throw CancellationError() }
                outcome = .retryable(detail: "\(error)", retryAfter: nil)
            }
            switch outcome {
            case .success(let completion):
                return completion
            case .rejected(let detail):
                if formatMayBeRejected { throw FormatRejected.rejected(detail) }
                throw GenerationError.modelUnavailable(detail: detail)
            case .fatal(let detail):
                throw GenerationError.modelUnavailable(detail: detail)
            case .retryable(let detail, let retryAfter):
                guard attempt < configuration.maximumRetries else {
                    throw GenerationError.modelUnavailable(detail: detail)
                }
                let backoff = configuration.initialBackoffSeconds * pow(2, Double(attempt))
                let delay = min(configuration.maximumBackoffSeconds, retryAfter ?? backoff)
                attempt += 1
                try await sleeper(delay)
            }
        }
    }

    private enum Outcome {
        case success(ChatCompletion)
        case retryable(detail: String, retryAfter: Double?)
        /// 400/422: the request itself was refused (an unsupported `response_format`, among others).
        case rejected(String)
        case fatal(String)
    }

    private func send(_ body: Data) async throws -> Outcome {
        var request = HTTPClientRequest(url: configuration.completionsURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json")
        if let key = configuration.apiKey { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        request.body = .bytes(ByteBuffer(bytes: body))
        let timeout = TimeAmount.milliseconds(Int64(configuration.requestTimeoutSeconds * 1000))
        let response = try await httpClient.execute(request, timeout: timeout)
        // Model answers are small; a huge body is a misbehaving server.
        let bytes = try await response.body.collect(upTo: 8 * 1024 * 1024)
        let status = response.status.code
        let text = String(buffer: bytes).prefix(300)
        if status == 400 || status == 422 { return .rejected("HTTP \(status): \(text)") }
        // llama-cpp-python's server answers a request it cannot validate (e.g. `"type": "json_schema"`)
        // with 500 and the validation error; retrying would get the same answer.
        if status == 500, String(buffer: bytes).contains("response_format") {
            return .rejected("HTTP \(status): \(text)")
        }
        if status == 429 || (500...599).contains(status) {
            return .retryable(detail: "HTTP \(status)", retryAfter: Self.retryAfter(response.headers))
        }
        guard (200...299).contains(status) else { return .fatal("HTTP \(status): \(text)") }
        guard let decoded = try? JSONDecoder().decode(ResponseBody.self, from: Data(bytes.readableBytesView)),
            let choice = decoded.choices.first
        else {
            // A broken envelope (not the model's content) is a server hiccup: try again.
            return .retryable(detail: "malformed completion envelope", retryAfter: nil)
        }
        return .success(ChatCompletion(content: choice.message?.content ?? "", finishReason: choice.finish_reason))
    }

    /// Seconds from `Retry-After` (delta seconds or an HTTP date).
    static func retryAfter(_ headers: HTTPHeaders) -> Double? {
        guard let value = headers.first(name: "Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        if let date = formatter.date(from: value) { return max(0, date.timeIntervalSinceNow) }
        return nil
    }
}

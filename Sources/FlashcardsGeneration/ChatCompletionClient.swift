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
}

/// Talks to `/v1/chat/completions`: request timeouts, retries with exponential backoff on 429 and
/// 5xx (honouring `Retry-After`) and on network errors, and bounded response sizes.
public struct ChatCompletionClient: Sendable {
    /// Where and how to connect.
    public let configuration: LLMConfiguration
    private let httpClient: HTTPClient
    private let sleeper: @Sendable (Double) async throws -> Void

    /// A process-wide HTTP client without a read timeout: `HTTPClient.shared` cuts reads off after
    /// 90 s, but a slow local model may need longer; the per-request deadline
    /// (`requestTimeoutSeconds`) is the limit instead. Like `.shared`, it lives as long as the process.
    public static let defaultHTTPClient = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(
            timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10), read: nil)))

    /// Creates a client; `httpClient` defaults to `defaultHTTPClient`.
    public init(
        configuration: LLMConfiguration, httpClient: HTTPClient = ChatCompletionClient.defaultHTTPClient,
        sleep: @escaping @Sendable (Double) async throws -> Void = { seconds in
            try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
        }
    ) {
        self.configuration = configuration
        self.httpClient = httpClient
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

    /// Sends the messages and returns the first choice. `jsonSchema` is the card schema, used for
    /// `response_format` according to the configuration.
    public func complete(messages: [ChatMessage], jsonSchema: [String: any Sendable]? = nil) async throws
        -> ChatCompletion
    {
        var payload: [String: Any] = [
            "model": configuration.model,
            "messages": messages.map { ["role": $0.role, "content": $0.content] },
            "temperature": configuration.temperature,
            "max_tokens": configuration.maximumTokens,
            "stream": false,
        ]
        if let jsonSchema {
            switch configuration.responseFormat {
            case .jsonObject: payload["response_format"] = ["type": "json_object"]
            case .jsonSchema:
                payload["response_format"] = [
                    "type": "json_schema",
                    "json_schema": ["name": "flashcards", "schema": jsonSchema, "strict": false],
                ]
            case .none: break
            }
        }
        let body = try JSONSerialization.data(withJSONObject: payload)
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
        if status == 429 || (500...599).contains(status) {
            return .retryable(detail: "HTTP \(status)", retryAfter: Self.retryAfter(response.headers))
        }
        guard (200...299).contains(status) else {
            let text = String(buffer: bytes).prefix(300)
            return .fatal("HTTP \(status): \(text)")
        }
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

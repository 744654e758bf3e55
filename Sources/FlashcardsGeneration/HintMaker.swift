import FlashcardsCore
import Foundation

/// Makes the hint shown on a card's front. A hint never contains the answer.
public protocol HintMaker: Sendable {
    /// A hint for the card; `language` is detected from the card when nil.
    func hint(question: String, answer: String, language: DocumentLanguage?) async throws -> String
}

/// Offline hints: a graded clue derived from the answer (shape, first letters, a cloze of the key word).
public struct OfflineHintMaker: HintMaker {
    /// How much the hint gives away.
    public var strength: HintStrength

    /// Creates the hint maker.
    public init(strength: HintStrength = .medium) {
        self.strength = strength
    }

    /// The hint; deterministic.
    public func hint(question: String, answer: String, language: DocumentLanguage?) async throws -> String {
        OfflineHints.hint(
            answer: answer, language: language ?? LanguageDetector.detect(question + " " + answer), strength: strength)
    }
}

/// Hints written by a language model (like the original's hint assistant), checked afterwards with the
/// same rule as offline hints; a hint that leaks the answer, is empty or too long is replaced by the
/// offline hint, as is a failed request when `fallbackOnError` is set.
public struct ModelHintMaker: HintMaker {
    /// The HTTP side.
    public let client: ChatCompletionClient
    /// The hint used instead of a bad model hint.
    public let fallback: OfflineHintMaker
    /// Whether a failed request yields the offline hint instead of an error.
    public let fallbackOnError: Bool

    /// Creates the hint maker.
    public init(client: ChatCompletionClient, fallback: OfflineHintMaker = .init(), fallbackOnError: Bool = true) {
        self.client = client
        self.fallback = fallback
        self.fallbackOnError = fallbackOnError
    }

    /// The model's hint, or the offline one.
    public func hint(question: String, answer: String, language: DocumentLanguage?) async throws -> String {
        let language = language ?? LanguageDetector.detect(question + " " + answer)
        let prefix = language == .de ? "Hinweis:" : "Hint:"
        let messages = [
            ChatMessage(
                role: "system",
                content: """
                    Du schreibst kurze Hinweise für Karteikarten. Ein Hinweis hilft, die Antwort selbst zu finden, \
                    verrät sie aber nie: Das Antwortwort oder die Antwort selbst dürfen nicht vorkommen. Antworte mit \
                    genau einem Satz, der mit "\(prefix)" beginnt, auf \(language == .de ? "Deutsch" : "Englisch").
                    """),
            ChatMessage(role: "user", content: "Frage: \(question)\n Antwort: \(answer)"),
        ]
        let completion: ChatCompletion
        do {
            completion = try await client.complete(messages: messages)
        } catch let error as CancellationError {
            throw error
        } catch {
            if fallbackOnError {
                return try await fallback.hint(question: question, answer: answer, language: language)
            }
            throw error
        }
        guard var text = CardQuality.cleanUntrusted(completion.content, maximumLength: 300),
            completion.finishReason != "length"
        else {
            return try await fallback.hint(question: question, answer: answer, language: language)
        }
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: "\"„“”' "))
        if !text.hasPrefix(prefix) { text = prefix + " " + text }
        let body = text.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        if body.count < 3 || OfflineHints.leaks(hint: text, answer: answer) {
            return try await fallback.hint(question: question, answer: answer, language: language)
        }
        return text
    }
}

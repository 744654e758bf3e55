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
        let system =
            language == .de
            ? """
            Du schreibst kurze Hinweise für Karteikarten. Ein Hinweis hilft, die Antwort selbst zu finden, \
            verrät sie aber nie: Das Antwortwort oder die Antwort selbst dürfen nicht vorkommen. Antworte mit \
            genau einem kurzen Satz auf Deutsch, ohne Vorsilbe wie "Hinweis:".
            """
            : """
            You write short hints for flashcards. A hint helps to find the answer oneself but never gives it \
            away: neither the answer nor its key word may appear. Answer with exactly one short sentence in \
            English, without a label such as "Hint:".
            """
        // The user message is the original hint assistant's input.
        let messages = [
            ChatMessage(role: "system", content: system),
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
        // A hint cut off by `max_tokens` or longer than a hint should be is not cut further: the
        // offline hint replaces it.
        guard completion.finishReason != "length",
            let cleaned = CardQuality.cleanUntrusted(completion.content, maximumLength: HintText.maximumModelLength)
        else {
            return try await fallback.hint(question: question, answer: answer, language: language)
        }
        let text = HintText.withoutLabel(HintText.unquoted(cleaned))
        if text.count < 3 || OfflineHints.leaks(hint: text, answer: answer) {
            return try await fallback.hint(question: question, answer: answer, language: language)
        }
        return text
    }
}

/// Rules for stored hint text: no "Hinweis:"/"Hint:" label inside the text (clients show their own;
/// the original iOS app strips it), and never cut inside a word.
public enum HintText {
    /// The longest model hint that is kept; a longer one is replaced by the offline hint.
    public static let maximumModelLength = 300

    private static let labels = ["hinweis", "tipp", "hint", "tip"]

    /// `text` without a leading label such as "Hinweis:", "**Hint:**" or "Tipp -" (and without quotes
    /// around what followed a label).
    public static func withoutLabel(_ text: String) -> String {
        var result = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        let emphasis: (Character) -> Bool = { $0 == "*" || $0 == "_" }
        while true {
            let rest = result.drop(while: emphasis)
            guard let label = labels.first(where: { rest.lowercased().hasPrefix($0) }) else { break }
            let afterLabel = rest.dropFirst(label.count).drop(while: emphasis)
            let separated = afterLabel.drop(while: { $0 == " " })
            // "Hinweis:" or "Tipp - …", but not "Tip-top" or "Hinweise".
            guard let separator = separated.first,
                separator == ":" || ("-–—".contains(separator) && separated.startIndex != afterLabel.startIndex)
            else { break }
            result = unquoted(separated.dropFirst().drop(while: { emphasis($0) || $0.isWhitespace }))
        }
        let trimmed = result.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first else { return trimmed }
        return first.uppercased() + trimmed.dropFirst()
    }

    /// `text` without one pair of quotes around all of it (only when no other quote of them is inside).
    public static func unquoted(_ text: String) -> String {
        String(unquoted(Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))))
    }

    private static func unquoted(_ text: Substring) -> Substring {
        let pairs: [Character: Character] = ["\"": "\"", "„": "“", "“": "”", "»": "«", "«": "»", "'": "'"]
        guard let first = text.first, let closing = pairs[first], text.count > 2, text.last == closing,
            text.dropFirst().dropLast().allSatisfy({ $0 != first && $0 != closing })
        else { return text }
        return text.dropFirst().dropLast()
    }

    /// `text` shortened to at most `limit` characters at a word boundary, with "…" when it was cut;
    /// empty when not even its first word fits.
    public static func clipped(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        let dangling = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ",;:-–—"))
        // Room for the "…"; a word is kept only when it ends before the cut.
        let head = text.prefix(max(0, limit - 1))
        let cutAtBoundary = head.endIndex < text.endIndex && text[head.endIndex].isWhitespace
        let kept = cutAtBoundary ? head : head[..<(head.lastIndex(where: \.isWhitespace) ?? head.startIndex)]
        let trimmed = kept.trimmingCharacters(in: dangling)
        return trimmed.isEmpty ? "" : trimmed + "…"
    }
}

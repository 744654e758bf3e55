import FlashcardsCore
import Foundation
import Testing

@testable import FlashcardsGeneration

/// Runs only under `scripts/test-llm`, which starts a real llama.cpp server with Gemma 3 270M and sets
/// `FLASHCARDS_TEST_LLM_URL`. The small model's cards are poor; the point is the real protocol path
/// and that whatever it answers never becomes a broken card.
@Suite(
    "Real local model (scripts/test-llm)",
    .enabled(if: ProcessInfo.processInfo.environment["FLASHCARDS_TEST_LLM_URL"] != nil),
    .serialized)
struct RealModelTests {
    static var configuration: LLMConfiguration {
        let environment = ProcessInfo.processInfo.environment
        return LLMConfiguration(
            baseURL: environment["FLASHCARDS_TEST_LLM_URL"] ?? "http://127.0.0.1:1",
            model: environment["FLASHCARDS_TEST_LLM_MODEL"] ?? "gemma-3-270m", maximumChunks: 2,
            // No retries: llama.cpp keeps generating an abandoned request, so a retry would queue behind it.
            chunkCharacters: 1_500, requestTimeoutSeconds: 600, maximumRetries: 0, cardsPerChunk: 4,
            maximumTokens: 900)
    }

    @Test("a plain chat completion comes back over the real protocol")
    func plainCompletion() async throws {
        var configuration = Self.configuration
        configuration.maximumTokens = 20
        let client = ChatCompletionClient(configuration: configuration)
        let completion = try await client.complete(messages: [
            ChatMessage(role: "user", content: "Antworte mit einem Wort: Wie heißt die Hauptstadt von Frankreich?")
        ])
        #expect(!completion.content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test("JSON mode returns output the parser accepts or repairs, and no draft is broken")
    func generation() async throws {
        let text = """
            Ein Prozess ist ein Programm in Ausführung. Ein Thread ist ein leichtgewichtiger Ausführungsstrang
            innerhalb eines Prozesses. Eine Semaphore ist eine Zählvariable, die den Zugang zu gemeinsam genutzten
            Betriebsmitteln regelt. Ein Deadlock bezeichnet eine Situation, in der Prozesse zyklisch aufeinander warten.
            """
        let document = ExtractedDocument(contentType: .text, pages: [SourcePage(number: 1, text: text)], usedOCR: false)
        let progress = ProgressRecorder()
        do {
            let result = try await OpenAICompatibleGenerator(configuration: Self.configuration).generate(
                GenerationRequest(source: .document(document), customInstructions: "Kurze Antworten.")
            ) { progress.record($0) }
            print(
                "real model made \(result.cards.count) cards: \(result.cards.map { "\($0.question) → \($0.answer)" })")
            print("warnings: \(result.warnings)")
            #expect(!result.cards.isEmpty)
            for card in result.cards {
                #expect(card.kind == .model && card.sourcePage == 1)
                #expect(
                    CardQuality.problems(question: card.question, answer: card.answer, requireQuestionMark: false)
                        .isEmpty)
                #expect(card.question.count <= CardQuality.maximumQuestionLength)
                #expect(card.answer.count <= CardQuality.maximumAnswerLength)
            }
        } catch let error as GenerationError {
            // A tiny model may fail to produce usable JSON even after the repair; that must surface as a
            // typed, explainable error, never as broken cards.
            print("real model gave no usable cards: \(error.code)")
            #expect(error == .modelOutputInvalid || error == .nothingGenerated)
        }
        #expect(progress.events.contains(.chunkStarted(index: 1, total: 1)))
    }

    @Test("a model hint never leaks the answer")
    func hint() async throws {
        var configuration = Self.configuration
        configuration.maximumTokens = 150
        let maker = ModelHintMaker(client: ChatCompletionClient(configuration: configuration), fallbackOnError: false)
        for (question, answer) in [
            ("Was ist ein Prozess?", "Ein Programm in Ausführung"), ("Wo wird ATP gebildet?", "Mitochondrien"),
        ] {
            let hint = try await maker.hint(question: question, answer: answer, language: .de)
            print("hint: \(hint)")
            #expect(hint.hasPrefix("Hinweis:"))
            #expect(!OfflineHints.leaks(hint: hint, answer: answer))
        }
    }
}

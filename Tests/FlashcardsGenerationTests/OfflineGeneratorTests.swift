import FlashcardsCore
import Foundation
import Testing

@testable import FlashcardsGeneration

@Suite("Offline generator")
struct OfflineGeneratorTests {
    static func pages(_ count: Int) -> [SourcePage] {
        (1...count).map { number in
            SourcePage(
                number: number,
                text:
                    "Skript Informatik\n\nDer Begriff\(number) ist ein Fachwort, das auf Seite \(number) erklärt wird.\n\n\(number)"
            )
        }
    }

    @Test("long documents report sections and cards made, and keep page numbers")
    func progress() async throws {
        let progress = ProgressRecorder()
        let document = ExtractedDocument(contentType: .pdf, pages: Self.pages(45), usedOCR: false)
        let result = try await OfflineCardGenerator(pagesPerStep: 20).generate(
            GenerationRequest(source: .document(document))
        ) {
            progress.record($0)
        }
        #expect(
            progress.events.filter { if case .chunkStarted = $0 { true } else { false } } == [
                .chunkStarted(index: 1, total: 3), .chunkStarted(index: 2, total: 3), .chunkStarted(index: 3, total: 3),
            ])
        #expect(progress.events.last == .cardsMade(count: result.cards.count))
        #expect(result.cards.contains { $0.question == "Was ist der Begriff45?" && $0.sourcePage == 45 })
        // The running header and the page numbers never reach a card.
        #expect(
            !result.cards.contains {
                $0.question.contains("Skript Informatik") || $0.answer.contains("Skript Informatik")
            })
        #expect(GenerationProgress.cardsMade(count: 41).germanText == "41 Karten erstellt")
        #expect(GenerationProgress.chunkStarted(index: 3, total: 9).germanText == "Abschnitt 3 von 9")
    }

    @Test("questions the stack already has are marked for the user; drafts are reported as they are made")
    func existingQuestions() async throws {
        let document = ExtractedDocument(contentType: .pdf, pages: Self.pages(3), usedOCR: false)
        let progress = ProgressRecorder()
        let result = try await OfflineCardGenerator(pagesPerStep: 1).generate(
            GenerationRequest(source: .document(document), existingQuestions: ["Was ist der Begriff2?"]),
            progress: progress.record)
        #expect(result.cards.first { $0.question == "Was ist der Begriff1?" }?.duplicateOf == nil)
        #expect(result.cards.first { $0.question == "Was ist der Begriff2?" }?.duplicateOf == "Was ist der Begriff2?")
        #expect(progress.drafts == result.cards, "every draft is reported once, in order, before the end")
    }

    @Test("a cancelled task stops before generating")
    func cancelled() async throws {
        let document = ExtractedDocument(contentType: .pdf, pages: Self.pages(5), usedOCR: false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await OfflineCardGenerator().generate(GenerationRequest(source: .document(document))) { _ in }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test("offline hints through the HintMaker protocol")
    func hintMaker() async throws {
        let maker: any HintMaker = OfflineHintMaker()
        let hint = try await maker.hint(
            question: "What is TCP?", answer: "A reliable transport protocol", language: nil)
        #expect(hint == OfflineHints.hint(answer: "A reliable transport protocol", language: .en))
        #expect(!hint.hasPrefix("Hint"))
        #expect(!OfflineHints.leaks(hint: hint, answer: "A reliable transport protocol"))
    }
}

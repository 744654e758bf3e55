import FlashcardsCore
import Foundation
import Testing

@testable import FlashcardsGeneration

@Suite("Corpus quality and benchmark")
struct CorpusQualityTests {
    @Test("the offline generator recovers ≥ 70 % of key definitions with ≥ 90 % well-formed cards")
    func corpusTargets() async throws {
        guard Fixtures.requireTools(Fixtures.poppler) else { return }
        let report = try await CorpusQuality.measure(corpus: Fixtures.corpus)
        print(report.summary)
        #expect(report.documents.count == 36)
        #expect(report.documents.filter(\.heldOut).count == 12)
        // One card per fact: a definition and a cloze of the same sentence count once (issue 17's
        // target: under 5 % of the cards repeat a fact).
        #expect(report.duplicateRate < 0.05, "\(report.summary)")
        // Key facts of place, time, cause, purpose, parts and numbers (answer-key-facts.json, the
        // twenty texts of answer-key-heldout2/3.json written by someone who never saw the rules; set 3
        // is still held out): floors against regressions, far below issue 17's 90 % target
        // (docs/generation.md).
        #expect(report.keyFactRecall >= 0.58, "\(report.summary)")
        #expect(report.heldOutKeyFactRecall >= 0.42, "\(report.summary)")
        #expect(report.recall >= 0.70, "\(report.summary)")
        #expect(report.wellFormedShare >= 0.90, "\(report.summary)")
        #expect(report.heldOutRecall >= 0.50, "\(report.summary)")
        #expect(report.heldOutWellFormedShare >= 0.90, "\(report.summary)")
        // Every document contributes; none is silently empty.
        #expect(report.documents.allSatisfy { $0.cards >= 5 })
    }

    @Test("the quality checks catch what they claim to catch")
    func checksWork() {
        #expect(CardQuality.problems(question: "Prozess", answer: "Ein Programm").contains(.notAQuestion))
        #expect(CardQuality.problems(question: "Was ist X?", answer: "Ein Spei- cher").contains(.brokenWord))
        #expect(CardQuality.problems(question: "Was ist X?", answer: "Ein Teil der").contains(.incompleteAnswer))
        #expect(CardQuality.problems(question: "Was ist X?", answer: "Text Seite 3 von 9").contains(.pageFurniture))
        #expect(
            CardQuality.problems(
                question: "Was ist X?", answer: "Vorlesung Betriebssysteme · Wintersemester 2026/27 steht oben",
                boilerplate: ["Vorlesung Betriebssysteme · Wintersemester 2026/27"]
            ).contains(.pageFurniture))
        #expect(CardQuality.problems(question: "Ergänze: Der _____ ist ein Programm.", answer: "Prozess").isEmpty)
        #expect(CardQuality.problems(question: "Was ist X?", answer: "Ein- und Ausgabe").isEmpty)
    }

    @Test("the benchmark PDF is read back and gives cards on every page")
    func smallBenchmark() async throws {
        guard Fixtures.requireTools(Fixtures.poppler) else { return }
        let report = try await GenerationBenchmark.run(pages: 12)
        print(report.summary)
        #expect(report.pages == 12)
        #expect(report.cardsPerPage >= 3)
        #expect(report.pagesPerSecond > 0)
    }

    @Test("the minimal PDF writer round-trips German text through pdftotext")
    func pdfWriter() async throws {
        guard Fixtures.requireTools(Fixtures.poppler) else { return }
        let pdf = MinimalPDFWriter.document(pages: [["Größe – „Übung“ (1)"], ["Zweite Seite"]])
        let document = try await TextExtractor().extract(pdf)
        #expect(document.pages.count == 2)
        #expect(document.pages[0].text.contains("Größe – „Übung“ (1)"))
        #expect(document.pages[1].number == 2)
    }
}

import FlashcardsCore
import Foundation

/// Figures of one benchmark run.
public struct BenchmarkReport: Sendable, Hashable, Codable {
    /// Pages in the PDF.
    public var pages: Int
    /// Size of the PDF in bytes.
    public var pdfBytes: Int
    /// Seconds spent in pdfinfo/pdftotext.
    public var extractionSeconds: Double
    /// Seconds spent in the offline generator.
    public var generationSeconds: Double
    /// Cards made.
    public var cards: Int

    /// Upload to drafts in seconds.
    public var totalSeconds: Double { extractionSeconds + generationSeconds }
    /// Extraction speed.
    public var pagesPerSecond: Double { extractionSeconds > 0 ? Double(pages) / extractionSeconds : 0 }
    /// Generator yield.
    public var cardsPerPage: Double { pages > 0 ? Double(cards) / Double(pages) : 0 }

    /// A human-readable summary.
    public var summary: String {
        String(
            format: """
                PDF: %d pages, %d bytes
                time to drafts (offline): %.2f s  (target < 10 s)
                extraction: %.2f s, %.1f pages/s
                generation: %.2f s, %d cards, %.2f cards/page
                """, pages, pdfBytes, totalSeconds, extractionSeconds, pagesPerSecond, generationSeconds, cards,
            cardsPerPage)
    }
}

/// Builds a lecture-like text PDF deterministically and measures extraction and offline generation.
public enum GenerationBenchmark {
    /// Runs the benchmark on a PDF of `pages` pages.
    public static func run(pages: Int = 100, extractor: TextExtractor = .init()) async throws -> BenchmarkReport {
        let pdf = MinimalPDFWriter.document(pages: syntheticLecture(pages: pages))
        let clock = ContinuousClock()
        var extractor = extractor
        extractor.options.maximumPages = max(extractor.options.maximumPages, pages)
        let start = clock.now
        let document = try await extractor.extract(pdf)
        let extracted = clock.now
        // As the pipeline does: the drafts, then the source they came from marked for the review.
        let result = try await OfflineCardGenerator().generate(
            GenerationRequest(source: .document(document), maximumCards: 100_000)
        ) { _ in }.withSource(document)
        let end = clock.now
        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        return BenchmarkReport(
            pages: pages, pdfBytes: pdf.count, extractionSeconds: seconds(extracted - start),
            generationSeconds: seconds(end - extracted), cards: result.cards.count)
    }

    private static let adjectives = [
        "Lineare", "Verteilte", "Statische", "Dynamische", "Lokale", "Globale", "Einfache", "Erweiterte",
    ]
    private static let stems = [
        "Speicher", "Prozess", "Daten", "Netz", "Signal", "Zeit", "Kern", "Puffer", "Takt", "Regel",
    ]
    private static let endings = [
        "verwaltung", "tabelle", "analyse", "struktur", "planung", "steuerung", "schicht", "prüfung", "zuordnung",
        "verteilung",
    ]
    private static let objects = [
        "Zugriffe auf gemeinsam genutzte Betriebsmittel", "die Reihenfolge von Aufträgen", "den Zustand eines Systems",
        "die Verteilung von Lasten auf mehrere Rechner", "Fehler in der Übertragung", "die Auslastung der Hardware",
    ]
    private static let verbs = ["regelt", "beschreibt", "überwacht", "optimiert", "erfasst", "bewertet"]

    /// The page lines of a German lecture script with running header and footer, headings,
    /// definitions, lists and words hyphenated at line ends. Deterministic.
    public static func syntheticLecture(pages: Int) -> [[String]] {
        var termIndex = 0
        func nextTerm() -> String {
            let adjective = adjectives[termIndex % adjectives.count]
            let stem = stems[(termIndex / adjectives.count) % stems.count]
            let ending = endings[(termIndex / (adjectives.count * stems.count)) % endings.count]
            termIndex += 1
            return "\(adjective) \(stem)\(ending)"
        }
        var result: [[String]] = []
        for page in 1...max(1, pages) {
            var paragraphs: [String] = []
            var lines = ["Vorlesung Systemtechnik · Wintersemester 2026/27", ""]
            lines.append("\(page). Abschnitt \(page)")
            lines.append("")
            for slot in 0..<4 {
                let term = nextTerm()
                let object = objects[(page + slot) % objects.count]
                let verb = verbs[(page * 3 + slot) % verbs.count]
                // Adjective endings as German needs them after "einer" (dative) and "als" (accusative).
                let parts = term.split(separator: " ", maxSplits: 1).map(String.init)
                let dative = parts[0].lowercased() + "n " + parts[1]
                let accusative = parts[0].lowercased() + " " + parts[1]
                switch slot {
                case 0: paragraphs.append("Die \(term) ist ein Verfahren, das \(object) \(verb).")
                case 1: paragraphs.append("Unter einer \(dative) versteht man ein Modell, das \(object) \(verb).")
                case 2: paragraphs.append("Als \(accusative) bezeichnet man eine Methode, die \(object) \(verb).")
                default:
                    paragraphs.append(
                        "Die \(term) bezeichnet den Teil eines Systems, der \(object) \(verb). In der Praxis wird sie "
                            + "häufig mit weiteren Verfahren kombiniert, um die Leistungsfähigkeit zu verbessern.")
                }
            }
            paragraphs.append(
                "Die Ergebnisse der Messungen zeigen, dass die Antwortzeiten im Mittel um \(page % 7 + 2) Prozent sinken, "
                    + "wenn die Konfiguration sorgfältig an die Arbeitslast angepasst wird.")
            for paragraph in paragraphs {
                lines += wrap(paragraph, width: 88)
                lines.append("")
            }
            lines.append("Zu den Aufgaben dieses Abschnitts gehören:")
            lines += ["• Messung der Auslastung", "• Planung der Kapazität", "• Bewertung der Ergebnisse"]
            lines.append("")
            while lines.count < 50 { lines.append("") }
            lines.append("Seite \(page) von \(pages)")
            result.append(lines)
        }
        return result
    }

    /// Greedy wrapping that hyphenates long words at the line end, as typesetting does.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ").map(String.init) {
            if line.isEmpty {
                line = word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else if word.count >= 10, word.allSatisfy(\.isLetter), line.count + 1 + 5 <= width {
                let room = min(word.count - 4, width - line.count - 2)
                let cut = word.index(word.startIndex, offsetBy: max(4, room))
                lines.append(line + " " + word[..<cut] + "-")
                line = String(word[cut...])
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

import FlashcardsCore
import Foundation

/// The answer key of the test corpus (`answer-key.json`).
public struct CorpusAnswerKey: Sendable, Codable, Hashable {
    /// One lecture text.
    public struct Document: Sendable, Codable, Hashable {
        /// The Markdown/text source file.
        public var source: String
        /// The rendered PDF, when the document is measured as a PDF.
        public var pdf: String?
        /// "de" or "en".
        public var language: String
        /// The PDF's running header.
        public var header: String?
        /// The PDF's running footer (`{page}`, `{pages}` placeholders).
        public var footer: String?
        /// The key definitions.
        public var definitions: [Definition]
        /// Other key facts (place, time, cause, purpose, parts, numbers, lists).
        public var facts: [Fact]?
        /// Written after the rules were tuned, and not used to tune them.
        public var heldOut: Bool?
    }

    /// A key fact: what the question is about (`cue`, every string on one side of the card) and
    /// words the answer must carry (at least half, on the other side).
    public struct Fact: Sendable, Codable, Hashable {
        /// place, time, cause, purpose, parts, number, list or fact.
        public var kind: String
        /// Strings that name what the fact is about.
        public var cue: [String]
        /// Words of the answer.
        public var keywords: [String]
    }

    /// A key definition: its term and words the answer must carry.
    public struct Definition: Sendable, Codable, Hashable {
        /// The defined term.
        public var term: String
        /// Words of the definition; at least half must appear on the other side of the card.
        public var keywords: [String]
    }

    /// The documents.
    public var documents: [Document]
}

/// Quality figures of the offline generator over the corpus.
public struct CorpusReport: Sendable, Hashable {
    /// Figures of one document.
    public struct DocumentFigures: Sendable, Hashable {
        /// The file measured (PDF or text).
        public var file: String
        /// Cards made.
        public var cards: Int
        /// Cards that passed `CardQuality`.
        public var wellFormed: Int
        /// Key definitions in the answer key.
        public var definitions: Int
        /// Key definitions recovered.
        public var recovered: Int
        /// Terms not recovered.
        public var missed: [String]
        /// Other key facts in the answer key.
        public var facts: Int = 0
        /// Of these, recovered.
        public var factsRecovered: Int = 0
        /// Facts not recovered (`kind: cue`).
        public var missedFacts: [String] = []
        /// Cards that ask a fact an earlier card already asks.
        public var duplicates: Int = 0
        /// Malformed cards with their problems, for diagnosis.
        public var malformed: [String]
        /// Whether the document was held out from tuning.
        public var heldOut: Bool
    }

    /// Per document.
    public var documents: [DocumentFigures]

    /// Share of key definitions recovered over all documents (target ≥ 0.7).
    public var recall: Double { Self.recall(documents) }

    /// Share of well-formed cards over all documents (target ≥ 0.9).
    public var wellFormedShare: Double { Self.wellFormedShare(documents) }

    /// Recall on the held-out documents only: the honest figure for unseen text.
    public var heldOutRecall: Double { Self.recall(documents.filter(\.heldOut)) }

    /// Well-formed share on the held-out documents only.
    public var heldOutWellFormedShare: Double { Self.wellFormedShare(documents.filter(\.heldOut)) }

    /// Share of key facts (definitions and other facts) recovered over all documents.
    public var keyFactRecall: Double { Self.keyFactRecall(documents) }

    /// Key-fact recall on the held-out documents only (issue 17's target: ≥ 0.9).
    public var heldOutKeyFactRecall: Double { Self.keyFactRecall(documents.filter(\.heldOut)) }

    /// Share of cards that repeat an earlier card's fact (target < 0.05).
    public var duplicateRate: Double { Self.duplicateRate(documents) }

    /// Duplicate rate on the held-out documents only.
    public var heldOutDuplicateRate: Double { Self.duplicateRate(documents.filter(\.heldOut)) }

    private static func keyFactRecall(_ documents: [DocumentFigures]) -> Double {
        let total = documents.reduce(0) { $0 + $1.definitions + $1.facts }
        let found = documents.reduce(0) { $0 + $1.recovered + $1.factsRecovered }
        return total == 0 ? 0 : Double(found) / Double(total)
    }

    private static func duplicateRate(_ documents: [DocumentFigures]) -> Double {
        let cards = documents.reduce(0) { $0 + $1.cards }
        return cards == 0 ? 0 : Double(documents.reduce(0) { $0 + $1.duplicates }) / Double(cards)
    }

    private static func recall(_ documents: [DocumentFigures]) -> Double {
        let total = documents.reduce(0) { $0 + $1.definitions }
        return total == 0 ? 0 : Double(documents.reduce(0) { $0 + $1.recovered }) / Double(total)
    }

    private static func wellFormedShare(_ documents: [DocumentFigures]) -> Double {
        let total = documents.reduce(0) { $0 + $1.cards }
        return total == 0 ? 0 : Double(documents.reduce(0) { $0 + $1.wellFormed }) / Double(total)
    }

    /// A table for the command line.
    public var summary: String {
        var lines = ["document                        cards  well-formed  definitions  facts    duplicates"]
        for document in documents {
            lines.append(
                (document.file + (document.heldOut ? " (held out)" : "")).padding(
                    toLength: 30, withPad: " ", startingAt: 0)
                    + String(
                        format: "  %5d  %5d        %3d/%-3d      %3d/%-3d  %3d", document.cards, document.wellFormed,
                        document.recovered, document.definitions, document.factsRecovered, document.facts,
                        document.duplicates))
            if !document.missed.isEmpty { lines.append("    missed: " + document.missed.joined(separator: ", ")) }
            if !document.missedFacts.isEmpty {
                lines.append("    missed facts: " + document.missedFacts.joined(separator: "; "))
            }
            for card in document.malformed { lines.append("    malformed: " + card) }
        }
        lines.append(
            String(
                format: """
                    key definitions recovered: %.1f %% (target ≥ 70 %%), held-out documents only: %.1f %%
                    well-formed cards: %.1f %% (target ≥ 90 %%), held-out documents only: %.1f %%
                    key facts recovered (definitions and facts): %.1f %%, held-out documents only: %.1f %% (target ≥ 90 %%)
                    cards repeating an earlier card's fact: %.1f %%, held-out documents only: %.1f %% (target < 5 %%)
                    """, recall * 100, heldOutRecall * 100, wellFormedShare * 100, heldOutWellFormedShare * 100,
                keyFactRecall * 100, heldOutKeyFactRecall * 100, duplicateRate * 100, heldOutDuplicateRate * 100))
        return lines.joined(separator: "\n")
    }
}

/// Measures the offline generator against the corpus and its answer key.
public enum CorpusQuality {
    /// Reads `answer-key.json` and every `answer-key-*.json` in `directory`, generates cards for
    /// every document (from the PDF when there is one, so extraction, header/footer removal and
    /// de-hyphenation count) and scores them.
    public static func measure(corpus directory: URL, extractor: TextExtractor = .init()) async throws -> CorpusReport {
        let keyFiles = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0 == "answer-key.json" || ($0.hasPrefix("answer-key-") && $0.hasSuffix(".json")) }.sorted()
        var documents: [CorpusAnswerKey.Document] = []
        for file in keyFiles {
            let keyData = try Data(contentsOf: directory.appendingPathComponent(file))
            documents += try JSONDecoder().decode(CorpusAnswerKey.self, from: keyData).documents
        }
        var figures: [CorpusReport.DocumentFigures] = []
        for document in documents {
            let file = document.pdf ?? document.source
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            let extracted = try await extractor.extract(data)
            let cards = try await OfflineCardGenerator().generate(GenerationRequest(source: .document(extracted))) {
                _ in
            }
            .cards
            let boilerplate = [document.header, document.footer].compactMap { $0 }
            var malformed: [String] = []
            var wellFormed = 0
            for card in cards {
                let problems = CardQuality.problems(
                    question: card.question, answer: card.answer, boilerplate: boilerplate)
                if problems.isEmpty {
                    wellFormed += 1
                } else {
                    malformed.append("\(card.question) → \(card.answer) \(problems.map(\.rawValue))")
                }
            }
            let missed = document.definitions.filter { !recovered($0, in: cards) }.map(\.term)
            let facts = document.facts ?? []
            let missedFacts = facts.filter { !recovered($0, in: cards) }
            var entry = CorpusReport.DocumentFigures(
                file: file, cards: cards.count, wellFormed: wellFormed, definitions: document.definitions.count,
                recovered: document.definitions.count - missed.count, missed: missed, malformed: malformed,
                heldOut: document.heldOut ?? false)
            entry.facts = facts.count
            entry.factsRecovered = facts.count - missedFacts.count
            entry.missedFacts = missedFacts.map { "\($0.kind): \($0.cue.joined(separator: " "))" }
            entry.duplicates = CardDeduplicator.repeatedFacts(in: cards)
            figures.append(entry)
        }
        return CorpusReport(documents: figures)
    }

    /// A definition counts as recovered when one card names the term on one side and carries at
    /// least half of the keywords (rounded up) on the other side.
    public static func recovered(_ definition: CorpusAnswerKey.Definition, in cards: [DraftCard]) -> Bool {
        recovered(cue: [definition.term], keywords: definition.keywords, in: cards)
    }

    /// A fact counts as recovered when one card carries every cue string on one side and at least
    /// half of the keywords (rounded up) on the other side.
    public static func recovered(_ fact: CorpusAnswerKey.Fact, in cards: [DraftCard]) -> Bool {
        recovered(cue: fact.cue, keywords: fact.keywords, in: cards)
    }

    private static func recovered(cue: [String], keywords: [String], in cards: [DraftCard]) -> Bool {
        let cue = cue.map { $0.lowercased() }
        let needed = (keywords.count + 1) / 2
        func keywordCount(_ text: String) -> Int {
            let lower = text.lowercased()
            return keywords.filter { lower.contains($0.lowercased()) }.count
        }
        return cards.contains { card in
            let question = card.question.lowercased()
            let answer = card.answer.lowercased()
            return (cue.allSatisfy(question.contains) && keywordCount(card.answer) >= needed)
                || (cue.allSatisfy(answer.contains) && keywordCount(card.question) >= needed)
        }
    }
}

import ArgumentParser
import FlashcardsCore
import FlashcardsGeneration
import Foundation

/// `flashcards generate …`: cards from a file, the generation benchmark and the corpus quality figures.
/// Thin on purpose: all logic lives in FlashcardsGeneration.
public struct GenerateCommand: AsyncParsableCommand {
    /// Command name and subcommands; `generate FILE` runs `generate file FILE`.
    public static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Karteikarten aus PDF, Bild oder Text erstellen / make flashcards from a PDF, image or text.",
        subcommands: [File.self, Bench.self, Quality.self],
        defaultSubcommand: File.self)

    /// Creates the command (ArgumentParser needs it).
    public init() {}

    /// `generate FILE [--json]`.
    public struct File: AsyncParsableCommand {
        /// Command metadata.
        public static let configuration = CommandConfiguration(
            commandName: "file", abstract: "Print draft cards for a PDF, PNG/JPEG or UTF-8 text file.")

        /// The input file (its content decides the type, not its name).
        @Argument(help: "PDF, PNG, JPEG or UTF-8 text/Markdown file.")
        var path: String

        /// JSON output.
        @Flag(help: "Print the drafts as JSON.")
        var json = false

        /// OCR switch.
        @Flag(help: "Do not run text recognition on images and scanned PDFs.")
        var noOCR = false

        /// Use the configured language model.
        @Flag(help: "Use the language model from FLASHCARDS_LLM_BASE_URL / FLASHCARDS_LLM_MODEL.")
        var llm = false

        /// Add offline hints.
        @Flag(help: "Add an offline hint to every card.")
        var hints = false

        /// Custom instructions for the model.
        @Option(help: "Custom instructions (language model only).")
        var instructions = ""

        /// Creates the command.
        public init() {}

        /// Runs it.
        public func run() async throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            var options = ExtractionOptions()
            options.ocrEnabled = !noOCR
            var generator: any CardGenerator = OfflineCardGenerator()
            if llm {
                guard let configuration = LLMConfiguration(environment: ProcessInfo.processInfo.environment) else {
                    throw ValidationError("FLASHCARDS_LLM_BASE_URL and FLASHCARDS_LLM_MODEL must be set for --llm.")
                }
                generator = OpenAICompatibleGenerator(configuration: configuration)
            }
            let pipeline = GenerationPipeline(extractor: TextExtractor(options: options), generator: generator)
            let result: GenerationResult
            let quiet = json
            do {
                result = try await pipeline.run(data: data, customInstructions: instructions) { event in
                    if !quiet { FileHandle.standardError.write(Data((event.germanText + "\n").utf8)) }
                }
            } catch let error as GenerationError {
                // A clear message without the usage text: the input was fine as a command line.
                FileHandle.standardError.write(
                    Data("Fehler: \(error.germanMessage)\nError: \(error.englishMessage)\n".utf8))
                throw ExitCode(error.isUserError ? 2 : 1)
            }
            var hintTexts: [String?] = Array(repeating: nil, count: result.cards.count)
            if hints {
                for (index, card) in result.cards.enumerated() {
                    hintTexts[index] = OfflineHints.hint(answer: card.answer, language: result.language)
                }
            }
            if json {
                struct Output: Encodable {
                    var question: String
                    var answer: String
                    var hint: String?
                    var sourcePage: Int?
                    var kind: String
                }
                let output = zip(result.cards, hintTexts).map {
                    Output(
                        question: $0.question, answer: $0.answer, hint: $1, sourcePage: $0.sourcePage,
                        kind: $0.kind.rawValue)
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(output), as: UTF8.self))
            } else {
                for (card, hint) in zip(result.cards, hintTexts) {
                    print("[S. \(card.sourcePage.map(String.init) ?? "–") · \(card.kind.rawValue)] \(card.question)")
                    print("    → \(card.answer)")
                    if let hint { print("    \(result.language == .de ? "Hinweis" : "Hint"): \(hint)") }
                }
                for warning in result.warnings { print("! \(warning.germanText)") }
                print("\(result.cards.count) Karten (\(result.language.rawValue))")
            }
        }
    }

    /// `generate bench`.
    public struct Bench: AsyncParsableCommand {
        /// Command metadata.
        public static let configuration = CommandConfiguration(
            commandName: "bench", abstract: "Time a generated text PDF through extraction and the offline generator.")

        /// PDF size.
        @Option(help: "Pages of the generated PDF.")
        var pages = 100

        /// Where to keep the generated PDF.
        @Option(help: "Also write the generated PDF to this path.")
        var output: String?

        /// Creates the command.
        public init() {}

        /// Runs it.
        public func run() async throws {
            if let output {
                try MinimalPDFWriter.document(pages: GenerationBenchmark.syntheticLecture(pages: pages))
                    .write(to: URL(fileURLWithPath: output))
            }
            let report = try await GenerationBenchmark.run(pages: pages)
            print(report.summary)
        }
    }

    /// `generate quality`.
    public struct Quality: AsyncParsableCommand {
        /// Command metadata.
        public static let configuration = CommandConfiguration(
            commandName: "quality",
            abstract: "Measure the offline generator against the test corpus and its answer key.")

        /// Corpus folder.
        @Option(help: "Folder with answer-key.json (default: the repository's test corpus).")
        var corpus: String?

        /// Creates the command.
        public init() {}

        /// Runs it.
        public func run() async throws {
            let directory = try corpus.map { URL(fileURLWithPath: $0) } ?? Self.defaultCorpus()
            let report = try await CorpusQuality.measure(corpus: directory)
            print(report.summary)
        }

        /// The corpus in the working directory's checkout, or next to this source file's checkout.
        static func defaultCorpus() throws -> URL {
            let relative = "Tests/FlashcardsGenerationTests/Fixtures/corpus"
            let candidates = [
                URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(relative),
                URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent(relative),
            ]
            for candidate in candidates
            where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("answer-key.json").path) {
                return candidate
            }
            throw ValidationError("Corpus not found; pass --corpus DIR.")
        }
    }
}

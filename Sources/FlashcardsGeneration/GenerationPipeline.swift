import FlashcardsCore
import Foundation

/// The whole path from an upload to drafts: sniff, extract, generate. The server runs it in a job
/// and persists the progress events; compatibility route 13 runs it and accepts the drafts.
public struct GenerationPipeline: Sendable {
    /// An event of `events(…)`.
    public enum Event: Sendable {
        /// A progress step.
        case progress(GenerationProgress)
        /// The drafts; the last event.
        case finished(GenerationResult)
    }

    /// Reads the upload.
    public var extractor: TextExtractor
    /// Makes the cards.
    public var generator: any CardGenerator

    /// Creates a pipeline.
    public init(extractor: TextExtractor = .init(), generator: any CardGenerator = OfflineCardGenerator()) {
        self.extractor = extractor
        self.generator = generator
    }

    /// The generator for a configuration: the model when one is configured, else the offline rules.
    public static func generator(for configuration: LLMConfiguration?) -> any CardGenerator {
        guard let configuration else { return OfflineCardGenerator() }
        return OpenAICompatibleGenerator(configuration: configuration)
    }

    /// Drafts from uploaded bytes (PDF, PNG, JPEG or UTF-8 text).
    public func run(
        data: Data, customInstructions: String = "", existingQuestions: [String] = [],
        cardLanguage: DocumentLanguage? = nil, progress: @escaping ProgressHandler = { _ in }
    ) async throws -> GenerationResult {
        let document = try await extractor.extract(data, progress: progress)
        try Task.checkCancellation()
        return try await generator.generate(
            GenerationRequest(
                source: .document(document), customInstructions: customInstructions,
                existingQuestions: existingQuestions, cardLanguage: cardLanguage),
            progress: progress
        ).withSource(document)
    }

    /// Drafts about a topic (needs a language model).
    public func run(
        topic: String, depth: Int = 1, customInstructions: String = "", existingQuestions: [String] = [],
        cardLanguage: DocumentLanguage? = nil, progress: @escaping ProgressHandler = { _ in }
    ) async throws -> GenerationResult {
        try await generator.generate(
            GenerationRequest(
                source: .topic(topic), customInstructions: customInstructions, existingQuestions: existingQuestions,
                depth: depth, cardLanguage: cardLanguage),
            progress: progress)
    }

    /// The same as `run(data:…)` as a stream of events; cancelling the consumer cancels the work.
    public func events(
        data: Data, customInstructions: String = "", existingQuestions: [String] = [],
        cardLanguage: DocumentLanguage? = nil
    ) -> AsyncThrowingStream<Event, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let result = try await run(
                        data: data, customInstructions: customInstructions, existingQuestions: existingQuestions,
                        cardLanguage: cardLanguage
                    ) { continuation.yield(.progress($0)) }
                    continuation.yield(.finished(result))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

import FlashcardsCore
import Foundation

/// What to make cards from, and the user's wishes.
public struct GenerationRequest: Sendable {
    /// The material.
    public enum Source: Sendable {
        /// Extracted text of a PDF, image or pasted text.
        case document(ExtractedDocument)
        /// A topic name; needs a language model.
        case topic(String)
    }

    /// The material.
    public var source: Source
    /// The user's custom instructions ("Formuliere alle Karteikarten in Stichpunkten."); may be empty.
    public var customInstructions: String
    /// Questions already in the stack: drafts that ask one again are marked (`duplicateOf`), or
    /// for a topic left out.
    public var existingQuestions: [String]
    /// The most cards to return.
    public var maximumCards: Int
    /// For a topic: the batch's level, 1 for the basics, each later batch a level deeper.
    public var depth: Int
    /// The language a model writes the cards in (the learner's); nil: the material's. The offline
    /// rules always write in the material's language.
    public var cardLanguage: DocumentLanguage?

    /// Creates a request.
    public init(
        source: Source, customInstructions: String = "", existingQuestions: [String] = [], maximumCards: Int = 300,
        depth: Int = 1, cardLanguage: DocumentLanguage? = nil
    ) {
        self.cardLanguage = cardLanguage
        self.source = source
        self.customInstructions = customInstructions
        self.existingQuestions = existingQuestions
        self.maximumCards = maximumCards
        self.depth = depth
    }
}

/// Something the user should know about a finished generation.
public enum GenerationWarning: Sendable, Hashable, Codable {
    /// Only the first `used` of `total` sections were sent to the model (cost cap).
    case chunksCapped(used: Int, total: Int)
    /// `count` cards from the model were invalid and dropped.
    case cardsDropped(count: Int)
    /// A section's model output stayed invalid after the repair attempt and was skipped.
    case chunkSkipped(index: Int)
    /// No draft came from these sections of the source (their titles or first words).
    case sectionsWithoutCards(names: [String])

    /// German text for the review page.
    public var germanText: String {
        switch self {
        case .chunksCapped(let used, let total):
            "Das Dokument ist lang: Nur die ersten \(used) von \(total) Abschnitten wurden verarbeitet."
        case .cardsDropped(let count): "\(count) unbrauchbare Karten wurden verworfen."
        case .chunkSkipped(let index): "Abschnitt \(index) konnte nicht verarbeitet werden."
        case .sectionsWithoutCards(let names):
            (names.count == 1
                ? "Zu einem Abschnitt wurden keine Karten erstellt: "
                : "Zu \(names.count) Abschnitten wurden keine Karten erstellt: ") + Self.listed(names, and: "weitere")
        }
    }

    /// English text for the review page.
    public var englishText: String {
        switch self {
        case .chunksCapped(let used, let total):
            "The document is long: only the first \(used) of \(total) sections were processed."
        case .cardsDropped(let count): "\(count) unusable cards were dropped."
        case .chunkSkipped(let index): "Section \(index) could not be processed."
        case .sectionsWithoutCards(let names):
            (names.count == 1
                ? "No cards were made for one section: " : "No cards were made for \(names.count) sections: ")
                + Self.listed(names, and: "more")
        }
    }

    /// At most five names in quotes, then how many more, ending with a full stop.
    private static func listed(_ names: [String], and more: String) -> String {
        var text = names.prefix(5).map { "„\($0)“" }.joined(separator: ", ")
        if names.count > 5 { text += " (+\(names.count - 5) \(more))" }
        return text + "."
    }
}

/// The drafts of one generation.
public struct GenerationResult: Sendable, Hashable {
    /// The draft cards, in source order.
    public var cards: [DraftCard]
    /// The detected language of the material.
    public var language: DocumentLanguage
    /// Notes for the user.
    public var warnings: [GenerationWarning]
    /// The source as the rules read it (`TextCleaner.clean(pages:)`), for the draft review's source
    /// view; empty for a topic.
    public var sourcePages: [SourcePage] = []
    /// What the source was; nil for a topic.
    public var sourceType: ContentType?
    /// The titles (or first words) of the source's sections no draft came from; empty when the
    /// drafts do not name their source sentences.
    public var sectionsWithoutCards: [String] = []

    /// Creates a result.
    public init(cards: [DraftCard], language: DocumentLanguage, warnings: [GenerationWarning] = []) {
        self.cards = cards
        self.language = language
        self.warnings = warnings
    }

    /// The result with the document's cleaned pages and, when the drafts name their sources, the
    /// sections none came from (also as a warning).
    func withSource(_ document: ExtractedDocument) -> GenerationResult {
        var result = self
        result.sourcePages = TextCleaner.clean(pages: document.pages)
        result.sourceType = document.contentType
        guard cards.contains(where: { $0.source != nil }) else { return result }
        let outline = SourceOutline(cleanedPages: result.sourcePages).marked(with: cards.map(\.source))
        result.sectionsWithoutCards = outline.sectionsWithoutDrafts().map(\.label)
        if !result.sectionsWithoutCards.isEmpty {
            result.warnings.append(.sectionsWithoutCards(names: result.sectionsWithoutCards))
        }
        return result
    }
}

/// Makes draft cards. Implementations check `Task.isCancelled` between steps.
public protocol CardGenerator: Sendable {
    /// Makes draft cards for `request`, reporting progress.
    func generate(_ request: GenerationRequest, progress: @escaping ProgressHandler) async throws -> GenerationResult
}

/// The default generator: deterministic rules, no network (see `TextToCards`).
public struct OfflineCardGenerator: CardGenerator {
    /// Pages handled per step, so that progress moves and cancellation is noticed on long documents.
    public var pagesPerStep: Int

    /// Creates the generator.
    public init(pagesPerStep: Int = 20) {
        self.pagesPerStep = max(1, pagesPerStep)
    }

    /// Makes cards from a document; a topic alone throws `.topicNeedsModel`.
    public func generate(_ request: GenerationRequest, progress: @escaping ProgressHandler) async throws
        -> GenerationResult
    {
        guard case .document(let document) = request.source else { throw GenerationError.topicNeedsModel }
        try Task.checkCancellation()
        let language = LanguageDetector.detect(document.text)
        // Header/footer detection needs the whole document, so cleaning happens once up front;
        // the card rules then run over page groups (sections are allowed to span a group border).
        let cleaned = TextCleaner.clean(pages: document.pages)
        let groups = stride(from: 0, to: cleaned.count, by: pagesPerStep).map {
            Array(cleaned[$0..<min(cleaned.count, $0 + pagesPerStep)])
        }
        // Each group's drafts are final when reported (`draftsMade`): they leave out the facts of
        // earlier groups, so the server can show them while later pages are still read.
        var cards: [DraftCard] = []
        for (index, group) in groups.enumerated() {
            try Task.checkCancellation()
            if groups.count > 1 { progress(.chunkStarted(index: index + 1, total: groups.count)) }
            let made = TextToCards.makeCards(cleanedPages: group, options: TextToCardsOptions(language: language))
            var fresh = CardDeduplicator.deduplicate(
                made, after: cards, existingQuestions: request.existingQuestions)
            fresh = Array(fresh.prefix(max(0, request.maximumCards - cards.count)))
            cards += fresh
            if !fresh.isEmpty { progress(.draftsMade(fresh)) }
            progress(.cardsMade(count: cards.count))
        }
        guard !cards.isEmpty else { throw GenerationError.nothingGenerated }
        return GenerationResult(cards: cards, language: language)
    }
}

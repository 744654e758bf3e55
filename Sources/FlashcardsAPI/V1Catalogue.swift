import Foundation

/// The public catalogue ("Entdecken"): stacks their owners published with a category and a
/// language, for every signed-in learner to browse, preview and copy (`docs/explore.md`).
public enum CatalogueCategory: String, Codable, Sendable, Hashable, CaseIterable {
    case languages, science, math, geography, history, medicine, law, technology, business, arts, other
}

/// The languages a published stack can be in.
public enum CatalogueLanguage: String, Codable, Sendable, Hashable, CaseIterable {
    case de, en, fr, es, it, other
}

/// Why a learner reports a published stack.
public enum CatalogueReportReason: String, Codable, Sendable, Hashable, CaseIterable {
    /// Wrong or misleading content.
    case wrong
    /// Offensive or hateful.
    case offensive
    /// Advertising or nonsense.
    case spam
    /// Someone else's work.
    case copyright
    case other
}

/// `PUT /api/v1/stacks/{id}/publication`.
public struct PublishRequest: Codable, Sendable, Hashable {
    public var category: CatalogueCategory
    public var language: CatalogueLanguage

    public init(category: CatalogueCategory, language: CatalogueLanguage) {
        self.category = category
        self.language = language
    }
}

/// A stack's place in the catalogue (`GET|PUT /api/v1/stacks/{id}/publication`).
public struct PublicationDTO: Codable, Sendable, Hashable {
    /// The catalogue entry's id.
    @LowercaseUUID public var entryId: UUID
    public var category: CatalogueCategory
    public var language: CatalogueLanguage
    /// When the stack was first published.
    public var publishedAt: Date
    /// Where the web app shows the entry: `/app/explore/<entryId>`.
    public var path: String

    public init(entryId: UUID, category: CatalogueCategory, language: CatalogueLanguage, publishedAt: Date) {
        self.entryId = entryId
        self.category = category
        self.language = language
        self.publishedAt = publishedAt
        self.path = "/app/explore/" + entryId.uuidString.lowercased()
    }
}

/// A published stack as the catalogue lists it: what it is, how big, who made it, a preview.
public struct CatalogueEntryDTO: Codable, Sendable, Hashable {
    @LowercaseUUID public var id: UUID
    public var name: String
    public var description: String
    public var color: String
    @Nullable public var icon: StackIcon?
    public var category: CatalogueCategory
    public var language: CatalogueLanguage
    /// Cards in the stack now.
    public var cardCount: Int
    /// The publisher's display name (never the mail address).
    public var author: String
    /// Written by the Smart Flashcards team (the starter catalogue).
    public var official: Bool
    public var publishedAt: Date
    /// The stack's first cards (up to three), texts only.
    public var preview: [SharedCardDTO]
    /// Whether the caller published it.
    public var mine: Bool

    public init(
        id: UUID, name: String, description: String, color: String, icon: StackIcon?, category: CatalogueCategory,
        language: CatalogueLanguage, cardCount: Int, author: String, official: Bool, publishedAt: Date,
        preview: [SharedCardDTO], mine: Bool
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.color = color
        self.icon = icon
        self.category = category
        self.language = language
        self.cardCount = cardCount
        self.author = author
        self.official = official
        self.publishedAt = publishedAt
        self.preview = preview
        self.mine = mine
    }
}

/// `GET /api/v1/explore/{entryId}`: an entry with a page of its cards.
public struct CatalogueStackDTO: Codable, Sendable, Hashable {
    public var entry: CatalogueEntryDTO
    public var cards: PageDTO<SharedCardDTO>

    public init(entry: CatalogueEntryDTO, cards: PageDTO<SharedCardDTO>) {
        self.entry = entry
        self.cards = cards
    }
}

/// `POST /api/v1/explore/{entryId}/report`.
public struct ReportRequest: Codable, Sendable, Hashable {
    public var reason: CatalogueReportReason
    /// What is wrong, in the reporter's words; up to 1,000 characters.
    public var note: String?

    public init(reason: CatalogueReportReason, note: String? = nil) {
        self.reason = reason
        self.note = note
    }
}

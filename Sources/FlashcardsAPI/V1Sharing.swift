import Foundation

/// A stack's read-only link (`GET|POST|DELETE /api/v1/stacks/{id}/share`).
public struct ShareLinkDTO: Codable, Sendable, Hashable {
    /// The secret in the link: 43 characters of base64url.
    public var token: String
    /// Where the web app shows the stack: `/app/shared/<token>`.
    public var path: String
    /// When the link was made.
    public var createdAt: Date

    /// Creates the DTO.
    public init(token: String, createdAt: Date) {
        self.token = token
        self.path = "/app/shared/" + token
        self.createdAt = createdAt
    }
}

/// A card as a shared stack shows it: its texts, without any learning state.
public struct SharedCardDTO: Codable, Sendable, Hashable {
    /// Front side.
    public var question: String
    /// Back side.
    public var answer: String
    /// The hint; `nil` when there is none.
    @Nullable public var hint: String?
    /// How the texts are written.
    public var format: CardFormat
    /// A rich card's texts as sanitised HTML; `nil` for a plain card.
    @Nullable public var rendered: RenderedCardDTO?

    /// Creates the DTO.
    public init(question: String, answer: String, hint: String?, format: CardFormat, rendered: RenderedCardDTO?) {
        self.question = question
        self.answer = answer
        self.hint = hint
        self.format = format
        self.rendered = rendered
    }
}

/// `GET /api/v1/shared/{token}`: a shared stack for anyone with its link, a page of its cards.
public struct SharedStackDTO: Codable, Sendable, Hashable {
    /// The stack's name.
    public var name: String
    /// Its colour, `#RRGGBB`.
    public var color: String
    /// Its description (may be empty).
    public var description: String
    /// Its icon; `nil` for none.
    @Nullable public var icon: StackIcon?
    /// How many cards it has.
    public var cardCount: Int
    /// A page of its cards, in the order they were made.
    public var cards: PageDTO<SharedCardDTO>

    /// Creates the DTO.
    public init(
        name: String, color: String, description: String, icon: StackIcon?, cardCount: Int,
        cards: PageDTO<SharedCardDTO>
    ) {
        self.name = name
        self.color = color
        self.description = description
        self.icon = icon
        self.cardCount = cardCount
        self.cards = cards
    }
}

import Foundation

/// What the study partner is asked to do (`POST /api/v1/stacks/{id}/partner`).
public enum PartnerAction: String, Codable, Sendable, Hashable, CaseIterable {
    /// "Erklär mir das".
    case explain
    /// "Gib mir ein Beispiel".
    case example
    /// "Frag mich ab": one question, the answer kept back.
    case quiz
    /// "Mach 5 Karten mehr dazu": a generation job whose drafts go to the draft editor.
    case moreCards = "more_cards"
}

/// One earlier turn of the conversation.
public struct PartnerTurn: Codable, Sendable, Hashable {
    /// `user` or `assistant`.
    public var role: String
    public var content: String

    public init(role: String, content: String) {
        self.role = role
        self.content = content
    }
}

/// `POST /api/v1/stacks/{id}/partner`.
public struct PartnerRequest: Codable, Sendable, Hashable {
    /// 1 to 2,000 characters.
    public var message: String
    /// The card the conversation is about; nil: the stack.
    public var cardId: UUID?
    public var action: PartnerAction?
    /// The conversation so far, oldest first: at most 20 turns of at most 4,000 characters.
    public var history: [PartnerTurn]?

    public init(message: String, cardId: UUID? = nil, action: PartnerAction? = nil, history: [PartnerTurn]? = nil) {
        self.message = message
        self.cardId = cardId
        self.action = action
        self.history = history
    }
}

/// A card the answer draws on (`event: sources`).
public struct PartnerSourceDTO: Codable, Sendable, Hashable {
    @LowercaseUUID public var cardId: UUID
    public var question: String
    public var answer: String

    public init(cardId: UUID, question: String, answer: String) {
        self.cardId = cardId
        self.question = question
        self.answer = answer
    }
}

/// `event: sources`.
public struct PartnerSourcesEvent: Codable, Sendable, Hashable {
    public var sources: [PartnerSourceDTO]

    public init(sources: [PartnerSourceDTO]) { self.sources = sources }
}

/// `event: delta`: the next piece of the answer.
public struct PartnerDeltaEvent: Codable, Sendable, Hashable {
    public var text: String

    public init(text: String) { self.text = text }
}

/// `event: done`: the whole answer as sanitised HTML of its Markdown, and for `more_cards` the
/// generation job whose drafts the draft editor shows.
public struct PartnerDoneEvent: Codable, Sendable, Hashable {
    public var html: String
    @Nullable public var jobId: UUID?

    public init(html: String, jobId: UUID?) {
        self.html = html
        self.jobId = jobId
    }
}

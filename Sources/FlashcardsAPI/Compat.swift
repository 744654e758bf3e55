import FlashcardsCore
import Foundation

// Wire types of the original Smart Flashcards API (routes at the root), exactly as its web and
// iOS clients send and decode them. See /spec/compat-api.md.

/// `POST /signup`.
public struct CompatSignup: Codable, Sendable, Hashable {
    /// Display name.
    public var name: String
    /// E-mail.
    public var mail: String
    /// Password.
    public var password: String

    /// Creates the body.
    public init(name: String, mail: String, password: String) {
        self.name = name
        self.mail = mail
        self.password = password
    }
}

/// `POST /login`.
public struct CompatLogin: Codable, Sendable, Hashable {
    /// E-mail.
    public var mail: String
    /// Password.
    public var password: String

    /// Creates the body.
    public init(mail: String, password: String) {
        self.mail = mail
        self.password = password
    }
}

/// The answer to signup and login.
public struct CompatLoginResult: Codable, Sendable, Hashable {
    /// The display name.
    public var username: String
    /// The raw JWT the clients send as `Authorization`.
    public var token: String

    /// Creates the result.
    public init(username: String, token: String) {
        self.username = username
        self.token = token
    }
}

/// `POST /stack`.
public struct CompatStackContext: Codable, Sendable, Hashable {
    /// Name.
    public var name: String
    /// Colour.
    public var color: String

    /// Creates the body.
    public init(name: String, color: String) {
        self.name = name
        self.color = color
    }
}

/// A card's schedule for the caller.
public struct CompatMaturity: Codable, Sendable, Hashable {
    /// Numeric id.
    public var id: Int
    /// Due time, ISO-8601 with fractional seconds and `Z` (the iOS app decodes a string).
    public var maturity: String
    /// Ladder level.
    public var level: Int

    /// Creates the maturity.
    public init(id: Int, maturity: String, level: Int) {
        self.id = id
        self.maturity = maturity
        self.level = level
    }
}

/// A rating button of the original API.
public struct CompatDifficulty: Codable, Sendable, Hashable {
    /// 0 EASY, 1 MEDIUM, 2 HARD.
    public var id: Int
    /// German label.
    public var name: String
    /// Colour.
    public var color: String

    /// Creates the difficulty.
    public init(id: Int, name: String, color: String) {
        self.id = id
        self.name = name
        self.color = color
    }
}

/// An interval as the original API describes it, in both shapes its clients read: `displayName`
/// (what the Vue app shows) and `amount` + `unit` (the documented `Duration` model, which a client
/// written to it decodes). Both name the same interval.
public struct CompatDuration: Codable, Sendable, Hashable {
    /// E.g. `10 Minuten`.
    public var displayName: String
    /// E.g. `10`.
    public var amount: Int
    /// E.g. `MINUTES`.
    public var unit: DurationText.Unit

    /// Creates the duration.
    public init(displayName: String, amount: Int, unit: DurationText.Unit) {
        self.displayName = displayName
        self.amount = amount
        self.unit = unit
    }
}

/// A rating with the interval it would apply now.
public struct CompatDifficultyAndDuration: Codable, Sendable, Hashable {
    /// The rating.
    public var difficulty: CompatDifficulty
    /// Its interval.
    public var duration: CompatDuration

    /// Creates the pair.
    public init(difficulty: CompatDifficulty, duration: CompatDuration) {
        self.difficulty = difficulty
        self.duration = duration
    }
}

/// A card as the original clients decode it.
public struct CompatCard: Codable, Sendable, Hashable {
    /// Sequential numeric id.
    public var id: Int
    /// Lowercase UUID used in paths.
    public var uniqueId: String
    /// Front side.
    public var question: String
    /// Back side.
    public var answer: String
    /// Hint, `""` or `nil` for none.
    public var hint: String?
    /// Empty except on `GET …/card/next`.
    public var difficultyAndDurations: [CompatDifficultyAndDuration]
    /// The caller's schedule.
    public var maturity: CompatMaturity?

    /// Creates the card.
    public init(
        id: Int, uniqueId: String, question: String, answer: String, hint: String?,
        difficultyAndDurations: [CompatDifficultyAndDuration], maturity: CompatMaturity?
    ) {
        self.id = id
        self.uniqueId = uniqueId
        self.question = question
        self.answer = answer
        self.hint = hint
        self.difficultyAndDurations = difficultyAndDurations
        self.maturity = maturity
    }
}

/// A stack as the original clients decode it; `cards` is always present.
public struct CompatStack: Codable, Sendable, Hashable {
    /// Sequential numeric id.
    public var id: Int
    /// Lowercase UUID used in paths.
    public var uniqueId: String
    /// Name.
    public var name: String
    /// Colour.
    public var color: String
    /// All cards of the stack.
    public var cards: [CompatCard]

    /// Creates the stack.
    public init(id: Int, uniqueId: String, name: String, color: String, cards: [CompatCard]) {
        self.id = id
        self.uniqueId = uniqueId
        self.name = name
        self.color = color
        self.cards = cards
    }
}

/// `POST /card` and `PUT`/`DELETE /stack/{s}/card/{c}` bodies.
public struct CompatCardContext: Codable, Sendable, Hashable {
    /// The stack's uniqueId.
    public var stackId: String
    /// The card's uniqueId; the Vue app sends `""` on create, the iOS app omits it.
    public var cardId: String?
    /// Front side.
    public var question: String
    /// Back side.
    public var answer: String

    /// Creates the body.
    public init(stackId: String, cardId: String? = nil, question: String, answer: String) {
        self.stackId = stackId
        self.cardId = cardId
        self.question = question
        self.answer = answer
    }
}

/// `POST /stack/rating`. The Vue app sends `difficulty`, the iOS app `difficultyId`.
public struct CompatRating: Codable, Sendable, Hashable {
    /// The stack's uniqueId.
    public var stackId: String
    /// The card's uniqueId.
    public var cardId: String
    /// The rating id as the Vue app sends it.
    public var difficulty: Int?
    /// The rating id as the iOS app sends it.
    public var difficultyId: Int?

    /// Creates the body.
    public init(stackId: String, cardId: String, difficulty: Int? = nil, difficultyId: Int? = nil) {
        self.stackId = stackId
        self.cardId = cardId
        self.difficulty = difficulty
        self.difficultyId = difficultyId
    }
}

import FlashcardsCore
import Foundation

// Wire types of the primary API under `/api/v1`. See docs/api.md for the routes.

/// `POST /api/v1/auth/signup`.
public struct SignupRequest: Codable, Sendable, Hashable {
    /// Display name, 1…100 characters.
    public var name: String
    /// E-mail address; compared case-insensitively.
    public var mail: String
    /// Password, 8…72 characters.
    public var password: String
    /// IANA time zone, e.g. `Europe/Berlin`; the server default when absent.
    public var timeZone: String?

    /// Creates the request.
    public init(name: String, mail: String, password: String, timeZone: String? = nil) {
        self.name = name
        self.mail = mail
        self.password = password
        self.timeZone = timeZone
    }
}

/// `POST /api/v1/auth/login`.
public struct LoginRequest: Codable, Sendable, Hashable {
    /// E-mail address.
    public var mail: String
    /// Password.
    public var password: String

    /// Creates the request.
    public init(mail: String, password: String) {
        self.mail = mail
        self.password = password
    }
}

/// The answer to signup and login: a bearer token and the account.
public struct AuthResponse: Codable, Sendable, Hashable {
    /// A JWT for the `Authorization: Bearer …` header.
    public var token: String
    /// When the token stops working.
    public var expiresAt: Date
    /// The signed-in account.
    public var user: UserDTO

    /// Creates the response.
    public init(token: String, expiresAt: Date, user: UserDTO) {
        self.token = token
        self.expiresAt = expiresAt
        self.user = user
    }
}

/// An account as the API shows it to its owner.
public struct UserDTO: Codable, Sendable, Hashable {
    /// Stable id.
    @LowercaseUUID public var id: UUID
    /// Display name.
    public var name: String
    /// E-mail address as entered at signup.
    public var mail: String
    /// IANA time zone the user's day is counted in.
    public var timeZone: String
    /// When the account was made.
    public var createdAt: Date
    /// A guest account (no mail, no password) until `POST /auth/upgrade`; `mail` is "" meanwhile.
    public var isGuest: Bool
    /// False for an account a provider's sign-in made, until the learner sets a password of their
    /// own (`POST /me/password` without `currentPassword`); nil from servers before it.
    public var passwordSet: Bool?

    /// Creates the DTO.
    public init(
        id: UUID, name: String, mail: String, timeZone: String, createdAt: Date, isGuest: Bool = false,
        passwordSet: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.mail = mail
        self.timeZone = timeZone
        self.createdAt = createdAt
        self.isGuest = isGuest
        self.passwordSet = passwordSet
    }
}

/// `PATCH /api/v1/me`: fields left out stay as they are.
public struct UpdateUserRequest: Codable, Sendable, Hashable {
    /// New display name.
    public var name: String?
    /// New IANA time zone.
    public var timeZone: String?

    /// Creates the request.
    public init(name: String? = nil, timeZone: String? = nil) {
        self.name = name
        self.timeZone = timeZone
    }
}

/// `POST /api/v1/me/password`: changes the password, or sets the first one of an account a
/// provider's sign-in made (`UserDTO.passwordSet` false), which needs no current password but a
/// sign-in of at most 10 minutes ago (403 `reauthentication_required` otherwise).
public struct ChangePasswordRequest: Codable, Sendable, Hashable {
    /// The password in use now; left out when setting the first one.
    public var currentPassword: String?
    /// The new password, 8…72 characters.
    public var newPassword: String

    /// Creates the request.
    public init(currentPassword: String?, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}

/// `DELETE /api/v1/me`: the password confirms that the account and all its data go.
public struct DeleteAccountRequest: Codable, Sendable, Hashable {
    /// The account's password; a guest account has none and may leave it out.
    public var password: String?

    /// Creates the request.
    public init(password: String?) { self.password = password }
}

/// A stack with its counts.
public struct StackDTO: Codable, Sendable, Hashable {
    /// Stable id.
    @LowercaseUUID public var id: UUID
    /// Name.
    public var name: String
    /// Colour as `#RRGGBB`.
    public var color: String
    /// Number of cards.
    public var cardCount: Int
    /// Cards due before the end of the user's day.
    public var dueCount: Int
    /// Creation time.
    public var createdAt: Date
    /// Last change of name, colour or scheduler settings.
    public var updatedAt: Date
    /// The scheduler: `ladder` (the original three ratings) or `fsrs` (FSRS-6, four ratings).
    public var scheduler: SchedulerKind
    /// FSRS: the probability of recall a review is planned for, 0.70 … 0.99.
    public var desiredRetention: Double
    /// FSRS: learning steps of new cards, in seconds (default 60, 600).
    public var learningSteps: [Int]
    /// FSRS: relearning steps after a lapse, in seconds (default 600).
    public var relearningSteps: [Int]
    /// FSRS: new cards introduced per day at most.
    public var newCardsPerDay: Int
    /// FSRS: review cards shown per day at most; a larger backlog is spread over the next days.
    public var reviewsPerDay: Int
    /// Whether hints are made for the stack's cards and shown while learning (default true). While
    /// off, stored hints are kept but the study routes send `hint: null`.
    public var hintsEnabled: Bool
    /// The best time of the match game on this stack, in milliseconds; null before a first game.
    @Nullable public var matchBestMs: Int?
    /// What the stack is about ("" for nothing), up to 500 characters.
    public var description: String
    /// An icon name (`StackIcon`), null for the letter badge.
    @Nullable public var icon: String?
    /// Marked as a favourite.
    public var favorite: Bool
    /// The last review of one of its cards; null before the first.
    @Nullable public var lastStudiedAt: Date?
    /// The share of its cards in review state, 0 … 1 (the library's progress ring).
    public var reviewShare: Double

    /// Creates the DTO; the scheduler settings default to a ladder stack with FSRS defaults.
    public init(
        id: UUID, name: String, color: String, cardCount: Int, dueCount: Int, createdAt: Date, updatedAt: Date,
        scheduler: SchedulerKind = .ladder, desiredRetention: Double = 0.9, learningSteps: [Int] = [60, 600],
        relearningSteps: [Int] = [600], newCardsPerDay: Int = 20, reviewsPerDay: Int = 200, hintsEnabled: Bool = true,
        matchBestMs: Int? = nil, description: String = "", icon: String? = nil, favorite: Bool = false,
        lastStudiedAt: Date? = nil, reviewShare: Double = 0
    ) {
        self.description = description
        self.icon = icon
        self.favorite = favorite
        self.lastStudiedAt = lastStudiedAt
        self.reviewShare = reviewShare
        self.id = id
        self.name = name
        self.color = color
        self.cardCount = cardCount
        self.dueCount = dueCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.scheduler = scheduler
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.newCardsPerDay = newCardsPerDay
        self.reviewsPerDay = reviewsPerDay
        self.hintsEnabled = hintsEnabled
        self.matchBestMs = matchBestMs
    }
}

/// `POST /api/v1/stacks`. Scheduler settings left out get their defaults (`fsrs`, 0.90, …).
public struct CreateStackRequest: Codable, Sendable, Hashable {
    /// Name, 1…200 characters.
    public var name: String
    /// Colour as `#RRGGBB`.
    public var color: String
    /// `fsrs` (default) or `ladder`.
    public var scheduler: SchedulerKind?
    /// 0.70 … 0.99 (default 0.90).
    public var desiredRetention: Double?
    /// Learning steps in seconds, at most 10, each 1 s … 1 day (default 60, 600).
    public var learningSteps: [Int]?
    /// Relearning steps in seconds, at most 10, each 1 s … 1 day (default 600).
    public var relearningSteps: [Int]?
    /// New cards per day, 0 … 9999 (default 20).
    public var newCardsPerDay: Int?
    /// Reviews per day, 1 … 99999 (default 200).
    public var reviewsPerDay: Int?
    /// Whether hints are made and shown for the stack's cards (default true).
    public var hintsEnabled: Bool?
    /// What the stack is about, up to 500 characters.
    public var description: String?
    /// An icon name (`StackIcon`).
    public var icon: String?
    /// Marked as a favourite.
    public var favorite: Bool?

    /// Creates the request.
    public init(
        name: String, color: String, scheduler: SchedulerKind? = nil, desiredRetention: Double? = nil,
        learningSteps: [Int]? = nil, relearningSteps: [Int]? = nil, newCardsPerDay: Int? = nil,
        reviewsPerDay: Int? = nil, hintsEnabled: Bool? = nil, description: String? = nil, icon: String? = nil,
        favorite: Bool? = nil
    ) {
        self.name = name
        self.color = color
        self.scheduler = scheduler
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.newCardsPerDay = newCardsPerDay
        self.reviewsPerDay = reviewsPerDay
        self.hintsEnabled = hintsEnabled
        self.description = description
        self.icon = icon
        self.favorite = favorite
    }
}

/// `PATCH /api/v1/stacks/{id}`: fields left out stay as they are. A new `scheduler` recomputes every
/// card of the stack from its review history.
public struct UpdateStackRequest: Codable, Sendable, Hashable {
    /// New name.
    public var name: String?
    /// New colour.
    public var color: String?
    /// `fsrs` or `ladder`.
    public var scheduler: SchedulerKind?
    /// 0.70 … 0.99.
    public var desiredRetention: Double?
    /// Learning steps in seconds.
    public var learningSteps: [Int]?
    /// Relearning steps in seconds.
    public var relearningSteps: [Int]?
    /// New cards per day.
    public var newCardsPerDay: Int?
    /// Reviews per day.
    public var reviewsPerDay: Int?
    /// Hints on or off. Switching them on queues hints for the cards that have none; switching them
    /// off keeps the stored hints (they come back when switched on again).
    public var hintsEnabled: Bool?
    /// New description.
    public var description: String?
    /// The icon: absent keeps it, `null` removes it (see ``Patch``).
    public var icon: Patch<String>
    /// Marked as a favourite or not.
    public var favorite: Bool?

    /// Creates the request.
    public init(
        name: String? = nil, color: String? = nil, scheduler: SchedulerKind? = nil, desiredRetention: Double? = nil,
        learningSteps: [Int]? = nil, relearningSteps: [Int]? = nil, newCardsPerDay: Int? = nil,
        reviewsPerDay: Int? = nil, hintsEnabled: Bool? = nil, description: String? = nil,
        icon: Patch<String> = .keep, favorite: Bool? = nil
    ) {
        self.description = description
        self.icon = icon
        self.favorite = favorite
        self.name = name
        self.color = color
        self.scheduler = scheduler
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.newCardsPerDay = newCardsPerDay
        self.reviewsPerDay = reviewsPerDay
        self.hintsEnabled = hintsEnabled
    }
}

/// A card with its schedule.
public struct CardDTO: Codable, Sendable, Hashable {
    /// Stable id.
    @LowercaseUUID public var id: UUID
    /// The stack it belongs to.
    @LowercaseUUID public var stackId: UUID
    /// Front side.
    public var question: String
    /// Back side.
    public var answer: String
    /// A clue shown on request; `nil` when there is none.
    @Nullable public var hint: String?
    /// When the card is due next.
    public var dueAt: Date
    /// Ladder level (0 for new cards).
    public var level: Int
    /// Creation time.
    public var createdAt: Date
    /// Last edit.
    public var updatedAt: Date
    /// `new`, `learning`, `review` or `relearning` (ladder cards: `new`, `learning` below level 4, else `review`).
    @Nullable public var state: CardState?
    /// FSRS memory stability in days; nil for new and ladder cards.
    @Nullable public var stability: Double?
    /// FSRS difficulty, 1 … 10; nil for new and ladder cards.
    @Nullable public var difficulty: Double?
    /// The last review that counts (undone ones do not); nil for new cards.
    @Nullable public var lastReviewedAt: Date?
    /// Reviews that count.
    @Nullable public var reviewCount: Int?
    /// FSRS (re)learning step (0-based); nil in review, for new and for ladder cards. With the
    /// other fields it is the whole schedule, so a client can schedule the card offline.
    @Nullable public var step: Int?
    /// The first review that counts (the daily new-card limit counts cards first reviewed today).
    @Nullable public var firstReviewedAt: Date?
    /// The card's number on this server: it seeds the FSRS fuzz and orders cards due at the same
    /// moment, so a client scheduling offline needs it. Never reused, not meaningful elsewhere.
    @Nullable public var number: Int?
    /// Bookmarked by the learner (the feed's swipe left).
    public var bookmarked: Bool
    /// How question, answer and hint are written: `plain`, or `markdown` (the rich-text subset).
    public var format: CardFormat
    /// For a `markdown` card: its texts as sanitised HTML (formulas left for the client to typeset);
    /// `nil` for a plain card.
    @Nullable public var rendered: RenderedCardDTO?
    /// The card's kind (`CardKind`); the server always sends it, nil reads as `basic`.
    @WrittenWithDefault public var kind: CardKind?
    /// Which card of its note this is: 1 for the reversed side of a pair, the gap number of a cloze,
    /// otherwise 0.
    @WrittenWithDefault public var variant: Int?
    /// The note a reversed pair or a cloze's cards share; nil for a single card.
    @Nullable public var noteId: String?
    /// A multiple-choice card's wrong options; nil for other kinds.
    @Nullable public var choices: [String]?
    /// For every kind but `basic`: the sides as the learner sees them, written like the card (the
    /// `rendered` texts of a rich card are these sides), and the answer a reply is checked against.
    @Nullable public var shown: CardSidesDTO?

    /// Creates the DTO.
    public init(
        id: UUID, stackId: UUID, question: String, answer: String, hint: String?, dueAt: Date, level: Int,
        createdAt: Date, updatedAt: Date, state: CardState? = nil, stability: Double? = nil, difficulty: Double? = nil,
        lastReviewedAt: Date? = nil, reviewCount: Int? = nil, step: Int? = nil, firstReviewedAt: Date? = nil,
        number: Int? = nil, bookmarked: Bool = false, format: CardFormat = .plain, rendered: RenderedCardDTO? = nil,
        kind: CardKind? = .basic, variant: Int? = 0, noteId: String? = nil, choices: [String]? = nil,
        shown: CardSidesDTO? = nil
    ) {
        self.kind = kind
        self.variant = variant
        self.noteId = noteId
        self.choices = choices
        self.shown = shown
        self.number = number
        self.step = step
        self.firstReviewedAt = firstReviewedAt
        self.format = format
        self.rendered = rendered
        self.state = state
        self.stability = stability
        self.difficulty = difficulty
        self.lastReviewedAt = lastReviewedAt
        self.reviewCount = reviewCount
        self.bookmarked = bookmarked
        self.id = id
        self.stackId = stackId
        self.question = question
        self.answer = answer
        self.hint = hint
        self.dueAt = dueAt
        self.level = level
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `POST /api/v1/stacks/{id}/cards`.
public struct CreateCardRequest: Codable, Sendable, Hashable {
    /// Front side, 1…10,000 characters.
    public var question: String
    /// Back side, 1…20,000 characters.
    public var answer: String
    /// Optional clue, up to 2,000 characters.
    public var hint: String?
    /// When the card was made, for a card made offline (its reviews may not be older); not before
    /// 2000, at most a day ahead of the server's clock. Default: now.
    public var createdAt: Date?
    /// How the texts are written; default `plain`.
    public var format: CardFormat?
    /// The card's kind; default `basic`. A `reversed` card is made as a pair, a `cloze` as one card
    /// per gap number (the response is the first of them); the kind cannot change later.
    public var kind: CardKind?
    /// A `multipleChoice` card's wrong options (1…7, none equal to the answer or to each other).
    public var choices: [String]?

    /// Creates the request.
    public init(
        question: String, answer: String, hint: String? = nil, createdAt: Date? = nil, format: CardFormat? = nil,
        kind: CardKind? = nil, choices: [String]? = nil
    ) {
        self.kind = kind
        self.choices = choices
        self.format = format
        self.question = question
        self.answer = answer
        self.hint = hint
        self.createdAt = createdAt
    }
}

/// `PATCH /api/v1/stacks/{id}/cards/{cardId}`: fields left out stay; an empty hint removes it.
public struct UpdateCardRequest: Codable, Sendable, Hashable {
    /// New front side.
    public var question: String?
    /// New back side.
    public var answer: String?
    /// New hint; `""` removes the hint.
    public var hint: String?
    /// New format; left out: kept.
    public var format: CardFormat?
    /// A multiple-choice card's new wrong options; left out: kept.
    public var choices: [String]?

    /// Creates the request.
    public init(
        question: String? = nil, answer: String? = nil, hint: String? = nil, format: CardFormat? = nil,
        choices: [String]? = nil
    ) {
        self.choices = choices
        self.format = format
        self.question = question
        self.answer = answer
        self.hint = hint
    }
}

/// One page of a list.
public struct PageDTO<Item: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// The items of this page.
    public var items: [Item]
    /// The page number, from 1.
    public var page: Int
    /// Items per page.
    public var perPage: Int
    /// Items in all pages.
    public var total: Int

    /// Creates a page.
    public init(items: [Item], page: Int, perPage: Int, total: Int) {
        self.items = items
        self.page = page
        self.perPage = perPage
        self.total = total
    }
}

/// A rating the learner can give the current card, with the interval it would apply now.
public struct StudyOptionDTO: Codable, Sendable, Hashable {
    /// The key to send back when rating: `easy`, `medium`, `hard` (ladder) or `again`, `hard`, `good`,
    /// `easy` (FSRS).
    public var rating: RatingKey
    /// The original clients' numeric id of the rating: 0, 1, 2 (ladder) or 11, 12, 13, 14 (FSRS).
    public var id: Int
    /// German label, e.g. `Einfach`.
    public var label: String
    /// Button colour as `#RRGGBB`.
    public var color: String
    /// The interval this rating applies now, in seconds.
    public var intervalSeconds: Int
    /// The German name of that interval, e.g. `10 Minuten`.
    public var intervalText: String

    /// Creates the option.
    public init(rating: RatingKey, id: Int, label: String, color: String, intervalSeconds: Int, intervalText: String) {
        self.rating = rating
        self.id = id
        self.label = label
        self.color = color
        self.intervalSeconds = intervalSeconds
        self.intervalText = intervalText
    }
}

/// `GET /api/v1/stacks/{id}/study/next`: the next due card, or `card: null` when the session is done.
public struct StudyNextResponse: Codable, Sendable, Hashable {
    /// The card to learn now; `nil` when nothing is due before the cut-off.
    @Nullable public var card: CardDTO?
    /// The ratings offered for `card`, in button order.
    public var options: [StudyOptionDTO]
    /// Cards due before the cut-off, including `card`.
    public var dueCount: Int
    /// When the session is done: when the next card falls due (nil for an empty stack).
    @Nullable public var nextDueAt: Date?

    /// Creates the response.
    public init(card: CardDTO?, options: [StudyOptionDTO], dueCount: Int, nextDueAt: Date?) {
        self.card = card
        self.options = options
        self.dueCount = dueCount
        self.nextDueAt = nextDueAt
    }
}

/// `POST /api/v1/stacks/{id}/study/rate`.
public struct RateRequest: Codable, Sendable, Hashable {
    /// The card rated.
    @LowercaseUUID public var cardId: UUID
    /// One of the offered options' `rating` keys.
    public var rating: RatingKey
    /// Learn-ahead days of the session, so the answer's `next` uses the same cut-off.
    public var daysAhead: Int?
    /// A client-made id that makes a retried request idempotent.
    public var reviewId: UUID?
    /// How long the learner took to answer, in milliseconds.
    public var durationMs: Int?
    /// The study mode the rating was made in; `flashcards` when absent.
    public var mode: StudyMode?

    /// Creates the request.
    public init(
        cardId: UUID, rating: RatingKey, daysAhead: Int? = nil, reviewId: UUID? = nil, durationMs: Int? = nil,
        mode: StudyMode? = nil
    ) {
        self.cardId = cardId
        self.rating = rating
        self.daysAhead = daysAhead
        self.reviewId = reviewId
        self.durationMs = durationMs
        self.mode = mode
    }
}

/// The answer to a rating: the card's new schedule and the next card of the session.
public struct RateResponse: Codable, Sendable, Hashable {
    /// The rated card with its new due date.
    public var card: CardDTO
    /// What `study/next` would answer now, so a client needs no second round trip.
    public var next: StudyNextResponse

    /// Creates the response.
    public init(card: CardDTO, next: StudyNextResponse) {
        self.card = card
        self.next = next
    }
}

extension CardDTO {
    /// The front as the learner sees it: the sides of a card of another kind (a cloze's gap hidden),
    /// the question of a basic card.
    public var front: String { shown?.question ?? question }
    /// The back as the learner sees it.
    public var back: String { shown?.answer ?? answer }
}

/// A card's sides as the learner sees them (`CardSides`).
public struct CardSidesDTO: Codable, Sendable, Hashable {
    /// The front, written like the card.
    public var question: String
    /// The back, written like the card.
    public var answer: String
    /// The answer a typed reply or a chosen option is checked against, as plain text.
    public var expected: String

    /// The sides of `sides`.
    public init(_ sides: CardSides) {
        self.question = sides.question
        self.answer = sides.answer
        self.expected = sides.expected
    }
}

/// A rich card's texts as sanitised HTML: only the tags of `RichText.html`, every text escaped,
/// formulas as `<span class="math">` / `<div class="math math-display">` holding their LaTeX.
public struct RenderedCardDTO: Codable, Sendable, Hashable {
    /// The front side.
    public var question: String
    /// The back side.
    public var answer: String
    /// The hint; `nil` when there is none or it is hidden.
    @Nullable public var hint: String?

    /// Renders the three texts.
    public init(question: String, answer: String, hint: String?) {
        self.question = RichText.html(question)
        self.answer = RichText.html(answer)
        self.hint = hint.map { RichText.html($0) }
    }
}

/// `POST /api/v1/render`: a text of the rich-text subset, for an editor's preview.
public struct RenderRequest: Codable, Sendable, Hashable {
    /// The Markdown source, at most 20,000 characters.
    public var text: String

    /// Creates the request.
    public init(text: String) { self.text = text }
}

/// The answer of `POST /api/v1/render`.
public struct RenderResponse: Codable, Sendable, Hashable {
    /// The text as sanitised HTML (see ``RenderedCardDTO``).
    public var html: String
    /// The text without its formatting, as the original API shows it.
    public var plainText: String

    /// Creates the answer.
    public init(html: String, plainText: String) {
        self.html = html
        self.plainText = plainText
    }
}

/// A rating key of `/api/v1`: `again`, `hard`, `good`, `easy` on FSRS stacks, `easy`, `medium`,
/// `hard` on ladder stacks (the same word names the scheduler's own rating in each).
public enum RatingKey: String, Codable, Sendable, Hashable, CaseIterable {
    case again, hard, medium, good, easy
}

/// `GET /api/v1/stacks/{id}/study/quiz`: the next due card (as `study/next` picks it) as a
/// multiple-choice question. Its answer is rated through `study/rate` with `mode: quiz` and the
/// key of `ratingIfRight` (right on the first try) or `ratingIfWrong`.
public struct QuizResponse: Codable, Sendable, Hashable {
    /// The card asked; nil when the session is done.
    @Nullable public var card: CardDTO?
    /// The answers to choose from: the card's answer and up to three other cards' answers.
    public var choices: [String]
    /// Where the card's answer is in `choices` (nil without a card).
    @Nullable public var correctIndex: Int?
    /// Fewer than four choices: the stack has too few other answers.
    public var fewerChoices: Bool
    /// The rating key for an answer right on the first try (FSRS `good`, ladder `easy`).
    public var ratingIfRight: RatingKey
    /// The rating key otherwise (FSRS `again`, ladder `hard`).
    public var ratingIfWrong: RatingKey
    /// Due cards, as `study/next` counts them.
    public var dueCount: Int
    /// Without a card: when the next one falls due.
    @Nullable public var nextDueAt: Date?
    /// For each of `choices`, the sanitised HTML of a rich card's answer it stands for (formulas as
    /// `<span class="math">`, as `POST /render` gives), or nil where the plain words are all there
    /// is, and for the asked card's own answer (the client has the card).
    public var renderedChoices: [String?]

    /// Creates the response.
    public init(
        card: CardDTO?, choices: [String], correctIndex: Int?, fewerChoices: Bool, ratingIfRight: RatingKey,
        ratingIfWrong: RatingKey, dueCount: Int, nextDueAt: Date?, renderedChoices: [String?]? = nil
    ) {
        self.renderedChoices = renderedChoices ?? choices.map { _ in nil }
        self.card = card
        self.choices = choices
        self.correctIndex = correctIndex
        self.fewerChoices = fewerChoices
        self.ratingIfRight = ratingIfRight
        self.ratingIfWrong = ratingIfWrong
        self.dueCount = dueCount
        self.nextDueAt = nextDueAt
    }
}

/// `POST /api/v1/stacks/{id}/study/check`: what the learner typed for a card (Write mode). Nothing
/// is written; rate through `study/rate` with `mode: write`.
public struct CheckAnswerRequest: Codable, Sendable, Hashable {
    /// The card answered.
    @LowercaseUUID public var cardId: UUID
    /// What the learner typed.
    public var answer: String
    /// Also accept "e" for "é" and "a" for "ä"; "ß" always equals "ss".
    public var ignoreDiacritics: Bool?

    /// Creates the request.
    public init(cardId: UUID, answer: String, ignoreDiacritics: Bool? = nil) {
        self.cardId = cardId
        self.answer = answer
        self.ignoreDiacritics = ignoreDiacritics
    }
}

/// The answer to a check: how close it came, the character diff, and the rating it counts as.
public struct CheckAnswerResponse: Codable, Sendable, Hashable {
    /// `correct` (case, whitespace and punctuation aside), `close` (a typo; never for a number) or
    /// `wrong`.
    public var verdict: AnswerCheck.Verdict
    /// The card's answer.
    public var expected: String
    /// The typed answer against the expected one: runs that are the `same`, `extra` (typed, not in
    /// the answer) or `missing` (in the answer, not typed).
    public var diff: [AnswerCheck.Segment]
    /// The rating key the verdict counts as in the stack's scheduler (correct → FSRS `good` / ladder
    /// `easy`, close → `hard` / `medium`, wrong → `again` / `hard`).
    public var rating: RatingKey
    /// The key to send when the learner says "I was right" after all.
    public var ratingIfRight: RatingKey

    /// Creates the response.
    public init(
        verdict: AnswerCheck.Verdict, expected: String, diff: [AnswerCheck.Segment], rating: RatingKey,
        ratingIfRight: RatingKey
    ) {
        self.verdict = verdict
        self.expected = expected
        self.diff = diff
        self.rating = rating
        self.ratingIfRight = ratingIfRight
    }
}

/// `POST /api/v1/stacks/{id}/match`: a finished match game (practice: the schedule stays).
public struct MatchResultRequest: Codable, Sendable, Hashable {
    /// The game's time in milliseconds (500 … 3,600,000).
    public var milliseconds: Int

    /// Creates the request.
    public init(milliseconds: Int) { self.milliseconds = milliseconds }
}

/// The answer to a match result: the stack's best time now, and whether this game set it.
public struct MatchResultResponse: Codable, Sendable, Hashable {
    /// The best time in milliseconds.
    public var bestMs: Int
    /// This game is the new best time.
    public var newBest: Bool

    /// Creates the response.
    public init(bestMs: Int, newBest: Bool) {
        self.bestMs = bestMs
        self.newBest = newBest
    }
}

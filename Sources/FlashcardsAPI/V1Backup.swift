import FlashcardsCore
import Foundation

/// A backup: a whole account (`GET /api/v1/me/backup`, restored by `POST /api/v1/me/restore`) or
/// one stack (`GET /api/v1/stacks/{id}/export?format=json`, imported by `POST /api/v1/imports`).
///
/// Versioned: `format` is always `smart-flashcards-backup`, `version` says which shape follows. A
/// server reads every version up to its own and refuses newer ones. Everything is kept as stored:
/// the cards' schedules and the review log with its undo entries, so a restore reproduces the
/// account; figures computed from the log (XP, levels, streaks, day counts) are computed again.
public struct BackupDocumentDTO: Codable, Sendable, Hashable {
    /// The value of `format`.
    public static let formatName = "smart-flashcards-backup"
    /// The version this build writes and the newest it reads.
    public static let currentVersion = 1

    /// What the document holds.
    public enum Scope: String, Codable, Sendable, Hashable {
        /// A whole account: its stacks, settings and progress.
        case account
        /// Stacks only (an exported stack).
        case stacks
    }

    /// Always `smart-flashcards-backup`.
    public var format: String
    /// The shape's version (1).
    public var version: Int
    public var scope: Scope
    /// When it was written.
    public var createdAt: Date
    /// The account's settings and progress (scope `account` only).
    @Nullable public var account: BackupAccountDTO?
    public var stacks: [BackupStackDTO]
    /// The images the rich cards show (absent in documents from before images, and when there are
    /// none).
    public var images: [BackupImageDTO]?

    /// Creates a document of the current version.
    public init(
        scope: Scope, createdAt: Date, account: BackupAccountDTO?, stacks: [BackupStackDTO],
        images: [BackupImageDTO]? = nil
    ) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.scope = scope
        self.createdAt = createdAt
        self.account = account
        self.stacks = stacks
        self.images = images
    }
}

/// An image a rich card shows (`![description](image:<id>)`), as stored: re-encoded, without
/// metadata.
public struct BackupImageDTO: Codable, Sendable, Hashable {
    @LowercaseUUID public var id: UUID
    /// `image/jpeg`, `image/png`, `image/gif` or `image/webp`.
    public var mediaType: String
    /// The image's bytes (base64 in JSON).
    public var data: Data

    /// Creates the image.
    public init(id: UUID, mediaType: String, data: Data) {
        self.id = id
        self.mediaType = mediaType
        self.data = data
    }
}

/// An account's own data besides its stacks: never its mail address or password, which stay with
/// the account a backup is restored into.
public struct BackupAccountDTO: Codable, Sendable, Hashable {
    /// Display name.
    public var name: String
    /// IANA time zone (days, streaks and reminders follow it).
    public var timeZone: String
    public var createdAt: Date
    /// The learner's settings (nil when never changed).
    @Nullable public var settings: BackupSettingsDTO?
    /// The FSRS parameters the optimizer fitted (nil: the defaults).
    @Nullable public var schedulerParameters: BackupSchedulerParametersDTO?
    /// Days marked as rest days (`YYYY-MM-DD` in the account's time zone).
    public var restDays: [String]
    /// Mystery boxes opened.
    public var mysteryBoxes: [BackupMysteryBoxDTO]
    /// Achievements earned.
    public var achievements: [BackupAchievementDTO]

    public init(
        name: String, timeZone: String, createdAt: Date, settings: BackupSettingsDTO?,
        schedulerParameters: BackupSchedulerParametersDTO?, restDays: [String], mysteryBoxes: [BackupMysteryBoxDTO],
        achievements: [BackupAchievementDTO]
    ) {
        self.name = name
        self.timeZone = timeZone
        self.createdAt = createdAt
        self.settings = settings
        self.schedulerParameters = schedulerParameters
        self.restDays = restDays
        self.mysteryBoxes = mysteryBoxes
        self.achievements = achievements
    }
}

/// The learner's settings as stored (see `LearnerSettingsDTO` for their meaning).
public struct BackupSettingsDTO: Codable, Sendable, Hashable {
    public var language: String
    public var dailyGoal: Int
    public var focusMode: Bool
    public var remindersEnabled: Bool
    public var reminderTime: String
    public var leaderboardOptIn: Bool
    @Nullable public var theme: String?
    public var onboardingDone: Bool
    @Nullable public var purpose: String?
    @Nullable public var minutesPerDay: Int?
    public var interests: [String]
    /// Absent in backups made before the setting existed (then `true`).
    public var gameElements: Bool?
    /// Absent in backups made before load balancing (then `true`).
    public var loadBalancing: Bool?
    /// Absent in backups made before easy days (then all `normal`).
    public var easyDays: [EasyDay]?

    public init(
        language: String, dailyGoal: Int, focusMode: Bool, remindersEnabled: Bool, reminderTime: String,
        leaderboardOptIn: Bool, theme: String?, onboardingDone: Bool, purpose: String?, minutesPerDay: Int?,
        interests: [String], gameElements: Bool? = nil, loadBalancing: Bool? = nil, easyDays: [EasyDay]? = nil
    ) {
        self.loadBalancing = loadBalancing
        self.easyDays = easyDays
        self.gameElements = gameElements
        self.language = language
        self.dailyGoal = dailyGoal
        self.focusMode = focusMode
        self.remindersEnabled = remindersEnabled
        self.reminderTime = reminderTime
        self.leaderboardOptIn = leaderboardOptIn
        self.theme = theme
        self.onboardingDone = onboardingDone
        self.purpose = purpose
        self.minutesPerDay = minutesPerDay
        self.interests = interests
    }
}

/// FSRS parameters fitted by the optimizer.
public struct BackupSchedulerParametersDTO: Codable, Sendable, Hashable {
    /// The 21 FSRS-6 weights.
    public var parameters: [Double]
    public var optimizedAt: Date
    @Nullable public var logLoss: Double?
    @Nullable public var defaultLogLoss: Double?
    @Nullable public var reviews: Int?

    public init(parameters: [Double], optimizedAt: Date, logLoss: Double?, defaultLogLoss: Double?, reviews: Int?) {
        self.parameters = parameters
        self.optimizedAt = optimizedAt
        self.logLoss = logLoss
        self.defaultLogLoss = defaultLogLoss
        self.reviews = reviews
    }
}

/// A mystery box opened on `day`.
public struct BackupMysteryBoxDTO: Codable, Sendable, Hashable {
    /// `YYYY-MM-DD` in the account's time zone.
    public var day: String
    public var rarity: String
    @Nullable public var xp: Int?
    @Nullable public var theme: String?
    public var openedAt: Date

    public init(day: String, rarity: String, xp: Int?, theme: String?, openedAt: Date) {
        self.day = day
        self.rarity = rarity
        self.xp = xp
        self.theme = theme
        self.openedAt = openedAt
    }
}

/// An achievement earned.
public struct BackupAchievementDTO: Codable, Sendable, Hashable {
    public var kind: String
    public var earnedAt: Date

    public init(kind: String, earnedAt: Date) {
        self.kind = kind
        self.earnedAt = earnedAt
    }
}

/// A stack with its settings, cards and review log.
public struct BackupStackDTO: Codable, Sendable, Hashable {
    @LowercaseUUID public var id: UUID
    public var name: String
    public var color: String
    public var description: String
    @Nullable public var icon: String?
    public var favorite: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var hintsEnabled: Bool
    /// `ladder` or `fsrs`.
    public var scheduler: String
    public var desiredRetention: Double
    /// Minutes, as stored (`"1,10"`).
    public var learningSteps: String
    public var relearningSteps: String
    public var newCardsPerDay: Int
    public var reviewsPerDay: Int
    @Nullable public var spreadDay: Int?
    /// The best time of the matching game.
    @Nullable public var matchBestMs: Int?
    /// In creation order.
    public var cards: [BackupCardDTO]
    /// In the order they were written.
    public var reviews: [BackupReviewDTO]

    public init(
        id: UUID, name: String, color: String, description: String, icon: String?, favorite: Bool, createdAt: Date,
        updatedAt: Date, hintsEnabled: Bool, scheduler: String, desiredRetention: Double, learningSteps: String,
        relearningSteps: String, newCardsPerDay: Int, reviewsPerDay: Int, spreadDay: Int?, matchBestMs: Int?,
        cards: [BackupCardDTO], reviews: [BackupReviewDTO]
    ) {
        self.id = id
        self.name = name
        self.color = color
        self.description = description
        self.icon = icon
        self.favorite = favorite
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.hintsEnabled = hintsEnabled
        self.scheduler = scheduler
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.newCardsPerDay = newCardsPerDay
        self.reviewsPerDay = reviewsPerDay
        self.spreadDay = spreadDay
        self.matchBestMs = matchBestMs
        self.cards = cards
        self.reviews = reviews
    }
}

/// A card with its schedule as stored.
public struct BackupCardDTO: Codable, Sendable, Hashable {
    @LowercaseUUID public var id: UUID
    public var question: String
    public var answer: String
    @Nullable public var hint: String?
    /// Who wrote the hint: `user`, `generated`, …
    @Nullable public var hintSource: String?
    /// Space-separated, as Anki writes them.
    @Nullable public var tags: String?
    public var bookmarked: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var dueAt: Date
    public var level: Int
    public var reviewCount: Int
    public var queue: Int
    /// `new`, `learning`, `review` or `relearning`.
    public var state: String
    @Nullable public var step: Int?
    @Nullable public var stability: Double?
    @Nullable public var difficulty: Double?
    @Nullable public var firstReviewedAt: Date?
    @Nullable public var lastReviewedAt: Date?
    /// How the texts are written; documents written before rich text have none (plain).
    public var format: CardFormat?
    /// The card's kind; documents written before card kinds have none (basic).
    public var kind: CardKind?
    /// Which card of its note it is; none means 0.
    public var variant: Int?
    /// The note it shares with its siblings (a reversed pair, a cloze's gaps).
    public var noteId: String?
    /// A multiple-choice card's wrong options.
    public var choices: [String]?

    public init(
        id: UUID, question: String, answer: String, hint: String?, hintSource: String?, tags: String?,
        bookmarked: Bool, createdAt: Date, updatedAt: Date, dueAt: Date, level: Int, reviewCount: Int, queue: Int,
        state: String, step: Int?, stability: Double?, difficulty: Double?, firstReviewedAt: Date?,
        lastReviewedAt: Date?, format: CardFormat? = .plain, kind: CardKind? = nil, variant: Int? = nil,
        noteId: String? = nil, choices: [String]? = nil
    ) {
        self.format = format
        self.kind = kind
        self.variant = variant
        self.noteId = noteId
        self.choices = choices
        self.id = id
        self.question = question
        self.answer = answer
        self.hint = hint
        self.hintSource = hintSource
        self.tags = tags
        self.bookmarked = bookmarked
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.dueAt = dueAt
        self.level = level
        self.reviewCount = reviewCount
        self.queue = queue
        self.state = state
        self.step = step
        self.stability = stability
        self.difficulty = difficulty
        self.firstReviewedAt = firstReviewedAt
        self.lastReviewedAt = lastReviewedAt
    }
}

/// One entry of the review log: a rating or an undo, with the states before and after.
public struct BackupReviewDTO: Codable, Sendable, Hashable {
    @LowercaseUUID public var id: UUID
    /// The card's `id` in the same stack.
    @LowercaseUUID public var card: UUID
    public var reviewedAt: Date
    /// As stored: FSRS 1–4, the ladder's own numbers.
    public var rating: Int
    /// `ladder` or `fsrs`.
    public var scheduler: String
    /// JSON text of the state before the entry.
    public var stateBefore: String
    /// JSON text of the state after it.
    public var stateAfter: String
    @Nullable public var durationMs: Int?
    /// `review` or `undo`.
    public var kind: String
    /// The entry an undo takes back.
    @Nullable public var undoes: UUID?
    @Nullable public var elapsedDays: Int?
    /// The entry's number among the card's entries.
    public var seq: Int
    /// The study mode it was made in.
    public var mode: String
    /// The interval the load balancer chose (absent in backups made before it).
    public var balancedDays: Int?

    public init(
        id: UUID, card: UUID, reviewedAt: Date, rating: Int, scheduler: String, stateBefore: String,
        stateAfter: String, durationMs: Int?, kind: String, undoes: UUID?, elapsedDays: Int?, seq: Int, mode: String,
        balancedDays: Int? = nil
    ) {
        self.id = id
        self.card = card
        self.reviewedAt = reviewedAt
        self.rating = rating
        self.scheduler = scheduler
        self.stateBefore = stateBefore
        self.stateAfter = stateAfter
        self.durationMs = durationMs
        self.kind = kind
        self.undoes = undoes
        self.elapsedDays = elapsedDays
        self.seq = seq
        self.mode = mode
        self.balancedDays = balancedDays
    }
}

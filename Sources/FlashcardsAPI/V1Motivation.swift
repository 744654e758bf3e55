import FlashcardsCore
import Foundation

// Wire types of progress without pressure (issue 18): guest accounts, settings, the home screen's
// progress, rest days, the mystery box, the daily leaderboard and Web Push reminders.
// See docs/api.md and docs/motivation.md.

/// `POST /api/v1/auth/guest`.
public struct GuestRequest: Codable, Sendable, Hashable {
    /// IANA time zone; the server default when absent.
    public var timeZone: String?
    /// Interface language, `de` or `en`: the guest's name is made in it and it becomes the
    /// account's language; German when absent.
    public var language: String?

    public init(timeZone: String? = nil, language: String? = nil) {
        self.timeZone = timeZone
        self.language = language
    }
}

/// `POST /api/v1/auth/upgrade`: a guest account gets a mail and a password and keeps everything.
public struct UpgradeGuestRequest: Codable, Sendable, Hashable {
    /// A new display name; the guest name stays when absent.
    public var name: String?
    public var mail: String
    public var password: String

    public init(name: String? = nil, mail: String, password: String) {
        self.name = name
        self.mail = mail
        self.password = password
    }
}

/// The onboarding answers.
public struct OnboardingDTO: Codable, Sendable, Hashable {
    /// Finished or skipped.
    public var done: Bool
    /// `exam`, `language`, `curiosity` or `work`; null before an answer.
    @Nullable public var purpose: String?
    /// 5, 10, 15 or 20 (20 means "20 or more"); null before an answer.
    @Nullable public var minutesPerDay: Int?
    /// Topics the learner is interested in.
    public var interests: [String]

    public init(done: Bool = false, purpose: String? = nil, minutesPerDay: Int? = nil, interests: [String] = []) {
        self.done = done
        self.purpose = purpose
        self.minutesPerDay = minutesPerDay
        self.interests = interests
    }
}

/// `GET /api/v1/me/settings`.
public struct SettingsDTO: Codable, Sendable, Hashable {
    /// `de` or `en`.
    public var language: String
    /// Cards per day, 1 … 500.
    public var dailyGoal: Int
    /// Hides XP, levels, streaks, challenges, the box, achievements and leaderboards.
    public var focusMode: Bool
    /// Whether the app shows game elements (levels and XP, challenges, the box, achievements, the
    /// leaderboard) once they are earned; `false` keeps them out of sight (default `true`).
    public var gameElements: Bool
    public var remindersEnabled: Bool
    /// `HH:MM` in the learner's time zone.
    public var reminderTime: String
    public var leaderboardOptIn: Bool
    /// A colour theme won in a mystery box; null for the standard one.
    @Nullable public var theme: String?
    /// Themes won so far.
    public var unlockedThemes: [String]
    public var onboarding: OnboardingDTO
    /// Whether a rating's due day (FSRS, intervals up to 90 days) is chosen within its fuzz range by
    /// how many cards are due on each day, the weekday's weight and the card's siblings (default `true`).
    public var loadBalancing: Bool
    /// How much each weekday should get, Monday first (7 entries); planned rest days count as `minimum`.
    public var easyDays: [EasyDay]

    public init(
        language: String, dailyGoal: Int, focusMode: Bool, gameElements: Bool = true, remindersEnabled: Bool,
        reminderTime: String, leaderboardOptIn: Bool, theme: String?, unlockedThemes: [String],
        onboarding: OnboardingDTO, loadBalancing: Bool = true, easyDays: [EasyDay] = EasyDay.allNormal
    ) {
        self.loadBalancing = loadBalancing
        self.easyDays = easyDays
        self.language = language
        self.dailyGoal = dailyGoal
        self.focusMode = focusMode
        self.gameElements = gameElements
        self.remindersEnabled = remindersEnabled
        self.reminderTime = reminderTime
        self.leaderboardOptIn = leaderboardOptIn
        self.theme = theme
        self.unlockedThemes = unlockedThemes
        self.onboarding = onboarding
    }
}

/// `PATCH /api/v1/me/onboarding` part of a settings update: fields left out stay.
public struct OnboardingPatch: Codable, Sendable, Hashable {
    public var done: Bool?
    public var purpose: Patch<String>
    public var minutesPerDay: Patch<Int>
    public var interests: [String]?

    public init(
        done: Bool? = nil, purpose: Patch<String> = .keep, minutesPerDay: Patch<Int> = .keep, interests: [String]? = nil
    ) {
        self.done = done
        self.purpose = purpose
        self.minutesPerDay = minutesPerDay
        self.interests = interests
    }
}

/// `PATCH /api/v1/me/settings`: fields left out stay as they are.
public struct UpdateSettingsRequest: Codable, Sendable, Hashable {
    public var language: String?
    public var dailyGoal: Int?
    public var focusMode: Bool?
    public var gameElements: Bool?
    public var remindersEnabled: Bool?
    public var reminderTime: String?
    public var leaderboardOptIn: Bool?
    /// `null` returns to the standard theme.
    public var theme: Patch<String>
    public var onboarding: OnboardingPatch?
    public var loadBalancing: Bool?
    /// Seven of `normal`, `reduced`, `minimum`, Monday first.
    public var easyDays: [String]?

    public init(
        language: String? = nil, dailyGoal: Int? = nil, focusMode: Bool? = nil, gameElements: Bool? = nil,
        remindersEnabled: Bool? = nil, reminderTime: String? = nil, leaderboardOptIn: Bool? = nil,
        theme: Patch<String> = .keep, onboarding: OnboardingPatch? = nil, loadBalancing: Bool? = nil,
        easyDays: [String]? = nil
    ) {
        self.loadBalancing = loadBalancing
        self.easyDays = easyDays
        self.language = language
        self.dailyGoal = dailyGoal
        self.focusMode = focusMode
        self.gameElements = gameElements
        self.remindersEnabled = remindersEnabled
        self.reminderTime = reminderTime
        self.leaderboardOptIn = leaderboardOptIn
        self.theme = theme
        self.onboarding = onboarding
    }
}

/// A level and the XP around it.
public struct LevelDTO: Codable, Sendable, Hashable {
    public var level: Int
    public var totalXP: Int
    /// XP earned since this level began.
    public var xpIntoLevel: Int
    /// XP from the start of this level to the next.
    public var xpForNextLevel: Int

    public init(level: Int, totalXP: Int, xpIntoLevel: Int, xpForNextLevel: Int) {
        self.level = level
        self.totalXP = totalXP
        self.xpIntoLevel = xpIntoLevel
        self.xpForNextLevel = xpForNextLevel
    }
}

/// The streak: rest days and freezes bridge it, today never breaks it before it is over.
public struct StreakDTO: Codable, Sendable, Hashable {
    public var current: Int
    public var longest: Int
    public var freezes: Int
    public var activeToday: Bool
    public var restToday: Bool

    public init(current: Int, longest: Int, freezes: Int, activeToday: Bool, restToday: Bool) {
        self.current = current
        self.longest = longest
        self.freezes = freezes
        self.activeToday = activeToday
        self.restToday = restToday
    }
}

/// A day of the calendar: `active`, `rest`, `frozen` or `missed`.
public struct CalendarDayDTO: Codable, Sendable, Hashable {
    /// `YYYY-MM-DD`, the learner's day.
    public var date: String
    public var kind: String

    public init(date: String, kind: String) {
        self.date = date
        self.kind = kind
    }
}

/// One of the three daily challenges (`cardsStudied`, `perfectRun`, `newTopic`).
public struct ChallengeDTO: Codable, Sendable, Hashable {
    public var kind: String
    public var target: Int
    public var progress: Int
    public var xp: Int
    public var done: Bool

    public init(kind: String, target: Int, progress: Int, xp: Int, done: Bool) {
        self.kind = kind
        self.target = target
        self.progress = progress
        self.xp = xp
        self.done = done
    }
}

/// What a mystery box held: XP or a colour theme.
public struct BoxDTO: Codable, Sendable, Hashable {
    /// `common`, `rare`, `epic` or `legendary`.
    public var rarity: String
    @Nullable public var xp: Int?
    @Nullable public var theme: String?

    public init(rarity: String, xp: Int?, theme: String?) {
        self.rarity = rarity
        self.xp = xp
        self.theme = theme
    }
}

/// Today's box: whether it can be opened, and what it held once opened.
public struct MysteryBoxStateDTO: Codable, Sendable, Hashable {
    /// All three challenges are done.
    public var available: Bool
    @Nullable public var opened: BoxDTO?

    public init(available: Bool, opened: BoxDTO?) {
        self.available = available
        self.opened = opened
    }
}

/// An achievement earned.
public struct AchievementDTO: Codable, Sendable, Hashable {
    /// `firstSteps`, `scholar`, `dedicated`, `explorer`, `perfectionist`, `unstoppable`, `marathon`
    /// or `centurion`.
    public var kind: String
    public var xp: Int
    public var earnedAt: Date

    public init(kind: String, xp: Int, earnedAt: Date) {
        self.kind = kind
        self.xp = xp
        self.earnedAt = earnedAt
    }
}

/// `GET /api/v1/me/progress`: the home screen.
public struct ProgressDTO: Codable, Sendable, Hashable {
    /// `YYYY-MM-DD`: the learner's day (it starts at 04:00 in their time zone).
    public var today: String
    /// Distinct cards studied today.
    public var cardsToday: Int
    public var dailyGoal: Int
    /// Cards due by the end of today over all stacks.
    public var dueCount: Int
    /// XP earned today by cards, challenges, completed stacks and the streak bonus.
    public var xpToday: Int
    public var level: LevelDTO
    public var streak: StreakDTO
    /// The last 35 days with a kind (days without one are left out).
    public var calendar: [CalendarDayDTO]
    /// Rest days marked from today on.
    public var restDays: [String]
    public var challenges: [ChallengeDTO]
    public var mysteryBox: MysteryBoxStateDTO
    public var achievements: [AchievementDTO]
    public var focusMode: Bool
    /// The learner's `gameElements` setting.
    public var gameElements: Bool

    public init(
        today: String, cardsToday: Int, dailyGoal: Int, dueCount: Int, xpToday: Int, level: LevelDTO, streak: StreakDTO,
        calendar: [CalendarDayDTO], restDays: [String], challenges: [ChallengeDTO], mysteryBox: MysteryBoxStateDTO,
        achievements: [AchievementDTO], focusMode: Bool, gameElements: Bool = true
    ) {
        self.gameElements = gameElements
        self.today = today
        self.cardsToday = cardsToday
        self.dailyGoal = dailyGoal
        self.dueCount = dueCount
        self.xpToday = xpToday
        self.level = level
        self.streak = streak
        self.calendar = calendar
        self.restDays = restDays
        self.challenges = challenges
        self.mysteryBox = mysteryBox
        self.achievements = achievements
        self.focusMode = focusMode
    }
}

/// `POST /api/v1/me/mystery-box`.
public struct OpenBoxResponse: Codable, Sendable, Hashable {
    public var box: BoxDTO
    /// The level after the box's XP.
    public var level: LevelDTO

    public init(box: BoxDTO, level: LevelDTO) {
        self.box = box
        self.level = level
    }
}

/// One row of a leaderboard.
public struct LeaderboardEntryDTO: Codable, Sendable, Hashable {
    public var rank: Int
    /// The display name only.
    public var name: String
    public var value: Int
    public var isMe: Bool

    public init(rank: Int, name: String, value: Int, isMe: Bool) {
        self.rank = rank
        self.name = name
        self.value = value
        self.isMe = isMe
    }
}

/// The caller's place on a leaderboard.
public struct LeaderboardRankDTO: Codable, Sendable, Hashable {
    public var rank: Int
    public var value: Int

    public init(rank: Int, value: Int) {
        self.rank = rank
        self.value = value
    }
}

/// `GET /api/v1/leaderboards/daily`.
public struct LeaderboardDTO: Codable, Sendable, Hashable {
    /// The caller's day, `YYYY-MM-DD`.
    public var date: String
    /// `cards` (distinct cards studied) or `topics` (distinct stacks studied).
    public var metric: String
    public var optedIn: Bool
    /// The top 50 opted-in learners with a value above 0.
    public var entries: [LeaderboardEntryDTO]
    /// The caller's place; null when not opted in or nothing studied today.
    @Nullable public var me: LeaderboardRankDTO?

    public init(date: String, metric: String, optedIn: Bool, entries: [LeaderboardEntryDTO], me: LeaderboardRankDTO?) {
        self.date = date
        self.metric = metric
        self.optedIn = optedIn
        self.entries = entries
        self.me = me
    }
}

/// `GET /api/v1/push/key`: the server's VAPID public key.
public struct PushKeyDTO: Codable, Sendable, Hashable {
    /// The uncompressed P-256 point, base64url without padding (`applicationServerKey`).
    public var publicKey: String

    public init(publicKey: String) { self.publicKey = publicKey }
}

/// `POST /api/v1/me/push-subscriptions`: a browser's `PushSubscription.toJSON()`.
public struct PushSubscriptionRequest: Codable, Sendable, Hashable {
    public struct Keys: Codable, Sendable, Hashable {
        public var p256dh: String
        public var auth: String

        public init(p256dh: String, auth: String) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public var endpoint: String
    public var keys: Keys

    public init(endpoint: String, keys: Keys) {
        self.endpoint = endpoint
        self.keys = keys
    }
}

/// `DELETE /api/v1/me/push-subscriptions`.
public struct DeletePushSubscriptionRequest: Codable, Sendable, Hashable {
    public var endpoint: String

    public init(endpoint: String) { self.endpoint = endpoint }
}

/// The icons a stack can show in the library instead of its letter badge.
public enum StackIcon: String, Codable, Sendable, Hashable, CaseIterable {
    case book, language, science, math, history, code, music, art, health, law, business, globe
}

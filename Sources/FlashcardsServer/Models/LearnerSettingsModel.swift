import FlashcardsCore
import Fluent
import Foundation

/// A learner's settings (issue 18): onboarding answers, daily goal, focus mode, reminders,
/// leaderboard opt-in and theme, plus the bookkeeping of the day-figures cache and of reminders.
/// A learner without a row has the defaults; the row is written on the first change.
final class LearnerSettingsModel: Model, @unchecked Sendable {
    static let schema = "learner_settings"

    @ID(custom: "user_id", generatedBy: .user) var id: UUID?
    @Field(key: "language") var language: String
    @Field(key: "daily_goal") var dailyGoal: Int
    @Field(key: "focus_mode") var focusMode: Bool
    @Field(key: "game_elements") var gameElements: Bool
    @Field(key: "reminders_enabled") var remindersEnabled: Bool
    /// `HH:MM` in the learner's time zone.
    @Field(key: "reminder_time") var reminderTime: String
    @Field(key: "leaderboard_opt_in") var leaderboardOptIn: Bool
    @OptionalField(key: "theme") var theme: String?
    @Field(key: "onboarding_done") var onboardingDone: Bool
    @OptionalField(key: "purpose") var purpose: String?
    @OptionalField(key: "minutes_per_day") var minutesPerDay: Int?
    /// The interests as a JSON array of strings.
    @Field(key: "interests") var interests: String
    /// The learner day (`MotivationService.dayClock`) a reminder was last sent on.
    @OptionalField(key: "last_reminded_day") var lastRemindedDay: Int?
    /// What the cached day figures were computed for: time zone, day start hour and daily goal;
    /// when it differs, the cache is rebuilt.
    @OptionalField(key: "cache_key") var cacheKey: String?
    /// The last day whose figures are cached.
    @OptionalField(key: "cache_through") var cacheThrough: Int?
    /// The earliest review moment the log changed at since the cache was built (a review synced
    /// late, an undo, a deleted card or stack: `StudyTransaction.logChanged`); the cached days
    /// from its day on are rebuilt.
    @OptionalField(key: "cache_dirty_from") var cacheDirtyFrom: Date?
    /// Whether a rating's due day is chosen by the learner's load (`LearnerLoad`); on by default.
    @Field(key: "load_balancing") var loadBalancing: Bool
    /// How much each weekday should get, Monday first: `n` normal, `r` reduced, `m` minimum.
    @Field(key: "easy_days") var easyDaysCode: String

    init() {}

    /// The defaults for a learner.
    init(userId: UUID) {
        self.id = userId
        self.language = "de"
        self.dailyGoal = 20
        self.focusMode = false
        self.gameElements = true
        self.remindersEnabled = false
        self.reminderTime = "18:00"
        self.leaderboardOptIn = false
        self.theme = nil
        self.onboardingDone = false
        self.purpose = nil
        self.minutesPerDay = nil
        self.interests = "[]"
        self.loadBalancing = true
        self.easyDaysCode = Self.code(EasyDay.allNormal)
    }

    /// The weekdays' weights, Monday first (all normal for a code that is not seven known letters).
    var easyDays: [EasyDay] {
        let days = easyDaysCode.compactMap { letter in EasyDay.allCases.first { $0.rawValue.first == letter } }
        return days.count == 7 ? days : EasyDay.allNormal
    }

    /// The stored code of `days`: their initials.
    static func code(_ days: [EasyDay]) -> String { String(days.compactMap(\.rawValue.first)) }

    /// The learner's row, or the defaults (not yet stored) when there is none.
    static func find(for userId: UUID, on database: any Database) async throws -> LearnerSettingsModel {
        try await LearnerSettingsModel.find(userId, on: database) ?? LearnerSettingsModel(userId: userId)
    }

    var interestList: [String] {
        (try? JSONDecoder().decode([String].self, from: Data(interests.utf8))) ?? []
    }
}

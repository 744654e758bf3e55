import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation

/// The learner's settings: onboarding answers, daily goal, focus mode, reminders, leaderboard
/// opt-in, language and theme. Every value is validated before anything is written.
struct SettingsService {
    let context: ServiceContext
    let user: UserModel

    static let languages = ["de", "en"]
    static let purposes = ["exam", "language", "curiosity", "work"]
    static let minutesChoices = [5, 10, 15, 20]
    /// Cards per minute of study a day, for the goal the onboarding suggests.
    static let cardsPerMinute = 2
    static let maximumInterests = 12
    static let maximumInterestLength = 40

    func settings() async throws -> SettingsDTO {
        try await dto(try await LearnerSettingsModel.find(for: user.id!, on: context.db))
    }

    func update(_ change: UpdateSettingsRequest) async throws -> SettingsDTO {
        let settings = try await LearnerSettingsModel.find(for: user.id!, on: context.db)
        // Read for a new theme only, and then reused for the answer.
        var unlocked: [String]?
        if let language = change.language {
            guard Self.languages.contains(language) else {
                throw AppError.validation("Die Sprache muss de oder en sein.")
            }
            settings.language = language
        }
        if let onboarding = change.onboarding {
            if let done = onboarding.done { settings.onboardingDone = done }
            switch onboarding.purpose {
            case .keep: break
            case .clear: settings.purpose = nil
            case .set(let purpose):
                guard Self.purposes.contains(purpose) else {
                    throw AppError.validation("Das Ziel muss exam, language, curiosity oder work sein.")
                }
                settings.purpose = purpose
            }
            switch onboarding.minutesPerDay {
            case .keep: break
            case .clear: settings.minutesPerDay = nil
            case .set(let minutes):
                guard Self.minutesChoices.contains(minutes) else {
                    throw AppError.validation("Die Minuten pro Tag müssen 5, 10, 15 oder 20 sein.")
                }
                settings.minutesPerDay = minutes
                // The answer sets the daily goal unless the same request names one.
                if change.dailyGoal == nil { settings.dailyGoal = minutes * Self.cardsPerMinute }
            }
            if let interests = onboarding.interests {
                settings.interests = try Self.interestsText(interests)
            }
        }
        if let goal = change.dailyGoal {
            guard (1...500).contains(goal) else {
                throw AppError.validation("Das Tagesziel muss zwischen 1 und 500 Karten liegen.")
            }
            settings.dailyGoal = goal
        }
        if let focus = change.focusMode { settings.focusMode = focus }
        if let game = change.gameElements { settings.gameElements = game }
        if let enabled = change.remindersEnabled { settings.remindersEnabled = enabled }
        if let time = change.reminderTime {
            guard ReminderTime(text: time) != nil else {
                throw AppError.validation("Die Erinnerungszeit muss die Form HH:MM haben (00:00 bis 23:59).")
            }
            settings.reminderTime = time
        }
        if let optIn = change.leaderboardOptIn { settings.leaderboardOptIn = optIn }
        if let balancing = change.loadBalancing { settings.loadBalancing = balancing }
        if let names = change.easyDays {
            let days = names.compactMap(EasyDay.init(rawValue:))
            guard names.count == 7, days.count == 7 else {
                throw AppError.validation(
                    "easyDays braucht sieben Wochentage ab Montag, jeder normal, reduced oder minimum.")
            }
            settings.easyDaysCode = LearnerSettingsModel.code(days)
        }
        switch change.theme {
        case .keep: break
        case .clear: settings.theme = nil
        case .set(let theme):
            guard MysteryBox.themes.values.contains(where: { $0.contains(theme) }) else {
                throw AppError.validation("Dieses Farbschema gibt es nicht.")
            }
            unlocked = try await MotivationService(context: context, user: user).unlockedThemes()
            guard unlocked!.contains(theme) else {
                throw AppError.refused("Dieses Farbschema ist noch nicht freigeschaltet.", code: "theme_locked")
            }
            settings.theme = theme
        }
        try await Self.save(settings, on: context.db)
        if change.loadBalancing != nil || change.easyDays != nil { LearnerLoad.forget(userId: user.id!) }
        return try await dto(settings, unlockedThemes: unlocked)
    }

    /// The interests as stored: trimmed, without duplicates, each 1 … 40 characters, at most 12.
    static func interestsText(_ interests: [String]) throws -> String {
        // More than the limit is refused as sent, before repeats are dropped (as the document says).
        guard interests.count <= maximumInterests else {
            throw AppError.validation("Es sind höchstens \(maximumInterests) Interessen möglich.")
        }
        var cleaned: [String] = []
        for interest in interests {
            // As the document's schema says: the length as sent, in code points; no control
            // character (Unicode's Cc) anywhere; not blank.
            let text = TextCheck.trimmed(interest)
            guard !text.isEmpty, interest.unicodeScalars.count <= maximumInterestLength,
                !interest.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw AppError.validation("Jedes Interesse muss 1 bis \(maximumInterestLength) Zeichen lang sein.")
            }
            if !cleaned.contains(where: { $0.lowercased() == text.lowercased() }) { cleaned.append(text) }
        }
        guard cleaned.count <= maximumInterests else {
            throw AppError.validation("Es sind höchstens \(maximumInterests) Interessen möglich.")
        }
        return String(decoding: try JSONEncoder().encode(cleaned), as: UTF8.self)
    }

    /// Writes the row, creating it on the first change (two first changes racing: the second one
    /// updates the row the first created).
    static func save(_ settings: LearnerSettingsModel, on db: any Database) async throws {
        do {
            try await settings.save(on: db)
        } catch let error as any DatabaseError where error.isConstraintFailure && !settings.$id.exists {
            settings.$id.exists = true
            try await settings.save(on: db)
        }
    }

    private func dto(_ settings: LearnerSettingsModel, unlockedThemes known: [String]? = nil) async throws
        -> SettingsDTO
    {
        var unlockedThemes = known
        if unlockedThemes == nil {
            unlockedThemes = try await MotivationService(context: context, user: user).unlockedThemes()
        }
        return SettingsDTO(
            language: settings.language, dailyGoal: settings.dailyGoal, focusMode: settings.focusMode,
            gameElements: settings.gameElements, remindersEnabled: settings.remindersEnabled,
            reminderTime: settings.reminderTime,
            leaderboardOptIn: settings.leaderboardOptIn, theme: settings.theme,
            unlockedThemes: unlockedThemes ?? [],
            onboarding: OnboardingDTO(
                done: settings.onboardingDone, purpose: settings.purpose, minutesPerDay: settings.minutesPerDay,
                interests: settings.interestList),
            loadBalancing: settings.loadBalancing, easyDays: settings.easyDays)
    }
}

/// A reminder time of day, `HH:MM` on a 24-hour clock.
struct ReminderTime: Hashable {
    let hour: Int
    let minute: Int

    init?(text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.utf8.count == 5, parts.count == 2,
            parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        self.hour = hour
        self.minute = minute
    }
}

extension Character {
    /// 0 … 9 only (`Int("+5")` would take a sign, and `isNumber` other scripts' digits).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

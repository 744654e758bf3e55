import FlashcardsAPI
import FlashcardsClient
import Foundation
import Observation

/// Home: a greeting by the time of day, today's goal as a ring, what is due, and (unless focus mode
/// is on) level, streak and the day's challenges. Nothing here ever speaks of loss.
@MainActor @Observable
public final class HomeModel {
    /// Today's figures, or why they could not be loaded.
    public private(set) var state: LoadState<ProgressDTO> = .idle

    private let client: FlashcardsClient
    private let clock: any AppClock

    /// Home for `client`'s learner; `clock` decides the greeting.
    public init(client: FlashcardsClient, clock: any AppClock = SystemClock()) {
        self.client = client
        self.clock = clock
    }

    /// Loads today's figures.
    public func load() async {
        state = .loading
        do {
            state = .loaded(try await client.progress())
        } catch {
            state = .failed(UserFacingError.message(for: error))
        }
    }

    /// "Guten Morgen, Ada" (4–11 h), "Guten Tag" (11–18 h), "Guten Abend" (18–24 h), "Hallo"
    /// at night, by the clock in `timeZone` (the learner's, as the web app greets).
    public func greeting(name: String, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let hour = calendar.component(.hour, from: clock.now)
        let words =
            switch hour {
            case 4..<11: "Guten Morgen"
            case 11..<18: "Guten Tag"
            case 18...23: "Guten Abend"
            default: "Hallo"
            }
        return name.isEmpty ? words : "\(words), \(name)"
    }

    /// Today's goal as a share for the ring, 0 … 1 (more than the goal stays a full ring).
    public var goalFraction: Double {
        guard let progress = state.value, progress.dailyGoal > 0 else { return 0 }
        return min(1, Double(progress.cardsToday) / Double(progress.dailyGoal))
    }

    /// "8 / 20 Karten".
    public var goalText: String {
        guard let progress = state.value else { return "" }
        return "\(progress.cardsToday) / \(progress.dailyGoal) Karten"
    }

    /// Whether level, streak, challenges and achievements may be shown at all (focus mode and the
    /// game elements switched off hide them).
    public var showsMotivation: Bool { state.value.map { !$0.focusMode && $0.gameElements } ?? false }

    /// The game elements this learner has earned, as the web app's home shows them (none for a new
    /// learner, none while `showsMotivation` is false).
    public var earned: EarnedGameElements {
        state.value.map { EarnedGameElements(progress: $0, shown: showsMotivation) } ?? EarnedGameElements()
    }
}

/// Game elements appear once earned (the "no pressure" home; `Public/assets/js/views/home.js`
/// `earned` is the same rule): level and XP after the first review, the streak from two days in a
/// row, a streak freeze once one is earned, the longest streak when it is longer than today's, and
/// the daily challenges, box, calendar and achievements once a first learning day is over.
public struct EarnedGameElements: Sendable, Hashable {
    public var level = false
    public var streak = false
    public var freezes = false
    public var longest = false
    public var restDay = false
    /// Challenges, the mystery box and the calendar.
    public var daily = false
    public var achievements = false

    public init() {}

    public init(progress: ProgressDTO, shown: Bool = true) {
        guard shown else { return }
        let streak = progress.streak
        level = progress.level.totalXP > 0
        self.streak = streak.current >= 2
        freezes = streak.freezes > 0
        longest = streak.longest >= 2 && streak.longest > streak.current
        daily = Self.studiedBefore(progress)
        restDay = daily && streak.restToday
        achievements = daily && !progress.achievements.isEmpty
    }

    /// Whether the learner learned on a day before today.
    static func studiedBefore(_ progress: ProgressDTO) -> Bool {
        let streak = progress.streak
        if progress.calendar.contains(where: {
            $0.date < progress.today && ["active", "frozen", "missed"].contains($0.kind)
        }) {
            return true
        }
        if streak.longest >= 2 || streak.current >= 2 || (streak.longest >= 1 && !streak.activeToday) { return true }
        // An achievement from before yesterday (days older than the calendar's 35).
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = progress.today.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3,
            let today = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
        else { return false }
        let dayBefore = today.addingTimeInterval(-86_400)
        return progress.achievements.contains { $0.earnedAt < dayBefore }
    }
}

/// The first start: three screens on why the app is different, then the goal, the minutes per day
/// and interests. Every step can be skipped; the answers set the daily goal (the server's rule:
/// two cards a minute) and the suggested topics, and can be changed in the settings.
@MainActor @Observable
public final class OnboardingModel {
    /// The screens, in order.
    public enum Step: Int, CaseIterable, Sendable {
        case snapAndLearn, noGuilt, smartRepetition, goal, time, interests
    }

    /// The screen shown.
    public private(set) var step: Step = .snapAndLearn
    /// `exam`, `language`, `curiosity` or `work`.
    public var purpose: String?
    /// 5, 10, 15 or 20 (20 or more).
    public var minutesPerDay: Int?
    /// Chosen topics.
    public private(set) var interests: [String] = []
    /// Saved on the server (finished or skipped).
    public private(set) var isDone = false
    /// Why saving failed.
    public private(set) var errorMessage: String?

    /// The choices of the goal screen.
    public static let purposes = ["exam", "language", "curiosity", "work"]
    /// The choices of the time screen.
    public static let minuteChoices = [5, 10, 15, 20]
    /// The suggested interest chips.
    public static let suggestedInterests = [
        "Naturwissenschaften", "Geschichte", "Sprachen", "Mathematik", "Medizin", "Recht", "Kunst", "Technik",
        "Wirtschaft", "Musik",
    ]

    private let client: FlashcardsClient

    /// Onboarding for `client`'s learner.
    public init(client: FlashcardsClient) {
        self.client = client
    }

    /// Adds or removes a topic.
    public func toggle(interest: String) {
        if let index = interests.firstIndex(of: interest) {
            interests.remove(at: index)
        } else {
            interests.append(interest)
        }
    }

    /// The next screen; after the last one the answers are saved.
    public func next() async {
        if let following = Step(rawValue: step.rawValue + 1) {
            step = following
        } else {
            await save(skipping: false)
        }
    }

    /// The previous screen.
    public func back() {
        if let previous = Step(rawValue: step.rawValue - 1) { step = previous }
    }

    /// Skips the rest: onboarding counts as done, the answers given so far are kept.
    public func skip() async { await save(skipping: true) }

    private func save(skipping: Bool) async {
        let patch = OnboardingPatch(
            done: true, purpose: purpose.map { .set($0) } ?? .keep,
            minutesPerDay: minutesPerDay.map { .set($0) } ?? .keep,
            interests: interests.isEmpty && skipping ? nil : interests)
        do {
            _ = try await client.updateSettings(UpdateSettingsRequest(onboarding: patch))
            isDone = true
            errorMessage = nil
        } catch {
            errorMessage = UserFacingError.message(for: error)
        }
    }
}

import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation

/// XP, levels, streaks, challenges, the mystery box and achievements of one learner, computed from
/// the review log (never from numbers a client sends) by the rules in `FlashcardsCore/Motivation`.
///
/// The figures of finished days are cached in `motivation_days`, so the home screen reads one row
/// per active day and the log of today only. Whatever changes the log before today (a review
/// synced late, an undo, a deleted card or stack) marks the cache in the same transaction
/// (`StudyTransaction.logChanged`), and the days from that one on are rebuilt from the log at the next read. Nothing
/// is kept in the process, so every instance on one database agrees.
struct MotivationService {
    let context: ServiceContext
    let user: UserModel

    /// Learner days start at 04:00, as the statistics and FSRS count them.
    static let dayStartHour = SchedulerKind.fsrs.dayStartHour
    /// How far ahead rest days can be marked, in days.
    static let restDayReach = 60
    /// Days the calendar shows, today included.
    static let calendarDays = 35

    private var userId: UUID { user.id! }
    private var motivation: MotivationStore { context.store.motivation(of: userId) }
    var days: ActivityDays { ActivityDays(timeZone: user.zone, dayStartHour: Self.dayStartHour) }

    /// `YYYY-MM-DD` of a learner day number.
    static func dateText(_ day: Int) -> String {
        let date = CivilDate.date(daysSince1970: day)
        return String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
    }

    /// The learner day number of `YYYY-MM-DD`; nil for anything else.
    static func day(fromText text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let number = CivilDate.days(year: year, month: month, day: day)
        // 2026-02-30 would roll over into March: only real dates count.
        let back = CivilDate.date(daysSince1970: number)
        return back.month == month && back.day == day ? number : nil
    }

    // MARK: - Reading the log

    /// The learner's reviews from `start` on (before `end` when given), in review order, without
    /// the undone ones.
    private func reviews(from start: Date?, before end: Date?) async throws -> [ActivityReview] {
        try await motivation.reviews(from: start, before: end).map { row throws in
            let rating = try StudyRating.stored(scheduler: row.scheduler, rating: row.rating)
            return ActivityReview(card: row.card_id, stack: row.stack_id, at: row.reviewed_at, recall: rating.recall)
        }
    }

    /// Per stack of the learner: its cards and when it was first and last studied.
    func stackFacts() async throws -> [Int: StackService.CardFigures] {
        let service = StackService(context: context, user: user)
        return try await service.cardFigures(for: try await service.list())
    }

    // MARK: - Day figures

    /// What the cache was computed for: the day clock (a new time zone moves every day).
    private var cacheKey: String { "\(user.timeZone)|\(Self.dayStartHour)" }

    /// The figures of every day with reviews up to today: finished days from the cache (brought up
    /// to date first), today from the log.
    func dayFigures(settings: LearnerSettingsModel, facts: [Int: StackService.CardFigures], today: Int) async throws
        -> [Int: DayFigures]
    {
        let clock = days
        let todayStart = clock.start(of: today)
        let firstStudy = facts.compactMapValues { $0.firstStudiedAt.map(clock.day(of:)) }
        let sizes = facts.mapValues(\.cards)
        func figures(_ reviews: [ActivityReview]) -> [Int: DayFigures] {
            ActivityLog.figures(
                reviews: reviews, days: clock, firstStudyDay: firstStudy, stackSizes: sizes,
                dailyGoal: settings.dailyGoal)
        }

        // The cached days still true: all of them, none (another day clock, or the clock went
        // back), or those before the day the log changed at.
        var validThrough = -1
        if settings.cacheKey == cacheKey, let through = settings.cacheThrough, through < today {
            validThrough = through
            if let dirty = settings.cacheDirtyFrom { validThrough = min(through, clock.day(of: dirty) - 1) }
        }
        var result: [Int: DayFigures] = [:]
        if validThrough >= 0 {
            for row in try await motivation.cachedDays(through: validThrough) {
                result[row.day] = DayFigures(encoded: row.figures)
            }
        }
        if settings.cacheThrough != today - 1 || validThrough != today - 1 {
            // Bring the cache up to yesterday: the days after the valid ones, from the log.
            let from = validThrough >= 0 ? clock.start(of: validThrough + 1) : nil
            let fresh = figures(try await reviews(from: from, before: todayStart))
            try await store(fresh, replacingAfter: validThrough)
            try await markCached(settings, through: today - 1)
            result.merge(fresh) { $1 }
        }
        // Today, which is never cached: it is not over.
        for (day, figures) in figures(try await reviews(from: todayStart, before: nil)) where day >= today {
            result[day] = figures
        }
        return result
    }

    /// Notes the cache as built through `day`. A change of the log recorded meanwhile (a later
    /// `cache_dirty_from` than the one this build started from can only be a new one) is kept.
    private func markCached(_ settings: LearnerSettingsModel, through day: Int) async throws {
        let started = settings.cacheDirtyFrom
        settings.cacheKey = cacheKey
        settings.cacheThrough = day
        settings.cacheDirtyFrom = nil
        guard settings.$id.exists else {
            try await SettingsService.save(settings, on: context.db)
            return
        }
        try await motivation.markCached(key: cacheKey, through: day, started: started)
    }

    /// Replaces the cached days after `day` with `figures` (an instance racing with this one
    /// writes the same figures).
    private func store(_ figures: [Int: DayFigures], replacingAfter day: Int) async throws {
        try await motivation.replaceDays(after: day, with: figures.mapValues(\.encoded))
    }

    // MARK: - Progress

    /// Everything progress needs, read and computed once.
    struct State {
        let today: Int
        let settings: LearnerSettingsModel
        let figures: [Int: DayFigures]
        let rest: Set<Int>
        let summary: ProgressSummary
        let boxes: [Int: BoxDTO]
        let earned: [Achievements.Kind: Date]
        let facts: [Int: StackService.CardFigures]
    }

    /// Everything progress needs; `facts` when the caller read them already.
    func state(facts known: [Int: StackService.CardFigures]? = nil) async throws -> State {
        let today = days.day(of: context.now)
        let settings = try await LearnerSettingsModel.find(for: userId, on: context.db)
        let facts: [Int: StackService.CardFigures]
        if let known { facts = known } else { facts = try await stackFacts() }
        let figures = try await dayFigures(settings: settings, facts: facts, today: today)
        let rest = try await motivation.restDays()
        var boxes: [Int: BoxDTO] = [:]
        var boxXP = 0
        for row in try await motivation.boxes() {
            boxes[row.day] = BoxDTO(rarity: row.rarity, xp: row.xp, theme: row.theme)
            boxXP += row.xp ?? 0
        }
        var earned: [Achievements.Kind: Date] = [:]
        for row in try await motivation.achievements() {
            earned[try storedValue(Achievements.Kind.self, row.kind, column: "achievements.kind")] = row.earned_at
        }
        let summary = ProgressSummary(
            days: figures, rest: rest, today: today, earnedBefore: Set(earned.keys), boxXP: boxXP,
            stacksStudied: facts.values.filter { $0.firstStudiedAt != nil }.count)
        // Achievements are kept once earned, with the moment they were first seen.
        let new = summary.achievements.subtracting(earned.keys)
        if !new.isEmpty {
            try await motivation.addAchievements(new.map(\.rawValue).sorted(), at: context.now)
            for kind in new { earned[kind] = context.now }
        }
        return State(
            today: today, settings: settings, figures: figures, rest: rest, summary: summary, boxes: boxes,
            earned: earned, facts: facts)
    }

    /// The home screen, with the due count over all stacks.
    func progress() async throws -> ProgressDTO {
        let stacks = StackService(context: context, user: user)
        let list = try await stacks.list()
        let facts = try await stacks.cardFigures(for: list)
        let dueCount = try await stacks.counted(list, figures: facts).reduce(0) { $0 + $1.dueCount }
        let state = try await state(facts: facts)
        let today = state.today
        let todayFigures = state.figures[today] ?? DayFigures()
        let streak = state.summary.streak
        let calendar = ((today - Self.calendarDays + 1)...today).compactMap { day in
            streak.days[day].map { CalendarDayDTO(date: Self.dateText(day), kind: $0.rawValue) }
                ?? (state.rest.contains(day) ? CalendarDayDTO(date: Self.dateText(day), kind: "rest") : nil)
        }
        let challenges = DailyChallenges.challenges(
            dailyGoal: state.settings.dailyGoal, activity: todayFigures.activity
        ).map {
            ChallengeDTO(kind: $0.kind.rawValue, target: $0.target, progress: $0.progress, xp: $0.xp, done: $0.done)
        }
        let achievements = Achievements.Kind.allCases.compactMap { kind in
            state.earned[kind].map { AchievementDTO(kind: kind.rawValue, xp: kind.xp, earnedAt: $0) }
        }
        return ProgressDTO(
            today: Self.dateText(today), cardsToday: todayFigures.cards, dailyGoal: state.settings.dailyGoal,
            dueCount: dueCount, xpToday: state.summary.xpToday, level: state.summary.standing.dto,
            streak: StreakDTO(
                current: streak.current, longest: streak.longest, freezes: streak.freezes,
                activeToday: streak.activeToday, restToday: state.rest.contains(today)),
            calendar: calendar, restDays: state.rest.filter { $0 >= today }.sorted().map(Self.dateText),
            challenges: challenges,
            mysteryBox: MysteryBoxStateDTO(available: todayFigures.allChallengesDone, opened: state.boxes[today]),
            achievements: achievements, focusMode: state.settings.focusMode,
            gameElements: state.settings.gameElements)
    }

    /// Opens today's box once all three challenges are done; opening it again gives the same box.
    func openBox() async throws -> OpenBoxResponse {
        let state = try await state()
        let today = state.today
        if let opened = state.boxes[today] {
            return OpenBoxResponse(box: opened, level: state.summary.standing.dto)
        }
        guard (state.figures[today] ?? DayFigures()).allChallengesDone else {
            throw AppError.refused(
                "Die Überraschungsbox öffnet sich, wenn alle drei Tagesaufgaben geschafft sind.",
                code: "challenges_open")
        }
        let box = MysteryBox.open(seed: MysteryBox.seed(user: userId.uuidString.lowercased(), day: today))
        var xp: Int?
        var theme: String?
        switch box.reward {
        case .xp(let amount): xp = amount
        case .theme(let name): theme = name
        }
        // The seed makes every instance draw the same box; the key keeps one per day.
        try await motivation.addBox(
            .init(day: today, rarity: box.rarity.rawValue, xp: xp, theme: theme), openedAt: context.now)
        let dto = BoxDTO(rarity: box.rarity.rawValue, xp: xp, theme: theme)
        return OpenBoxResponse(box: dto, level: Levels.standing(forXP: state.summary.standing.totalXP + (xp ?? 0)).dto)
    }

    /// Themes won in boxes.
    func unlockedThemes() async throws -> [String] {
        try await motivation.themes()
    }

    /// Marks or unmarks a rest day: today or one of the next 60 days (a past day cannot be made a
    /// rest day afterwards; that would be a streak repair, which freezes are for).
    func setRestDay(_ text: String, rest: Bool) async throws {
        guard let day = Self.day(fromText: text) else {
            throw AppError.validation("Das Datum muss die Form JJJJ-MM-TT haben.")
        }
        let today = days.day(of: context.now)
        guard (today...(today + Self.restDayReach)).contains(day) else {
            throw AppError.refused(
                "Ruhetage lassen sich nur für heute und die nächsten 60 Tage festlegen.", code: "rest_day_out_of_range")
        }
        try await motivation.setRestDay(day, rest: rest)
        // A rest day is a minimum day for the load balancer.
        LearnerLoad.forget(userId: try user.requireID())
    }
}

extension Levels.Standing {
    var dto: LevelDTO {
        LevelDTO(level: level, totalXP: totalXP, xpIntoLevel: xpIntoLevel, xpForNextLevel: xpForNextLevel)
    }
}

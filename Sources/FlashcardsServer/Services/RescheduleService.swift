import FlashcardsAPI
import FlashcardsCore
import Foundation

/// Breaks, postponing and advancing (docs/fsrs.md "Breaks, postponing and advancing"): review cards
/// of FSRS stacks move to other days by `FSRSReschedule`; their memory and history stay. Like a
/// backlog spread, a move changes `due_at` only: the card's next rating replays its log and counts
/// the days that really passed.
struct RescheduleService {
    let context: ServiceContext
    let user: UserModel

    /// The longest break, in days.
    static let maximumBreak = 60
    /// How far ahead a break may start.
    static let maximumLead = 365
    /// The most cards one postponement or advance moves.
    static let maximumCount = 10_000
    /// The most days a result lists.
    static let maximumDays = 60

    private struct Setting {
        let stacks: [StackModel]
        let scheduler: CardScheduler
        let today: Int
        let cards: [FSRSReschedule.Card]
    }

    /// Plans the break `request` names and, unless it is a preview, moves the cards (and marks the
    /// days away as rest days when asked).
    func planBreak(_ scope: WorkloadService.Scope, request: BreakRequest) async throws -> RescheduleDTO {
        guard let first = MotivationService.day(fromText: request.from),
            let last = MotivationService.day(fromText: request.to)
        else { throw AppError.validation("Das Datum muss die Form JJJJ-MM-TT haben.") }
        // Days that do not fit (also depending on today): 409, as for rest days.
        guard first <= last else {
            throw AppError.refused("Das Ende der Pause liegt vor ihrem Anfang.", code: "break_out_of_range")
        }
        guard last - first < Self.maximumBreak else {
            throw AppError.refused(
                "Eine Pause darf höchstens \(Self.maximumBreak) Tage dauern.", code: "break_out_of_range")
        }
        let setting = try await load(scope, through: last + FSRSReschedule.maximumSpread + 1)
        let today = setting.today
        guard last >= today else {
            throw AppError.refused("Diese Pause liegt schon in der Vergangenheit.", code: "break_out_of_range")
        }
        guard first - today <= Self.maximumLead else {
            throw AppError.refused(
                "Eine Pause lässt sich höchstens ein Jahr im Voraus planen.", code: "break_out_of_range")
        }
        let load = try await learnerLoad(setting, through: last + FSRSReschedule.maximumSpread + 1)
        let retention = setting.stacks.map(\.desiredRetention).min() ?? StackSettings().desiredRetention
        let plan = FSRSReschedule.planBreak(
            cards: setting.cards, today: today, first: first, last: last, load: { load[$0] ?? 0 },
            model: setting.scheduler.fsrs.model, floor: max(0.5, retention - 0.1))
        let moves = plan.advanced.merging(plan.postponed) { a, _ in a }
        let shown = (plan.daysBefore?.lowerBound ?? max(first, today))...plan.daysAfter.upperBound
        let result = summary(
            setting, moves: moves, load: load, days: shown, advanced: plan.advanced.count,
            postponed: plan.postponed.count, preview: request.preview ?? false)
        guard !result.preview else { return result }
        try await apply(moves, setting)
        // Rest days reach as far as their own limit; a break beyond that gets none.
        let reach = today + MotivationService.restDayReach
        let restDays = max(first, today)...max(first, today, min(last, reach))
        if request.restDays ?? true, restDays.upperBound <= reach {
            let motivation = context.store.motivation(of: try user.requireID())
            for day in restDays { try await motivation.setRestDay(day, rest: true) }
        }
        return result
    }

    /// Postpones (`later`) or advances up to `request.count` review cards.
    func move(_ scope: WorkloadService.Scope, request: RescheduleRequest, later: Bool) async throws -> RescheduleDTO {
        guard (1...Self.maximumCount).contains(request.count) else {
            throw AppError.validation("count muss zwischen 1 und \(Self.maximumCount) liegen.")
        }
        let setting = try await load(scope, through: nil)
        let model = setting.scheduler.fsrs.model
        let moves =
            later
            ? FSRSReschedule.postpone(request.count, of: setting.cards, today: setting.today, model: model)
            : FSRSReschedule.advance(request.count, of: setting.cards, today: setting.today, model: model)
        let cardDays = Dictionary(uniqueKeysWithValues: setting.cards.map { ($0.id, $0.dueDay) })
        let lastDay = (moves.keys.compactMap { cardDays[$0] } + Array(moves.values) + [setting.today]).max()!
        let end = min(lastDay, setting.today + Self.maximumDays - 1)
        let load = try await learnerLoad(setting, through: end)
        let result = summary(
            setting, moves: moves, load: load, days: setting.today...end, advanced: later ? 0 : moves.count,
            postponed: later ? moves.count : 0, preview: request.preview ?? false)
        if !result.preview { try await apply(moves, setting) }
        return result
    }

    /// The scope's FSRS stacks, their scheduler (the learner's day and memory model) and review cards
    /// (due before learner day `through`, or all).
    private func load(_ scope: WorkloadService.Scope, through: Int?) async throws -> Setting {
        let userId = try user.requireID()
        let stacks = try await WorkloadService.fsrsStacks(scope, of: userId, context: context)
        let parameters = try await context.store.parameters(of: userId)
        let scheduler =
            stacks.first.map { SchedulerCache.scheduler(for: $0, user: user, parameters: parameters) }
            ?? CardScheduler(settings: StackSettings(scheduler: .fsrs), timeZone: user.zone, parameters: nil)
        let today = scheduler.day(of: context.now)
        let end = through.map { scheduler.start(ofDay: $0) } ?? .distantFuture
        let rows = try await context.store.workload.reviewCards(stackIds: stacks.map { $0.id! }, dueBefore: end)
        let cards = rows.compactMap { row -> FSRSReschedule.Card? in
            guard let stability = row.stability, let last = row.last_reviewed_at else { return nil }
            return FSRSReschedule.Card(
                id: row.id, dueDay: scheduler.day(of: row.due_at), lastReviewDay: scheduler.day(of: last),
                stability: stability)
        }
        return Setting(stacks: stacks, scheduler: scheduler, today: today, cards: cards)
    }

    /// The learner's review cards (all stacks) due on each day from today through `through`.
    private func learnerLoad(_ setting: Setting, through: Int) async throws -> [Int: Int] {
        try await LearnerLoad.dueCounts(
            userId: try user.requireID(), from: setting.today, through: through, scheduler: setting.scheduler,
            context: context)
    }

    private func summary(
        _ setting: Setting, moves: [Int: Int], load: [Int: Int], days: ClosedRange<Int>, advanced: Int,
        postponed: Int, preview: Bool
    ) -> RescheduleDTO {
        var after = load
        let cardDays = Dictionary(uniqueKeysWithValues: setting.cards.map { ($0.id, $0.dueDay) })
        for (id, day) in moves {
            if let from = cardDays[id], from >= setting.today { after[from, default: 0] -= 1 }
            after[day, default: 0] += 1
        }
        let shown = days.lowerBound...min(days.upperBound, days.lowerBound + Self.maximumDays - 1)
        return RescheduleDTO(
            advanced: advanced, postponed: postponed,
            days: shown.map {
                RescheduleDayDTO(
                    date: MotivationService.dateText($0), before: load[$0] ?? 0, after: max(0, after[$0] ?? 0))
            },
            preview: preview)
    }

    /// Moves the cards, one statement per day (due times one second apart from the day's start, in
    /// the plan's order), and forgets the counts kept of them.
    private func apply(_ moves: [Int: Int], _ setting: Setting) async throws {
        guard !moves.isEmpty else { return }
        let scheduler = setting.scheduler
        let byDay = Dictionary(grouping: moves.keys.sorted(), by: { moves[$0]! })
        let stackIds = setting.stacks.map { $0.id! }
        try await context.store.writeTransaction { tx in
            for (day, ids) in byDay { try await tx.setDue(ids, from: scheduler.start(ofDay: day)) }
            try await tx.forgetDayCounts(stackIds: stackIds)
        }
        LearnerLoad.forget(userId: try user.requireID())
    }
}

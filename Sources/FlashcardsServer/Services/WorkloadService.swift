import FlashcardsAPI
import FlashcardsCore
import Foundation

/// The days ahead as the FSRS simulator expects them (`FSRSSimulator`), per stack or over all of a
/// user's FSRS stacks: the workload forecast, "what if" simulations and the retention advice. Each
/// stack is simulated with its own settings from its cards' real memory states; how long the
/// learner takes per answer and which buttons they press come from their recent reviews
/// (`FSRSBehaviour.measured`); planned rest days count as minimum days for the load balancer.
struct WorkloadService {
    let context: ServiceContext
    let user: UserModel
    /// FSRS parameters to simulate with instead of the learner's (an optimization's "what changed").
    var parameters: [Double]? = nil

    /// What is simulated.
    enum Scope {
        case stack(StackModel)
        case user
    }

    /// Answers read to learn the learner's habits.
    static let answersRead = 5_000
    /// Days of the retention advice.
    static let adviceDays = 365

    private var dayCounting: FSRSDayCounting {
        .rollover(hourOfDay: SchedulerKind.fsrs.dayStartHour, timeZone: user.zone)
    }

    /// The forecast for the next `days` days with the stacks' settings, or with `changes`.
    func workload(_ scope: Scope, days: Int, changes: SimulationRequest = SimulationRequest()) async throws
        -> WorkloadDTO
    {
        try Self.validate(changes)
        let days = changes.days ?? days
        let inputs = try await self.inputs(scope, changes: changes)
        let behaviour = inputs.behaviour
        // Off the event loops: a detached task would run on an event loop too (`runOffEventLoops`).
        let result = try await runOffEventLoops { _ in
            FSRSSimulator.run(inputs.groups, days: days, behaviour: behaviour)
        }
        let dayList = (0..<days).map { offset in
            WorkloadDayDTO(
                date: MotivationService.dateText(inputs.today + offset), reviews: result.reviews[offset],
                newCards: result.learned[offset], minutes: (result.seconds[offset] / 60 * 10).rounded() / 10,
                remembered: (result.memorized[offset] * 10).rounded() / 10)
        }
        let answered = result.reviews.reduce(0, +) + result.learned.reduce(0, +)
        return WorkloadDTO(
            days: dayList, averageReviews: Double(answered) / Double(days), averageMinutes: result.averageMinutes,
            remembered: result.finalMemorized, cards: inputs.cardCount, minutesBudget: inputs.minutesBudget)
    }

    /// A year simulated at each retention from 0.70 to 0.97, with a recommendation.
    func retentionAdvice(_ scope: Scope) async throws -> RetentionAdviceDTO {
        let inputs = try await self.inputs(scope, changes: SimulationRequest())
        let behaviour = inputs.behaviour
        let advice = try await runOffEventLoops { _ in
            FSRSRetentionAdvice.advise(
                groups: inputs.groups, days: Self.adviceDays, behaviour: behaviour, minutesBudget: inputs.minutesBudget,
                current: inputs.currentRetention)
        }
        return RetentionAdviceDTO(
            options: advice.options.map {
                RetentionOptionDTO(
                    desiredRetention: $0.desiredRetention, reviewsPerDay: $0.reviewsPerDay,
                    minutesPerDay: $0.minutesPerDay, remembered: $0.remembered)
            }, recommended: advice.recommended, current: inputs.currentRetention, reason: advice.reason.rawValue,
            minutesBudget: advice.minutesBudget, days: advice.days)
    }

    /// Every "what if" value within its range, or a 400 naming the first that is not.
    static func validate(_ changes: SimulationRequest) throws {
        if let days = changes.days, !(1...365).contains(days) {
            throw AppError.validation("days muss zwischen 1 und 365 liegen.")
        }
        if let value = changes.newCardsPerDay, !(0...1_000).contains(value) {
            throw AppError.validation("newCardsPerDay muss zwischen 0 und 1000 liegen.")
        }
        if let value = changes.reviewsPerDay, !(0...10_000).contains(value) {
            throw AppError.validation("reviewsPerDay muss zwischen 0 und 10000 liegen.")
        }
        if let value = changes.desiredRetention, !(0.7...0.97).contains(value) {
            throw AppError.validation("desiredRetention muss zwischen 0.7 und 0.97 liegen.")
        }
        if let value = changes.additionalNewCards, !(0...100_000).contains(value) {
            throw AppError.validation("additionalNewCards muss zwischen 0 und 100000 liegen.")
        }
    }

    // MARK: Inputs

    private struct Inputs: Sendable {
        var groups: [FSRSSimulator.Group]
        var behaviour: FSRSBehaviour
        var today: Int
        var cardCount: Int
        var currentRetention: Double
        var minutesBudget: Int?
    }

    /// The FSRS stacks of `scope`; a ladder stack is refused (409 `workload_needs_fsrs`).
    static func fsrsStacks(_ scope: Scope, of userId: UUID, context: ServiceContext) async throws -> [StackModel] {
        switch scope {
        case .stack(let stack):
            guard try stack.schedulerKind == .fsrs else {
                throw AppError.refused(
                    "Die Vorschau rechnet mit FSRS; dieser Stapel nutzt die Lernstufen.", code: "workload_needs_fsrs")
            }
            return [stack]
        case .user:
            return try await context.store.stacks(of: userId).filter { (try? $0.schedulerKind) == .fsrs }
        }
    }

    /// The simulator's groups (one per FSRS stack), the learner's habits and budget.
    private func inputs(_ scope: Scope, changes: SimulationRequest) async throws -> Inputs {
        let userId = try user.requireID()
        let stacks = try await Self.fsrsStacks(scope, of: userId, context: context)
        let counting = dayCounting
        let today = counting.dayNumber(of: context.now)
        let stored = try await context.store.parameters(of: userId).flatMap(SchedulerParametersModel.weights)
        let parameters = self.parameters ?? stored ?? FSRSConfiguration.defaultParameters
        let restDays = Set(try await context.store.motivation(of: userId).restDays().map { $0 - today })
        // The learner's load balancing and easy days, as ratings place cards.
        let learner = try await LearnerSettingsModel.find(for: userId, on: context.db)
        let rows = try await context.store.workload.cards(stackIds: stacks.map { $0.id! })
        let byStack = Dictionary(grouping: rows, by: \.stack_id)
        var groups: [FSRSSimulator.Group] = []
        var retentionWeights: [Double: Int] = [:]
        for (index, stack) in stacks.enumerated() {
            let stackRows = byStack[stack.id!] ?? []
            var cards: [FSRSSimulator.Card] = []
            var newCards = index == 0 ? changes.additionalNewCards ?? 0 : 0
            for row in stackRows {
                guard row.state != CardState.new.rawValue, let stability = row.stability,
                    let difficulty = row.difficulty, let last = row.last_reviewed_at
                else {
                    newCards += 1
                    continue
                }
                let lastDay = min(counting.dayNumber(of: last) - today, 0)
                cards.append(
                    FSRSSimulator.Card(
                        stability: stability, difficulty: difficulty, lastReviewDay: lastDay,
                        dueDay: max(counting.dayNumber(of: row.due_at) - today, lastDay)))
            }
            let settings = stack.settings
            retentionWeights[settings.desiredRetention, default: 0] += stackRows.count
            groups.append(
                FSRSSimulator.Group(
                    settings: FSRSSimulator.Settings(
                        parameters: parameters,
                        desiredRetention: min(max(changes.desiredRetention ?? settings.desiredRetention, 0.5), 0.99),
                        days: 1, newCards: min(newCards, 1_000_000),
                        newCardsPerDay: changes.newCardsPerDay ?? settings.newCardsPerDay,
                        maximumReviewsPerDay: changes.reviewsPerDay ?? settings.reviewsPerDay,
                        learningStepCount: min(settings.learningSteps.count, 10),
                        relearningStepCount: min(settings.relearningSteps.count, 10),
                        easyDays: learner.easyDays, startWeekday: CivilDate.weekday(daysSince1970: today),
                        restDays: restDays, loadBalancing: learner.loadBalancing,
                        seed: UInt64(stack.id!)),
                    cards: cards))
        }
        let answers = try await context.store.workload.recentAnswers(of: userId, limit: Self.answersRead)
        let behaviour = FSRSBehaviour.measured(
            from: answers.compactMap { row in
                guard let rating = FSRSRating(rawValue: row.rating),
                    let phase = FSRSBehaviour.Phase(rawValue: row.phase)
                else { return nil }
                return FSRSBehaviour.Answer(
                    phase: phase, rating: rating, seconds: row.duration_ms.map { Double($0) / 1_000 },
                    isFirst: row.first == 1)
            })
        let current = retentionWeights.max { $0.value < $1.value }?.key ?? StackSettings().desiredRetention
        return Inputs(
            groups: groups, behaviour: behaviour, today: today,
            cardCount: rows.count + (changes.additionalNewCards ?? 0),
            currentRetention: current, minutesBudget: learner.minutesPerDay)
    }
}

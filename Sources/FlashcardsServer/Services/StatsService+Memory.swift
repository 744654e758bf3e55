import FlashcardsAPI
import FlashcardsCore
import Foundation

/// The statistics FSRS users read (`GET …/stats/memory`): distributions of difficulty, stability and
/// retrievability over the cards with an FSRS memory, the knowledge FSRS estimates (the sum of the
/// retrievabilities now), true retention of young and mature cards per period, and the buttons
/// pressed per phase. Young and mature go by the days since the card's previous review (21 days or
/// more: mature), which the log keeps with every review.
extension StatsService {
    /// Upper bounds in days of the stability bins.
    static let stabilityBounds = [1, 7, 30, 90, 365, 1_000]
    /// The periods of the true-retention table: name and first day relative to today.
    static let periods: [(name: String, first: Int, last: Int)] = [
        ("today", 0, 0), ("yesterday", -1, -1), ("week", -6, 0), ("month", -29, 0), ("year", -364, 0),
    ]

    func memory(_ scope: Scope) async throws -> MemoryStatsDTO {
        let store = context.store.stats
        let covered: StatsStore.Scope
        switch scope {
        case .stack(let stack): covered = .stack(stack.id!)
        case .user: covered = .user(try user.requireID())
        }
        let counting = FSRSDayCounting.rollover(hourOfDay: SchedulerKind.fsrs.dayStartHour, timeZone: user.zone)
        let today = counting.dayNumber(of: context.now)
        let parameters =
            try await context.store.parameters(of: try user.requireID()).flatMap(SchedulerParametersModel.weights)
            ?? FSRSConfiguration.defaultParameters
        let model = FSRSModel(parameters: parameters)

        var difficulty = Array(repeating: 0, count: 10)
        var stability = Array(repeating: 0, count: Self.stabilityBounds.count + 1)
        var retrievability = Array(repeating: 0, count: 10)
        var knowledge = 0.0
        var dailyLoad = 0.0
        let rows = try await store.memory(covered)
        for row in rows {
            let interval = counting.dayNumber(of: row.due_at) - counting.dayNumber(of: row.last_reviewed_at)
            dailyLoad += 1 / Double(max(1, interval))
            difficulty[min(max(Int(row.difficulty) - 1, 0), 9)] += 1
            stability[Self.stabilityBounds.firstIndex { row.stability < Double($0) } ?? Self.stabilityBounds.count] += 1
            let elapsed = max(0, today - counting.dayNumber(of: row.last_reviewed_at))
            let r = model.retrievability(elapsedDays: Double(elapsed), stability: row.stability)
            retrievability[min(Int(r * 10), 9)] += 1
            knowledge += r
        }

        // True retention from the per-day review figures of the last year (undone reviews taken off).
        let since = counting.startOfDay(today - 364)
        let days = LearnerDays(
            zone: user.zone, rolloverHour: SchedulerKind.fsrs.dayStartHour, from: since,
            to: counting.startOfDay(today + 1))
        var perDay: [Int: (young: RecallCountDTO, mature: RecallCountDTO)] = [:]
        let reviews = try await store.reviews(covered, since: since, days: days)
        for (rows, sign) in [(reviews.counted, 1), (reviews.undone, -1)] {
            for row in rows {
                let day = counting.dayNumber(of: days.middle(ofShiftedDay: row.b))
                let (long, recalled, mature, matureRecalled) = (row.l ?? 0, row.k ?? 0, row.m ?? 0, row.mk ?? 0)
                var entry =
                    perDay[day] ?? (RecallCountDTO(reviews: 0, recalled: 0), RecallCountDTO(reviews: 0, recalled: 0))
                entry.young.reviews += sign * (long - mature)
                entry.young.recalled += sign * (recalled - matureRecalled)
                entry.mature.reviews += sign * mature
                entry.mature.recalled += sign * matureRecalled
                perDay[day] = entry
            }
        }
        let table = Self.periods.map { period in
            var young = RecallCountDTO(reviews: 0, recalled: 0)
            var mature = RecallCountDTO(reviews: 0, recalled: 0)
            for day in (today + period.first)...(today + period.last) {
                guard let entry = perDay[day] else { continue }
                young.reviews += entry.young.reviews
                young.recalled += entry.young.recalled
                mature.reviews += entry.mature.reviews
                mature.recalled += entry.mature.recalled
            }
            return TrueRetentionRowDTO(period: period.name, young: young, mature: mature)
        }

        var buttons = Array(repeating: Array(repeating: 0, count: 4), count: 3)
        for row in try await store.answerButtons(covered, since: since)
        where (1...4).contains(row.rating) && (0...2).contains(row.p) {
            buttons[row.p][row.rating - 1] += row.n
        }
        // Hours in the learner's zone, from 15-minute buckets (whole hours of every offset in use).
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = user.zone
        var hours = Array(repeating: RecallCountDTO(reviews: 0, recalled: 0), count: 24)
        for bucket in try await store.reviewsByTime(covered, since: since) {
            let hour = calendar.component(.hour, from: TimeBuckets.start(ofBucket: bucket.b))
            hours[hour].reviews += bucket.n
            hours[hour].recalled += bucket.k ?? 0
        }
        return MemoryStatsDTO(
            cards: rows.count, estimatedKnowledge: (knowledge * 10).rounded() / 10, difficulty: difficulty,
            stabilityBounds: Self.stabilityBounds, stability: stability, retrievability: retrievability,
            trueRetention: table,
            answerButtons: zip(["learning", "young", "mature"], buttons).map {
                AnswerButtonsDTO(phase: $0, counts: $1)
            }, dailyLoad: (dailyLoad * 10).rounded() / 10, hours: hours)
    }
}

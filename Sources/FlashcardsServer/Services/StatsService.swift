import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// Statistics from the review history, per stack or over all of a user's stacks.
///
/// Counting is done in SQL, grouped by learner day (04:00 in the user's time zone; `LearnerDays`
/// shifts each timestamp by the zone's offset at that instant). So a year of reviews is at most
/// 365 rows, whatever the count.
/// Undone reviews and undo entries never count.
struct StatsService {
    let context: ServiceContext
    let user: UserModel

    /// What the statistics cover.
    enum Scope {
        case stack(StackModel)
        case user
    }

    private var dayCounting: FSRSDayCounting {
        .rollover(hourOfDay: SchedulerKind.fsrs.dayStartHour, timeZone: user.zone)
    }

    private func filter(_ scope: Scope) throws -> SQLQueryString {
        switch scope {
        case .stack(let stack): "stack_id = \(bind: stack.id!)"
        case .user: "user_id = \(bind: try user.requireID())"
        }
    }

    /// Figures of one learner day of the review log: reviews, long-term reviews, recalled ones.
    private struct ReviewBucket: Decodable {
        let b: Int
        let n: Int
        let l: Int?
        let k: Int?
    }

    /// The aggregates of a `ReviewBucket`; recalled is anything but FSRS Again and ladder Schwer.
    private static let reviewFigures: SQLQueryString = """
        COUNT(*) AS n, SUM(CASE WHEN elapsed_days >= 1 THEN 1 ELSE 0 END) AS l,
        SUM(CASE WHEN elapsed_days >= 1 AND ((scheduler = 'fsrs' AND rating >= 2) OR (scheduler = 'ladder' AND rating <> 2))
        THEN 1 ELSE 0 END) AS k
        """

    /// Reviews per day, true retention per week, cards by state and the 30-day forecast.
    func stats(_ scope: Scope) async throws -> StatsDTO {
        let store = context.store
        let sql = store.sql
        let counting = dayCounting
        let today = counting.dayNumber(of: context.now)
        let scopeFilter = try filter(scope)

        // Reviews per day (the last 365 days) and true retention per week (Monday to Sunday, the
        // last 52 weeks) in one pass over the log, per learner day: every review, the long-term
        // ones (at least a day after the card's previous review) and of these the recalled ones.
        // Undone reviews are counted, then taken off again from a second, small query over the
        // undo entries: one probe per undo instead of one per review.
        let thisWeek = Self.weekStart(today)
        let firstWeek = thisWeek - 51 * 7
        let firstDay = min(today - 364, firstWeek)
        let since = counting.startOfDay(firstDay)
        let days = LearnerDays(
            zone: user.zone, rolloverHour: SchedulerKind.fsrs.dayStartHour, from: since,
            to: counting.startOfDay(today + 30))
        var perDay: [Int: Int] = [:]
        var weekly: [Int: (reviews: Int, recalled: Int)] = [:]
        func tally(_ rows: [ReviewBucket], sign: Int) {
            for row in rows {
                let day = counting.dayNumber(of: days.middle(ofShiftedDay: row.b))
                if day >= today - 364 { perDay[day, default: 0] += sign * row.n }
                let week = Self.weekStart(day)
                if week >= firstWeek {
                    weekly[week, default: (0, 0)].reviews += sign * (row.l ?? 0)
                    weekly[week, default: (0, 0)].recalled += sign * (row.k ?? 0)
                }
            }
        }
        let bucket = days.day("reviewed_at", store: store)
        tally(
            try await sql.raw(
                """
                SELECT \(bucket) AS b, \(Self.reviewFigures) FROM review_logs
                WHERE \(scopeFilter) AND kind = 'review' AND reviewed_at >= \(bind: since) GROUP BY b
                """
            ).all(decoding: ReviewBucket.self), sign: 1)
        tally(
            try await sql.raw(
                """
                SELECT \(bucket) AS b, \(Self.reviewFigures) FROM review_logs
                WHERE kind = 'review' AND reviewed_at >= \(bind: since) AND id IN
                (SELECT undoes FROM review_logs WHERE \(scopeFilter) AND kind = 'undo') GROUP BY b
                """
            ).all(decoding: ReviewBucket.self), sign: -1)
        let reviewsPerDay = (today - 364...today).map { DayCountDTO(date: dateText($0), count: perDay[$0] ?? 0) }
        let retentionPerWeek = stride(from: firstWeek, through: thisWeek, by: 7).map { week in
            let value = weekly[week] ?? (0, 0)
            return WeekRetentionDTO(
                weekStart: dateText(week), reviews: value.reviews, recalled: value.recalled,
                retention: value.reviews > 0 ? Double(value.recalled) / Double(value.reviews) : nil)
        }

        // Cards by state.
        struct StateRow: Decodable {
            let state: String
            let n: Int
        }
        let states = try await sql.raw(
            "SELECT state, COUNT(*) AS n FROM cards WHERE \(scopeFilter) GROUP BY state"
        ).all(decoding: StateRow.self)
        let byState = Dictionary(uniqueKeysWithValues: states.map { ($0.state, $0.n) })
        let cardsByState = CardStateCountsDTO(
            new: byState["new"] ?? 0, learning: byState["learning"] ?? 0, review: byState["review"] ?? 0,
            relearning: byState["relearning"] ?? 0)

        // Forecast: cards (not new) due on each of the next 30 days; overdue ones count today.
        struct DayRow: Decodable {
            let b: Int
            let n: Int
        }
        var forecastByDay: [Int: Int] = [:]
        for row in try await sql.raw(
            """
            SELECT \(days.day("due_at", store: store)) AS b, COUNT(*) AS n FROM cards
            WHERE \(scopeFilter) AND state <> 'new' AND due_at < \(bind: counting.startOfDay(today + 30)) GROUP BY b
            """
        ).all(decoding: DayRow.self) {
            forecastByDay[max(today, counting.dayNumber(of: days.middle(ofShiftedDay: row.b))), default: 0] += row.n
        }
        let forecast = (today...today + 29).map { DayCountDTO(date: dateText($0), count: forecastByDay[$0] ?? 0) }

        return StatsDTO(
            timeZone: user.timeZone, dayStartHour: SchedulerKind.fsrs.dayStartHour, reviewsPerDay: reviewsPerDay,
            retentionPerWeek: retentionPerWeek, cardsByState: cardsByState, forecast: forecast)
    }

    /// The predicted recall of each card now, in creation order, one page at a time.
    func retrievability(_ scope: Scope, page: Int, perPage: Int) async throws -> PageDTO<CardRetrievabilityDTO> {
        let userId = try user.requireID()
        func query() -> QueryBuilder<CardModel> {
            switch scope {
            case .stack(let stack): CardModel.query(on: context.db).filter(\.$stackId == stack.id!)
            case .user: CardModel.query(on: context.db).filter(\.$userId == userId)
            }
        }
        let total = try await query().count()
        let cards = try await query().sort(\.$id).range((page - 1) * perPage..<(page * perPage)).all()
        let stacks: [StackModel]
        switch scope {
        case .stack(let stack): stacks = [stack]
        case .user: stacks = try await StackModel.query(on: context.db).filter(\.$userId == userId).all()
        }
        let stacksById = Dictionary(uniqueKeysWithValues: stacks.map { ($0.id!, $0) })
        let parameters = try await SchedulerParametersModel.find(userId, on: context.db)?.weights
        var schedulers: [Int: CardScheduler] = [:]
        let items = try cards.compactMap { card -> CardRetrievabilityDTO? in
            guard let stack = stacksById[card.stackId] else { return nil }
            let scheduler =
                schedulers[stack.id!]
                ?? CardScheduler(settings: stack.settings, timeZone: user.zone, parameters: parameters)
            schedulers[stack.id!] = scheduler
            return CardRetrievabilityDTO(
                cardId: card.uniqueId, stackId: stack.uniqueId, state: try card.cardState, stability: card.stability,
                retrievability: scheduler.retrievability(of: try card.schedule, at: context.now), dueAt: card.dueAt)
        }
        return PageDTO(items: items, page: page, perPage: perPage, total: total)
    }

    /// The Monday on or before learner day `day` (day 0, 1970-01-01, was a Thursday).
    static func weekStart(_ day: Int) -> Int {
        day - ((day + 3) % 7 + 7) % 7
    }

    /// `YYYY-MM-DD` of a learner day (the local date on which it starts).
    private func dateText(_ day: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = user.zone
        let parts = calendar.dateComponents([.year, .month, .day], from: dayCounting.startOfDay(day))
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}

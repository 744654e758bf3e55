import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation

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

    private func storeScope(_ scope: Scope) throws -> StatsStore.Scope {
        switch scope {
        case .stack(let stack): .stack(stack.id!)
        case .user: .user(try user.requireID())
        }
    }

    /// Reviews per day, true retention per week, cards by state and the 30-day forecast.
    func stats(_ scope: Scope) async throws -> StatsDTO {
        let stats = context.store.stats
        let counting = dayCounting
        let today = counting.dayNumber(of: context.now)
        let covered = try storeScope(scope)

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
        func tally(_ rows: [StatsStore.ReviewBucket], sign: Int) {
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
        let reviews = try await stats.reviews(covered, since: since, days: days)
        tally(reviews.counted, sign: 1)
        tally(reviews.undone, sign: -1)
        let reviewsPerDay = (today - 364...today).map { DayCountDTO(date: dateText($0), count: perDay[$0] ?? 0) }
        let retentionPerWeek = stride(from: firstWeek, through: thisWeek, by: 7).map { week in
            let value = weekly[week] ?? (0, 0)
            return WeekRetentionDTO(
                weekStart: dateText(week), reviews: value.reviews, recalled: value.recalled,
                retention: value.reviews > 0 ? Double(value.recalled) / Double(value.reviews) : nil)
        }

        // Cards by state.
        let byState = try await stats.cardsByState(covered)
        let cardsByState = CardStateCountsDTO(
            new: byState["new"] ?? 0, learning: byState["learning"] ?? 0, review: byState["review"] ?? 0,
            relearning: byState["relearning"] ?? 0)

        // Forecast: cards (not new) due on each of the next 30 days; overdue ones count today.
        var forecastByDay: [Int: Int] = [:]
        for row in try await stats.dueCards(covered, before: counting.startOfDay(today + 30), days: days) {
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
        day - CivilDate.weekday(daysSince1970: day)
    }

    /// `YYYY-MM-DD` of a learner day (the local date on which it starts).
    private func dateText(_ day: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = user.zone
        let parts = calendar.dateComponents([.year, .month, .day], from: dayCounting.startOfDay(day))
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}

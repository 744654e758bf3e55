import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// Learning: the next due card and ratings, with every rating appended to the review log.
///
/// Ladder stacks behave as the original: the due card with the earliest due time, one seek on
/// `cards_stack_due`. FSRS stacks honour the daily limits and spread a backlog over the next days
/// (`BacklogSpreader`); their next card is at most three seeks on `cards_stack_queue_due`, one per
/// queue, so it costs the same whatever the stack's size. Nothing else of the stack is loaded.
struct StudyService {
    let context: ServiceContext
    let user: UserModel
    let stack: StackModel

    /// The answer to "what next?" for a session with `daysAhead` days of learning ahead.
    struct Next {
        let card: CardModel?
        let dueCount: Int
        let nextDueAt: Date?
    }

    private var kind: SchedulerKind { SchedulerKind(rawValue: stack.scheduler) ?? .ladder }

    /// The moment before which cards count as due for this user.
    func cutoff(daysAhead: Int) -> Date {
        Self.cutoff(for: user, stack: stack, now: context.now, daysAhead: daysAhead)
    }

    /// The end of `user`'s current day in their time zone, plus `daysAhead` days.
    static func cutoff(for user: UserModel, now: Date, daysAhead: Int) -> Date {
        StudyDay.dueCutoff(now: now, timeZone: user.zone, daysAhead: daysAhead)
    }

    /// The cut-off for `stack`: midnight for ladder stacks (the original's day), the 04:00 rollover
    /// for FSRS stacks (Anki's day, which FSRS counts elapsed days in).
    static func cutoff(for user: UserModel, stack: StackModel, now: Date, daysAhead: Int) -> Date {
        let hour = stack.scheduler == SchedulerKind.fsrs.rawValue ? fsrsDayStartHour : 0
        return StudyDay.dueCutoff(now: now, timeZone: user.zone, daysAhead: daysAhead, dayStartHour: hour)
    }

    /// The stack's scheduling (loads the user's FSRS parameters).
    func scheduling() async throws -> StackScheduling {
        try await StackScheduling.load(stack: stack, user: user, on: context.db)
    }

    /// The next card to learn, or nil when the session is done.
    func nextCard(daysAhead: Int) async throws -> CardModel? {
        try await next(daysAhead: daysAhead, counting: false).card
    }

    /// The next card with the session's counts; `scheduling` when the caller has loaded it already.
    func next(daysAhead: Int, scheduling: StackScheduling? = nil) async throws -> Next {
        try await next(daysAhead: daysAhead, counting: true, scheduling: scheduling)
    }

    private func next(daysAhead: Int, counting: Bool, scheduling: StackScheduling? = nil) async throws -> Next {
        switch kind {
        case .ladder: try await ladderNext(daysAhead: daysAhead, counting: counting)
        case .fsrs: try await fsrsNext(daysAhead: daysAhead, counting: counting, scheduling: scheduling)
        }
    }

    // MARK: Ladder

    private func ladderNext(daysAhead: Int, counting: Bool) async throws -> Next {
        let cutoff = cutoff(daysAhead: daysAhead)
        // The due card with the earliest due time (ties: oldest card first): one seek on cards_stack_due.
        let card = try await context.db.sql.raw(
            """
            SELECT * FROM cards WHERE stack_id = \(bind: stack.id!) AND due_at < \(bind: cutoff)
            ORDER BY due_at, id LIMIT 1
            """
        ).first()?.decode(fluentModel: CardModel.self)
        guard counting else { return Next(card: card, dueCount: 0, nextDueAt: nil) }
        let due =
            try await context.db.sql.raw(
                "SELECT COUNT(*) AS n FROM cards WHERE stack_id = \(bind: stack.id!) AND due_at < \(bind: cutoff)"
            ).first(decoding: CountRow.self)?.n ?? 0
        var nextDueAt: Date?
        if card == nil {
            nextDueAt = try await CardModel.query(on: context.db)
                .filter(\.$stackId == stack.id!).sort(\.$dueAt).first()?.dueAt
        }
        return Next(card: card, dueCount: due, nextDueAt: nextDueAt)
    }

    // MARK: FSRS

    /// What today's limits leave.
    struct Allowance {
        let newLeft: Int
        let reviewsLeft: Int
    }

    /// New cards and review cards studied since the start of the learner's day, from the card
    /// columns (one range of the index `cards_stack_reviewed`, as long as today's session, read from the
    /// index alone).
    func allowance(scheduling: StackScheduling) async throws -> Allowance {
        let dayStart = scheduling.start(ofDay: scheduling.day(of: context.now))
        struct Row: Decodable {
            let total: Int
            let fresh: Int?
        }
        let sql = context.db.sql
        let row = try await sql.raw(
            """
            SELECT COUNT(*) AS total, SUM(CASE WHEN first_reviewed_at >= \(bind: dayStart) THEN 1 ELSE 0 END) AS fresh
            FROM cards WHERE stack_id = \(bind: stack.id!) AND last_reviewed_at >= \(bind: dayStart)
            """
        ).first(decoding: Row.self)
        let fresh = row?.fresh ?? 0
        let reviewed = (row?.total ?? 0) - fresh
        return Allowance(
            newLeft: max(0, stack.newCardsPerDay - fresh), reviewsLeft: max(0, stack.reviewsPerDay - reviewed))
    }

    private func fsrsNext(daysAhead: Int, counting: Bool, scheduling loaded: StackScheduling?) async throws -> Next {
        let scheduling: StackScheduling
        if let loaded { scheduling = loaded } else { scheduling = try await self.scheduling() }
        let cutoff = cutoff(daysAhead: daysAhead)
        let allowance = try await allowance(scheduling: scheduling)
        try await BacklogSpreader(
            context: context, stack: stack, scheduling: scheduling, reviewsLeft: allowance.reviewsLeft
        ).spreadIfNeeded()
        var queues = [1]
        if allowance.reviewsLeft > 0 { queues.append(2) }
        if allowance.newLeft > 0 { queues.append(0) }
        let heads = try await first(ofQueues: queues, before: cutoff)
        let learning = heads[1]
        let review = heads[2]
        let new = heads[0]
        // Anki's order: a (re)learning card whose step is over comes first; then reviews and new
        // cards by due time; a learning card not yet due only when nothing else is left.
        let card: CardModel?
        if let learning, learning.dueAt <= context.now {
            card = learning
        } else if let other = [review, new].compactMap({ $0 }).min(by: Self.dueOrder) {
            card = other
        } else {
            card = learning
        }
        guard counting else { return Next(card: card, dueCount: 0, nextDueAt: nil) }
        let dueCount = try await dueCount(
            before: cutoff, limits: [1: nil, 2: allowance.reviewsLeft, 0: allowance.newLeft])
        var nextDueAt: Date?
        if card == nil {
            let capped: [Int] = (allowance.reviewsLeft == 0 ? [2] : []) + (allowance.newLeft == 0 ? [0] : [])
            let held = capped.isEmpty ? false : !(try await first(ofQueues: capped, before: cutoff)).isEmpty
            if held {
                // The limits hold cards back until the next learner day.
                nextDueAt = scheduling.start(ofDay: scheduling.day(of: context.now) + 1)
            } else {
                nextDueAt = try await CardModel.query(on: context.db)
                    .filter(\.$stackId == stack.id!).sort(\.$dueAt).first()?.dueAt
            }
        }
        return Next(card: card, dueCount: dueCount, nextDueAt: nextDueAt)
    }

    private static func dueOrder(_ a: CardModel, _ b: CardModel) -> Bool {
        a.dueAt != b.dueAt ? a.dueAt < b.dueAt : a.id! < b.id!
    }

    /// The first due card of each of `queues`, by queue: one statement of one seek on
    /// `cards_stack_queue_due` per queue.
    private func first(ofQueues queues: [Int], before cutoff: Date) async throws -> [Int: CardModel] {
        let parts = queues.map { queue -> SQLQueryString in
            """
            SELECT * FROM (SELECT * FROM cards WHERE stack_id = \(bind: stack.id!) AND queue = \(literal: queue)
            AND due_at < \(bind: cutoff) ORDER BY due_at, id LIMIT 1) head_\(unsafeRaw: String(queue))
            """
        }
        let rows = try await context.db.sql.raw(parts.joined(separator: " UNION ALL ")).all()
        var heads: [Int: CardModel] = [:]
        for row in rows {
            let card = try row.decode(fluentModel: CardModel.self)
            heads[card.queue] = card
        }
        return heads
    }

    /// Due cards of the queues in `limits`, each counted no further than its limit (the daily
    /// allowance; nil for none), so a 100k-card backlog costs no more than the allowance. One
    /// statement.
    private func dueCount(before cutoff: Date, limits: [Int: Int?]) async throws -> Int {
        let parts = limits.sorted { $0.key < $1.key }.compactMap { queue, limit -> SQLQueryString? in
            if limit == 0 { return nil }
            let limitClause: SQLQueryString = limit.map { "LIMIT \(literal: $0)" } ?? ""
            return """
                (SELECT COUNT(*) FROM (SELECT 1 FROM cards WHERE stack_id = \(bind: stack.id!) AND queue = \(literal: queue)
                AND due_at < \(bind: cutoff) \(limitClause)) due_\(unsafeRaw: String(queue)))
                """
        }
        guard !parts.isEmpty else { return 0 }
        let sum: SQLQueryString = "SELECT " + parts.joined(separator: " + ") + " AS n"
        return try await context.db.sql.raw(sum).first(decoding: CountRow.self)?.n ?? 0
    }

    /// Cards due for this stack with the limits applied (FSRS) or all due cards (ladder).
    func dueCount() async throws -> Int {
        try await next(daysAhead: 0).dueCount
    }

    // MARK: Options and rating

    /// The ratings offered for `card` now, each with the interval it would apply.
    func options(for card: CardModel, scheduling: StackScheduling) -> [RatingOption] {
        scheduling.options(for: card, now: context.now)
    }

    /// Applies a rating to the card with this path id and appends it to the review log, in one
    /// transaction; the card's new state is the replay of its history. A repeated `reviewId`
    /// changes nothing and answers with the card as it is.
    func rate(
        cardId: String?, rating: StoredRating, reviewId: UUID?, durationMs: Int? = nil, scheduling: StackScheduling
    ) async throws -> CardModel {
        let cardUUID = try Validate.uuid(cardId, notFound: .cardNotFound)
        let stackId = stack.id!
        let userId = try user.requireID()
        let now = context.now
        let logId = reviewId ?? context.uuid()
        if let durationMs, !(0...86_400_000).contains(durationMs) {
            throw AppError.validation("durationMs muss zwischen 0 und 86400000 liegen.")
        }
        return try await context.db.writeTransaction { db in
            guard
                let card = try await db.sql.raw(
                    "SELECT * FROM cards WHERE unique_id = \(bind: cardUUID) AND stack_id = \(bind: stackId)"
                ).first()?.decode(fluentModel: CardModel.self)
            else { throw AppError.cardNotFound }
            if reviewId != nil, let existing = try await ReviewLogModel.find(logId, on: db) {
                guard existing.userId == userId, existing.cardId == card.id else {
                    throw AppError.conflict("Diese reviewId gehört zu einer anderen Bewertung.")
                }
                return card
            }
            let log = ReviewLogModel(
                id: logId, userId: userId, cardId: card.id!, stackId: stackId, reviewedAt: now,
                rating: rating.value, scheduler: rating.scheduler.rawValue, stateBefore: "", stateAfter: "",
                durationMs: durationMs)
            try await ReviewRecorder(scheduling: scheduling).record([log], for: card, on: db)
            return card
        }
    }
}

/// A rating option with its interval for the current card (ladder), kept for the shared renderers.
struct LadderOption {
    let rating: LadderRating
    let seconds: Int
}

import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// Learning: the next due card and ratings, with every rating appended to the review log.
///
/// Ladder stacks behave as the original: the due card with the earliest due time, one seek on
/// `cards_stack_due`. FSRS stacks honour the daily limits and spread a backlog over the next days
/// (`BacklogSpreader`); their next card is at most three seeks, one per queue (`FSRSQueueStatement`),
/// so it costs the same whatever the stack's size. Nothing else of the stack is loaded.
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

    /// Due cards are counted up to this many; a larger backlog reads as this number ("1000+"). A
    /// count reads one index entry per card, so an exact count of a 10,000-card backlog cost more
    /// than the rest of a rating together.
    static let dueCountLimit = 1_000

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
        try await StackScheduling.load(
            stack: stack, user: user, on: context.db, preloaded: context.preloadedParameters)
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
        // The due card with the earliest due time (ties: oldest card first): one seek on
        // cards_stack_due; with the count of due cards in the same statement.
        let head: SQLQueryString = """
            SELECT * FROM cards WHERE stack_id = \(key: stack.id!) AND due_at < \(bind: cutoff)
            ORDER BY due_at, id LIMIT 1
            """
        guard counting else {
            return Next(
                card: try await context.sql.raw(head).first().map(CardModel.read), dueCount: 0,
                nextDueAt: nil)
        }
        let row: (any SQLRow)?
        // On SQLite: whether the count probed (see `SQLiteCappedCount`).
        var probed: Bool?
        if let rows = try await PostgresNamedStatements.rows(
            PostgresNamedStatements.LadderNext(stackId: stack.id!, cutoff: cutoff), on: context.db)
        {
            row = rows.first
        } else {
            let probe = context.cappedCountHints?.full(stack.id!) ?? false
            let text = probe ? Self.ladderNextTexts.probe : Self.ladderNextTexts.limited
            row = try await context.sql.raw("\(SQLiteStatement(text: text, binds: [stack.id!, cutoff]))").first()
            probed = probe
        }
        guard let row else { return Next(card: nil, dueCount: 0, nextDueAt: nil) }
        let due = try row.decode(column: "due_count", as: Int.self)
        if let probed, (due >= Self.dueCountLimit) != probed {
            context.cappedCountHints?.remember(stack.id!, full: !probed)
        }
        let card = try row.decodeNil(column: "id") ? nil : try CardModel.read(row)
        return Next(card: card, dueCount: due, nextDueAt: card == nil ? try await firstDueAt() : nil)
    }

    /// The ladder's next card with the count of due cards on SQLite (?1 stack, ?2 cut-off), the
    /// count in either of `SQLiteCappedCount`'s forms: the probe for a stack whose last count
    /// reached the limit, the co-routine otherwise.
    private static let ladderNextTexts: (probe: String, limited: String) = {
        let range = "FROM cards WHERE stack_id = +?1 AND due_at < ?2"
        func text(_ count: String) -> String {
            "SELECT counted.n AS due_count, head.* FROM (SELECT \(count) AS n) counted "
                + "LEFT JOIN (SELECT * \(range) ORDER BY due_at, id LIMIT 1) head ON 1 = 1"
        }
        return (
            text(SQLiteCappedCount.text(range, cap: dueCountLimit)),
            text(SQLiteCappedCount.limitedText(range, cap: dueCountLimit))
        )
    }()

    // MARK: FSRS

    /// What today's limits leave.
    struct Allowance {
        let newLeft: Int
        let reviewsLeft: Int
    }

    /// An FSRS stack's queues now: today's allowance, the card to show, whether today's limits hold
    /// back due cards, and the due cards the allowance lets through, counted no further than
    /// `dueCountLimit`.
    private struct QueueSnapshot {
        let allowance: Allowance
        let card: CardModel?
        /// No card to show, but reviews or new cards are due that today's limits hold back.
        let held: Bool
        let dueCount: Int
    }

    private func fsrsNext(daysAhead: Int, counting: Bool, scheduling loaded: StackScheduling?) async throws -> Next {
        let scheduling: StackScheduling
        if let loaded { scheduling = loaded } else { scheduling = try await self.scheduling() }
        let cutoff = cutoff(daysAhead: daysAhead)
        let today = scheduling.day(of: context.now)
        var snapshot = try await queueSnapshot(before: cutoff, today: today, scheduling: scheduling)
        // The stack row says whether today's backlog was spread already (nearly always).
        if stack.spreadDay != today {
            let moved = try await BacklogSpreader(
                context: context, stack: stack, scheduling: scheduling, reviewsLeft: snapshot.allowance.reviewsLeft
            ).spreadIfNeeded()
            if moved > 0 { snapshot = try await queueSnapshot(before: cutoff, today: today, scheduling: scheduling) }
        }
        guard counting else { return Next(card: snapshot.card, dueCount: 0, nextDueAt: nil) }
        var nextDueAt: Date?
        if snapshot.card == nil {
            // Held cards wait for the next learner day; otherwise the stack's first due card counts.
            nextDueAt =
                snapshot.held
                ? scheduling.start(ofDay: today + 1) : try await firstDueAt()
        }
        return Next(card: snapshot.card, dueCount: snapshot.dueCount, nextDueAt: nextDueAt)
    }

    /// When the stack's first card falls due (nil for an empty stack): one seek on `cards_stack_due`.
    private func firstDueAt() async throws -> Date? {
        try await CardModel.query(on: context.db).filter(\.$stackId == stack.id!).sort(\.$dueAt).first()?.dueAt
    }

    /// The start of the learner day the FSRS limits count in.
    private func dayStart(_ scheduling: StackScheduling) -> Date {
        scheduling.start(ofDay: scheduling.day(of: context.now))
    }

    /// The queues of this stack in one statement (`FSRSQueueStatement`), so FSRS next-card costs
    /// what the ladder's does: today's allowance from the counts the stack row keeps
    /// (`StackDayCounts`; counted from the cards only before the day's first rating), one seek per
    /// queue for its first due card, and one count of the due cards the allowance lets through that
    /// stops at `dueCountLimit`, so a 100k-card backlog reads no more index entries than the
    /// ladder's count.
    private func queueSnapshot(before cutoff: Date, today: Int, scheduling: StackScheduling) async throws
        -> QueueSnapshot
    {
        let stackId = stack.id!
        let dayStart = scheduling.start(ofDay: today)
        let counts: StackDayCounts.Counts
        if let kept = StackDayCounts.kept(by: stack, from: dayStart) {
            counts = kept
        } else {
            counts = try await StackDayCounts.count(stackId: stackId, since: dayStart, on: context.sql)
        }
        let allowance = Allowance(
            newLeft: max(0, stack.newCardsPerDay - counts.fresh),
            reviewsLeft: max(0, stack.reviewsPerDay - (counts.reviewed - counts.fresh)))
        let limit = Self.dueCountLimit
        // Learning cards have no daily cap; reviews and new cards only as many as are left today.
        let (reviewCap, newCap) = (min(allowance.reviewsLeft, limit), min(allowance.newLeft, limit))
        guard
            let row = try await FSRSQueueStatement.row(
                stackId: stackId, cutoff: cutoff, now: context.now, reviewCap: reviewCap, newCap: newCap,
                db: context.db, sql: context.sql)
        else {
            return QueueSnapshot(allowance: allowance, card: nil, held: false, dueCount: 0)
        }
        let dueCount = try row.decode(column: "due_count", as: Int.self)
        guard try !row.decodeNil(column: "id") else {
            return QueueSnapshot(allowance: allowance, card: nil, held: false, dueCount: dueCount)
        }
        let held = try row.decode(column: "head_rank", as: Int.self) == FSRSQueueStatement.HeadRank.held.rawValue
        return QueueSnapshot(
            allowance: allowance, card: held ? nil : try CardModel.read(row), held: held, dueCount: dueCount)
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
        let dayStart = scheduling.kind == .fsrs ? dayStart(scheduling) : nil
        let keptToday = dayStart.flatMap { StackDayCounts.kept(by: stack, from: $0) } != nil
        let (card, counts) = try await context.sqlWriteTransaction { sql -> (CardModel, StackDayCounts.Counts?) in
            try await sql.lockCards([cardUUID], of: userId, in: stackId)
            // The card, its last arrival number and whether the review id is known (1: this review of
            // this card, stored already; 2: someone else's or another card's), in one statement.
            guard
                let row = try await sql.raw(
                    """
                    SELECT cards.*, (SELECT COALESCE(MAX(seq), 0) FROM review_logs WHERE card_id = cards.id) AS last_seq,
                    (SELECT CASE WHEN user_id = \(bind: userId) AND card_id = cards.id THEN 1 ELSE 2 END
                    FROM review_logs WHERE id = \(key: logId)) AS known_review
                    FROM cards WHERE unique_id = \(key: cardUUID) AND stack_id = \(key: stackId)
                    """
                ).first()
            else { throw AppError.cardNotFound }
            let card = try CardModel.read(row)
            switch try row.decode(column: "known_review", as: Int?.self) {
            case 1?: return (card, nil)
            case nil: break
            default: throw AppError.conflict("Diese reviewId gehört zu einer anderen Bewertung.")
            }
            let log = ReviewLogModel(
                id: logId, userId: userId, cardId: card.id!, stackId: stackId, reviewedAt: now,
                rating: rating.value, scheduler: rating.scheduler.rawValue, stateBefore: "", stateAfter: "",
                durationMs: durationMs)
            let change = try await ReviewRecorder(scheduling: scheduling).record(
                [log], for: card, lastSeq: try row.decode(column: "last_seq", as: Int.self), on: sql)
            // The day's first rating of an FSRS stack counts the day (this rating included); every
            // other adjusts the counts kept.
            if let dayStart, !keptToday,
                let counts = try await StackDayCounts.recount(
                    stackId: stackId, from: dayStart, on: sql)
            {
                return (card, counts)
            }
            return (card, try await StackDayCounts.apply(change, on: sql))
        }
        if let counts { StackDayCounts.remember(counts, on: stack) }
        return card
    }
}

/// A rating option with its interval for the current card (ladder), kept for the shared renderers.
struct LadderOption {
    let rating: LadderRating
    let seconds: Int
}

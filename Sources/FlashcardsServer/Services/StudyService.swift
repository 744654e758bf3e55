import FlashcardsAPI
import FlashcardsCore
import Foundation

/// Learning: the next due card and ratings, with every rating appended to the review log, over the
/// study store (`StudyStore`). The rules (queue order, allowance, rating mapping, replay) are
/// FlashcardsCore's; this service puts them together for one stack of one user.
struct StudyService {
    let context: ServiceContext
    let user: UserModel
    let stack: StackModel
    /// The caller's FSRS parameters when they were read with the account (`RequireUserMiddleware`);
    /// nil: read here when an FSRS stack needs them.
    var parameters: PreloadedParameters? = nil

    private var store: any StudyStore { context.store }

    /// The moment before which cards of `stack` count as due: the end of the learner's day (midnight
    /// for ladder stacks, the 04:00 rollover for FSRS stacks) plus `daysAhead` days.
    static func cutoff(for user: UserModel, stack: StackModel, now: Date, daysAhead: Int) throws -> Date {
        StudyDay.dueCutoff(
            now: now, timeZone: user.zone, daysAhead: daysAhead, dayStartHour: try stack.schedulerKind.dayStartHour)
    }

    /// The stack's scheduler (FSRS parameters read with the account, or loaded here; ladder stacks
    /// need none).
    func scheduler() async throws -> CardScheduler {
        guard try stack.schedulerKind == .fsrs else {
            return SchedulerCache.scheduler(for: stack, user: user, parameters: nil)
        }
        let text: String?
        if let preloaded = parameters {
            text = preloaded.text
        } else {
            text = try await store.parameters(of: try user.requireID())
        }
        return SchedulerCache.scheduler(for: stack, user: user, parameters: text)
    }

    // MARK: Answers

    /// What to learn now, with `daysAhead` days of learning ahead.
    func state(daysAhead: Int) async throws -> StudyState {
        try await state(daysAhead: daysAhead, scheduler: try await scheduler())
    }

    /// What to learn now as a multiple-choice question: the card `state(daysAhead:)` shows, its
    /// answer among answers of cards due near it (`QuizOptions`), the same question for the same
    /// card and review count.
    /// `rendered` holds, per option, the HTML of a rich card's answer it stands for (nil for plain
    /// words and for the asked card's own answer, which the client renders from the card).
    func quiz(daysAhead: Int) async throws -> (
        state: StudyState, question: QuizOptions.Question?, rendered: [String?]
    ) {
        let state = try await state(daysAhead: daysAhead)
        guard let card = state.card else { return (state, nil, []) }
        let seed = FSRSScheduler.fuzzSeed(cardID: Int64(card.id!), reviewCount: card.reviewCount)
        switch try card.cardKind {
        case .trueFalse:
            let question = QuizOptions.trueFalseQuestion(isTrue: card.answer == "true")
            return (state, question, question.options.map { _ in nil })
        case .multipleChoice:
            let answer = try card.sides.expected
            let question = QuizOptions.question(answer: answer, ownChoices: card.choices ?? [], seed: seed)
            // A rich card's own wrong options are written in its Markdown.
            let rich = try card.cardFormat == .markdown
            let rendered = question.options.indices.map { index -> String? in
                index == question.correctIndex || !rich ? nil : RichText.html(question.options[index])
            }
            return (state, question, rendered)
        default:
            // Choices are plain text (a rich card's answer without its formatting, a cloze's gap) for
            // clients that show words; the distractors are other cards' answers as stored
            // (`StudyStore.answers`), and a rich one's HTML goes along.
            let candidates = try await store.answers(near: card, perSide: Self.quizCandidatesPerSide)
            let question = QuizOptions.question(answer: try card.sides.expected, candidates: candidates, seed: seed)
            return (state, question, question.markups.map { $0.map { RichText.html($0) } })
        }
    }

    /// Candidates read on each side of the asked card: enough to find three of its kind and length.
    static let quizCandidatesPerSide = 24

    /// Cards due for this stack with the limits applied (FSRS) or all due cards (ladder).
    func dueCount() async throws -> Int {
        try await head(daysAhead: 0, scheduler: try await scheduler()).dueCount
    }

    /// Rates the card with path id `cardId` with the `/api/v1` key `key` and answers with the card
    /// and what to learn next.
    func rate(
        cardId: UUID, key: RatingKey, reviewId: UUID?, durationMs: Int?, mode: StudyMode = .flashcards, daysAhead: Int
    ) async throws
        -> (card: CardModel, next: StudyState)
    {
        let scheduler = try await scheduler()
        guard let rating = StudyRating(key, scheduler: scheduler.kind) else {
            // Which keys a card takes depends on its stack's scheduler, not on the request alone: 409.
            throw AppError.refused(
                "rating muss einer von \(scheduler.kind.ratingKeysText) sein.", code: "rating_not_for_scheduler")
        }
        let card = try await rate(
            cardId: cardId, rating: rating, reviewId: reviewId, durationMs: durationMs, mode: mode,
            scheduler: scheduler)
        return (card, try await state(daysAhead: daysAhead, scheduler: scheduler))
    }

    /// Rates the card with path id `cardId` with an id of the original API (`difficulty`).
    func rate(cardId: UUID, compatId: Int) async throws {
        let scheduler = try await scheduler()
        guard let rating = StudyRating(compatId: compatId, scheduler: scheduler.kind) else {
            throw AppError.validation(
                scheduler.kind == .ladder
                    ? "difficulty muss 0, 1 oder 2 sein." : "difficulty muss 11, 12, 13 oder 14 sein.")
        }
        _ = try await rate(
            cardId: cardId, rating: rating, reviewId: nil, durationMs: nil, mode: .flashcards, scheduler: scheduler)
    }

    private func state(daysAhead: Int, scheduler: CardScheduler) async throws -> StudyState {
        let head = try await head(daysAhead: daysAhead, scheduler: scheduler)
        var nextDueAt: Date?
        if head.shown == nil {
            // Held cards wait for the next learner day; otherwise the stack's first due card counts.
            nextDueAt =
                head.held
                ? scheduler.start(ofDay: scheduler.day(of: context.now) + 1)
                : try await store.firstDueAt(stackId: stack.id!)
        }
        var options: [RatingOption]?
        if let shown = head.shown {
            // The buttons name the days rating gives: balanced by the learner's load when it is on.
            var days: FSRSLoadBalancer.Days?
            if scheduler.kind == .fsrs,
                let load = try await LearnerLoad.snapshot(
                    userId: try user.requireID(), timeZone: user.timeZone, scheduler: scheduler, context: context)
            {
                days = load.days(for: shown, siblings: try await store.siblingDues(of: shown), scheduler: scheduler)
            }
            options = scheduler.options(for: try shown.schedule, cardID: Int64(shown.id!), now: context.now, load: days)
        }
        return StudyState(
            card: head.shown, options: options ?? [], dueCount: head.dueCount, nextDueAt: nextDueAt,
            hintsVisible: stack.hintsEnabled)
    }

    // MARK: Queue

    /// The stack's first card by its queue order with the due count. FSRS stacks read today's
    /// allowance from the counts the stack row keeps (`StackDayCounts`; counted from the cards only
    /// before the day's first rating), and spread a backlog over the next days once a day
    /// (`BacklogSpreader`).
    private func head(daysAhead: Int, scheduler: CardScheduler) async throws -> QueueHead {
        let cutoff = try Self.cutoff(for: user, stack: stack, now: context.now, daysAhead: daysAhead)
        let stackId = stack.id!
        guard scheduler.kind == .fsrs else {
            return try await store.queueHead(stackId: stackId, order: .ladder(cutoff: cutoff))
        }
        let today = scheduler.day(of: context.now)
        let dayStart = scheduler.start(ofDay: today)
        let counts: StackDayCounts.Counts
        if let kept = StackDayCounts.kept(by: stack, from: dayStart) {
            counts = kept
        } else {
            counts = try await store.dayCounts(stackId: stackId, since: dayStart)
        }
        let allowance = DailyAllowance(settings: stack.settings, reviewed: counts.reviewed, fresh: counts.fresh)
        let order = QueueOrder.fsrs(cutoff: cutoff, now: context.now, allowance: allowance)
        let head = try await store.queueHead(stackId: stackId, order: order)
        // The stack row says whether today's backlog was spread already (nearly always).
        guard stack.spreadDay != today else { return head }
        let moved = try await BacklogSpreader(
            context: context, stack: stack, scheduler: scheduler, reviewsLeft: allowance.reviewsLeft
        ).spreadIfNeeded()
        return moved > 0 ? try await store.queueHead(stackId: stackId, order: order) : head
    }

    // MARK: Rating

    /// Applies a rating to the card with this path id and appends it to the review log, in one
    /// transaction or, where the store offers it, one statement (`AppendedReviews`); the card's new
    /// state is the replay of its history. A repeated `reviewId` changes nothing and answers with the
    /// card as it is.
    private func rate(
        cardId cardUUID: UUID, rating: StudyRating, reviewId: UUID?, durationMs: Int?, mode: StudyMode,
        scheduler: CardScheduler
    ) async throws -> CardModel {
        if let durationMs, !(0...86_400_000).contains(durationMs) {
            throw AppError.validation("durationMs muss zwischen 0 und 86400000 liegen.")
        }
        let stackId = stack.id!
        let userId = try user.requireID()
        let now = context.now
        let logId = reviewId ?? context.uuid()
        let dayStart = scheduler.kind == .fsrs ? scheduler.start(ofDay: scheduler.day(of: now)) : nil
        let keptToday = dayStart.flatMap { StackDayCounts.kept(by: stack, from: $0) } != nil
        let load =
            scheduler.kind == .fsrs
            ? try await LearnerLoad.snapshot(
                userId: userId, timeZone: user.timeZone, scheduler: scheduler, context: context) : nil
        let inTransaction = { () async throws -> CardModel in
            let (card, counts, before) = try await store.writeTransaction {
                tx -> (CardModel, StackDayCounts.Counts?, Date?) in
                try await tx.lockCards([cardUUID], of: userId, in: stackId)
                guard
                    let rated = try await tx.ratedCard(
                        uniqueId: cardUUID, stackId: stackId, userId: userId, reviewId: logId)
                else { throw AppError.cardNotFound }
                guard
                    let log = try review(of: rated, id: logId, rating: rating, durationMs: durationMs, mode: mode)
                else { return (rated.card, nil, nil) }
                let before = Self.reviewDue(rated.card)
                let change = try await ReviewRecorder(scheduler: scheduler).record(
                    [log], for: rated.card, lastSeq: rated.lastSeq, load: load, in: tx)
                // The day's first rating of an FSRS stack counts the day (this rating included); every
                // other adjusts the counts kept.
                if let dayStart, !keptToday,
                    let counts = try await tx.recountDay(stackId: stackId, from: dayStart)
                {
                    return (rated.card, counts, before)
                }
                return (rated.card, try await tx.applyDayCounts(change), before)
            }
            try rated(card, counts: counts, dueBefore: before, scheduler: scheduler)
            return card
        }
        guard let appended = store.appendedReviews else { return try await inTransaction() }
        // The day's first rating of an FSRS stack counts the day in a transaction; every other one
        // that continues the card's schedule is one statement. This process's ratings of the stack
        // run one at a time, so that they do not meet as conflicts in the database.
        return try await appended.oneAtATime(stack: stackId) {
            if dayStart == nil || keptToday,
                let card = try await rateAppending(
                    cardUUID, rating: rating, logId: logId, durationMs: durationMs, mode: mode,
                    scheduler: scheduler, load: load, with: appended)
            {
                return card
            }
            return try await inTransaction()
        }
    }

    /// Rates a card through `appended` (`AppendedReviews`): nil when the rating is no append, for the
    /// caller to rate in a transaction. When another rating of the card was stored since it was read,
    /// the rating is computed again from that one with the card locked (`AppendedReviews.locking`).
    private func rateAppending(
        _ cardUUID: UUID, rating: StudyRating, logId: UUID, durationMs: Int?, mode: StudyMode,
        scheduler: CardScheduler, load: LearnerLoad.Snapshot?, with appended: any AppendedReviews
    ) async throws -> CardModel? {
        let attempt = { @Sendable (reviews: any AppendedReviews, siblings: [Date]?) in
            try await self.appendOnce(
                cardUUID, rating: rating, logId: logId, durationMs: durationMs, mode: mode, scheduler: scheduler,
                load: load, siblings: siblings, with: reviews)
        }
        var outcome = try await attempt(appended, nil)
        if case .cardChanged(let siblings) = outcome {
            // The siblings read for the first attempt serve again: no second pooled connection is
            // waited for while the card is locked.
            outcome = try await appended.locking(card: cardUUID, of: try user.requireID(), in: stack.id!) {
                try await attempt($0, siblings)
            }
        }
        switch outcome {
        case .notAppended, .cardChanged:
            return nil
        case .stored(let card, let written):
            if let written {
                try rated(card, counts: written.counts, dueBefore: written.dueBefore, scheduler: scheduler)
            }
            return card
        }
    }

    /// What one attempt of `rateAppending` did.
    private enum AppendAttempt: Sendable {
        /// The rating is no append: a transaction replays the card.
        case notAppended
        /// Another writer changed the card since it was read; the card's siblings as read.
        case cardChanged(siblings: [Date])
        /// Stored, with the day counts and the card's due time before (`written` nil: a repeated
        /// request, nothing stored).
        case stored(CardModel, written: (counts: StackDayCounts.Counts?, dueBefore: Date?)?)
    }

    /// Reads the card through `reviews`, computes the rating and writes it if the card is still the
    /// version read. `siblings`: the due times of the card's siblings, when read before.
    private func appendOnce(
        _ cardUUID: UUID, rating: StudyRating, logId: UUID, durationMs: Int?, mode: StudyMode,
        scheduler: CardScheduler, load: LearnerLoad.Snapshot?, siblings known: [Date]?,
        with reviews: any AppendedReviews
    ) async throws -> AppendAttempt {
        let stackId = stack.id!
        let userId = try user.requireID()
        guard
            let read = try await reviews.ratedCard(
                uniqueId: cardUUID, stackId: stackId, userId: userId, reviewId: logId)
        else { throw AppError.cardNotFound }
        let card = read.rated.card
        guard let log = try review(of: read.rated, id: logId, rating: rating, durationMs: durationMs, mode: mode)
        else { return .stored(card, written: nil) }
        guard try ReviewRecorder.appends([log], to: card) else { return .notAppended }
        let before = (times: ReviewTimes(card), due: Self.reviewDue(card))
        var siblings: [Date] = []
        if let known {
            siblings = known
        } else if load != nil {
            siblings = try await store.siblingDues(of: card)
        }
        _ = try ReviewRecorder(scheduler: scheduler).apply(
            [log], to: card, existing: nil, lastSeq: read.rated.lastSeq, load: load, siblings: siblings)
        let change = ReviewTimesChange(stackId: stackId, before: before.times, after: ReviewTimes(card))
        switch try await reviews.write(log, card: card, version: read.version, change: change) {
        case .cardChanged:
            return .cardChanged(siblings: siblings)
        case .written(let counts):
            return .stored(card, written: (counts, before.due))
        }
    }

    /// The review to store for `rated`: nil when its id was stored for this card before (a repeated
    /// request), a 409 when it is another review's.
    private func review(of rated: RatedCard, id: UUID, rating: StudyRating, durationMs: Int?, mode: StudyMode) throws
        -> ReviewLogModel?
    {
        switch rated.knownReview {
        case .same?: return nil
        case .other?: throw AppError.conflict("Diese reviewId gehört zu einer anderen Bewertung.")
        case nil:
            return ReviewLogModel(
                id: id, userId: try user.requireID(), cardId: rated.card.id!, stackId: stack.id!,
                reviewedAt: context.now, rating: rating, durationMs: durationMs, mode: mode)
        }
    }

    /// After a rating: keeps the stack's day counts it returned and moves the card in the learner's
    /// load (`dueBefore`: its due time in the review queue before the rating).
    private func rated(_ card: CardModel, counts: StackDayCounts.Counts?, dueBefore: Date?, scheduler: CardScheduler)
        throws
    {
        if let counts { StackDayCounts.remember(counts, on: stack) }
        if counts != nil || dueBefore != nil || card.queue == CardQueue.review.rawValue {
            LearnerLoad.moved(
                userId: try user.requireID(), from: dueBefore, to: Self.reviewDue(card), scheduler: scheduler)
        }
    }

    /// The due time of a card waiting in the review queue (what the learner's load counts).
    private static func reviewDue(_ card: CardModel) -> Date? {
        card.queue == CardQueue.review.rawValue ? card.dueAt : nil
    }
}

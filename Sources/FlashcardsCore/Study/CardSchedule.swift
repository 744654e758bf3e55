import Foundation

/// A card's schedule: what the replay of its review history gives, under either scheduler.
public struct CardSchedule: Sendable, Hashable {
    /// Where the card stands.
    public var state: CardState
    /// FSRS (re)learning step; nil in review and for ladder cards.
    public var step: Int?
    /// FSRS stability in days.
    public var stability: Double?
    /// FSRS difficulty.
    public var difficulty: Double?
    /// When the card is due.
    public var due: Date
    /// Ladder level; for FSRS cards the review count capped like the ladder's levels, so the
    /// original clients' maturity level still grows with practice.
    public var level: Int
    /// Counted reviews.
    public var reviewCount: Int
    /// The first counted review; the daily new-card limit counts cards first reviewed today.
    public var firstReviewedAt: Date?
    /// The last counted review.
    public var lastReviewedAt: Date?

    /// Creates a schedule.
    public init(
        state: CardState, step: Int?, stability: Double?, difficulty: Double?, due: Date, level: Int,
        reviewCount: Int, firstReviewedAt: Date?, lastReviewedAt: Date?
    ) {
        self.state = state
        self.step = step
        self.stability = stability
        self.difficulty = difficulty
        self.due = due
        self.level = level
        self.reviewCount = reviewCount
        self.firstReviewedAt = firstReviewedAt
        self.lastReviewedAt = lastReviewedAt
    }

    /// A card never reviewed: due at once, level 0.
    public static func new(createdAt: Date) -> CardSchedule {
        CardSchedule(
            state: .new, step: nil, stability: nil, difficulty: nil, due: createdAt, level: 0, reviewCount: 0,
            firstReviewedAt: nil, lastReviewedAt: nil)
    }

    /// The queue the card waits in.
    public var queue: CardQueue { state.queue }

    /// The ladder's view.
    public var ladderState: LadderState { LadderState(due: due, level: level) }

    /// The FSRS view (a new card for a card without FSRS history).
    public var fsrsCard: FSRSCard {
        guard let last = lastReviewedAt, let fsrsState = state.fsrs else { return FSRSCard.new(due: due) }
        return FSRSCard(
            state: fsrsState, step: step, stability: stability,
            difficulty: difficulty, due: due, lastReview: last)
    }
}

/// A review-log entry as the replay reads it.
public struct LoggedReview: Sendable, Hashable {
    /// The entry's id (the client's review id when it sent one).
    public var id: UUID
    /// A rating or an undo.
    public var kind: ReviewLogKind
    /// For an undo: the review it cancels.
    public var undoes: UUID?
    /// The rating as given.
    public var rating: StudyRating
    /// When.
    public var reviewedAt: Date
    /// Arrival number among the card's entries.
    public var seq: Int
    /// The interval in days the load balancer chose when the review was made (FSRS, graduating to
    /// review); a replay keeps it while it fits the interval computed then (`FSRSScheduler.DueChoice`).
    public var balancedDays: Int?

    /// Creates the entry.
    public init(
        id: UUID, kind: ReviewLogKind, undoes: UUID?, rating: StudyRating, reviewedAt: Date, seq: Int,
        balancedDays: Int? = nil
    ) {
        self.id = id
        self.kind = kind
        self.undoes = undoes
        self.rating = rating
        self.reviewedAt = reviewedAt
        self.seq = seq
        self.balancedDays = balancedDays
    }
}

/// The one order reviews are replayed in: review time, then arrival (`seq`, for reviews of one card
/// at the very same instant), then id as lowercase text (so SQLite and PostgreSQL, which order UUIDs
/// differently, agree).
public enum ReviewOrder {
    /// Whether `a` is replayed before `b`.
    public static func precedes(_ a: LoggedReview, _ b: LoggedReview) -> Bool {
        if a.reviewedAt != b.reviewedAt { return a.reviewedAt < b.reviewedAt }
        if a.seq != b.seq { return a.seq < b.seq }
        return a.id.uuidString.lowercased() < b.id.uuidString.lowercased()
    }

    /// The reviews of `logs` that count (not undone), in replay order.
    public static func counted(_ logs: [LoggedReview]) -> [LoggedReview] {
        let undone = Set(logs.compactMap { $0.kind == .undo ? $0.undoes : nil })
        return logs.filter { $0.kind == .review && !undone.contains($0.id) }.sorted(by: precedes)
    }
}

/// A card's state as a replay step reports it.
public enum ReplayState: Sendable, Hashable {
    /// Never reviewed (FSRS).
    case new
    /// A ladder state.
    case ladder(LadderState)
    /// An FSRS state.
    case fsrs(FSRSCard)
}

/// What a replay reports about one counted review.
public struct ReplayStep: Sendable, Hashable {
    /// The card's state before the review.
    public var before: ReplayState
    /// The card's state after the review.
    public var after: ReplayState
    /// Learner days since the previous counted review; nil for the first.
    public var elapsedDays: Int?
    /// The interval the load balancer chose for this review (when it was given the days ahead).
    public var balancedDays: Int?
}

/// Everything needed to schedule the cards of one stack: the scheduler, the FSRS scheduler built from
/// the stack's settings and the user's parameters, and the learner's day (04:00 in the user's time
/// zone, which FSRS counts elapsed days in). Folds reviews into `CardSchedule`s; the server and
/// `flashcards fsrs replay` both replay through it.
public struct CardScheduler: Sendable {
    /// The stack's scheduler.
    public let kind: SchedulerKind
    /// The FSRS scheduler (also built for ladder stacks: statistics predict with it).
    public let fsrs: FSRSScheduler

    /// A scheduler for `settings` in `timeZone` with the user's FSRS `parameters` (nil: defaults).
    /// Settings are validated on the way in; should stored ones still be invalid, the defaults keep
    /// the stack usable rather than failing every request.
    public init(settings: StackSettings, timeZone: TimeZone, parameters: [Double]?) {
        let dayCounting = FSRSDayCounting.rollover(hourOfDay: SchedulerKind.fsrs.dayStartHour, timeZone: timeZone)
        let fsrs =
            (try? FSRSScheduler(
                configuration: settings.fsrsConfiguration(parameters: parameters, dayCounting: dayCounting)))
            ?? (try! FSRSScheduler(configuration: FSRSConfiguration(dayCounting: dayCounting)))
        self.init(kind: settings.scheduler, fsrs: fsrs)
    }

    /// A scheduler of `kind` over a ready FSRS scheduler.
    public init(kind: SchedulerKind, fsrs: FSRSScheduler) {
        self.kind = kind
        self.fsrs = fsrs
    }

    /// The learner day `date` falls into, from the FSRS scheduler's offset table.
    public func day(of date: Date) -> Int { fsrs.dayNumber(of: date) }

    /// The instant learner day `day` begins.
    public func start(ofDay day: Int) -> Date { fsrs.startOfDay(day) }

    // MARK: Options

    /// The ratings offered for a card with `schedule` at `now`, in button order (the worst answer
    /// first in both schedulers: ladder Schwer, Mittel, Einfach; FSRS Again … Easy), each with the
    /// interval it would give (with `load`, the day the load balancer would choose, as rating gives it).
    public func options(
        for schedule: CardSchedule, cardID: Int64, now: Date, load: FSRSLoadBalancer.Days? = nil
    ) -> [RatingOption] {
        switch kind {
        case .ladder:
            return LadderRating.allCases.reversed().map { rating in
                let seconds = LadderScheduler.intervalSeconds(for: rating, level: schedule.level)
                return RatingOption(
                    rating: .ladder(rating), seconds: seconds, shown: DurationText.amount(seconds: seconds))
            }
        case .fsrs:
            let seed = FSRSScheduler.fuzzSeed(cardID: cardID, reviewCount: schedule.reviewCount)
            let outcomes = fsrs.preview(schedule.fsrsCard, at: now, fuzzSeed: seed, load: load)
            let today = day(of: now)
            return FSRSRating.allCases.map { rating in
                let outcome = outcomes[rating]!
                let seconds = max(0, Int(outcome.due.timeIntervalSince(now).rounded()))
                // A card in review is due on a learner day: name the days, not the seconds to it.
                let shown =
                    outcome.state == .review
                    ? DurationText.amount(seconds: max(1, day(of: outcome.due) - today) * 86_400)
                    : IntervalRounding.amount(seconds: seconds)
                return RatingOption(rating: .fsrs(rating), seconds: seconds, shown: shown)
            }
        }
    }

    /// The predicted probability of recall at `now`; nil without an FSRS memory state.
    public func retrievability(of schedule: CardSchedule, at now: Date) -> Double? {
        guard schedule.stability != nil, schedule.lastReviewedAt != nil else { return nil }
        return fsrs.retrievability(of: schedule.fsrsCard, at: now)
    }

    // MARK: Replay

    /// Applies one counted review to `schedule` (the card's `reviewCount`-th, which seeds FSRS's fuzz).
    /// An FSRS card that graduates takes `balancedDays` (recorded with the review) when it still fits,
    /// else the load balancer's day over `load`, else its fuzzed day; returns the balancer's choice.
    @discardableResult
    public func apply(
        _ rating: StudyRating, at time: Date, to schedule: inout CardSchedule, cardID: Int64,
        balancedDays: Int? = nil, load: FSRSLoadBalancer.Days? = nil
    ) -> Int? {
        var balanced: Int?
        switch kind {
        case .ladder:
            let state = LadderScheduler.review(schedule.ladderState, rating: rating.ladder, at: time)
            schedule.due = state.due
            schedule.level = state.level
            schedule.state = state.level < 4 ? .learning : .review
            schedule.step = nil
            schedule.stability = nil
            schedule.difficulty = nil
        case .fsrs:
            let due: FSRSScheduler.DueChoice =
                if let balancedDays { .recorded(balancedDays) } else if let load { .balanced(load) } else { .fuzzed }
            let (next, chosen) = fsrs.review(
                schedule.fsrsCard, rating: rating.fsrs, at: time,
                fuzzSeed: FSRSScheduler.fuzzSeed(cardID: cardID, reviewCount: schedule.reviewCount), due: due)
            balanced = chosen
            schedule.due = next.due
            schedule.state = CardState(next.state)
            schedule.step = next.step
            schedule.stability = next.stability
            schedule.difficulty = next.difficulty
            schedule.level = min(schedule.reviewCount + 1, LadderScheduler.maximumLevel)
        }
        schedule.reviewCount += 1
        if schedule.firstReviewedAt == nil { schedule.firstReviewedAt = time }
        schedule.lastReviewedAt = time
        return balanced
    }

    /// Applies `reviews` (counted reviews in replay order, all after the card's counted ones) to the
    /// schedule the card has now. Since a card's schedule is the replay of its history, this gives
    /// what a replay of the whole history gives (`replay` is a reset followed by this). Returns the
    /// steps of the reviews among `described`. A review without a recorded balanced interval is
    /// balanced over `load(review)` when that gives the days ahead of it.
    @discardableResult
    public func advance(
        _ schedule: inout CardSchedule, cardID: Int64, by reviews: [LoggedReview], describing described: Set<UUID> = [],
        load: (LoggedReview) -> FSRSLoadBalancer.Days? = { _ in nil }
    ) -> [UUID: ReplayStep] {
        var steps: [UUID: ReplayStep] = [:]
        for review in reviews {
            let before = schedule
            let balanced = apply(
                review.rating, at: review.reviewedAt, to: &schedule, cardID: cardID, balancedDays: review.balancedDays,
                load: review.balancedDays == nil ? load(review) : nil)
            guard described.contains(review.id) else { continue }
            steps[review.id] = ReplayStep(
                before: replayState(before), after: replayState(schedule),
                elapsedDays: before.lastReviewedAt.map { fsrs.elapsedDays(from: $0, to: review.reviewedAt) },
                balancedDays: balanced)
        }
        return steps
    }

    /// The schedule of a card created at `createdAt` with the review log `logs` (reviews and undo
    /// entries in any order): its counted reviews replayed from new. Returns the steps of the
    /// counted reviews among `described`.
    public func replay(
        _ logs: [LoggedReview], cardID: Int64, createdAt: Date, describing described: Set<UUID> = []
    ) -> (schedule: CardSchedule, steps: [UUID: ReplayStep]) {
        var schedule = CardSchedule.new(createdAt: createdAt)
        let steps = advance(&schedule, cardID: cardID, by: ReviewOrder.counted(logs), describing: described)
        return (schedule, steps)
    }

    private func replayState(_ schedule: CardSchedule) -> ReplayState {
        switch kind {
        case .ladder: .ladder(schedule.ladderState)
        case .fsrs: schedule.reviewCount == 0 ? .new : .fsrs(schedule.fsrsCard)
        }
    }
}

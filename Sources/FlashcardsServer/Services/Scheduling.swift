import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// The schedulers a stack can use.
enum SchedulerKind: String, Sendable, CaseIterable {
    /// The original fixed interval tables with three ratings.
    case ladder
    /// FSRS-6 with four ratings.
    case fsrs
}

/// The hour the learner's day starts for FSRS stacks (Anki's default "next day starts at 04:00").
let fsrsDayStartHour = 4

/// Everything needed to schedule the cards of one stack: the scheduler, the user's FSRS parameters
/// and the learner's day (04:00 in the user's time zone).
struct StackScheduling: Sendable {
    let kind: SchedulerKind
    /// The FSRS scheduler for this stack (also built for ladder stacks: statistics predict with it).
    let fsrs: FSRSScheduler
    let dayCounting: FSRSDayCounting
    let timeZone: TimeZone

    /// Every stack field read here is part of the cache key of `built(stack:user:parameters:)`.
    init(stack: StackModel, timeZone: TimeZone, parameters: [Double]?) {
        kind = SchedulerKind(rawValue: stack.scheduler) ?? .ladder
        self.timeZone = timeZone
        dayCounting = .rollover(hourOfDay: fsrsDayStartHour, timeZone: timeZone)
        let configuration = FSRSConfiguration(
            parameters: parameters ?? FSRSConfiguration.defaultParameters,
            desiredRetention: stack.desiredRetention,
            learningSteps: StackSettings.steps(stack.learningSteps),
            relearningSteps: StackSettings.steps(stack.relearningSteps),
            dayCounting: dayCounting)
        // Settings are validated on the way in; should a stored row still be invalid, the defaults
        // keep the stack usable rather than failing every request.
        fsrs =
            (try? FSRSScheduler(configuration: configuration))
            ?? (try! FSRSScheduler(configuration: FSRSConfiguration(dayCounting: dayCounting)))
    }

    /// Loads the user's parameters and builds the scheduling of `stack`. Ladder stacks never use
    /// FSRS parameters (their cards carry no memory state), so they cost no query, and neither do
    /// parameters read with the account (`preloaded`).
    static func load(
        stack: StackModel, user: UserModel, on db: any Database, preloaded: PreloadedParameters? = nil
    ) async throws -> StackScheduling {
        guard stack.scheduler == SchedulerKind.fsrs.rawValue else {
            return built(stack: stack, user: user, parameters: nil)
        }
        let text: String?
        if let preloaded {
            text = preloaded.text
        } else {
            struct Row: Decodable { let parameters: String }
            text = try await db.sql.raw(
                "SELECT parameters FROM scheduler_parameters WHERE user_id = \(bind: try user.requireID())"
            ).first(decoding: Row.self)?.parameters
        }
        return built(stack: stack, user: user, parameters: text)
    }

    /// Everything a scheduling is built from, as stored.
    private struct Inputs: Hashable {
        let scheduler: String
        let desiredRetention: Double
        let learningSteps: String
        let relearningSteps: String
        let timeZone: String
        let parameters: String?
    }

    /// Schedulings built by `load`, by their inputs. Building one (steps parsed, parameters decoded,
    /// the FSRS scheduler set up) took 20–35 µs of every study request, for either scheduler; the
    /// inputs are a handful of settings most users never change. Emptied when it holds `cacheLimit`.
    private static let cache = NIOLockedValueBox<[Inputs: StackScheduling]>([:])
    static let cacheLimit = 512

    /// The scheduling of `stack` for `user` with the stored parameter text `parameters`.
    static func built(stack: StackModel, user: UserModel, parameters: String?) -> StackScheduling {
        let inputs = Inputs(
            scheduler: stack.scheduler, desiredRetention: stack.desiredRetention, learningSteps: stack.learningSteps,
            relearningSteps: stack.relearningSteps, timeZone: user.timeZone, parameters: parameters)
        if let scheduling = cache.withLockedValue({ $0[inputs] }) { return scheduling }
        let scheduling = StackScheduling(
            stack: stack, timeZone: user.zone, parameters: parameters.flatMap(SchedulerParametersModel.weights))
        cache.withLockedValue { cache in
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[inputs] = scheduling
        }
        return scheduling
    }

    /// The learner day `date` falls into, from the scheduler's offset table (asking the `TimeZone`
    /// costs ~0.2 µs, and a study request asks for several days).
    func day(of date: Date) -> Int { fsrs.dayNumber(of: date) }

    /// The instant learner day `day` begins.
    func start(ofDay day: Int) -> Date { fsrs.startOfDay(day) }

    // MARK: Ratings

    /// The rating with this `/api/v1` key in this stack's scheduler, as stored in the log.
    func rating(forKey key: String) -> StoredRating? {
        switch kind {
        case .ladder: LadderRating(key: key).map { StoredRating(scheduler: .ladder, value: $0.rawValue) }
        case .fsrs: FSRSButtons.rating(forKey: key).map { StoredRating(scheduler: .fsrs, value: $0.rawValue) }
        }
    }

    /// The rating with this compatibility id (`POST /stack/rating`). FSRS stacks take 11 … 14 and, for
    /// clients that remember the original ids, 0/1/2 mapped as a replay maps ladder ratings.
    func rating(forCompatId id: Int) -> StoredRating? {
        switch kind {
        case .ladder:
            return LadderRating(rawValue: id).map { StoredRating(scheduler: .ladder, value: $0.rawValue) }
        case .fsrs:
            if let rating = FSRSButtons.rating(forCompatId: id) {
                return StoredRating(scheduler: .fsrs, value: rating.rawValue)
            }
            return LadderRating(rawValue: id).map {
                StoredRating(
                    scheduler: .fsrs, value: StoredRating(scheduler: .ladder, value: $0.rawValue).fsrs.rawValue)
            }
        }
    }

    /// The text listing the valid keys, for error messages.
    var ratingKeysText: String {
        switch kind {
        case .ladder: "easy, medium, hard"
        case .fsrs: "again, hard, good, easy"
        }
    }

    // MARK: Options

    /// The ratings offered for `card` at `now`, in button order, each with the interval it would give.
    func options(for card: CardModel, now: Date) -> [RatingOption] {
        switch kind {
        case .ladder:
            return LadderRating.allCases.map { rating in
                let seconds = LadderScheduler.intervalSeconds(for: rating, level: card.level)
                return RatingOption(
                    key: rating.key, id: rating.rawValue, label: rating.germanName, englishLabel: rating.englishName,
                    color: rating.color, seconds: seconds, text: DurationText.german(seconds: seconds))
            }
        case .fsrs:
            let current = fsrsCard(card)
            let seed = FSRSScheduler.fuzzSeed(cardID: Int64(card.id ?? 0), reviewCount: card.reviewCount)
            let outcomes = fsrs.preview(current, at: now, fuzzSeed: seed)
            let today = day(of: now)
            return FSRSRating.allCases.map { rating in
                let outcome = outcomes[rating]!
                let seconds = max(0, Int(outcome.due.timeIntervalSince(now).rounded()))
                let text: String
                if outcome.state == .review {
                    let days = max(1, day(of: outcome.due) - today)
                    text = DurationText.german(seconds: days * 86_400)
                } else {
                    text = IntervalText.german(seconds: seconds)
                }
                return RatingOption(
                    key: FSRSButtons.key(rating), id: FSRSButtons.compatId(rating),
                    label: FSRSButtons.germanName(rating), englishLabel: FSRSButtons.englishName(rating),
                    color: FSRSButtons.color(rating), seconds: seconds, text: text)
            }
        }
    }

    /// The card's FSRS state as the scheduler sees it.
    func fsrsCard(_ card: CardModel) -> FSRSCard {
        guard let last = card.lastReviewedAt, card.state != "new" else { return FSRSCard.new(due: card.dueAt) }
        return FSRSCard(
            state: FSRSState(rawValue: card.state) ?? .review, step: card.step, stability: card.stability,
            difficulty: card.difficulty, due: card.dueAt, lastReview: last)
    }

    /// The predicted probability of recall of `card` at `now`; nil without an FSRS memory state.
    func retrievability(of card: CardModel, at now: Date) -> Double? {
        guard card.stability != nil, card.lastReviewedAt != nil else { return nil }
        return fsrs.retrievability(of: fsrsCard(card), at: now)
    }

    // MARK: Replay

    /// Replays the reviews of `card` that count (in `(reviewed_at, id)` order, skipping undone ones)
    /// from a new card, and writes the resulting state onto `card`. Returns, for the counted reviews
    /// among `described`, their state before and after and their elapsed learner days.
    @discardableResult
    func replay(_ card: CardModel, logs: [ReviewLogModel], describing described: Set<UUID> = []) -> [UUID: ReplayStep] {
        let undone = Set(logs.filter { $0.kind == "undo" }.compactMap(\.undoes))
        let reviews = ReviewOrder.sorted(logs.filter { $0.kind == "review" && !undone.contains($0.id!) })
        card.reviewCount = 0
        card.firstReviewedAt = nil
        card.lastReviewedAt = nil
        card.ladderState = LadderState.new(createdAt: card.createdAt)
        card.state = "new"
        card.step = nil
        card.stability = nil
        card.difficulty = nil
        return advance(card, by: reviews, describing: described)
    }

    /// Applies `reviews` to the state `card` has now: counted reviews in replay order, all after the
    /// card's counted ones. Since a card's state is the replay of its history, this gives what a
    /// replay of the whole history gives (`replay` is a reset followed by this). Returns the steps of
    /// the reviews among `described`.
    func advance(_ card: CardModel, by reviews: [ReviewLogModel], describing described: Set<UUID>)
        -> [UUID: ReplayStep]
    {
        var steps: [UUID: ReplayStep] = [:]
        var previous = card.lastReviewedAt
        var count = card.reviewCount
        // Records a described review; `before`/`after` are only encoded for those.
        func note(_ review: ReviewLogModel, before: @autoclosure () -> String, after: @autoclosure () -> String) {
            if described.contains(review.id!) {
                steps[review.id!] = ReplayStep(
                    before: before(), after: after(),
                    elapsedDays: previous.map { dayCounting.elapsedDays(from: $0, to: review.reviewedAt) })
            }
            previous = review.reviewedAt
            count += 1
        }
        switch kind {
        case .ladder:
            var state = card.ladderState
            for review in reviews {
                let before = state
                state = LadderScheduler.review(state, rating: review.storedRating.ladder, at: review.reviewedAt)
                note(review, before: Self.json(before), after: Self.json(state))
            }
            card.ladderState = state
            card.step = nil
            card.stability = nil
            card.difficulty = nil
            if count == 0 {
                card.state = "new"
                card.queue = 0
            } else if state.level < 4 {
                card.state = "learning"
                card.queue = 1
            } else {
                card.state = "review"
                card.queue = 2
            }
        case .fsrs:
            var state = fsrsCard(card)
            for review in reviews {
                let before = state
                state = fsrs.review(
                    state, rating: review.storedRating.fsrs, at: review.reviewedAt,
                    fuzzSeed: FSRSScheduler.fuzzSeed(cardID: Int64(card.id ?? 0), reviewCount: count))
                note(review, before: count == 0 ? #"{"state":"new"}"# : Self.json(before), after: Self.json(state))
            }
            card.dueAt = state.due
            // For FSRS cards `level` counts the reviews (capped like the ladder's levels), so the
            // original clients' maturity level still grows with practice.
            card.level = min(count, LadderScheduler.maximumLevel)
            if count == 0 {
                card.state = "new"
                card.queue = 0
                card.step = nil
                card.stability = nil
                card.difficulty = nil
            } else {
                card.state = state.state.rawValue
                card.queue = state.state == .review ? 2 : 1
                card.step = state.step
                card.stability = state.stability
                card.difficulty = state.difficulty
            }
        }
        card.reviewCount = count
        if card.firstReviewedAt == nil { card.firstReviewedAt = reviews.first?.reviewedAt }
        if let last = reviews.last { card.lastReviewedAt = last.reviewedAt }
        return steps
    }

    private static func json<T: Encodable>(_ value: T) -> String { StateJSON.text(value) }
}

extension ReviewLogModel {
    /// The rating as given, under the scheduler it was given with.
    var storedRating: StoredRating { StoredRating(storedScheduler: scheduler, value: rating) }
}

/// Card states as the log stores them: JSON with sorted keys, so one state is always one text.
enum StateJSON {
    private static let encoder: JSONEncoder = {
        let encoder = FlashcardsJSON.makeEncoder()
        encoder.outputFormatting.insert(.sortedKeys)
        return encoder
    }()

    static func text<T: Encodable>(_ value: T) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// What a replay reports about one counted review.
struct ReplayStep: Sendable {
    /// The card's state before the review, as JSON.
    var before: String
    /// The card's state after the review, as JSON.
    var after: String
    /// Learner days since the previous counted review; nil for the first.
    var elapsedDays: Int?
}

/// The one order reviews are replayed in: review time, then arrival (`seq`, for reviews of one card
/// at the very same instant, such as quick ratings under a test clock), then id (lowercase text, so
/// SQLite and PostgreSQL, which order UUIDs differently, agree).
enum ReviewOrder {
    static func sorted(_ logs: [ReviewLogModel]) -> [ReviewLogModel] {
        logs.sorted(by: precedes)
    }

    static func precedes(_ a: ReviewLogModel, _ b: ReviewLogModel) -> Bool {
        if a.reviewedAt != b.reviewedAt { return a.reviewedAt < b.reviewedAt }
        if a.seq != b.seq { return a.seq < b.seq }
        return a.id!.uuidString.lowercased() < b.id!.uuidString.lowercased()
    }
}

/// A rating as stored in the log: the scheduler it was given under and its number there (ladder
/// 0/1/2, FSRS 1 … 4). Replaying under the other scheduler maps it.
struct StoredRating: Sendable, Hashable {
    let scheduler: SchedulerKind
    let value: Int

    init(scheduler: SchedulerKind, value: Int) {
        self.scheduler = scheduler
        self.value = value
    }

    /// A rating as a log row stores it (a scheduler name this server does not know counts as the ladder).
    init(storedScheduler: String, value: Int) {
        self.init(scheduler: SchedulerKind(rawValue: storedScheduler) ?? .ladder, value: value)
    }

    /// As an FSRS rating. Ladder: Einfach → Good (the card climbs), Mittel → Hard (it stays),
    /// Schwer → Again (it falls back to minutes).
    var fsrs: FSRSRating {
        switch scheduler {
        case .fsrs: FSRSRating(rawValue: value) ?? .good
        case .ladder:
            switch LadderRating(rawValue: value) ?? .medium {
            case .easy: .good
            case .medium: .hard
            case .hard: .again
            }
        }
    }

    /// As a ladder rating: Again → Schwer, Hard → Mittel, Good and Easy → Einfach.
    var ladder: LadderRating {
        switch scheduler {
        case .ladder: LadderRating(rawValue: value) ?? .medium
        case .fsrs:
            switch FSRSRating(rawValue: value) ?? .good {
            case .again: .hard
            case .hard: .medium
            case .good, .easy: .easy
            }
        }
    }
}

/// The four FSRS buttons: keys, compatibility ids (10 + the FSRS grade), labels and colours.
enum FSRSButtons {
    static func key(_ rating: FSRSRating) -> String {
        switch rating {
        case .again: "again"
        case .hard: "hard"
        case .good: "good"
        case .easy: "easy"
        }
    }

    static func rating(forKey key: String) -> FSRSRating? {
        FSRSRating.allCases.first { self.key($0) == key }
    }

    /// 11 Again, 12 Hard, 13 Good, 14 Easy: distinct from the ladder's 0/1/2.
    static func compatId(_ rating: FSRSRating) -> Int { 10 + rating.rawValue }

    static func rating(forCompatId id: Int) -> FSRSRating? { FSRSRating(rawValue: id - 10) }

    static func germanName(_ rating: FSRSRating) -> String {
        switch rating {
        case .again: "Nochmal"
        case .hard: "Schwer"
        case .good: "Gut"
        case .easy: "Einfach"
        }
    }

    static func englishName(_ rating: FSRSRating) -> String {
        switch rating {
        case .again: "Again"
        case .hard: "Hard"
        case .good: "Good"
        case .easy: "Easy"
        }
    }

    static func color(_ rating: FSRSRating) -> String {
        switch rating {
        case .again: "#EF4444"
        case .hard: "#F97316"
        case .good: "#22C55E"
        case .easy: "#0EA5E9"
        }
    }
}

/// A rating the learner can give now, with the interval it would apply.
struct RatingOption: Sendable {
    let key: String
    let id: Int
    let label: String
    let englishLabel: String
    let color: String
    let seconds: Int
    let text: String

    var dto: StudyOptionDTO {
        StudyOptionDTO(rating: key, id: id, label: label, color: color, intervalSeconds: seconds, intervalText: text)
    }

    var compat: CompatDifficultyAndDuration {
        CompatDifficultyAndDuration(
            difficulty: CompatDifficulty(id: id, name: label, color: color),
            duration: CompatDuration(displayName: text))
    }
}

/// Interval names for FSRS steps, rounded to the largest fitting unit ("6 Minuten" for 330 s), since
/// step outcomes such as Hard's halfway delay are rarely whole minutes.
enum IntervalText {
    static func german(seconds: Int) -> String {
        let value = max(seconds, 0)
        if value < 60 { return DurationText.german(seconds: max(value, 1)) }
        if value < 3_600 { return DurationText.german(seconds: rounded(value, unit: 60)) }
        if value < 86_400 { return DurationText.german(seconds: rounded(value, unit: 3_600)) }
        return DurationText.german(seconds: rounded(value, unit: 86_400))
    }

    private static func rounded(_ value: Int, unit: Int) -> Int {
        max(1, Int((Double(value) / Double(unit)).rounded())) * unit
    }
}

/// Per-stack scheduler settings: defaults, validation and storage form.
enum StackSettings {
    /// Steps stored as comma-separated seconds.
    static func steps(_ text: String) -> [TimeInterval] {
        // Parsed on every study request: without Foundation's trimming (a measurable share of it).
        text.split(separator: ",").compactMap { TimeInterval(String($0.filter { !$0.isWhitespace })) }
    }

    static func stepsText(_ steps: [Int]) -> String {
        steps.map(String.init).joined(separator: ",")
    }

    static func stepSeconds(_ text: String) -> [Int] {
        steps(text).map { Int($0) }
    }

    /// Applies the given settings to `stack`, validating each. Returns whether the scheduler changed.
    static func apply(
        to stack: StackModel, scheduler: String?, desiredRetention: Double?, learningSteps: [Int]?,
        relearningSteps: [Int]?, newCardsPerDay: Int?, reviewsPerDay: Int?
    ) throws -> Bool {
        var changed = false
        if let scheduler {
            guard let kind = SchedulerKind(rawValue: scheduler) else {
                throw AppError.validation("scheduler muss ladder oder fsrs sein.")
            }
            changed = kind.rawValue != stack.scheduler
            stack.scheduler = kind.rawValue
        }
        if let desiredRetention {
            guard desiredRetention.isFinite, (0.70...0.99).contains(desiredRetention) else {
                throw AppError.validation("desiredRetention muss zwischen 0.70 und 0.99 liegen.")
            }
            stack.desiredRetention = desiredRetention
        }
        if let learningSteps {
            stack.learningSteps = stepsText(try validSteps(learningSteps, field: "learningSteps"))
        }
        if let relearningSteps {
            stack.relearningSteps = stepsText(try validSteps(relearningSteps, field: "relearningSteps"))
        }
        if let newCardsPerDay {
            guard (0...9_999).contains(newCardsPerDay) else {
                throw AppError.validation("newCardsPerDay muss eine ganze Zahl von 0 bis 9999 sein.")
            }
            stack.newCardsPerDay = newCardsPerDay
        }
        if let reviewsPerDay {
            guard (1...99_999).contains(reviewsPerDay) else {
                throw AppError.validation("reviewsPerDay muss eine ganze Zahl von 1 bis 99999 sein.")
            }
            stack.reviewsPerDay = reviewsPerDay
            // A new cap changes how the backlog is spread; spread again on the next request.
            stack.spreadDay = nil
        }
        return changed
    }

    private static func validSteps(_ steps: [Int], field: String) throws -> [Int] {
        guard steps.count <= 10, steps.allSatisfy({ (1...86_400).contains($0) }) else {
            throw AppError.validation(
                "\(field): höchstens 10 Schritte, jeder zwischen 1 und 86400 Sekunden.")
        }
        return steps
    }
}

extension UserModel {
    /// The user's time zone (UTC should the stored name ever be unknown).
    var zone: TimeZone { TimeZone(identifier: timeZone) ?? .gmt }
}

extension StackModel {
    /// The stack as `/api/v1` shows it, with its scheduler settings.
    func settingsDTO(cardCount: Int, dueCount: Int) -> StackDTO {
        StackDTO(
            id: uniqueId, name: name, color: color, cardCount: cardCount, dueCount: dueCount, createdAt: createdAt,
            updatedAt: updatedAt, scheduler: scheduler, desiredRetention: desiredRetention,
            learningSteps: StackSettings.stepSeconds(learningSteps),
            relearningSteps: StackSettings.stepSeconds(relearningSteps), newCardsPerDay: newCardsPerDay,
            reviewsPerDay: reviewsPerDay, hintsEnabled: hintsEnabled)
    }
}

extension CardModel {
    /// The card as `/api/v1` shows it, with its scheduling state.
    func stateDTO(stack: StackModel) -> CardDTO {
        CardDTO(
            id: uniqueId, stackId: stack.uniqueId, question: question, answer: answer, hint: hint, dueAt: dueAt,
            level: level, createdAt: createdAt, updatedAt: updatedAt, state: state, stability: stability,
            difficulty: difficulty, lastReviewedAt: lastReviewedAt, reviewCount: reviewCount)
    }
}

import Foundation

/// One day of a workload forecast or simulation.
public struct WorkloadDayDTO: Codable, Sendable, Hashable {
    /// The learner's day (`YYYY-MM-DD`, days start at 04:00 in the user's time zone).
    public var date: String
    /// Reviews of cards studied before (learning-step repeats not counted).
    public var reviews: Int
    /// New cards introduced.
    public var newCards: Int
    /// Estimated minutes of study, from the learner's own answer times where known.
    public var minutes: Double
    /// Cards remembered that day: the sum of every studied card's probability of recall.
    public var remembered: Double

    /// Creates the day.
    public init(date: String, reviews: Int, newCards: Int, minutes: Double, remembered: Double) {
        self.date = date
        self.reviews = reviews
        self.newCards = newCards
        self.minutes = minutes
        self.remembered = remembered
    }
}

/// `GET /api/v1/stacks/{id}/workload`, `GET /api/v1/me/workload` and the simulations: the days ahead
/// as the FSRS simulator expects them from the learner's memory states, settings and habits.
public struct WorkloadDTO: Codable, Sendable, Hashable {
    /// Day by day, today first.
    public var days: [WorkloadDayDTO]
    /// Average reviews per day (new cards included).
    public var averageReviews: Double
    /// Average minutes per day.
    public var averageMinutes: Double
    /// Cards remembered on the last day.
    public var remembered: Double
    /// FSRS cards the forecast starts from (studied and new).
    public var cards: Int
    /// The minutes per day the learner chose in onboarding, if any.
    @Nullable public var minutesBudget: Int?

    /// Creates the workload.
    public init(
        days: [WorkloadDayDTO], averageReviews: Double, averageMinutes: Double, remembered: Double, cards: Int,
        minutesBudget: Int?
    ) {
        self.days = days
        self.averageReviews = averageReviews
        self.averageMinutes = averageMinutes
        self.remembered = remembered
        self.cards = cards
        self.minutesBudget = minutesBudget
    }
}

/// `POST …/workload/simulate`: "what if" inputs; every field left out keeps the stack's setting.
public struct SimulationRequest: Codable, Sendable, Hashable {
    /// Days to simulate, 1 … 365 (default 30).
    public var days: Int?
    /// New cards per day, 0 … 1000.
    public var newCardsPerDay: Int?
    /// Reviews per day at most, 0 … 10000.
    public var reviewsPerDay: Int?
    /// Desired retention, 0.70 … 0.97.
    public var desiredRetention: Double?
    /// New cards added on top of the stacks' own, 0 … 100000.
    public var additionalNewCards: Int?

    /// Creates the request.
    public init(
        days: Int? = nil, newCardsPerDay: Int? = nil, reviewsPerDay: Int? = nil, desiredRetention: Double? = nil,
        additionalNewCards: Int? = nil
    ) {
        self.days = days
        self.newCardsPerDay = newCardsPerDay
        self.reviewsPerDay = reviewsPerDay
        self.desiredRetention = desiredRetention
        self.additionalNewCards = additionalNewCards
    }
}

/// What studying at one desired retention would mean over the simulated year.
public struct RetentionOptionDTO: Codable, Sendable, Hashable {
    /// The desired retention.
    public var desiredRetention: Double
    /// Reviews per day on average (new cards included).
    public var reviewsPerDay: Double
    /// Minutes per day on average.
    public var minutesPerDay: Double
    /// Cards remembered at the end.
    public var remembered: Double

    /// Creates the option.
    public init(desiredRetention: Double, reviewsPerDay: Double, minutesPerDay: Double, remembered: Double) {
        self.desiredRetention = desiredRetention
        self.reviewsPerDay = reviewsPerDay
        self.minutesPerDay = minutesPerDay
        self.remembered = remembered
    }
}

/// `GET /api/v1/stacks/{id}/retention-advice` and `GET /api/v1/me/retention-advice`.
public struct RetentionAdviceDTO: Codable, Sendable, Hashable {
    /// One option per retention (0.70 … 0.97), ascending.
    public var options: [RetentionOptionDTO]
    /// The recommended desired retention.
    public var recommended: Double
    /// The desired retention studied at now (for all stacks: the one most cards use).
    public var current: Double
    /// Why: `within_budget`, `over_budget`, `no_budget` or `nothing_to_study`.
    public var reason: String
    /// The minutes per day the learner chose in onboarding, if any.
    @Nullable public var minutesBudget: Int?
    /// Days simulated (365).
    public var days: Int

    /// Creates the advice.
    public init(
        options: [RetentionOptionDTO], recommended: Double, current: Double, reason: String, minutesBudget: Int?,
        days: Int
    ) {
        self.options = options
        self.recommended = recommended
        self.current = current
        self.reason = reason
        self.minutesBudget = minutesBudget
        self.days = days
    }
}

/// Long-term reviews and how many of them were recalled.
public struct RecallCountDTO: Codable, Sendable, Hashable {
    /// Reviews at least a day after the card's previous review.
    public var reviews: Int
    /// Of these, recalled (anything but Again; ladder: anything but Schwer).
    public var recalled: Int

    /// Creates the count.
    public init(reviews: Int, recalled: Int) {
        self.reviews = reviews
        self.recalled = recalled
    }
}

/// True retention over one period, for young and mature cards (Anki's table).
public struct TrueRetentionRowDTO: Codable, Sendable, Hashable {
    /// `today`, `yesterday`, `week` (the last 7 days), `month` (30) or `year` (365).
    public var period: String
    /// Reviews less than 21 days after the card's previous one.
    public var young: RecallCountDTO
    /// Reviews 21 days or more after the card's previous one.
    public var mature: RecallCountDTO

    /// Creates the row.
    public init(period: String, young: RecallCountDTO, mature: RecallCountDTO) {
        self.period = period
        self.young = young
        self.mature = mature
    }
}

/// How often each FSRS button was pressed in one phase, over the last 365 days.
public struct AnswerButtonsDTO: Codable, Sendable, Hashable {
    /// `learning` (a card's first review, or the same day as its previous one), `young` (1–20 days
    /// after the previous review) or `mature` (21 days or more).
    public var phase: String
    /// Presses of Again, Hard, Good, Easy.
    public var counts: [Int]

    /// Creates the entry.
    public init(phase: String, counts: [Int]) {
        self.phase = phase
        self.counts = counts
    }
}

/// `GET /api/v1/stacks/{id}/stats/memory` and `GET /api/v1/me/stats/memory`: what FSRS knows about
/// the cards' memory, and the figures FSRS users read.
public struct MemoryStatsDTO: Codable, Sendable, Hashable {
    /// Cards with an FSRS memory state.
    public var cards: Int
    /// Cards remembered now, as FSRS estimates it: the sum of their probabilities of recall.
    public var estimatedKnowledge: Double
    /// Cards by difficulty: 10 bins, 1–1.9, 2–2.9, …, 10.
    public var difficulty: [Int]
    /// Upper bounds (days, exclusive) of the stability bins; the last bin has none.
    public var stabilityBounds: [Int]
    /// Cards by stability, one count per bin of `stabilityBounds` and one above.
    public var stability: [Int]
    /// Cards by probability of recall now: 10 bins, 0–9 %, 10–19 %, …, 90–100 %.
    public var retrievability: [Int]
    /// True retention today, yesterday, over the last 7, 30 and 365 days.
    public var trueRetention: [TrueRetentionRowDTO]
    /// FSRS buttons pressed per phase over the last 365 days.
    public var answerButtons: [AnswerButtonsDTO]
    /// The daily load: the sum over the cards with a memory of 1 / their interval in days (at least
    /// one), about how many reviews a day they ask for in the long run.
    public var dailyLoad: Double
    /// Reviews and recalled ones by hour of the day (the learner's time zone), 24 entries from 0,
    /// over the last 365 days.
    public var hours: [RecallCountDTO]

    /// Creates the statistics.
    public init(
        cards: Int, estimatedKnowledge: Double, difficulty: [Int], stabilityBounds: [Int], stability: [Int],
        retrievability: [Int], trueRetention: [TrueRetentionRowDTO], answerButtons: [AnswerButtonsDTO],
        dailyLoad: Double = 0,
        hours: [RecallCountDTO] = Array(repeating: RecallCountDTO(reviews: 0, recalled: 0), count: 24)
    ) {
        self.dailyLoad = dailyLoad
        self.hours = hours
        self.cards = cards
        self.estimatedKnowledge = estimatedKnowledge
        self.difficulty = difficulty
        self.stabilityBounds = stabilityBounds
        self.stability = stability
        self.retrievability = retrievability
        self.trueRetention = trueRetention
        self.answerButtons = answerButtons
    }
}

/// `POST /api/v1/me/schedule/break` and `POST /api/v1/stacks/{id}/schedule/break`: "Ich bin vom …
/// bis … weg". The review cards due in the break go before it or after it (docs/fsrs.md "Breaks,
/// postponing and advancing").
public struct BreakRequest: Codable, Sendable, Hashable {
    /// The first day away (`YYYY-MM-DD`, the learner's day).
    public var from: String
    /// The last day away, at most 60 days after `from` and not before today.
    public var to: String
    /// Only work out the plan, change nothing (default `false`).
    public var preview: Bool?
    /// Also mark the days away as rest days (as far as 60 days ahead), so the streak waits and new
    /// ratings keep off them (default `true`).
    public var restDays: Bool?

    /// Creates the request.
    public init(from: String, to: String, preview: Bool? = nil, restDays: Bool? = nil) {
        self.from = from
        self.to = to
        self.preview = preview
        self.restDays = restDays
    }
}

/// One day around a break: review cards due before the plan and after it.
public struct RescheduleDayDTO: Codable, Sendable, Hashable {
    /// The learner's day (`YYYY-MM-DD`).
    public var date: String
    /// Review cards due that day before the change.
    public var before: Int
    /// Review cards due that day after it.
    public var after: Int

    /// Creates the day.
    public init(date: String, before: Int, after: Int) {
        self.date = date
        self.before = before
        self.after = after
    }
}

/// What a break plan, a postponement or an advance did (or, for a preview, would do).
public struct RescheduleDTO: Codable, Sendable, Hashable {
    /// Cards moved to earlier days.
    public var advanced: Int
    /// Cards moved to later days.
    public var postponed: Int
    /// The days the change touches, in order.
    public var days: [RescheduleDayDTO]
    /// `true` when nothing was changed (a preview).
    public var preview: Bool

    /// Creates the result.
    public init(advanced: Int, postponed: Int, days: [RescheduleDayDTO], preview: Bool) {
        self.advanced = advanced
        self.postponed = postponed
        self.days = days
        self.preview = preview
    }
}

/// `POST …/schedule/postpone` and `…/schedule/advance`: how many review cards to move.
public struct RescheduleRequest: Codable, Sendable, Hashable {
    /// 1 … 10,000.
    public var count: Int
    /// Only work out what would move (default `false`).
    public var preview: Bool?

    /// Creates the request.
    public init(count: Int, preview: Bool? = nil) {
        self.count = count
        self.preview = preview
    }
}

import FlashcardsCore
import Foundation

// Wire types of scheduling under `/api/v1`: offline review sync, undo, statistics and the
// per-user FSRS parameters. See docs/api.md.

/// One review made offline, as a client sends it to `POST /api/v1/reviews`.
public struct SyncReviewDTO: Codable, Sendable, Hashable {
    /// The client-made review id; sending it again changes nothing.
    @LowercaseUUID public var id: UUID
    /// The card reviewed (one of the caller's).
    @LowercaseUUID public var cardId: UUID
    /// A rating key of the card's stack: `again`, `hard`, `good`, `easy` (FSRS) or `easy`, `medium`, `hard` (ladder).
    public var rating: RatingKey
    /// When the review happened on the client.
    public var reviewedAt: Date
    /// How long the learner took, in milliseconds.
    public var durationMs: Int?
    /// The study mode the review was made in; `flashcards` when absent.
    public var mode: StudyMode?
    /// The interval in days the client's load balancer chose when the review graduated the card
    /// (FSRS). The server keeps it while it lies within a day of the fuzz range it computes for the
    /// review, so that client and server agree on the due day; otherwise it fuzzes as usual.
    public var balancedDays: Int?

    /// Creates the review.
    public init(
        id: UUID, cardId: UUID, rating: RatingKey, reviewedAt: Date, durationMs: Int? = nil, mode: StudyMode? = nil,
        balancedDays: Int? = nil
    ) {
        self.balancedDays = balancedDays
        self.id = id
        self.cardId = cardId
        self.rating = rating
        self.reviewedAt = reviewedAt
        self.durationMs = durationMs
        self.mode = mode
    }
}

/// `POST /api/v1/reviews`: up to 1,000 reviews in any order, duplicates allowed.
public struct SyncReviewsRequest: Codable, Sendable, Hashable {
    /// The reviews.
    public var reviews: [SyncReviewDTO]

    /// Creates the request.
    public init(reviews: [SyncReviewDTO]) { self.reviews = reviews }
}

/// The answer to a review sync.
public struct SyncReviewsResponse: Codable, Sendable, Hashable {
    /// Reviews stored by this request.
    public var inserted: Int
    /// Reviews that were already stored (or repeated within the batch) and changed nothing.
    public var duplicates: Int
    /// Every card the batch named, with its state after replaying its whole history.
    public var cards: [CardDTO]

    /// Creates the response.
    public init(inserted: Int, duplicates: Int, cards: [CardDTO]) {
        self.inserted = inserted
        self.duplicates = duplicates
        self.cards = cards
    }
}

/// `POST /api/v1/stacks/{id}/cards/{cardId}/undo`: the body is optional.
public struct UndoRequest: Codable, Sendable, Hashable {
    /// A client-made id for the undo entry, so a retried undo undoes only once.
    public var id: UUID?
    /// The review to take back; it must be the card's last counted review (409 otherwise, e.g. when
    /// another device rated the card since). Without it, the card's last counted review.
    public var reviewId: UUID?

    /// Creates the request.
    public init(id: UUID? = nil, reviewId: UUID? = nil) {
        self.id = id
        self.reviewId = reviewId
    }
}

/// The answer to an undo.
public struct UndoResponse: Codable, Sendable, Hashable {
    /// The card with the state its remaining history gives.
    public var card: CardDTO
    /// The review that no longer counts.
    @LowercaseUUID public var undoneReviewId: UUID

    /// Creates the response.
    public init(card: CardDTO, undoneReviewId: UUID) {
        self.card = card
        self.undoneReviewId = undoneReviewId
    }
}

/// A count on one of the learner's days (`YYYY-MM-DD`, days start at 04:00 in the user's time zone).
public struct DayCountDTO: Codable, Sendable, Hashable {
    /// The day.
    public var date: String
    /// How many.
    public var count: Int

    /// Creates the entry.
    public init(date: String, count: Int) {
        self.date = date
        self.count = count
    }
}

/// True retention of one week: the share of long-term reviews (at least one day after the card's
/// previous review) that were recalled.
public struct WeekRetentionDTO: Codable, Sendable, Hashable {
    /// The Monday the week starts on (`YYYY-MM-DD`).
    public var weekStart: String
    /// Long-term reviews in the week.
    public var reviews: Int
    /// Of these, recalled (anything but Again; ladder: anything but Schwer).
    public var recalled: Int
    /// `recalled / reviews`; nil for a week without long-term reviews.
    @Nullable public var retention: Double?

    /// Creates the entry.
    public init(weekStart: String, reviews: Int, recalled: Int, retention: Double?) {
        self.weekStart = weekStart
        self.reviews = reviews
        self.recalled = recalled
        self.retention = retention
    }
}

/// Cards by scheduling state.
public struct CardStateCountsDTO: Codable, Sendable, Hashable {
    /// Never reviewed.
    public var new: Int
    /// In the learning steps.
    public var learning: Int
    /// Graduated.
    public var review: Int
    /// In the relearning steps after a lapse.
    public var relearning: Int

    /// Creates the counts.
    public init(new: Int, learning: Int, review: Int, relearning: Int) {
        self.new = new
        self.learning = learning
        self.review = review
        self.relearning = relearning
    }
}

/// `GET /api/v1/stacks/{id}/stats` and `GET /api/v1/me/stats`.
public struct StatsDTO: Codable, Sendable, Hashable {
    /// The time zone days are counted in.
    public var timeZone: String
    /// The hour days start at (4, as in Anki).
    public var dayStartHour: Int
    /// Reviews per day for the last 365 days, oldest first, today last (undone reviews do not count).
    public var reviewsPerDay: [DayCountDTO]
    /// True retention per week for the last 52 weeks, oldest first.
    public var retentionPerWeek: [WeekRetentionDTO]
    /// Cards by state.
    public var cardsByState: CardStateCountsDTO
    /// Cards that fall due on each of the next 30 days, today first (overdue cards count today; new
    /// cards are not in it).
    public var forecast: [DayCountDTO]

    /// Creates the statistics.
    public init(
        timeZone: String, dayStartHour: Int, reviewsPerDay: [DayCountDTO], retentionPerWeek: [WeekRetentionDTO],
        cardsByState: CardStateCountsDTO, forecast: [DayCountDTO]
    ) {
        self.timeZone = timeZone
        self.dayStartHour = dayStartHour
        self.reviewsPerDay = reviewsPerDay
        self.retentionPerWeek = retentionPerWeek
        self.cardsByState = cardsByState
        self.forecast = forecast
    }
}

/// A card's predicted probability of recall now.
public struct CardRetrievabilityDTO: Codable, Sendable, Hashable {
    /// The card.
    @LowercaseUUID public var cardId: UUID
    /// Its stack.
    @LowercaseUUID public var stackId: UUID
    /// Its state (see ``CardDTO/state``).
    public var state: CardState
    /// FSRS stability in days.
    @Nullable public var stability: Double?
    /// The probability of recall now, 0 … 1; nil for new cards and cards of ladder stacks.
    @Nullable public var retrievability: Double?
    /// When it is due.
    public var dueAt: Date

    /// Creates the entry.
    public init(
        cardId: UUID, stackId: UUID, state: CardState, stability: Double?, retrievability: Double?, dueAt: Date
    ) {
        self.cardId = cardId
        self.stackId = stackId
        self.state = state
        self.stability = stability
        self.retrievability = retrievability
        self.dueAt = dueAt
    }
}

/// `GET /api/v1/me/scheduler`: the FSRS parameters the user's FSRS stacks use.
public struct SchedulerParametersDTO: Codable, Sendable, Hashable {
    /// The 21 FSRS-6 weights.
    public var parameters: [Double]
    /// Whether these are the FSRS defaults (no optimization yet).
    public var isDefault: Bool
    /// When they were fitted.
    @Nullable public var optimizedAt: Date?
    /// Log loss of the fitted parameters on the user's history.
    @Nullable public var logLoss: Double?
    /// Log loss of the default parameters on the same history.
    @Nullable public var defaultLogLoss: Double?
    /// Reviews the fit used.
    @Nullable public var reviews: Int?
    /// Only in an optimization's result: true when the parameters the learner had were kept, because
    /// newly fitted ones did not predict the latest reviews better (`check`).
    public var kept: Bool?
    /// Only in an optimization's result: how both sets predicted the latest reviews, held out of fitting.
    public var check: ParameterCheckDTO?
    /// Only in an optimization's result when new parameters were stored: the relative change of the
    /// reviews a day the next 30 days bring (−0.12: 12 % fewer), from the simulator.
    public var workloadChange: Double?

    /// Creates the DTO.
    public init(
        parameters: [Double], isDefault: Bool, optimizedAt: Date? = nil, logLoss: Double? = nil,
        defaultLogLoss: Double? = nil, reviews: Int? = nil, kept: Bool? = nil, check: ParameterCheckDTO? = nil,
        workloadChange: Double? = nil
    ) {
        self.parameters = parameters
        self.isDefault = isDefault
        self.optimizedAt = optimizedAt
        self.logLoss = logLoss
        self.defaultLogLoss = defaultLogLoss
        self.reviews = reviews
        self.kept = kept
        self.check = check
        self.workloadChange = workloadChange
    }
}

/// How the learner's parameters and newly fitted ones predicted the latest reviews (the last 20 %,
/// held out of fitting).
public struct ParameterCheckDTO: Codable, Sendable, Hashable {
    /// Log loss of the parameters the learner had.
    public var currentLogLoss: Double
    /// RMSE(bins) of the parameters the learner had.
    public var currentRMSEBins: Double
    /// Log loss of the newly fitted parameters.
    public var candidateLogLoss: Double
    /// RMSE(bins) of the newly fitted parameters.
    public var candidateRMSEBins: Double
    /// Held-out reviews predicted.
    public var heldOutReviews: Int
    /// Whether the new parameters predicted them better (lower log loss, RMSE(bins) no higher).
    public var better: Bool
    /// False when the learner's memory is hard to predict: the better parameters' log loss does not beat
    /// predicting every held-out review with the learner's average recall rate.
    public var healthy: Bool

    /// Creates the check.
    public init(
        currentLogLoss: Double, currentRMSEBins: Double, candidateLogLoss: Double, candidateRMSEBins: Double,
        heldOutReviews: Int, better: Bool, healthy: Bool
    ) {
        self.currentLogLoss = currentLogLoss
        self.currentRMSEBins = currentRMSEBins
        self.candidateLogLoss = candidateLogLoss
        self.candidateRMSEBins = candidateRMSEBins
        self.heldOutReviews = heldOutReviews
        self.better = better
        self.healthy = healthy
    }
}

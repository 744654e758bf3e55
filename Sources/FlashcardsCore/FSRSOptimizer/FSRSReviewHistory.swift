import Foundation

/// One review of a card as the optimizer sees it: the answer, the whole days since the card's previous
/// review, and when it happened (only used to put the reviews of all cards in time order).
public struct FSRSTrainingReview: Sendable, Hashable, Codable {
    /// The learner's answer.
    public var rating: FSRSRating
    /// Whole days since the previous review of the same card (`0` for the first review and for
    /// same-day reviews). Count them with the same day rollover the scheduler uses.
    public var elapsedDays: Int
    /// When the review happened. The optimizer weights recent reviews more, and fsrs-rs orders its
    /// training items by this time, so it matters across cards, not only within one.
    public var reviewedAt: Date

    /// Creates a review.
    public init(rating: FSRSRating, elapsedDays: Int, reviewedAt: Date) {
        self.rating = rating
        self.elapsedDays = elapsedDays
        self.reviewedAt = reviewedAt
    }
}

/// The complete review history of one card, oldest review first, starting with the card's first
/// review (a history that starts in the middle would be read as a new card).
public struct FSRSReviewHistory: Sendable, Hashable, Codable {
    /// The card the reviews belong to; breaks ties when cards are ordered.
    public var cardID: Int64
    /// The reviews, oldest first.
    public var reviews: [FSRSTrainingReview]

    /// Creates a history.
    public init(cardID: Int64, reviews: [FSRSTrainingReview]) {
        self.cardID = cardID
        self.reviews = reviews
    }

    /// Groups review-log rows into per-card histories and counts the elapsed days with `dayCounting`.
    ///
    /// Cards keep the order in which they first appear in `rows`; each card's reviews are sorted by time
    /// (rows with equal times keep their order). The first review of a card always gets `elapsedDays` 0.
    public static func histories(
        from rows: [ReviewLogCSV.Row],
        dayCounting: FSRSDayCounting = .ankiDefaultUTC
    ) -> [FSRSReviewHistory] {
        var order: [Int64] = []
        var byCard: [Int64: [(index: Int, row: ReviewLogCSV.Row)]] = [:]
        for (index, row) in rows.enumerated() {
            if byCard[row.cardID] == nil {
                order.append(row.cardID)
                byCard[row.cardID] = []
            }
            byCard[row.cardID]!.append((index, row))
        }
        return order.map { cardID in
            let entries = byCard[cardID]!.sorted {
                ($0.row.reviewTime, $0.index) < ($1.row.reviewTime, $1.index)
            }
            var reviews: [FSRSTrainingReview] = []
            reviews.reserveCapacity(entries.count)
            var previousDay = 0
            for (position, entry) in entries.enumerated() {
                let day = dayCounting.dayNumber(of: entry.row.reviewTime)
                let elapsed: Int
                switch dayCounting {
                case .rollover:
                    elapsed = position == 0 ? 0 : max(0, day - previousDay)
                case .twentyFourHourPeriods:
                    elapsed =
                        position == 0
                        ? 0
                        : max(
                            0,
                            dayCounting.elapsedDays(
                                from: entries[position - 1].row.reviewTime,
                                to: entry.row.reviewTime
                            )
                        )
                }
                previousDay = day
                reviews.append(
                    FSRSTrainingReview(rating: entry.row.rating, elapsedDays: elapsed, reviewedAt: entry.row.reviewTime)
                )
            }
            return FSRSReviewHistory(cardID: cardID, reviews: reviews)
        }
    }
}

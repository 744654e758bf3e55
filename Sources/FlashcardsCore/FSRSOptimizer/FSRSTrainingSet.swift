import Foundation

/// The review histories laid out flat for the optimizer's inner loops, plus the list of predicted
/// reviews ("items" in fsrs-rs) in time order.
///
/// An item is a review that came at least one day after the card's previous review: the model predicts
/// its recall probability from the reviews before it. Same-day reviews and first reviews are never
/// predicted, but they do shape the memory state.
struct FSRSTrainingSet: Sendable {
    /// A predicted review: `position` indexes the review within its card (always ≥ 1).
    struct Item: Sendable, Hashable {
        var card: Int
        var position: Int
    }

    /// Ratings 1...4 of all reviews, card after card.
    var ratings: [Int]
    /// Elapsed days of all reviews, card after card (the first review of a card has 0).
    var deltas: [Double]
    /// Where each card's reviews start in `ratings`/`deltas`.
    var cardStart: [Int]
    /// How many reviews each card has.
    var cardLength: [Int]
    /// Each card's id.
    var cardIDs: [Int64]
    /// Number of reviews with `elapsedDays > 0` among the first `p + 1` reviews of the card, per review.
    var longTermCountThrough: [Int]
    /// Number of lapses (Again after at least a day) among the first `p` reviews of the card, per review.
    var lapsesBefore: [Int]
    /// Elapsed days of each card's first review with `elapsedDays > 0` (0 if it has none).
    var firstLongTermDeltaOfCard: [Int]
    /// The predicted reviews, ordered by review time (ties: card order, then position).
    var items: [Item]
    /// Review time (Unix seconds) of each item, in the order of `items`.
    var itemTimes: [Double]

    init(histories: [FSRSReviewHistory]) {
        var ratings: [Int] = []
        var deltas: [Double] = []
        var cardStart: [Int] = []
        var cardLength: [Int] = []
        var cardIDs: [Int64] = []
        var longTerm: [Int] = []
        var lapses: [Int] = []
        var firstLongTerm: [Int] = []
        var keyed: [(time: Double, card: Int, position: Int)] = []
        for history in histories where !history.reviews.isEmpty {
            let card = cardStart.count
            cardStart.append(ratings.count)
            cardLength.append(history.reviews.count)
            cardIDs.append(history.cardID)
            var longTermSoFar = 0
            var lapsesSoFar = 0
            var firstDelta = 0
            for (position, review) in history.reviews.enumerated() {
                // A history always starts with a new card, whatever the caller put there.
                let elapsed = position == 0 ? 0 : max(0, review.elapsedDays)
                ratings.append(review.rating.rawValue)
                deltas.append(Double(elapsed))
                lapses.append(lapsesSoFar)
                if elapsed > 0 {
                    if longTermSoFar == 0 { firstDelta = elapsed }
                    longTermSoFar += 1
                    if review.rating == .again { lapsesSoFar += 1 }
                    keyed.append((review.reviewedAt.timeIntervalSince1970, card, position))
                }
                longTerm.append(longTermSoFar)
            }
            firstLongTerm.append(firstDelta)
        }
        keyed.sort { ($0.time, $0.card, $0.position) < ($1.time, $1.card, $1.position) }
        self.ratings = ratings
        self.deltas = deltas
        self.cardStart = cardStart
        self.cardLength = cardLength
        self.cardIDs = cardIDs
        self.longTermCountThrough = longTerm
        self.lapsesBefore = lapses
        self.firstLongTermDeltaOfCard = firstLongTerm
        self.items = keyed.map { Item(card: $0.card, position: $0.position) }
        self.itemTimes = keyed.map(\.time)
    }

    /// Only the items reviewed at or after `date` are predicted; every review still shapes the
    /// memory states before them.
    func predicting(from date: Date) -> FSRSTrainingSet {
        var set = self
        let start = itemTimes.firstIndex { $0 >= date.timeIntervalSince1970 } ?? itemTimes.count
        set.items = Array(items[start...])
        set.itemTimes = Array(itemTimes[start...])
        return set
    }

    /// Flat index of an item's predicted review.
    @inline(__always) func index(of item: Item) -> Int { cardStart[item.card] + item.position }

    /// Rating of the card's first review.
    @inline(__always) func firstRating(of item: Item) -> Int { ratings[cardStart[item.card]] }

    /// Elapsed days before the predicted review.
    @inline(__always) func delta(of item: Item) -> Int { Int(deltas[index(of: item)]) }

    /// Whether the item's review was recalled (anything but Again).
    @inline(__always) func label(of item: Item) -> Double { ratings[index(of: item)] > 1 ? 1 : 0 }

    /// Long-term reviews in the item (its history plus the predicted review), as fsrs-rs counts them.
    @inline(__always) func longTermCount(of item: Item) -> Int { longTermCountThrough[index(of: item)] }

    /// Elapsed days of the card's first review with `elapsedDays > 0`.
    @inline(__always) func firstLongTermDelta(of item: Item) -> Int { firstLongTermDeltaOfCard[item.card] }

    /// The recency weights fsrs-rs gives items in time order: from 0.25 for the oldest to 1 for the
    /// newest, rising with the cube of the rank.
    static func recencyWeights(count: Int) -> [Double] {
        let length = max(Double(count) - 1, 1)
        return (0..<count).map { 0.25 + 0.75 * pow(Double($0) / length, 3) }
    }
}

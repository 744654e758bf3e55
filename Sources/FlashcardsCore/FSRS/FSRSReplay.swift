import Foundation

/// Replays a review log of many cards: the logic behind `flashcards fsrs replay`.
public enum FSRSReplay {
    /// One review of a log and the card state it leads to.
    public struct Step: Sendable, Hashable {
        /// The card reviewed.
        public var cardID: Int64
        /// When.
        public var reviewTime: Date
        /// The answer.
        public var rating: FSRSRating
        /// The card's state after this review.
        public var card: FSRSCard

        /// Creates a step.
        public init(cardID: Int64, reviewTime: Date, rating: FSRSRating, card: FSRSCard) {
            self.cardID = cardID
            self.reviewTime = reviewTime
            self.rating = rating
            self.card = card
        }
    }

    /// A review as the replay functions take it.
    public typealias Review = (cardID: Int64, rating: FSRSRating, time: Date)

    /// Replays `reviews` in the given order (each card's reviews are expected oldest first; cards may
    /// interleave). Every card starts new at its first review; the n-th review of a card (0-based)
    /// uses the fuzz seed `FSRSScheduler.fuzzSeed(cardID:reviewCount: n)`. Returns one step per review,
    /// in input order.
    public static func run(_ reviews: [Review], scheduler: FSRSScheduler) -> [Step] {
        var steps: [Step] = []
        steps.reserveCapacity(reviews.count)
        forEach(reviews, scheduler: scheduler) { steps.append($0) }
        return steps
    }

    /// Replays rows read by `ReviewLogCSV`.
    public static func run(_ rows: [ReviewLogCSV.Row], scheduler: FSRSScheduler) -> [Step] {
        var steps: [Step] = []
        steps.reserveCapacity(rows.count)
        forEach(rows, scheduler: scheduler) { steps.append($0) }
        return steps
    }

    /// Like `run(_:scheduler:)` but hands each step to `body` as it is computed instead of collecting
    /// them, so a million-review replay can stream its output without holding every state in memory.
    public static func forEach(
        _ reviews: [Review], scheduler: FSRSScheduler, _ body: (Step) throws -> Void
    ) rethrows {
        try replay(reviews, scheduler: scheduler, { $0 }, body)
    }

    /// Streams the replay of rows read by `ReviewLogCSV` (see `forEach(_:scheduler:_:)`).
    public static func forEach(
        _ rows: [ReviewLogCSV.Row], scheduler: FSRSScheduler, _ body: (Step) throws -> Void
    ) rethrows {
        try replay(rows, scheduler: scheduler, { ($0.cardID, $0.rating, $0.reviewTime) }, body)
    }

    /// The replay loop, specialised for each public entry point (hence concrete arrays in the API:
    /// a generic sequence across the module boundary would cost a witness call per review).
    @inline(__always)
    private static func replay<Element>(
        _ reviews: [Element], scheduler: FSRSScheduler, _ extract: (Element) -> Review,
        _ body: (Step) throws -> Void
    ) rethrows {
        // Card schedules live in a dense array indexed through an id → slot table: with tens of
        // thousands of interleaved cards, each review's state is a cache miss.
        let cardScheduler = CardScheduler(kind: .fsrs, fsrs: scheduler)
        var slots: [Int64: Int] = [:]
        var cards: [CardSchedule] = []
        for element in reviews {
            let review = extract(element)
            let slot: Int
            if let existing = slots[review.cardID] {
                slot = existing
            } else {
                slot = cards.count
                slots[review.cardID] = slot
                cards.append(CardSchedule.new(createdAt: review.time))
            }
            cardScheduler.apply(.fsrs(review.rating), at: review.time, to: &cards[slot], cardID: review.cardID)
            try body(
                Step(cardID: review.cardID, reviewTime: review.time, rating: review.rating, card: cards[slot].fsrsCard))
        }
    }

    /// One JSON object on one line:
    /// `{"card_id":…,"review_time":"…Z","rating":3,"state":"review","step":null,"stability":…,"difficulty":…,"due":"…Z"}`.
    public static func jsonLine(_ step: Step) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(200)
        appendJSONLine(step, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `jsonLine(step)` as UTF-8 bytes, without a line break.
    ///
    /// Written by hand (not `JSONEncoder`) to keep the key order fixed and a million lines fast;
    /// numbers use Swift's shortest round-trip form.
    public static func appendJSONLine(_ step: Step, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"card_id":"#.utf8)
        if step.cardID < 0 { out.append(0x2D) }
        ReviewLogCSV.appendDigits(&out, step.cardID, 1)
        out.append(contentsOf: #","review_time":""#.utf8)
        ReviewLogCSV.appendTimestamp(step.reviewTime, to: &out)
        out.append(contentsOf: #"","rating":"#.utf8)
        out.append(UInt8(step.rating.rawValue) + 0x30)
        out.append(contentsOf: #","state":""#.utf8)
        out.append(contentsOf: step.card.state.rawValue.utf8)
        out.append(contentsOf: #"","step":"#.utf8)
        if let value = step.card.step {
            ReviewLogCSV.appendDigits(&out, Int64(value), 1)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: #","stability":"#.utf8)
        appendNumber(step.card.stability, to: &out)
        out.append(contentsOf: #","difficulty":"#.utf8)
        appendNumber(step.card.difficulty, to: &out)
        out.append(contentsOf: #","due":""#.utf8)
        ReviewLogCSV.appendTimestamp(step.card.due, to: &out)
        out.append(contentsOf: #""}"#.utf8)
    }

    private static func appendNumber(_ value: Double?, to out: inout [UInt8]) {
        guard let value, value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        out.append(contentsOf: value.description.utf8)
    }
}

extension FSRSReplay {
    /// A deterministic synthetic review log for benchmarks: `cards` cards whose reviews happen at or a
    /// little after each due time the scheduler sets, with ratings drawn from a seeded generator
    /// (about 15 % Again, 10 % Hard, 65 % Good, 10 % Easy), interleaved in time order.
    public static func syntheticLog(
        reviews: Int, cards: Int, seed: UInt64 = 42, scheduler: FSRSScheduler,
        start: Date = Date(timeIntervalSince1970: 1_704_067_200)
    ) -> [Review] {
        precondition(cards > 0)
        var random = SplitMix64(seed: seed)
        var log: [Review] = []
        log.reserveCapacity(reviews)
        let perCard = (reviews + cards - 1) / cards
        for c in 0..<cards {
            let cardID = Int64(1_000_000 + c)
            var time = start.addingTimeInterval(Double(c) * 37)
            var card = FSRSCard.new(due: time)
            for n in 0..<perCard where log.count < reviews {
                let draw = random.next() % 100
                let rating: FSRSRating = draw < 15 ? .again : draw < 25 ? .hard : draw < 90 ? .good : .easy
                log.append((cardID, rating, time))
                card = scheduler.review(
                    card, rating: rating, at: time, fuzzSeed: FSRSScheduler.fuzzSeed(cardID: cardID, reviewCount: n))
                // Learners come back at the due time or up to six hours late.
                time = card.due.addingTimeInterval(Double(random.next() % 21_600))
            }
        }
        log.sort { $0.time < $1.time }
        return log
    }
}

import Foundation

/// Deterministic simulated review histories, for benchmarks and tests of the optimizer: learners whose
/// memory follows FSRS-6 with known parameters, studying on a plain schedule.
public enum FSRSSyntheticHistory {
    /// Simulates cards until `reviewCount` reviews exist (the last card may be cut short).
    ///
    /// Each card is introduced on a day within the first `spreadDays` days, first answered Again (20 %),
    /// Hard (10 %), Good (60 %) or Easy (10 %), and after Again or Hard reviewed once more the same day.
    /// Later reviews fall when the model's retrievability reaches 90 % (±20 % spread); the learner recalls
    /// with the model's probability, answers Hard/Good/Easy 10/80/10 % when recalling, and after a lapse
    /// relearns the same day.
    public static func generate(
        reviewCount: Int,
        parameters: [Double] = FSRSConfiguration.defaultParameters,
        seed: UInt64 = 1,
        reviewsPerCard: Int = 20,
        spreadDays: Int = 365,
        startDate: Date = Date(timeIntervalSince1970: 1_700_000_000)
    ) -> [FSRSReviewHistory] {
        let model = FSRSModel(parameters: parameters)
        var random = SplitMix64(seed: seed)
        var histories: [FSRSReviewHistory] = []
        var remaining = reviewCount
        var cardID: Int64 = 1
        while remaining > 0 {
            var reviews: [FSRSTrainingReview] = []
            let limit = min(remaining, max(2, reviewsPerCard))
            var day = Int(random.next() % UInt64(max(1, spreadDays)))
            var secondOfDay = 4 * 3600 + Int(random.next() % 60_000)
            func add(_ rating: FSRSRating, elapsed: Int) {
                let time = startDate.addingTimeInterval(Double(day) * 86_400 + Double(secondOfDay))
                reviews.append(FSRSTrainingReview(rating: rating, elapsedDays: elapsed, reviewedAt: time))
            }
            let u = random.nextUnit()
            let first: FSRSRating = u < 0.2 ? .again : (u < 0.3 ? .hard : (u < 0.9 ? .good : .easy))
            add(first, elapsed: 0)
            var stability = model.initialStability(first)
            var difficulty = model.initialDifficulty(first)
            var pendingSameDay = first == .again || first == .hard
            while reviews.count < limit {
                if pendingSameDay {
                    secondOfDay += 600
                    add(.good, elapsed: 0)
                    stability = model.shortTermStability(stability, rating: .good)
                    difficulty = model.nextDifficulty(difficulty, rating: .good)
                    pendingSameDay = false
                    continue
                }
                let spread = 0.8 + 0.4 * random.nextUnit()
                let interval = max(1, Int((stability * spread).rounded()))
                day += interval
                secondOfDay = 4 * 3600 + Int(random.next() % 60_000)
                let r = model.retrievability(elapsedDays: Double(interval), stability: stability)
                let rating: FSRSRating
                if random.nextUnit() < r {
                    let v = random.nextUnit()
                    rating = v < 0.1 ? .hard : (v < 0.9 ? .good : .easy)
                } else {
                    rating = .again
                    pendingSameDay = true
                }
                add(rating, elapsed: interval)
                stability = model.nextStability(
                    difficulty: difficulty, stability: stability, elapsedDays: interval, rating: rating
                )
                difficulty = model.nextDifficulty(difficulty, rating: rating)
            }
            remaining -= reviews.count
            histories.append(FSRSReviewHistory(cardID: cardID, reviews: reviews))
            cardID += 1
        }
        return histories
    }
}

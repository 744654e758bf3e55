import Foundation
import Testing

@testable import FlashcardsCore

@Suite("Queue order and card replay")
struct StudyQueueTests {
    static let base = Date(timeIntervalSince1970: 1_790_000_000)

    // The head, its rank and the due count, case by case: Fixtures/queue-order.json
    // (SharedFixtureTests, and the web app's port under Node).

    @Test("FSRS: the allowance comes from the day's counts, capped at the limit")
    func fsrsAllowance() {
        let cutoff = Self.base.addingTimeInterval(1_000)
        let order = QueueOrder.fsrs(
            cutoff: cutoff, now: Self.base, allowance: DailyAllowance(newLeft: 5_000, reviewsLeft: 3))
        #expect(order.rule == .fsrs(now: Self.base, reviewCap: 3, newCap: QueueOrder.dueCountLimit))
    }

    static let scheduler = CardScheduler(
        settings: StackSettings(scheduler: .fsrs), timeZone: TimeZone(identifier: "Europe/Berlin")!, parameters: nil)

    private func reviews(_ ratings: [StudyRating], every seconds: Double) -> [LoggedReview] {
        ratings.enumerated().map { index, rating in
            LoggedReview(
                id: UUID(), kind: .review, undoes: nil, rating: rating,
                reviewedAt: Self.base.addingTimeInterval(Double(index) * seconds), seq: index + 1)
        }
    }

    @Test("a balanced day is recorded with its review, replays the same, and gives way when the range moves")
    func balancedDaysReplay() throws {
        let scheduler = Self.scheduler
        var logs = reviews([.fsrs(.good), .fsrs(.good), .fsrs(.good)], every: 86_400)
        let plain = scheduler.replay(logs, cardID: 42, createdAt: Self.base).schedule
        #expect(plain.state == .review)
        let fuzzed = scheduler.day(of: plain.due) - scheduler.day(of: logs[2].reviewedAt)
        let raw = try #require(plain.stability) * scheduler.fsrs.intervalPerStability
        let (lower, upper) = FSRSScheduler.fuzzBounds(raw, minimum: 1, maximum: 36_500)
        // Every day of the range is full but one that fuzz did not pick: the balancer takes it.
        let empty = fuzzed == lower ? upper : lower
        let days = FSRSLoadBalancer.Days(dueCount: { $0 == empty ? 0 : 100 }, weight: { _ in 1 })
        var schedule = CardSchedule.new(createdAt: Self.base)
        scheduler.advance(&schedule, cardID: 42, by: Array(logs.prefix(2)))
        let steps = scheduler.advance(
            &schedule, cardID: 42, by: [logs[2]], describing: [logs[2].id], load: { _ in days })
        let chosen = try #require(steps[logs[2].id]?.balancedDays)
        #expect(chosen == empty)
        #expect(scheduler.day(of: schedule.due) - scheduler.day(of: logs[2].reviewedAt) == chosen)
        let range = FSRSLoadBalancer.acceptedRange(raw, maximum: 36_500)
        // The log row keeps the choice: replaying gives the same due date, not the fuzzed one.
        logs[2].balancedDays = chosen
        #expect(scheduler.replay(logs, cardID: 42, createdAt: Self.base).schedule == schedule)
        // A recorded day outside the range (parameters changed since) gives way to plain fuzz.
        logs[2].balancedDays = range.upperBound + 5
        #expect(scheduler.replay(logs, cardID: 42, createdAt: Self.base).schedule == plain)
        // Without the days ahead nothing is recorded.
        var again = CardSchedule.new(createdAt: Self.base)
        logs[2].balancedDays = nil
        let unbalanced = scheduler.advance(&again, cardID: 42, by: logs, describing: [logs[2].id])
        #expect(unbalanced[logs[2].id]?.balancedDays == nil)
        #expect(again == plain)
    }

    @Test(
        "advancing review by review gives what a replay of the whole history gives", arguments: SchedulerKind.allCases)
    func advanceEqualsReplay(kind: SchedulerKind) {
        let scheduler = CardScheduler(kind: kind, fsrs: Self.scheduler.fsrs)
        var generator = SplitMix64(seed: 7)
        let ratings = (0..<30).map { _ in
            kind == .fsrs
                ? StudyRating.fsrs(FSRSRating(rawValue: Int(generator.next() % 4) + 1)!)
                : .ladder(LadderRating(rawValue: Int(generator.next() % 3))!)
        }
        let logs = reviews(ratings, every: 3 * 86_400 + 600)
        var schedule = CardSchedule.new(createdAt: Self.base)
        for log in logs { scheduler.advance(&schedule, cardID: 42, by: [log]) }
        let replay = scheduler.replay(
            logs.shuffled(), cardID: 42, createdAt: Self.base, describing: Set(logs.map(\.id)))
        #expect(schedule == replay.schedule)
        #expect(replay.schedule.reviewCount == 30 && replay.steps.count == 30)
        #expect(replay.schedule.firstReviewedAt == Self.base && replay.schedule.lastReviewedAt == logs.last?.reviewedAt)
        #expect(replay.schedule.level <= LadderScheduler.maximumLevel)
        #expect(replay.steps[logs[0].id]?.elapsedDays == nil && replay.steps[logs[1].id]?.elapsedDays == 3)
        if kind == .fsrs {
            #expect(replay.steps[logs[0].id]?.before == .new)
            // The FSRS fold is the scheduler's own replay with the same fuzz seeds.
            let expected = Self.scheduler.fsrs.replay(logs.map { ($0.rating.fsrs, $0.reviewedAt) }, cardID: 42).last!
            #expect(replay.schedule.fsrsCard == expected)
        } else {
            #expect(replay.schedule.stability == nil && replay.schedule.queue != .new)
        }
    }

    @Test("an undo entry cancels the review it names; a card without counted reviews is new again")
    func undo() {
        let logs = reviews([.fsrs(.good), .fsrs(.easy)], every: 86_400)
        let undo = LoggedReview(
            id: UUID(), kind: .undo, undoes: logs[1].id, rating: .fsrs(.easy),
            reviewedAt: Self.base.addingTimeInterval(90_000), seq: 3)
        let one = Self.scheduler.replay([logs[0]], cardID: 1, createdAt: Self.base).schedule
        #expect(Self.scheduler.replay(logs + [undo], cardID: 1, createdAt: Self.base).schedule == one)
        let undoFirst = LoggedReview(
            id: UUID(), kind: .undo, undoes: logs[0].id, rating: .fsrs(.good), reviewedAt: Self.base, seq: 4)
        let none = Self.scheduler.replay(logs + [undo, undoFirst], cardID: 1, createdAt: Self.base).schedule
        #expect(none == CardSchedule.new(createdAt: Self.base) && none.queue == .new)
    }

    @Test("reviews at one instant replay in arrival order, then by id as text")
    func order() {
        let first = LoggedReview(
            id: UUID(), kind: .review, undoes: nil, rating: .fsrs(.again), reviewedAt: Self.base, seq: 2)
        let second = LoggedReview(
            id: UUID(), kind: .review, undoes: nil, rating: .fsrs(.easy), reviewedAt: Self.base, seq: 1)
        #expect(ReviewOrder.counted([first, second]).map(\.seq) == [1, 2])
        var same = second
        same.seq = 2
        let sorted = ReviewOrder.counted([first, same]).map(\.id.uuidString)
        #expect(sorted.map { $0.lowercased() } == sorted.map { $0.lowercased() }.sorted())
    }

    @Test("options: the ladder's three and FSRS's four, review intervals named in whole days")
    func options() {
        let ladder = CardScheduler(kind: .ladder, fsrs: Self.scheduler.fsrs)
        let new = CardSchedule.new(createdAt: Self.base)
        let ladderOptions = ladder.options(for: new, cardID: 1, now: Self.base)
        #expect(ladderOptions.map(\.key) == ["hard", "medium", "easy"])
        #expect(ladderOptions.map(\.compatId) == [2, 1, 0])
        #expect(ladderOptions.map(\.text) == ["1 Minute", "2 Minuten", "10 Minuten"])
        let fsrsOptions = Self.scheduler.options(for: new, cardID: 1, now: Self.base)
        #expect(fsrsOptions.map(\.compatId) == [11, 12, 13, 14])
        #expect(fsrsOptions.map(\.label) == ["Nochmal", "Schwer", "Gut", "Einfach"])
        // Easy graduates a new card: a whole number of days, however many seconds to the day's start.
        #expect(fsrsOptions[3].shown.unit == .days)
        for option in fsrsOptions { #expect(option.text == option.shown.german && option.seconds > 0) }
    }
}

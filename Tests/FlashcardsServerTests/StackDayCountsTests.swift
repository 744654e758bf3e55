import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FlashcardsServer

/// The counts an FSRS stack's daily limits read (`StackDayCounts`) never drift from its cards.
@Suite("Stack day counts")
struct StackDayCountsTests {
    /// What the stack row keeps, checked against a count of the cards; returns `reviewed_since`.
    @discardableResult
    private func checkKept(_ app: Application, stack: UUID, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> Date?
    {
        let row = try #require(try await StackModel.query(on: app.db).filter(\.$uniqueId == stack).first())
        guard let since = row.reviewedSince else { return nil }
        let reviewed = try await CardModel.query(on: app.db).filter(\.$stackId == row.id!)
            .filter(\.$lastReviewedAt >= since).count()
        let fresh = try await CardModel.query(on: app.db).filter(\.$stackId == row.id!)
            .filter(\.$firstReviewedAt >= since).count()
        #expect(row.reviewedToday == reviewed, "reviewed today", sourceLocation: sourceLocation)
        #expect(row.freshToday == fresh, "new cards today", sourceLocation: sourceLocation)
        return since
    }

    private func setKept(_ app: Application, stack: UUID, reviewed: Int, fresh: Int) async throws {
        try await app.db.sql.update("stacks").set("reviewed_today", to: reviewed).set("fresh_today", to: fresh)
            .where("unique_id", .equal, stack).run()
    }

    @Test(
        "ratings, undo, sync, deletes, a new day, a scheduler switch and a time zone keep the counts exact",
        arguments: TestDatabase.available)
    func countsFollowEveryChange(db: TestDatabase) async throws {
        let clock = TestClock()  // 2026-06-13 10:00 UTC
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(
                    CreateStackRequest(name: "Heute", color: "#000000", newCardsPerDay: 3, reviewsPerDay: 4))
                var cards: [UUID] = []
                for index in 0..<8 {
                    cards.append(
                        try await client.createCard(
                            in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo
                        ).id)
                }
                let counting = FSRSDayCounting.ankiDefaultUTC
                let dayStart = counting.startOfDay(counting.dayNumber(of: clock.now))

                // Before the first rating nothing is kept; the limits count from the cards.
                var next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 3)
                #expect(try await checkKept(app, stack: stack.id) == nil)

                // The day's first rating counts the day; every other adjusts the counts.
                var learnt: [UUID] = []
                while let card = next.card {
                    learnt.append(card.id)
                    next = try await client.rate(card.id, in: stack.id, rating: .easy).next
                    #expect(try await checkKept(app, stack: stack.id) == dayStart)
                }
                #expect(learnt.count == 3)
                #expect(next.nextDueAt == counting.startOfDay(counting.dayNumber(of: clock.now) + 1))

                // Undo gives a new card back to today's allowance.
                _ = try await client.undoLastReview(of: learnt[2], in: stack.id)
                #expect(try await checkKept(app, stack: stack.id) == dayStart)
                next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 1)
                let relearnt = try #require(next.card?.id)
                next = try await client.rate(relearnt, in: stack.id, rating: .easy).next
                #expect(next.card == nil)

                // The counts kept are what the limits read.
                try await setKept(app, stack: stack.id, reviewed: 0, fresh: 0)
                #expect(try await client.nextCard(in: stack.id).dueCount == 3)
                try await setKept(app, stack: stack.id, reviewed: 3, fresh: 3)
                #expect(try await client.nextCard(in: stack.id).dueCount == 0)

                // Deleting a card learnt today takes it out of the counts.
                try await client.deleteCard(learnt[0], in: stack.id)
                #expect(try await checkKept(app, stack: stack.id) == dayStart)
                #expect(try await client.nextCard(in: stack.id).dueCount == 1)

                // A sync batch (one review made offline yesterday, one today) stops keeping them;
                // the limits count from the cards, the next rating counts again.
                let unseen = cards.filter { !learnt.contains($0) && $0 != relearnt }
                _ = try await client.syncReviews([
                    SyncReviewDTO(
                        id: UUID(), cardId: unseen[0], rating: .good, reviewedAt: clock.now.addingTimeInterval(-86_400)
                    ),
                    SyncReviewDTO(
                        id: UUID(), cardId: unseen[1], rating: .easy, reviewedAt: clock.now.addingTimeInterval(-60)),
                ])
                #expect(try await checkKept(app, stack: stack.id) == nil)
                next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 1)  // unseen[0], learning since yesterday; no new card left
                #expect(next.card?.id == unseen[0])
                next = try await client.rate(unseen[0], in: stack.id, rating: .good).next
                #expect(try await checkKept(app, stack: stack.id) == dayStart)

                // A new learner day: counted from the cards until its first rating.
                clock.advance(by: 86_400)
                let tomorrow = counting.startOfDay(counting.dayNumber(of: clock.now))
                next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 3)  // the day's new cards; the cards learnt are due later
                #expect(try await checkKept(app, stack: stack.id) == dayStart)
                next = try await client.rate(try #require(next.card?.id), in: stack.id, rating: .again).next
                #expect(try await checkKept(app, stack: stack.id) == tomorrow)

                // A scheduler switch recomputes every card and stops keeping the counts; ladder
                // ratings leave nothing kept; switching back counts again at the next rating.
                _ = try await client.updateStack(stack.id, UpdateStackRequest(scheduler: .ladder))
                #expect(try await checkKept(app, stack: stack.id) == nil)
                let ladderCard = try #require(try await client.nextCard(in: stack.id).card)
                _ = try await client.rate(ladderCard.id, in: stack.id, rating: .easy)
                #expect(try await checkKept(app, stack: stack.id) == nil)
                _ = try await client.updateStack(stack.id, UpdateStackRequest(scheduler: .fsrs))
                next = try await client.nextCard(in: stack.id)
                next = try await client.rate(try #require(next.card?.id), in: stack.id, rating: .good).next
                #expect(try await checkKept(app, stack: stack.id) == tomorrow)

                // Another time zone moves the learner day: its start is counted from afresh.
                _ = try await client.updateMe(timeZone: "Pacific/Auckland")
                let zone = try #require(TimeZone(identifier: "Pacific/Auckland"))
                let local = FSRSDayCounting.rollover(hourOfDay: 4, timeZone: zone)
                let localStart = local.startOfDay(local.dayNumber(of: clock.now))
                next = try await client.nextCard(in: stack.id)
                if let card = next.card {
                    _ = try await client.rate(card.id, in: stack.id, rating: .good)
                    #expect(try await checkKept(app, stack: stack.id) == localStart)
                }
            }
        }
    }

    @Test(
        "concurrent ratings (three of each card), a sync batch and deletes in one stack lose nothing and keep the counts exact",
        arguments: TestDatabase.available)
    func concurrentChanges(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(
                    CreateStackRequest(name: "Viele", color: "#000000", newCardsPerDay: 500, reviewsPerDay: 500))
                var created: [UUID] = []
                for index in 0..<40 {
                    created.append(
                        try await client.createCard(
                            in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo
                        ).id)
                }
                let cards = created
                let now = clock.now
                // The first rating counts the day; then everything at once.
                _ = try await client.rate(cards[0], in: stack.id, rating: .good)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for card in cards[1..<30] {
                        for rating: RatingKey in [.good, .easy, .again] {
                            group.addTask { _ = try await client.rate(card, in: stack.id, rating: rating) }
                        }
                    }
                    group.addTask {
                        _ = try await client.syncReviews(
                            cards[30..<36].map {
                                SyncReviewDTO(id: UUID(), cardId: $0, rating: .good, reviewedAt: now)
                            })
                    }
                    for card in [cards[0], cards[36], cards[37]] {
                        group.addTask { try await client.deleteCard(card, in: stack.id) }
                    }
                    try await group.waitForAll()
                }
                try await checkKept(app, stack: stack.id)
                // Ratings of one card at once queue on it: none is lost, each continues from the last.
                let rated = try await client.cards(in: stack.id, perPage: 100).items.filter {
                    cards[1..<30].contains($0.id)
                }
                #expect(rated.count == 29)
                #expect(rated.allSatisfy { $0.reviewCount == 3 })
                _ = try await client.rate(cards[38], in: stack.id, rating: .good)
                #expect(try await checkKept(app, stack: stack.id) != nil)
                let stackRow = try #require(
                    try await StackModel.query(on: app.db).filter(\.$uniqueId == stack.id).first())
                #expect(stackRow.freshToday == 29 + 6 + 1)  // rated together, synced, rated last
            }
        }
    }
}

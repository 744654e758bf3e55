import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FlashcardsServer

/// Ratings in one statement (`AppendedReviews`, PostgreSQL only): a write from a card's row version
/// that another writer replaced stores nothing, so the caller rates it again with the card locked
/// (`locking`), from what that writer stored.
@Suite("Ratings in one statement")
struct AppendedReviewsTests {
    @Test(
        "a rating read before another writer changed the card writes nothing; read again under the card's lock, it is stored with the day counts while a competing rating waits",
        arguments: TestDatabase.available)
    func staleVersionWritesNothing(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            let store = app.studyStore(on: app.db)
            guard let appended = store.appendedReviews else {
                // SQLite rates in transactions, which run in the process.
                #expect(db == .sqlite)
                return
            }
            try await withRunningServer(app) { client, _ in
                let auth = try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(CreateStackRequest(name: "Eins", color: "#000000"))
                var created: [UUID] = []
                for index in 0..<3 {
                    created.append(
                        try await client.createCard(
                            in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo
                        )
                        .id)
                }
                let cards = created
                // The day's first rating counts the day on the stack row.
                _ = try await client.rate(cards[0], in: stack.id, rating: .good)
                let stackRow = try #require(
                    try await StackModel.query(on: app.db).filter(\.$uniqueId == stack.id).first())
                let stackId = try stackRow.requireID()
                #expect(stackRow.reviewedToday == 1)

                func logCount(_ card: UUID) async throws -> Int {
                    let row = try await app.db.sql.raw(
                        """
                        SELECT COUNT(*) AS n FROM review_logs JOIN cards ON cards.id = review_logs.card_id
                        WHERE cards.unique_id = \(bind: card)
                        """
                    ).first(decoding: CountRow.self)
                    return row?.n ?? -1
                }
                /// A review of the card as read, as `StudyService` builds it.
                @Sendable func review(_ read: VersionedRatedCard) -> (ReviewLogModel, ReviewTimesChange) {
                    let card = read.rated.card
                    let before = ReviewTimes(card)
                    let log = ReviewLogModel(
                        id: UUID(), userId: auth.user.id, cardId: card.id!, stackId: stackId, reviewedAt: clock.now,
                        rating: StudyRating(.good, scheduler: .fsrs)!, durationMs: 1_200)
                    log.seq = read.rated.lastSeq + 1
                    log.stateBefore = "{}"
                    log.stateAfter = "{}"
                    card.reviewCount += 1
                    card.firstReviewedAt = card.firstReviewedAt ?? clock.now
                    card.lastReviewedAt = clock.now
                    card.dueAt = clock.now.addingTimeInterval(86_400)
                    return (log, ReviewTimesChange(stackId: stackId, before: before, after: ReviewTimes(card)))
                }

                // Read card 1, then another request rates it first.
                let stale = try #require(
                    try await appended.ratedCard(
                        uniqueId: cards[1], stackId: stackId, userId: auth.user.id, reviewId: UUID()))
                #expect(stale.rated.knownReview == nil && stale.rated.lastSeq == 0)
                _ = try await client.rate(cards[1], in: stack.id, rating: .easy)
                let (staleLog, staleChange) = review(stale)
                let outcome = try await appended.write(
                    staleLog, card: stale.rated.card, version: stale.version, change: staleChange)
                guard case .cardChanged = outcome else {
                    Issue.record("a write from a replaced row version was stored: \(outcome)")
                    return
                }
                #expect(try await logCount(cards[1]) == 1)
                let afterOther = try #require(
                    try await CardModel.query(on: app.db).filter(\.$uniqueId == cards[1]).first())
                #expect(afterOther.reviewCount == 1)
                let countsRow = try #require(try await StackModel.find(stackId, on: app.db))
                #expect(countsRow.reviewedToday == 2 && countsRow.freshToday == 2)

                // Rated again with the card locked: read from what the other rating stored, then
                // written. A rating sent meanwhile waits for the lock, then continues from this one.
                let competing = Task<Void, any Error> {
                    try await Task.sleep(for: .milliseconds(50))
                    _ = try await client.rate(cards[1], in: stack.id, rating: .hard)
                }
                let (lockedSeq, lockedOutcome) = try await appended.locking(
                    card: cards[1], of: auth.user.id, in: stackId
                ) { locked -> (Int, AppendedReviewOutcome) in
                    let read = try #require(
                        try await locked.ratedCard(
                            uniqueId: cards[1], stackId: stackId, userId: auth.user.id, reviewId: UUID()))
                    #expect(read.rated.card.reviewCount == 1)
                    // The competing rating's write waits for this transaction.
                    try await Task.sleep(for: .milliseconds(400))
                    let (log, change) = review(read)
                    return (
                        log.seq,
                        try await locked.write(log, card: read.rated.card, version: read.version, change: change)
                    )
                }
                // Stored; the card was counted today already, so the stack's counts are left alone.
                guard case .written(nil) = lockedOutcome else {
                    Issue.record("a rating read under the card's lock was not stored as expected: \(lockedOutcome)")
                    return
                }
                #expect(lockedSeq == 2)
                try await competing.value
                let seqs = try await ReviewLogModel.query(on: app.db).filter(\.$cardId == afterOther.requireID())
                    .sort(\.$seq).all().map(\.seq)
                #expect(seqs == [1, 2, 3])
                let afterAll = try #require(
                    try await CardModel.query(on: app.db).filter(\.$uniqueId == cards[1]).first())
                #expect(afterAll.reviewCount == 3)
                let countsAfter = try #require(try await StackModel.find(stackId, on: app.db))
                #expect(countsAfter.reviewedToday == 2 && countsAfter.freshToday == 2)

                // Card 2 read and written with nothing in between: stored, the day counted.
                let fresh = try #require(
                    try await appended.ratedCard(
                        uniqueId: cards[2], stackId: stackId, userId: auth.user.id, reviewId: UUID()))
                let (log, change) = review(fresh)
                guard
                    case .written(let counts?) = try await appended.write(
                        log, card: fresh.rated.card, version: fresh.version, change: change)
                else {
                    Issue.record("an unchanged card's rating was not stored with the stack's counts")
                    return
                }
                #expect(counts.reviewed == 3 && counts.fresh == 3)
                #expect(try await logCount(cards[2]) == 1)
                let stored = try #require(
                    try await CardModel.query(on: app.db).filter(\.$uniqueId == cards[2]).first())
                #expect(stored.reviewCount == 1 && stored.lastReviewedAt != nil)
                let storedLog = try #require(try await ReviewLogModel.find(log.id, on: app.db))
                #expect(storedLog.seq == 1 && storedLog.durationMs == 1_200 && storedLog.cardId == stored.id)
                // The version read before that write is spent.
                #expect(
                    try await appended.ratedCard(
                        uniqueId: cards[2], stackId: stackId, userId: auth.user.id, reviewId: log.id!)?.version
                        != fresh.version)
                #expect(
                    try await appended.ratedCard(
                        uniqueId: cards[2], stackId: stackId, userId: auth.user.id, reviewId: log.id!)?.rated
                        .knownReview == .same)
            }
        }
    }
}

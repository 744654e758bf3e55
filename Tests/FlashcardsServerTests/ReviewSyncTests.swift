import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// Offline reviews: `POST /api/v1/reviews` stores a batch idempotently and a card's state is the
/// replay of its whole history, whatever order or how often the reviews arrive.
@Suite("Review sync")
struct ReviewSyncTests {
    @Test("shuffled batches with duplicates give the state of the sorted history", arguments: TestDatabase.available)
    func orderIndependence(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "Europe/Berlin")
                let stack = try await client.createStack(name: "Offline", color: "#000000")
                var cards: [CardDTO] = []
                for index in 0..<4 {
                    cards.append(
                        try await client.createCard(
                            in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo))
                }
                // Four cards' histories over 40 days, made offline on a phone.
                let keys: [RatingKey] = [.again, .hard, .good, .easy]
                var generator = SplitMix64(seed: 7)  // deterministic, so a failure can be reproduced
                var reviews: [SyncReviewDTO] = []
                for card in cards {
                    var time = clock.now.addingTimeInterval(-40 * 86_400)
                    for _ in 0..<6 {
                        let key = keys[Int(generator.next() % 4)]
                        reviews.append(
                            SyncReviewDTO(id: UUID(), cardId: card.id, rating: key, reviewedAt: time, durationMs: 3_000)
                        )
                        time = time.addingTimeInterval(Double(generator.next() % (6 * 86_400)) + 300)
                    }
                }
                // Sent in three shuffled batches, with repeats inside and across batches.
                var sent = reviews + reviews.prefix(5)
                sent.shuffle(using: &generator)
                let batches = [Array(sent[0..<10]), Array(sent[10..<20]) + sent.prefix(3), Array(sent[20...])]
                var inserted = 0
                var duplicates = 0
                for batch in batches {
                    let result = try await client.syncReviews(batch)
                    inserted += result.inserted
                    duplicates += result.duplicates
                    #expect(result.cards.count == Set(batch.map(\.cardId)).count)
                }
                #expect(inserted == reviews.count)
                #expect(duplicates == 8)

                let scheduler = try FSRSScheduler(
                    configuration: FSRSConfiguration(
                        dayCounting: .rollover(hourOfDay: 4, timeZone: TimeZone(identifier: "Europe/Berlin")!)))
                var states: [UUID: CardDTO] = [:]
                for card in cards {
                    let numericId = try #require(
                        try await CardModel.query(on: app.db).filter(\.$uniqueId == card.id).first()?.id)
                    let history = reviews.filter { $0.cardId == card.id }.sorted { $0.reviewedAt < $1.reviewedAt }
                    let expected = try #require(
                        scheduler.replay(
                            history.map { (FSRSRating(key: $0.rating.rawValue)!, $0.reviewedAt) },
                            cardID: Int64(numericId)
                        ).last)
                    let actual = try await client.card(card.id, in: stack.id)
                    #expect(actual.state?.rawValue == expected.state.rawValue)
                    #expect(abs(actual.dueAt.timeIntervalSince(expected.due)) < 0.001)
                    #expect(isClose(actual.stability, expected.stability))
                    #expect(isClose(actual.difficulty, expected.difficulty))
                    #expect(actual.reviewCount == 6)
                    #expect(actual.lastReviewedAt == history.last?.reviewedAt)
                    states[card.id] = actual
                }

                // The whole set again, reversed: nothing is stored and nothing changes.
                let again = try await client.syncReviews(reviews.reversed())
                #expect(again.inserted == 0)
                #expect(again.duplicates == reviews.count)
                for card in again.cards { #expect(states[card.id] == card) }
                #expect(try await ReviewLogModel.query(on: app.db).count() == reviews.count)
            }
        }
    }

    @Test("a late review lands in its place, and undo holds across later syncs", arguments: TestDatabase.available)
    func lateReviewAndUndo(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(name: "S", color: "#000000")
                let card = try await client.createCard(in: stack.id, question: "Q", answer: "A", createdAt: longAgo)
                let t0 = clock.now.addingTimeInterval(-10 * 86_400)
                let first = SyncReviewDTO(id: UUID(), cardId: card.id, rating: .good, reviewedAt: t0)
                let third = SyncReviewDTO(
                    id: UUID(), cardId: card.id, rating: .good, reviewedAt: t0.addingTimeInterval(5 * 86_400))
                _ = try await client.syncReviews([first, third])
                // Rated online now, then the phone's review from between the two arrives.
                _ = try await client.rate(card.id, in: stack.id, rating: .again)
                let second = SyncReviewDTO(
                    id: UUID(), cardId: card.id, rating: .easy, reviewedAt: t0.addingTimeInterval(600))
                _ = try await client.syncReviews([second])
                // Undo the online "again" (the last by time), then sync a duplicate: still undone.
                let undone = try await client.undoLastReview(of: card.id, in: stack.id)
                _ = try await client.syncReviews([second, first])
                let scheduler = try FSRSScheduler(configuration: FSRSConfiguration(dayCounting: .ankiDefaultUTC))
                let numericId = try #require(
                    try await CardModel.query(on: app.db).filter(\.$uniqueId == card.id).first()?.id)
                let expected = try #require(
                    scheduler.replay(
                        [(FSRSRating.good, t0), (.easy, second.reviewedAt), (.good, third.reviewedAt)],
                        cardID: Int64(numericId)
                    ).last)
                let actual = try await client.card(card.id, in: stack.id)
                #expect(undone.undoneReviewId != first.id && undone.undoneReviewId != second.id)
                #expect(actual.reviewCount == 3)
                #expect(abs(actual.dueAt.timeIntervalSince(expected.due)) < 0.001)
                #expect(isClose(actual.stability, expected.stability))
                // Rows: three synced, one online, one undo entry.
                let logs = try await ReviewLogModel.query(on: app.db).all()
                #expect(logs.count == 5)
                #expect(logs.filter { $0.kind == "undo" }.map(\.undoes) == [undone.undoneReviewId])

                // An undo that names its review: refused when another rating came after it (an undo
                // synced late from a second device), taken once when it is the last, refused again
                // with a new id once it is undone; a repeated undo id answers as before.
                clock.advance(by: 60)
                let latestId = UUID()
                let latest = try await client.rate(card.id, in: stack.id, rating: .hard, reviewId: latestId).card
                let refused = UUID()
                for named in [third.id, UUID()] {
                    do {
                        _ = try await client.undoLastReview(of: card.id, in: stack.id, undoId: refused, reviewId: named)
                        Issue.record("an undo of a review that is not the last was taken")
                    } catch {
                        #expect((error as? FlashcardsError)?.code == "review_not_last")
                    }
                }
                let undoId = UUID()
                let named = try await client.undoLastReview(
                    of: card.id, in: stack.id, undoId: undoId, reviewId: latestId)
                #expect(named.undoneReviewId == latestId && latest.reviewCount == 4)
                let again = try await client.undoLastReview(
                    of: card.id, in: stack.id, undoId: undoId, reviewId: latestId)
                #expect(again == named)
                do {
                    _ = try await client.undoLastReview(of: card.id, in: stack.id, reviewId: latestId)
                    Issue.record("an undone review was undone twice")
                } catch {
                    #expect((error as? FlashcardsError)?.code == "review_not_last")
                }
                #expect(try await client.card(card.id, in: stack.id).reviewCount == 3)
            }
        }
    }

    @Test("a batch naming someone else's card or a bad rating is refused whole", arguments: TestDatabase.available)
    func foreignCardsAndBadInput(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, url in
                try await client.signup(name: "Eve", mail: "eve@example.org", password: "correct horse")
                let eveStack = try await client.createStack(name: "Eve", color: "#000000")
                let eveCard = try await client.createCard(
                    in: eveStack.id, question: "Q", answer: "A", createdAt: longAgo)
                let eveReview = SyncReviewDTO(id: UUID(), cardId: eveCard.id, rating: .good, reviewedAt: Date())
                _ = try await client.syncReviews([eveReview])

                let ada = FlashcardsClient(baseURL: url)
                try await ada.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await ada.createStack(name: "Ada", color: "#000000")
                let card = try await ada.createCard(in: stack.id, question: "Q", answer: "A", createdAt: longAgo)
                let mine = SyncReviewDTO(id: UUID(), cardId: card.id, rating: .good, reviewedAt: Date())
                let unknown = UUID()
                do {
                    _ = try await ada.syncReviews([
                        mine, SyncReviewDTO(id: UUID(), cardId: eveCard.id, rating: .good, reviewedAt: Date()),
                        SyncReviewDTO(id: UUID(), cardId: unknown, rating: .good, reviewedAt: Date()),
                    ])
                    Issue.record("foreign card accepted")
                } catch let error as FlashcardsError {
                    #expect(error.code == "card_not_found")
                    #expect(error.response?.message.contains(eveCard.id.path) == true)
                    #expect(error.response?.message.contains(unknown.path) == true)
                }
                for (bad, code) in [
                    (
                        SyncReviewDTO(id: UUID(), cardId: card.id, rating: .medium, reviewedAt: Date()),
                        "rating_not_for_scheduler"
                    ),
                    (
                        SyncReviewDTO(id: UUID(), cardId: card.id, rating: .good, reviewedAt: Date(), durationMs: -1),
                        "validation_failed"
                    ),
                    (
                        SyncReviewDTO(
                            id: UUID(), cardId: card.id, rating: .good,
                            reviewedAt: Date().addingTimeInterval(9 * 86_400)),
                        "reviewed_in_future"
                    ),
                ] {
                    do {
                        _ = try await ada.syncReviews([mine, bad])
                        Issue.record("bad review accepted: \(bad)")
                    } catch let error as FlashcardsError {
                        #expect(error.code == code)
                    }
                }
                // Eve's review id reused by Ada: a conflict, not a silent duplicate.
                do {
                    _ = try await ada.syncReviews([
                        SyncReviewDTO(id: eveReview.id, cardId: card.id, rating: .good, reviewedAt: Date())
                    ])
                    Issue.record("another user's review id accepted")
                } catch let error as FlashcardsError {
                    #expect(error.code == "conflict")
                }
                do {
                    _ = try await ada.syncReviews(
                        (0...ReviewService.maximumBatch).map { _ in mine })
                    Issue.record("oversized batch accepted")
                } catch let error as FlashcardsError {
                    #expect(error.code == "validation_failed")
                }
                // Nothing of Ada's was written; her card is untouched.
                #expect(try await ReviewLogModel.query(on: app.db).count() == 1)
                #expect(try await ada.card(card.id, in: stack.id).state == .new)
                // Undo is scoped too: Eve's card through Ada's stack is not found.
                do {
                    _ = try await ada.undoLastReview(of: eveCard.id, in: stack.id)
                    Issue.record("undo of a foreign card")
                } catch let error as FlashcardsError {
                    #expect(error.code == "card_not_found")
                }
                let accepted = try await ada.syncReviews([mine, mine])
                #expect(accepted.inserted == 1)
                #expect(accepted.duplicates == 1)
            }
        }
    }
}

import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// Every review records the study mode it was made in (`review_logs.mode`), whichever way it
/// arrives: a rating, an offline batch, the original API; an undo belongs to the review it cancels.
@Suite("Study modes in the review log")
struct StudyModeLogTests {
    @Test("ratings, synced reviews and compatibility ratings store their mode", arguments: TestDatabase.available)
    func modesAreStored(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Modi", color: "#000000")
                var cards: [UUID] = []
                for index in 0..<5 {
                    cards.append(try await client.createCard(in: stack.id, question: "Q\(index)", answer: "A").id)
                }
                let quiz = UUID()
                _ = try await client.rate(cards[0], in: stack.id, rating: .good, reviewId: quiz, mode: .quiz)
                let write = UUID()
                _ = try await client.rate(cards[1], in: stack.id, rating: .hard, reviewId: write, mode: .write)
                let plain = UUID()
                _ = try await client.rate(cards[2], in: stack.id, rating: .again, reviewId: plain)
                let feed = UUID()
                _ = try await client.syncReviews([
                    SyncReviewDTO(id: feed, cardId: cards[3], rating: .good, reviewedAt: clock.now, mode: .feed)
                ])
                // A rating sent twice with another mode stays as first stored.
                _ = try await client.rate(cards[0], in: stack.id, rating: .good, reviewId: quiz, mode: .write)

                func mode(of id: UUID) async throws -> String? {
                    try await ReviewLogModel.find(id, on: app.db)?.mode
                }
                #expect(try await mode(of: quiz) == "quiz")
                #expect(try await mode(of: write) == "write")
                #expect(try await mode(of: plain) == "flashcards")
                #expect(try await mode(of: feed) == "feed")

                // An undo of the quiz review is recorded with the quiz's mode.
                let undo = UUID()
                _ = try await client.undoLastReview(of: cards[0], in: stack.id, undoId: undo)
                let entry = try #require(try await ReviewLogModel.find(undo, on: app.db))
                #expect(try entry.logKind == .undo && entry.mode == "quiz")

                // An unknown mode is refused by name, and nothing is written.
                let token = try #require(client.token)
                let before = try await ReviewLogModel.query(on: app.db).count()
                try await app.testing().test(
                    .POST, "api/v1/stacks/\(stack.id.path)/study/rate", headers: bearerHeaders(token),
                    body: rawJSON(#"{"cardId":"\#(cards[4].path)","rating":"good","mode":"exam"}"#)
                ) { res in
                    #expect(res.status == .badRequest)
                    #expect(res.body.string.contains("validation_failed") && res.body.string.contains("mode"))
                }
                #expect(try await ReviewLogModel.query(on: app.db).count() == before)
            }
        }
    }

    @Test("the original API's ratings are flashcards reviews", arguments: TestDatabase.available)
    func compatRatingsAreFlashcards(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let token = try await app.compatSignup()
            let stackId = try await createStack(app, token: token)
            let cardId = try await createCard(app, token: token, stackId: stackId, question: "Eins")
            try await rate(app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(cardId)","difficulty":0}"#)
            let logs = try await ReviewLogModel.query(on: app.db).all()
            #expect(logs.count == 1 && logs.first?.mode == StudyMode.flashcards.rawValue)
        }
    }
}

import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FlashcardsServer

/// A stored enum that does not decode (a row written by hand, by a newer version, a damaged
/// restore) is an error naming the column and the value, never a silent default: the request that
/// meets it fails with a 500 and the log says what is wrong.
@Suite("Stored values that do not decode")
struct StoredValueTests {
    /// The status of a failed SDK call (500 for a value the server cannot read).
    static func status(of call: () async throws -> Void) async -> Int? {
        do {
            try await call()
            return 200
        } catch FlashcardsError.http(let status, _) {
            return status
        } catch {
            return nil
        }
    }

    @Test("an unknown card kind, format or state is an error naming the column", arguments: TestDatabase.available)
    func unknownCardValues(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Kaputt", color: "#000000")
                let card = try await client.createCard(in: stack.id, question: "Frage", answer: "Antwort")
                let sql = try #require(app.db as? any SQLDatabase)
                let model = try #require(try await CardModel.query(on: app.db).filter(\.$uniqueId == card.id).first())
                let stackModel = try #require(try await StackModel.find(model.stackId, on: app.db))
                #expect(await Self.status { _ = try await client.card(card.id, in: stack.id) } == 200)

                for (column, bad, good) in [
                    ("kind", "hologram", "basic"), ("format", "html", "plain"), ("state", "limbo", "new"),
                ] {
                    try await sql.raw(
                        "UPDATE cards SET \(ident: column) = \(bind: bad) WHERE id = \(bind: model.id!)"
                    ).run()
                    let stored = try #require(try await CardModel.find(model.id, on: app.db))
                    #expect(throws: UnknownStoredValue(column: "cards.\(column)", value: bad)) {
                        _ = try stored.dto(stack: stackModel)
                    }
                    #expect(await Self.status { _ = try await client.card(card.id, in: stack.id) } == 500, "\(column)")
                    #expect(await Self.status { _ = try await client.cards(in: stack.id) } == 500, "\(column)")
                    try await sql.raw(
                        "UPDATE cards SET \(ident: column) = \(bind: good) WHERE id = \(bind: model.id!)"
                    ).run()
                }
                #expect(await Self.status { _ = try await client.card(card.id, in: stack.id) } == 200)
            }
        }
    }

    @Test("an unknown stack scheduler is an error, not the ladder", arguments: TestDatabase.available)
    func unknownScheduler(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Kaputt", color: "#000000")
                _ = try await client.createCard(in: stack.id, question: "Frage", answer: "Antwort")
                #expect(await Self.status { _ = try await client.nextCard(in: stack.id) } == 200)
                let sql = try #require(app.db as? any SQLDatabase)
                try await sql.raw("UPDATE stacks SET scheduler = 'sm2'").run()
                let model = try #require(try await StackModel.query(on: app.db).first())
                #expect(throws: UnknownStoredValue(column: "stacks.scheduler", value: "sm2")) {
                    _ = try model.schedulerKind
                }
                #expect(await Self.status { _ = try await client.nextCard(in: stack.id) } == 500)
            }
        }
    }

    @Test("an unknown review kind or rating is an error, not a review rated Good", arguments: TestDatabase.available)
    func unknownReviewValues(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Kaputt", color: "#000000")
                let card = try await client.createCard(in: stack.id, question: "Frage", answer: "Antwort")
                _ = try await client.rate(card.id, in: stack.id, rating: .good)
                let sql = try #require(app.db as? any SQLDatabase)

                try await sql.raw("UPDATE review_logs SET rating = 9").run()
                let log = try #require(try await ReviewLogModel.query(on: app.db).first())
                #expect(throws: UnknownStoredValue(column: "review_logs.rating", value: "9 (fsrs)")) {
                    _ = try log.storedRating
                }
                #expect(await Self.status { _ = try await client.progress() } == 500)
                #expect(await Self.status { _ = try await client.undoLastReview(of: card.id, in: stack.id) } == 500)
                try await sql.raw("UPDATE review_logs SET rating = 3").run()

                try await sql.raw("UPDATE review_logs SET kind = 'redo'").run()
                let renamed = try #require(try await ReviewLogModel.query(on: app.db).first())
                #expect(throws: UnknownStoredValue(column: "review_logs.kind", value: "redo")) {
                    _ = try renamed.logged
                }
                #expect(await Self.status { _ = try await client.undoLastReview(of: card.id, in: stack.id) } == 500)
                try await sql.raw("UPDATE review_logs SET kind = 'review'").run()
                #expect(await Self.status { _ = try await client.undoLastReview(of: card.id, in: stack.id) } == 200)
            }
        }
    }

    @Test("a rating number is read under its scheduler; an unknown one is no rating")
    func storedRatings() throws {
        #expect(try StudyRating.stored(scheduler: "fsrs", rating: 1) == .fsrs(.again))
        #expect(try StudyRating.stored(scheduler: "ladder", rating: 0) == .ladder(.easy))
        #expect(throws: UnknownStoredValue(column: "review_logs.rating", value: "4 (ladder)")) {
            _ = try StudyRating.stored(scheduler: "ladder", rating: 4)
        }
        #expect(throws: UnknownStoredValue(column: "review_logs.scheduler", value: "sm2")) {
            _ = try StudyRating.stored(scheduler: "sm2", rating: 1)
        }
        #expect("\(UnknownStoredValue(column: "cards.kind", value: "x"))" == "Unknown value 'x' in cards.kind")
    }
}

import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FlashcardsServer

/// The rating hot path: a rating made after a card's last review continues from the card's stored
/// state instead of replaying its history. It must give exactly what a replay of the history gives.
@Suite("Rating path")
struct RatingPathTests {
    @Test(
        "ratings in a session give the state and log entries of a full replay",
        arguments: TestDatabase.available, SchedulerKind.allCases)
    func appendedRatingsEqualReplay(db: TestDatabase, scheduler: SchedulerKind) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "Europe/Berlin")
                let stack = try await client.createStack(name: "Pfad", color: "#000000", scheduler: scheduler)
                var cards: [CardDTO] = []
                for index in 0..<3 {
                    cards.append(try await client.createCard(in: stack.id, question: "Q\(index)", answer: "A"))
                }
                let keys: [RatingKey] = scheduler == .fsrs ? [.again, .hard, .good, .easy] : [.easy, .medium, .hard]
                var generator = SplitMix64(seed: 11)
                // Sessions over 60 days: minutes apart within a day, days apart between them, and two
                // ratings at the very same instant.
                for round in 0..<24 {
                    for card in cards {
                        let key = keys[Int(generator.next() % UInt64(keys.count))]
                        _ = try await client.rate(card.id, in: stack.id, rating: key)
                    }
                    if round % 6 != 5 {
                        clock.advance(by: round == 2 ? 0 : Double(60 + generator.next() % 900))
                    } else {
                        clock.advance(by: Double(86_400 + generator.next() % (5 * 86_400)))
                        _ = try await client.login(mail: "ada@example.org", password: "correct horse")
                    }
                }
                // An undo and a late review take the general path; ratings after them the fast one.
                _ = try await client.undoLastReview(of: cards[0].id, in: stack.id)
                _ = try await client.syncReviews([
                    SyncReviewDTO(
                        id: UUID(), cardId: cards[1].id, rating: keys[0],
                        reviewedAt: clock.now.addingTimeInterval(-10 * 86_400),
                        durationMs: nil)
                ])
                clock.advance(by: 3_600)
                for card in cards { _ = try await client.rate(card.id, in: stack.id, rating: keys[1]) }

                let stackModel = try #require(
                    try await StackModel.query(on: app.db).filter(\.$uniqueId == stack.id).first())
                let user = try #require(try await UserModel.query(on: app.db).first())
                let cardScheduler = SchedulerCache.scheduler(for: stackModel, user: user, parameters: nil)
                for card in cards {
                    let stored = try #require(
                        try await CardModel.query(on: app.db).filter(\.$uniqueId == card.id).first())
                    let logs = try await ReviewLogModel.query(on: app.db).filter(\.$cardId == stored.id!).all()
                    #expect(logs.count == (card.id == cards[0].id ? 26 : card.id == cards[1].id ? 26 : 25))
                    #expect(Set(logs.map(\.seq)) == Set(1...logs.count))
                    let replayed = try #require(
                        try await CardModel.query(on: app.db).filter(\.$uniqueId == card.id).first())
                    let replay = cardScheduler.replay(
                        try logs.map { try $0.logged }, cardID: Int64(replayed.id!), createdAt: replayed.createdAt,
                        describing: Set(logs.map { $0.id! }))
                    replayed.setSchedule(replay.schedule)
                    let steps = replay.steps
                    #expect(stored.dueAt == replayed.dueAt)
                    #expect(stored.level == replayed.level)
                    #expect(stored.reviewCount == replayed.reviewCount)
                    #expect(stored.queue == replayed.queue)
                    #expect(stored.state == replayed.state)
                    #expect(stored.step == replayed.step)
                    #expect(stored.stability == replayed.stability)
                    #expect(stored.difficulty == replayed.difficulty)
                    #expect(stored.firstReviewedAt == replayed.firstReviewedAt)
                    #expect(stored.lastReviewedAt == replayed.lastReviewedAt)
                    if scheduler == .fsrs { #expect(stored.stability != nil) }
                    // Every review rated in order was described exactly as a replay describes it.
                    if card.id == cards[2].id {
                        #expect(steps.count == logs.count)
                        for log in logs {
                            let step = try #require(steps[log.id!])
                            #expect(log.stateBefore == StateJSON.text(step.before))
                            #expect(log.stateAfter == StateJSON.text(step.after))
                            #expect(log.elapsedDays == step.elapsedDays)
                        }
                    }
                }
            }
        }
    }

    @Test("a review id is applied once and refused for another card or user", arguments: TestDatabase.available)
    func reviewIds(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, url in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Ids", color: "#000000")
                let first = try await client.createCard(in: stack.id, question: "Q1", answer: "A")
                let second = try await client.createCard(in: stack.id, question: "Q2", answer: "A")
                let reviewId = UUID()
                let once = try await client.rate(first.id, in: stack.id, rating: .good, reviewId: reviewId)
                let again = try await client.rate(first.id, in: stack.id, rating: .easy, reviewId: reviewId)
                #expect(again.card.reviewCount == 1)
                #expect(again.card.dueAt == once.card.dueAt)
                await expectConflict {
                    _ = try await client.rate(second.id, in: stack.id, rating: .good, reviewId: reviewId)
                }
                #expect(try await client.card(second.id, in: stack.id).reviewCount == 0)

                let other = FlashcardsClient(baseURL: url)
                try await other.signup(name: "Bob", mail: "bob@example.org", password: "correct horse")
                let otherStack = try await other.createStack(name: "Bob", color: "#000000")
                let otherCard = try await other.createCard(in: otherStack.id, question: "Q", answer: "A")
                await expectConflict {
                    _ = try await other.rate(otherCard.id, in: otherStack.id, rating: .good, reviewId: reviewId)
                }
                #expect(try await other.card(otherCard.id, in: otherStack.id).reviewCount == 0)
            }
        }
    }

    @Test("the stack read with the account is only ever the caller's", arguments: TestDatabase.available)
    func preloadedStackIsScoped(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { ada, url in
                try await ada.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await ada.createStack(name: "Geheim", color: "#000000")
                let card = try await ada.createCard(in: stack.id, question: "Q", answer: "A")
                let eve = FlashcardsClient(baseURL: url)
                try await eve.signup(name: "Eve", mail: "eve@example.org", password: "correct horse")
                for attempt in 0..<3 {
                    do {
                        switch attempt {
                        case 0: _ = try await eve.nextCard(in: stack.id)
                        case 1: _ = try await eve.rate(card.id, in: stack.id, rating: .good)
                        default: _ = try await eve.stack(stack.id)
                        }
                        Issue.record("Eve reached Ada's stack (\(attempt))")
                    } catch let error as FlashcardsError {
                        #expect(error.code == "stack_not_found")
                    }
                }
                #expect(try await ada.nextCard(in: stack.id).card?.id == card.id)
                #expect(try await ada.card(card.id, in: stack.id).reviewCount == 0)
            }
        }
    }

    @Test(
        "due cards are counted up to 1,000, whatever the backlog",
        arguments: TestDatabase.available, SchedulerKind.allCases)
    func dueCountLimit(db: TestDatabase, scheduler: SchedulerKind) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Rückstand", color: "#000000", scheduler: scheduler)
                _ = try await client.updateStack(stack.id, UpdateStackRequest(newCardsPerDay: 9_999))
                let model = try #require(
                    try await StackModel.query(on: app.db).filter(\.$uniqueId == stack.id).first())
                func addCards(_ count: Int) async throws {
                    let cards = (0..<count).map { index in
                        CardModel(
                            uniqueId: UUID(), stackId: model.id!, userId: model.userId, question: "Q\(index)",
                            answer: "A", hint: nil, now: clock.now.addingTimeInterval(-60))
                    }
                    try await cards.create(on: app.db)
                }
                try await addCards(999)
                #expect(try await client.nextCard(in: stack.id).dueCount == 999)
                try await addCards(2)
                #expect(try await client.nextCard(in: stack.id).dueCount == QueueOrder.dueCountLimit)
                try await addCards(50)
                let next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 1_000)
                let card = try #require(next.card)
                let rated = try await client.rate(card.id, in: stack.id, rating: scheduler == .fsrs ? .good : .easy)
                #expect(rated.next.dueCount == 1_000)
                // The stack list counts the same way.
                #expect(try await client.stacks().first?.dueCount == 1_000)
                #expect(try await client.stack(stack.id).dueCount == 1_000)
                // On SQLite a ladder stack whose count reached the limit is probed next time.
                let ladderOnSQLite = db == .sqlite && scheduler == .ladder
                let hints = app.inlineSQLite?.cappedCountHints
                #expect((hints?.full(model.id!) ?? false) == ladderOnSQLite)
                // Back under the limit: the count after a full one (the ladder probes then) and the
                // one after it are exact.
                let kept = try await CardModel.query(on: app.db).filter(\.$reviewCount == 0).limit(998).all()
                try await CardModel.query(on: app.db).filter(\.$id !~ kept.map { $0.id! }).delete()
                #expect(try await client.nextCard(in: stack.id).dueCount == 998)
                #expect(hints?.full(model.id!) != true)
                #expect(try await client.nextCard(in: stack.id).dueCount == 998)
            }
        }
    }

    @Test("cards read column by column equal Fluent's models", arguments: TestDatabase.available)
    func cardRowsReadLikeFluent(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Zeilen", color: "#000000", scheduler: .fsrs)
                let plain = try await client.createCard(in: stack.id, question: "Frage \"1\" 🦊", answer: "Ä\nB")
                let hinted = try await client.createCard(in: stack.id, question: "Q", answer: "A", hint: "Tipp")
                _ = try await client.rate(hinted.id, in: stack.id, rating: .good)
                // The driver's rows and, on SQLite, the inline connections' (read without the decoder).
                let inline = app.inlineSQLite?.database(fallback: app.db.sql)
                for id in [plain.id, hinted.id] {
                    let statement: SQLQueryString = "SELECT * FROM cards WHERE unique_id = \(bind: id)"
                    let row = try #require(try await app.db.sql.raw(statement).first())
                    let fluent = try row.decode(fluentModel: CardModel.self)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = .sortedKeys
                    for database in [app.db.sql] + (inline.map { [$0] } ?? []) {
                        let read = try CardModel.read(try #require(try await database.raw(statement).first()))
                        #expect(try encoder.encode(read) == encoder.encode(fluent))
                        #expect(read.$id.exists)
                    }
                    #expect((db == .sqlite) == (inline != nil))
                }
            }
        }
    }

    private func expectConflict(_ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("a review id of another card or user was accepted")
        } catch FlashcardsError.http(status: 409, _) {
        } catch {
            Issue.record("expected 409, got \(error)")
        }
    }
}

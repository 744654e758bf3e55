import FlashcardsAPI
import FlashcardsClient
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// Stories of a learner, told through the Swift SDK against the real server on loopback.
@Suite("API v1 through the SDK")
struct V1StoryTests {
    @Test("a learner signs up, builds a stack, learns it and cleans up", arguments: TestDatabase.available)
    func learnerStory(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                let auth = try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "Europe/Berlin")
                #expect(auth.user.name == "Ada")
                #expect(auth.expiresAt == clock.now.addingTimeInterval(7 * 86_400))
                #expect(try await client.me().timeZone == "Europe/Berlin")

                let stack = try await client.createStack(name: "Biologie", color: "#059669", scheduler: .ladder)
                #expect(stack.cardCount == 0)
                #expect(stack.dueCount == 0)
                let questions = ["Was ist ATP?", "Was macht das Mitochondrium?", "Was ist DNA? 🧬"]
                var cards: [CardDTO] = []
                for question in questions {
                    cards.append(
                        try await client.createCard(in: stack.id, question: question, answer: "Antwort", hint: nil))
                    clock.advance(by: 1)
                }
                var listed = try await client.stacks()
                #expect(listed.map(\.cardCount) == [3])
                #expect(listed.map(\.dueCount) == [3])

                // Learn: the first card comes first, with three options and their intervals.
                var next = try await client.nextCard(in: stack.id)
                #expect(next.card?.id == cards[0].id)
                #expect(next.dueCount == 3)
                #expect(next.options.map(\.rating) == [.hard, .medium, .easy])
                #expect(next.options.map(\.intervalText) == ["1 Minute", "2 Minuten", "10 Minuten"])
                #expect(next.options.map(\.intervalSeconds) == [60, 120, 600])

                // Rate; the answer already carries the next card.
                var rated = try await client.rate(cards[0].id, in: stack.id, rating: .easy)
                #expect(rated.card.level == 1)
                #expect(rated.card.dueAt == clock.now.addingTimeInterval(600))
                #expect(rated.next.card?.id == cards[1].id)
                rated = try await client.rate(cards[1].id, in: stack.id, rating: .medium)
                rated = try await client.rate(cards[2].id, in: stack.id, rating: .hard)
                // All three are due again later today, so the session goes on with the earliest.
                #expect(rated.next.card?.id == cards[2].id)
                #expect(rated.next.dueCount == 3)

                // A retried rating with the same reviewId is applied once.
                let reviewId = UUID()
                let once = try await client.rate(cards[2].id, in: stack.id, rating: .easy, reviewId: reviewId)
                let twice = try await client.rate(cards[2].id, in: stack.id, rating: .easy, reviewId: reviewId)
                #expect(once.card == twice.card)
                #expect(once.card.level == 1)

                // Tomorrow (after Berlin midnight) nothing from today's short intervals... they are all
                // done within minutes, so move to the next day: everything is due again.
                clock.advance(by: 86_400)
                next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 3)

                // Edit, search, page.
                let edited = try await client.updateCard(
                    cards[0].id, in: stack.id, question: "Was ist Adenosintriphosphat?", hint: "Energie…")
                #expect(edited.question == "Was ist Adenosintriphosphat?")
                #expect(edited.hint == "Energie…")
                #expect(try await client.updateCard(cards[0].id, in: stack.id, hint: "").hint == nil)
                let search = try await client.cards(in: stack.id, search: "adenosin")
                #expect(search.items.map(\.id) == [cards[0].id])
                #expect(try await client.cards(in: stack.id, search: "🧬").total == 1)
                #expect(try await client.cards(in: stack.id, search: "%").total == 0)
                let page = try await client.cards(in: stack.id, page: 2, perPage: 2)
                #expect(page.total == 3)
                #expect(page.items.map(\.id) == [cards[2].id])

                // Rename and recolour.
                let renamed = try await client.updateStack(stack.id, name: "Zellbiologie", color: "#D97706")
                #expect(renamed.name == "Zellbiologie")
                #expect(renamed.color == "#D97706")
                #expect(renamed.cardCount == 3)

                // Delete a card, then the stack.
                try await client.deleteCard(cards[1].id, in: stack.id)
                await #expect(throws: FlashcardsError.self) { try await client.card(cards[1].id, in: stack.id) }
                try await client.deleteStack(stack.id)
                listed = try await client.stacks()
                #expect(listed.isEmpty)
                do {
                    _ = try await client.stack(stack.id)
                    Issue.record("deleted stack still readable")
                } catch let error as FlashcardsError {
                    #expect(error.code == "stack_not_found")
                }
                // The cascade removed the cards and their reviews.
                #expect(try await CardModel.query(on: app.db).count() == 0)
                #expect(try await ReviewLogModel.query(on: app.db).count() == 0)
            }
        }
    }

    @Test("an empty stack says so: no card, no next due date", arguments: TestDatabase.available)
    func emptyStack(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Leer", color: "#000000")
                let next = try await client.nextCard(in: stack.id)
                #expect(next.card == nil)
                #expect(next.options.isEmpty)
                #expect(next.dueCount == 0)
                #expect(next.nextDueAt == nil)
            }
        }
    }

    @Test(
        "an account without a password of its own sets one within 10 minutes of signing in",
        arguments: TestDatabase.available)
    func firstPassword(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, url in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                // As a provider's sign-in makes it: a password nobody knows.
                try await app.db.sql.raw("UPDATE users SET password_set = \(bind: false)").run()
                #expect(try await client.me().passwordSet == false)
                // Eleven minutes after signing in: sign in again first; nothing changes.
                clock.advance(by: 11 * 60)
                #expect(
                    await errorCode { try await client.setPassword("battery staple") } == "reauthentication_required")
                #expect(
                    await errorCode { try await client.login(mail: "ada@example.org", password: "battery staple") }
                        == "wrong_password")
                #expect(try await client.me().passwordSet == false)
                // Too short is refused as at signup.
                try await client.login(mail: "ada@example.org", password: "correct horse")
                #expect(await errorCode { try await client.setPassword("short") } == "validation_failed")
                // Right after signing in it is set; every older token stops working.
                let before = try #require(client.token)
                try await client.setPassword("battery staple")
                #expect(
                    await errorCode { _ = try await FlashcardsClient(baseURL: url, token: before).me() }
                        == "unauthorized")
                try await client.login(mail: "ada@example.org", password: "battery staple")
                #expect(try await client.me().passwordSet == true)
                // From then on a change needs the current password.
                #expect(await errorCode { try await client.setPassword("another secret") } == "wrong_password")
                try await client.changePassword(current: "battery staple", new: "another secret")
            }
        }
    }

    @Test("password change revokes old tokens; account deletion removes everything", arguments: TestDatabase.available)
    func accountLifecycle(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, url in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let oldToken = try #require(client.token)
                let stack = try await client.createStack(name: "S", color: "#000000", scheduler: .ladder)
                let card = try await client.createCard(in: stack.id, question: "Q", answer: "A")
                _ = try await client.rate(card.id, in: stack.id, rating: .easy)

                await #expect(throws: FlashcardsError.self) {
                    try await client.changePassword(current: "wrong one!", new: "new password")
                }
                try await client.changePassword(current: "correct horse", new: "new password")
                let stale = FlashcardsClient(baseURL: url, token: oldToken)
                do {
                    _ = try await stale.stacks()
                    Issue.record("old token still works")
                } catch let error as FlashcardsError {
                    guard case .unauthorized = error else { throw error }
                }
                await #expect(throws: FlashcardsError.self) {
                    try await client.login(mail: "ada@example.org", password: "correct horse")
                }
                try await client.login(mail: "ADA@example.org", password: "new password")
                #expect(try await client.updateMe(name: "Ada L.", timeZone: "Asia/Tokyo").timeZone == "Asia/Tokyo")
                do {
                    _ = try await client.updateMe(timeZone: "Mars/Olympus")
                    Issue.record("invalid time zone accepted")
                } catch let error as FlashcardsError {
                    #expect(error.code == "unknown_time_zone")
                }

                let token = try #require(client.token)
                try await client.deleteAccount(password: "new password")
                #expect(client.token == nil)
                let gone = FlashcardsClient(baseURL: url, token: token)
                await #expect(throws: FlashcardsError.self) { try await gone.me() }
                #expect(try await UserModel.query(on: app.db).count() == 0)
                #expect(try await StackModel.query(on: app.db).count() == 0)
                #expect(try await CardModel.query(on: app.db).count() == 0)
                #expect(try await ReviewLogModel.query(on: app.db).count() == 0)
            }
        }
    }

    @Test("the compatibility client drives the original routes", arguments: TestDatabase.available)
    func compatClient(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                let result = try await client.compat.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse")
                #expect(result.username == "Ada")
                let stack = try await client.compat.createStack(name: "Alt", color: "#059669")
                let card = try await client.compat.createCard(stackId: stack.uniqueId, question: "Q", answer: "A")
                let next = try #require(try await client.compat.nextCard(stackId: stack.uniqueId))
                #expect(next.uniqueId == card.uniqueId)
                #expect(next.difficultyAndDurations.count == 3)
                try await client.compat.rate(stackId: stack.uniqueId, cardId: card.uniqueId, difficulty: 0)
                let updated = try await client.compat.updateCard(
                    stackId: stack.uniqueId, cardId: card.uniqueId, question: "Q2", answer: "A2")
                #expect(updated.question == "Q2")
                #expect(updated.maturity?.level == 1)
                // The same token works on /api/v1.
                #expect(try await client.stacks().map(\.name) == ["Alt"])
                try await client.compat.deleteCard(stackId: stack.uniqueId, cardId: card.uniqueId)
                #expect(try await client.compat.nextCard(stackId: stack.uniqueId) == nil)
                #expect(try await client.compat.stacks().first?.cards.isEmpty == true)
                try await client.compat.deleteStack(stack.uniqueId)
                #expect(try await client.compat.stacks().isEmpty)
            }
        }
    }
}

import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FlashcardsServer

/// Daily limits and "no pressure after a break" on FSRS stacks.
@Suite("FSRS backlog and daily limits")
struct FSRSBacklogTests {
    @Test(
        "after a break the backlog is spread over the next days, most forgotten first",
        arguments: TestDatabase.available)
    func backlogSpread(db: TestDatabase) async throws {
        let clock = TestClock()  // 2026-06-13 10:00 UTC
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(
                    CreateStackRequest(name: "Pause", color: "#000000", newCardsPerDay: 50, reviewsPerDay: 5))
                var cards: [CardDTO] = []
                for index in 0..<12 {
                    cards.append(try await client.createCard(in: stack.id, question: "Q\(index)", answer: "A"))
                }
                // Each card learned once with Easy (S = 8.3 days), card i (70 + i) days ago: all overdue,
                // card 11 the most forgotten.
                _ = try await client.syncReviews(
                    cards.enumerated().map { index, card in
                        SyncReviewDTO(
                            id: UUID(), cardId: card.id, rating: "easy",
                            reviewedAt: clock.now.addingTimeInterval(-Double(70 + index) * 86_400))
                    })
                let counting = FSRSDayCounting.ankiDefaultUTC
                let today = counting.dayNumber(of: clock.now)

                var next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 5)
                #expect(next.card?.id == cards[11].id)
                // Seven cards moved: five to tomorrow, two to the day after; nothing else changed.
                var dueDays: [UUID: Int] = [:]
                for card in try await client.cards(in: stack.id).items {
                    dueDays[card.id] = max(today, counting.dayNumber(of: card.dueAt))
                    #expect(card.reviewCount == 1)
                    #expect(isClose(card.stability, FSRSConfiguration.defaultParameters[3]))
                }
                #expect(cards[7...].allSatisfy { dueDays[$0.id] == today })
                #expect(cards[2...6].allSatisfy { dueDays[$0.id] == today + 1 })
                #expect(cards[0...1].allSatisfy { dueDays[$0.id] == today + 2 })

                // Today's five, most forgotten first; then the session is over until tomorrow.
                var seen: [UUID] = []
                while let card = next.card {
                    seen.append(card.id)
                    next = try await client.rate(card.id, in: stack.id, rating: "good").next
                }
                #expect(seen == cards[7...].reversed().map(\.id))
                #expect(next.dueCount == 0)
                #expect(next.nextDueAt == counting.startOfDay(today + 1))

                // Tomorrow: the next five, again most forgotten first.
                clock.advance(by: 86_400)
                next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 5)
                #expect(next.card?.id == cards[6].id)
                clock.advance(by: 86_400)
                // The day after, five of the seven left are due again (the cap), the rest move on.
                next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 5)
                #expect(next.card?.id == cards[6].id)
            }
        }
    }

    @Test("the daily new-card limit holds new cards back until the next day", arguments: TestDatabase.available)
    func newCardLimit(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(
                    CreateStackRequest(name: "Neu", color: "#000000", newCardsPerDay: 3))
                for index in 0..<5 {
                    _ = try await client.createCard(in: stack.id, question: "Q\(index)", answer: "A")
                    clock.advance(by: 1)
                }
                var next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 3)
                #expect(try await client.stack(stack.id).dueCount == 3)
                var rated = 0
                while let card = next.card {
                    next = try await client.rate(card.id, in: stack.id, rating: "easy").next
                    rated += 1
                }
                #expect(rated == 3)
                #expect(next.dueCount == 0)
                let tomorrow = FSRSDayCounting.ankiDefaultUTC.startOfDay(
                    FSRSDayCounting.ankiDefaultUTC.dayNumber(of: clock.now) + 1)
                #expect(next.nextDueAt == tomorrow)
                // Learn-ahead does not lift the limit either.
                #expect(try await client.nextCard(in: stack.id, daysAhead: 3).card?.state != "new")
                clock.set(tomorrow)
                next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 2)
                #expect(next.card?.state == "new")
                // Raising the limit lets the rest in today.
                clock.set(tomorrow.addingTimeInterval(-3_600))
                _ = try await client.updateStack(stack.id, UpdateStackRequest(newCardsPerDay: 5))
                #expect(try await client.nextCard(in: stack.id).dueCount == 2)
            }
        }
    }

    @Test("next-card on an FSRS stack is an index seek per queue", arguments: TestDatabase.available)
    func nextCardUsesTheIndex(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let sql = app.db as! any SQLDatabase
            let query =
                "SELECT id FROM cards WHERE stack_id = 1 AND queue = 2 AND due_at < 1900000000 ORDER BY due_at, id LIMIT 1"
            switch db {
            case .sqlite:
                let rows = try await sql.raw("EXPLAIN QUERY PLAN \(unsafeRaw: query)").all()
                let plan = try rows.map { try $0.decode(column: "detail", as: String.self) }.joined(separator: "\n")
                #expect(plan.contains("cards_stack_queue_due"), "\(plan)")
                #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
            case .postgres:
                let plan = try await app.db.transaction { db in
                    let sql = db as! any SQLDatabase
                    try await sql.raw("SET LOCAL enable_seqscan = off").run()
                    return try await sql.raw(
                        "EXPLAIN \(unsafeRaw: query.replacingOccurrences(of: "1900000000", with: "'2030-01-01'"))"
                    ).all().map { try $0.decode(column: "QUERY PLAN", as: String.self) }.joined(separator: "\n")
                }
                #expect(plan.contains("cards_stack_queue_due"), "\(plan)")
                #expect(!plan.contains("Sort"), "\(plan)")
            }
        }
    }
}

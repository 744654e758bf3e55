import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// Bookmarks (the feed's swipe left): set and removed per card, a filter of the card list, never a
/// change of the schedule.
@Suite("Bookmarks")
struct BookmarkTests {
    @Test("bookmark, filter, remove; foreign cards are not found", arguments: TestDatabase.available)
    func bookmarks(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, url in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Feed", color: "#000000")
                var cards: [CardDTO] = []
                for index in 0..<3 {
                    cards.append(try await client.createCard(in: stack.id, question: "Q\(index)", answer: "A"))
                }
                #expect(cards.allSatisfy { !$0.bookmarked })
                let marked = try await client.setBookmark(cards[1].id, in: stack.id, true)
                #expect(marked.bookmarked && marked.dueAt == cards[1].dueAt && marked.state == cards[1].state)
                // Twice changes nothing.
                #expect(try await client.setBookmark(cards[1].id, in: stack.id, true).bookmarked)
                #expect(try await client.card(cards[1].id, in: stack.id).bookmarked)
                #expect(try await client.cards(in: stack.id, bookmarked: true).items.map(\.id) == [cards[1].id])
                #expect(
                    try await client.cards(in: stack.id, bookmarked: false).items.map(\.id) == [
                        cards[0].id, cards[2].id,
                    ])
                #expect(try await client.cards(in: stack.id).total == 3)
                // The study routes carry the flag too.
                let next = try await client.nextCard(in: stack.id)
                #expect(next.card?.bookmarked == false)

                #expect(!(try await client.setBookmark(cards[1].id, in: stack.id, false).bookmarked))
                #expect(try await client.cards(in: stack.id, bookmarked: true).items.isEmpty)

                let token = try #require(client.token)
                try await app.testing().test(
                    .GET, "api/v1/stacks/\(stack.id.path)/cards?bookmarked=ja", headers: bearerHeaders(token)
                ) { res in
                    #expect(res.status == .badRequest)
                }
                // Another user's card is not found.
                let other = FlashcardsClient(baseURL: url)
                try await other.signup(name: "Bo", mail: "bo@example.org", password: "correct horse")
                let foreign = try await other.createStack(name: "Bo", color: "#000000")
                await #expect(throws: FlashcardsError.self) {
                    _ = try await client.setBookmark(cards[0].id, in: foreign.id, true)
                }
                await #expect(throws: FlashcardsError.self) {
                    _ = try await other.setBookmark(cards[0].id, in: stack.id, true)
                }
                #expect(!(try await client.card(cards[0].id, in: stack.id).bookmarked))
            }
        }
    }
}

/// The match game's best time per stack (practice: the schedule stays).
@Suite("Match game")
struct MatchGameTests {
    @Test("the faster time is kept, per stack; out-of-range times are refused", arguments: TestDatabase.available)
    func bestTime(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, url in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Paare", color: "#000000")
                let card = try await client.createCard(in: stack.id, question: "Q", answer: "A")
                #expect(try await client.stack(stack.id).matchBestMs == nil)
                #expect(
                    try await client.recordMatch(in: stack.id, milliseconds: 42_000)
                        == .init(bestMs: 42_000, newBest: true))
                #expect(
                    try await client.recordMatch(in: stack.id, milliseconds: 50_000)
                        == .init(bestMs: 42_000, newBest: false))
                #expect(
                    try await client.recordMatch(in: stack.id, milliseconds: 30_500)
                        == .init(bestMs: 30_500, newBest: true))
                #expect(try await client.stack(stack.id).matchBestMs == 30_500)
                #expect(try await client.stacks().first?.matchBestMs == 30_500)
                // Equalling the best time does not set a new one.
                #expect(
                    try await client.recordMatch(in: stack.id, milliseconds: 30_500)
                        == .init(bestMs: 30_500, newBest: false))
                for bad in [0, 499, 3_600_001] {
                    await #expect(throws: FlashcardsError.self) {
                        _ = try await client.recordMatch(in: stack.id, milliseconds: bad)
                    }
                }
                // Practice only: the card's schedule and the log are untouched.
                #expect(try await client.card(card.id, in: stack.id).reviewCount == 0)
                #expect(try await ReviewLogModel.query(on: app.db).count() == 0)
                // Another user's stack is not found.
                let other = FlashcardsClient(baseURL: url)
                try await other.signup(name: "Bo", mail: "bo@example.org", password: "correct horse")
                await #expect(throws: FlashcardsError.self) {
                    _ = try await other.recordMatch(in: stack.id, milliseconds: 1_000)
                }
                #expect(try await client.stack(stack.id).matchBestMs == 30_500)
            }
        }
    }
}

@Suite("Stack wire form")
struct StackWireTests {
    @Test("a stack's id is lowercase and a missing best match time is an explicit null")
    func wireForm() throws {
        let id = UUID()
        let dto = StackDTO(
            id: id, name: "S", color: "#000000", cardCount: 0, dueCount: 0,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000), updatedAt: Date(timeIntervalSince1970: 1_790_000_001)
        )
        let json = try #require(
            try JSONSerialization.jsonObject(with: FlashcardsJSON.makeEncoder().encode(dto)) as? [String: Any])
        #expect(json["id"] as? String == id.uuidString.lowercased())
        #expect(json["matchBestMs"] is NSNull)
        #expect(
            try FlashcardsJSON.makeDecoder().decode(StackDTO.self, from: FlashcardsJSON.makeEncoder().encode(dto))
                == dto)
    }
}

import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// Load balancing and easy days in the rating path (docs/fsrs.md "Load balancer and easy days").
/// The clock starts on Saturday 2026-06-13 10:00 UTC; a first Easy graduates a card with S = 8.3 days,
/// fuzzed within 6 … 10 days: Friday 19 … Tuesday 23 June.
@Suite("Load balancing and easy days")
struct LoadBalancingTests {
    static let firstDay = 6
    static let range = 6...10

    /// Learner days from the clock's day to each card's due day, counted per offset.
    static func dueOffsets(_ client: FlashcardsClient, stack: UUID) async throws -> [Int: Int] {
        let start = Calendar.utc.startOfDay(for: Date(timeIntervalSince1970: 1_781_344_800))
        var offsets: [Int: Int] = [:]
        for card in try await client.cards(in: stack, perPage: 200).items where card.state == .review {
            offsets[Int((card.dueAt.timeIntervalSince(start) / 86_400).rounded(.down)), default: 0] += 1
        }
        return offsets
    }

    /// A stack of `count` cards (or reversed pairs), each rated Easy once.
    static func rateAllEasy(_ client: FlashcardsClient, count: Int, kind: CardKind? = nil) async throws -> UUID {
        let stack = try await client.createStack(name: "Biologie \(kind?.rawValue ?? "")", color: "#047857")
        for index in 0..<count {
            _ = try await client.createCard(
                in: stack.id, question: "Frage \(index)", answer: "Antwort \(index)", kind: kind)
        }
        for card in try await client.cards(in: stack.id, perPage: 200).items {
            _ = try await client.rate(card.id, in: stack.id, rating: .easy)
        }
        return stack.id
    }

    @Test(
        "easy days are a setting, validated; a minimum weekday and a rest day stay free",
        arguments: TestDatabase.available)
    func minimumDays(db: TestDatabase) async throws {
        try await withApp(db, clock: TestClock()) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let defaults = try await client.settings()
                #expect(defaults.loadBalancing)
                #expect(defaults.easyDays == EasyDay.allNormal)
                for wrong in [["normal"], Array(repeating: "normal", count: 6) + ["sometimes"]] {
                    do {
                        _ = try await client.updateSettings(UpdateSettingsRequest(easyDays: wrong))
                        Issue.record("accepted \(wrong)")
                    } catch let FlashcardsError.invalid(body) {
                        #expect(body?.message.contains("easyDays") == true)
                    }
                }
                #expect(try await client.settings().easyDays == EasyDay.allNormal)
                // Sunday 21 June (offset 8) is a minimum day; Monday 22 June (offset 9) a planned rest day.
                let sundays = ["normal", "normal", "normal", "normal", "normal", "normal", "minimum"]
                let saved = try await client.updateSettings(UpdateSettingsRequest(easyDays: sundays))
                #expect(saved.easyDays.last == .minimum)
                try await client.setRestDay("2026-06-22", true)

                let stack = try await Self.rateAllEasy(client, count: 45)
                let offsets = try await Self.dueOffsets(client, stack: stack)
                // The buttons name the day the rating gives: through study/next, five more cards.
                for index in 0..<5 {
                    _ = try await client.createCard(in: stack, question: "Noch \(index)", answer: "\(index)")
                }
                _ = try await client.updateStack(stack, UpdateStackRequest(newCardsPerDay: 100))
                var next = try await client.nextCard(in: stack)
                var shownCards = 0
                while let shown = next.card {
                    shownCards += 1
                    let easy = try #require(next.options.last)
                    let rated = try await client.rate(shown.id, in: stack, rating: .easy)
                    #expect(
                        rated.card.dueAt == Date(timeIntervalSince1970: 1_781_344_800 + Double(easy.intervalSeconds)))
                    let day = Int((Double(easy.intervalSeconds) / 86_400).rounded(.down))
                    #expect(day != 8 && day != 9, "\(easy.intervalText)")
                    next = rated.next
                }
                #expect(shownCards == 5)
                #expect(offsets.values.reduce(0, +) == 45)
                #expect(offsets.keys.allSatisfy { Self.range.contains($0) }, "\(offsets)")
                #expect(offsets[8] == nil && offsets[9] == nil, "\(offsets)")
                // The three remaining days share the load (the shorter ones a little more: (1/interval)^3).
                #expect([6, 7, 10].allSatisfy { (10...20).contains(offsets[$0] ?? 0) }, "\(offsets)")

                // The choice is kept with each review: switching the scheduler away and back replays
                // every card from its log to the very same due dates.
                let before = try await client.cards(in: stack, perPage: 200).items.map(\.dueAt)
                #expect(before.count == 50)
                _ = try await client.updateStack(stack, UpdateStackRequest(scheduler: .ladder))
                _ = try await client.updateStack(stack, UpdateStackRequest(scheduler: .fsrs))
                #expect(try await client.cards(in: stack, perPage: 200).items.map(\.dueAt) == before)
                let backup = try FlashcardsJSON.makeDecoder().decode(
                    BackupDocumentDTO.self, from: try await client.backup())
                let reviews = backup.stacks.flatMap(\.reviews)
                #expect(reviews.count == 50 && reviews.allSatisfy { ($0.balancedDays ?? 0) >= Self.firstDay })
                #expect(backup.account?.settings?.easyDays?.last == .minimum)
            }
        }
    }

    @Test(
        "without load balancing the fuzz alone decides; siblings stay apart with it", arguments: TestDatabase.available)
    func offAndSiblings(db: TestDatabase) async throws {
        try await withApp(db, clock: TestClock()) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let sundays = ["normal", "normal", "normal", "normal", "normal", "normal", "minimum"]
                _ = try await client.updateSettings(UpdateSettingsRequest(loadBalancing: false, easyDays: sundays))
                let plain = try await Self.dueOffsets(client, stack: try await Self.rateAllEasy(client, count: 45))
                // Fuzz spreads the cards over the whole range, the minimum Sunday included.
                #expect((plain[8] ?? 0) > 0, "\(plain)")
                #expect(plain.keys.allSatisfy { Self.range.contains($0) })

                _ = try await client.updateSettings(
                    UpdateSettingsRequest(loadBalancing: true, easyDays: EasyDay.allNormal.map(\.rawValue)))
                let pairs = try await Self.rateAllEasy(client, count: 20, kind: .reversed)
                let cards = try await client.cards(in: pairs, perPage: 200).items
                #expect(cards.count == 40)
                let byNote = Dictionary(grouping: cards) { $0.noteId ?? "" }
                #expect(byNote.count == 20)
                let start = Calendar.utc.startOfDay(for: Date(timeIntervalSince1970: 1_781_344_800))
                for (_, pair) in byNote {
                    let days = Set(pair.map { Int(($0.dueAt.timeIntervalSince(start) / 86_400).rounded(.down)) })
                    #expect(days.count == 2, "a pair on one day: \(pair.map(\.dueAt))")
                }
            }
        }
    }

    @Test(
        "a synced review keeps the client's balanced day when it fits, and fuzzes when not",
        arguments: TestDatabase.available)
    func syncedChoice(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(name: "Offline", color: "#047857")
                let kept = try await client.createCard(in: stack.id, question: "A", answer: "1")
                let ignored = try await client.createCard(in: stack.id, question: "B", answer: "2")
                let bad = try await client.createCard(in: stack.id, question: "C", answer: "3")
                let now = clock.now
                do {
                    _ = try await client.syncReviews([
                        SyncReviewDTO(id: UUID(), cardId: bad.id, rating: .easy, reviewedAt: now, balancedDays: 0)
                    ])
                    Issue.record("balancedDays 0 accepted")
                } catch let FlashcardsError.invalid(body) {
                    #expect(body?.message.contains("balancedDays") == true)
                }
                #expect(try await client.card(bad.id, in: stack.id).state == .new)
                let synced = try await client.syncReviews([
                    SyncReviewDTO(id: UUID(), cardId: kept.id, rating: .easy, reviewedAt: now, balancedDays: 10),
                    SyncReviewDTO(id: UUID(), cardId: ignored.id, rating: .easy, reviewedAt: now, balancedDays: 40),
                ])
                #expect(synced.inserted == 2)
                let start = Calendar.utc.startOfDay(for: now)
                let offset = { (card: CardDTO) in Int((card.dueAt.timeIntervalSince(start) / 86_400).rounded(.down)) }
                #expect(offset(try await client.card(kept.id, in: stack.id)) == 10)
                #expect(Self.range.contains(offset(try await client.card(ignored.id, in: stack.id))))
                #expect(offset(try await client.card(ignored.id, in: stack.id)) != 40)
            }
        }
    }
}

extension Calendar {
    fileprivate static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()
}

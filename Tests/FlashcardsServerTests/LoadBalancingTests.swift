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

/// Breaks, postponing and advancing through the API (docs/fsrs.md "Breaks, postponing and advancing").
@Suite("Breaks, postponing and advancing")
struct RescheduleTests {
    static let start = Date(timeIntervalSince1970: 1_781_344_800)  // Saturday 2026-06-13 10:00 UTC

    /// 60 cards reviewed twice in the last weeks (growing intervals), so they fall due over the next
    /// weeks, and a ladder stack.
    static func learner(_ client: FlashcardsClient) async throws -> (fsrs: StackDTO, ladder: StackDTO) {
        try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
        let stack = try await client.createStack(name: "Biologie", color: "#047857")
        var reviews: [SyncReviewDTO] = []
        for index in 0..<60 {
            let card = try await client.createCard(
                in: stack.id, question: "Frage \(index)", answer: "Antwort",
                createdAt: start.addingTimeInterval(-90 * 86_400))
            let first = start.addingTimeInterval(-Double(30 + index % 10) * 86_400)
            let second = start.addingTimeInterval(-Double(index % 12) * 86_400)
            for (time, rating) in [(first, RatingKey.easy), (second, index % 3 == 0 ? .easy : .good)] {
                reviews.append(SyncReviewDTO(id: UUID(), cardId: card.id, rating: rating, reviewedAt: time))
            }
        }
        _ = try await client.syncReviews(reviews)
        let ladder = try await client.createStack(name: "Vokabeln", color: "#DC2626", scheduler: .ladder)
        return (stack, ladder)
    }

    static func dueDays(_ client: FlashcardsClient, _ stack: UUID) async throws -> [UUID: String] {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        var days: [UUID: String] = [:]
        for card in try await client.cards(in: stack, perPage: 100).items where card.state == .review {
            days[card.id] = formatter.string(from: card.dueAt)
        }
        return days
    }

    static func refused(_ status: Int, _ text: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("accepted; expected \(status)")
        } catch let error as FlashcardsError {
            switch (status, error) {
            case (400, .invalid(let response)): #expect(response?.message.contains(text) == true, "\(error)")
            case (404, .notFound): break
            case (409, .http(409, let response)): #expect(response?.code == text)
            default: Issue.record("\(error), expected \(status)")
            }
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test(
        "a break: previewed, then planned; its days emptied, rest days set, no wall after it",
        arguments: TestDatabase.available)
    func breakPlan(db: TestDatabase) async throws {
        try await withApp(db, clock: TestClock(Self.start)) { app in
            try await withRunningServer(app) { client, _ in
                let (stack, ladder) = try await Self.learner(client)
                let before = try await Self.dueDays(client, stack.id)
                #expect(before.count == 60)
                // A week away from the busiest day three or more days ahead.
                let later = before.values.filter { $0 >= "2026-06-16" }
                let busiest = Dictionary(grouping: later, by: { $0 }).max { a, b in
                    a.value.count != b.value.count ? a.value.count < b.value.count : a.key > b.key
                }!.key
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withFullDate]
                let firstAway = formatter.date(from: busiest)!
                let awayDays = (0..<7).map { formatter.string(from: firstAway.addingTimeInterval(Double($0) * 86_400)) }
                let (from, to, back) = (
                    awayDays[0], awayDays[6], formatter.string(from: firstAway.addingTimeInterval(7 * 86_400))
                )
                let away = Set(awayDays)
                let inBreak = before.values.filter { away.contains($0) }.count
                #expect(inBreak > 5)

                let preview = try await client.planBreak(
                    BreakRequest(from: from, to: to, preview: true), in: stack.id)
                #expect(preview.preview && preview.advanced + preview.postponed == inBreak)
                #expect(try await Self.dueDays(client, stack.id) == before, "a preview changes nothing")
                #expect(preview.days.filter { away.contains($0.date) }.allSatisfy { $0.after == 0 })
                #expect(preview.days.map(\.date).contains(back))

                let plan = try await client.planBreak(BreakRequest(from: from, to: to), in: stack.id)
                #expect(!plan.preview && plan.advanced == preview.advanced && plan.postponed == preview.postponed)
                let after = try await Self.dueDays(client, stack.id)
                #expect(after.count == 60 && after.values.allSatisfy { !away.contains($0) })
                // Only the cards of the break moved; the days show what the cards now say.
                #expect(after.filter { before[$0.key] != $0.value }.count == inBreak)
                for day in plan.days {
                    #expect(after.values.filter { $0 == day.date }.count == day.after, "\(day)")
                }
                // The days after the break take the cards evenly.
                let returning = plan.days.filter { $0.date >= back }
                let added = returning.map { $0.after - $0.before }
                #expect(added.reduce(0, +) == plan.postponed)
                let level = returning.map(\.after)
                #expect(level.max()! - level.min()! <= max(1, returning.map(\.before).max()!), "\(returning)")
                // Rest days as far as 60 days ahead (the rest days' own limit).
                let restLimit = formatter.string(from: Self.start.addingTimeInterval(60 * 86_400))
                let rest = Set(try await client.progress().restDays)
                #expect(away.filter { $0 <= restLimit }.isSubset(of: rest) && !rest.isEmpty)

                // Refused with a message; nothing changes.
                await Self.refused(400, "JJJJ-MM-TT") {
                    _ = try await client.planBreak(BreakRequest(from: "20.06.2026", to: to), in: stack.id)
                }
                await Self.refused(409, "break_out_of_range") {
                    _ = try await client.planBreak(BreakRequest(from: to, to: from))
                }
                await Self.refused(409, "break_out_of_range") {
                    _ = try await client.planBreak(BreakRequest(from: "2026-06-01", to: "2026-06-05"))
                }
                await Self.refused(409, "break_out_of_range") {
                    _ = try await client.planBreak(BreakRequest(from: "2026-07-01", to: "2026-09-30"))
                }
                await Self.refused(409, "workload_needs_fsrs") {
                    _ = try await client.planBreak(BreakRequest(from: from, to: to), in: ladder.id)
                }
                await Self.refused(404, "") {
                    _ = try await client.planBreak(BreakRequest(from: from, to: to), in: UUID())
                }
                #expect(try await Self.dueDays(client, stack.id) == after)
                // A break further ahead than rest days reach: planned, without rest days.
                let far = try await client.planBreak(BreakRequest(from: "2026-08-20", to: "2026-08-25"))
                #expect(!far.preview && !far.days.isEmpty)
                #expect(!Set(try await client.progress().restDays).contains("2026-08-20"))
            }
        }
    }

    @Test("a backlog: the safest due cards postponed, the closest ones advanced", arguments: TestDatabase.available)
    func postponeAndAdvance(db: TestDatabase) async throws {
        let clock = TestClock(Self.start)
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                let (stack, _) = try await Self.learner(client)
                clock.advance(by: 70 * 86_400)  // 2026-08-22: a backlog
                try await client.login(mail: "ada@example.org", password: "correct horse")
                let today = "2026-08-22"
                let before = try await Self.dueDays(client, stack.id)
                let due = before.filter { $0.value <= today }
                #expect(due.count > 10)

                let preview = try await client.postpone(5, in: stack.id, preview: true)
                #expect(preview.preview && preview.postponed == 5 && preview.advanced == 0)
                #expect(try await Self.dueDays(client, stack.id) == before)
                let postponed = try await client.postpone(5, in: stack.id)
                #expect(postponed.postponed == 5 && postponed.days.first?.date == today)
                let after = try await Self.dueDays(client, stack.id)
                let moved = after.filter { before[$0.key] != $0.value }
                #expect(moved.count == 5 && moved.allSatisfy { due[$0.key] != nil && $0.value > today })

                let ahead = after.filter { $0.value > today }.count
                let advanced = try await client.advance(3)
                #expect(advanced.advanced == 3 && advanced.days.first?.date == today)
                #expect(advanced.days.first.map { $0.after - $0.before } == 3)
                let now = try await Self.dueDays(client, stack.id)
                #expect(now.filter { $0.value > today }.count == ahead - 3)
                #expect(try await client.nextCard(in: stack.id).dueCount == due.count - 5 + 3)

                await Self.refused(400, "count") { _ = try await client.postpone(0, in: stack.id) }
                await Self.refused(400, "count") { _ = try await client.advance(10_001) }
            }
        }
    }
}

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
    /// Signs up a learner in UTC and makes an FSRS stack with the review cap `reviewsPerDay` whose
    /// `cards` cards were each learned once with Easy, card i (`learnedDaysAgo` + i) days ago.
    static func overdueStack(
        _ client: FlashcardsClient, clock: TestClock, cards count: Int, learnedDaysAgo: Int, reviewsPerDay: Int
    ) async throws -> (StackDTO, [CardDTO]) {
        try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
        let stack = try await client.createStack(
            CreateStackRequest(name: "Pause", color: "#000000", newCardsPerDay: 50, reviewsPerDay: reviewsPerDay))
        var cards: [CardDTO] = []
        for index in 0..<count {
            cards.append(
                try await client.createCard(in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo))
        }
        _ = try await client.syncReviews(
            cards.enumerated().map { index, card in
                SyncReviewDTO(
                    id: UUID(), cardId: card.id, rating: .easy,
                    reviewedAt: clock.now.addingTimeInterval(-Double(learnedDaysAgo + index) * 86_400))
            })
        return (stack, cards)
    }

    @Test(
        "after a break the backlog is spread over the next days, most forgotten first",
        arguments: TestDatabase.available)
    func backlogSpread(db: TestDatabase) async throws {
        let clock = TestClock()  // 2026-06-13 10:00 UTC
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                // Each card learned once with Easy (S = 8.3 days), card i (70 + i) days ago: all overdue,
                // card 11 the most forgotten.
                let (stack, cards) = try await Self.overdueStack(
                    client, clock: clock, cards: 12, learnedDaysAgo: 70, reviewsPerDay: 5)
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
                    next = try await client.rate(card.id, in: stack.id, rating: .good).next
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

    @Test(
        "a changed daily review limit puts the spread cards back and spreads again the same day",
        arguments: TestDatabase.available)
    func changedLimitRespreads(db: TestDatabase) async throws {
        let clock = TestClock()  // 2026-06-13 10:00 UTC
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                // Six cards learned once with Easy, card i (40 + i) days ago: all overdue.
                let (stack, _) = try await Self.overdueStack(
                    client, clock: clock, cards: 6, learnedDaysAgo: 40, reviewsPerDay: 2)
                let counting = FSRSDayCounting.ankiDefaultUTC
                let today = counting.dayNumber(of: clock.now)
                func dueDays() async throws -> [UUID: Int] {
                    var days: [UUID: Int] = [:]
                    for card in try await client.cards(in: stack.id).items {
                        days[card.id] = max(today, counting.dayNumber(of: card.dueAt))
                    }
                    return days
                }
                let scheduled = Dictionary(
                    uniqueKeysWithValues: try await client.cards(in: stack.id).items.map { ($0.id, $0.dueAt) })

                var next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 2)
                #expect(try await dueDays().values.filter { $0 == today }.count == 2)
                // One of today's two is rated: it has a schedule of its own from now on.
                let rated = try #require(next.card).id
                next = try await client.rate(rated, in: stack.id, rating: .good).next
                let ratedDue = try #require(try await client.cards(in: stack.id).items.first { $0.id == rated }).dueAt
                #expect(next.dueCount == 1)

                // Raising the limit brings the four held back today, on the dates the scheduler gave them.
                _ = try await client.updateStack(stack.id, UpdateStackRequest(reviewsPerDay: 200))
                next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 5)
                let items = try await client.cards(in: stack.id).items
                for card in items where card.id != rated {
                    #expect(card.dueAt == scheduled[card.id])
                }
                // The rated card keeps the schedule its rating gave it.
                #expect(items.first { $0.id == rated }?.dueAt == ratedDue)
                #expect(try await client.stack(stack.id).dueCount == 5)

                // Lowering it spreads again: three today (one was rated), the rest on the next days.
                _ = try await client.updateStack(stack.id, UpdateStackRequest(reviewsPerDay: 3))
                next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 2)
                var days = try await dueDays()
                days[rated] = nil
                #expect(days.values.filter { $0 == today }.count == 2)
                #expect(days.values.filter { $0 == today + 1 }.count == 3)

                // A day later the cards moved twice still go back to their first dates.
                clock.advance(by: 86_400)
                next = try await client.nextCard(in: stack.id)
                _ = try await client.updateStack(stack.id, UpdateStackRequest(reviewsPerDay: 100))
                next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 5)
                for card in try await client.cards(in: stack.id).items where card.id != rated {
                    #expect(card.dueAt == scheduled[card.id])
                }
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
                    _ = try await client.createCard(
                        in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo)
                    clock.advance(by: 1)
                }
                var next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 3)
                #expect(try await client.stack(stack.id).dueCount == 3)
                var rated = 0
                while let card = next.card {
                    next = try await client.rate(card.id, in: stack.id, rating: .easy).next
                    rated += 1
                }
                #expect(rated == 3)
                #expect(next.dueCount == 0)
                let tomorrow = FSRSDayCounting.ankiDefaultUTC.startOfDay(
                    FSRSDayCounting.ankiDefaultUTC.dayNumber(of: clock.now) + 1)
                #expect(next.nextDueAt == tomorrow)
                // Learn-ahead does not lift the limit either.
                #expect(try await client.nextCard(in: stack.id, daysAhead: 3).card?.state != .new)
                clock.set(tomorrow)
                next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 2)
                #expect(next.card?.state == .new)
                // Raising the limit lets the rest in today.
                clock.set(tomorrow.addingTimeInterval(-3_600))
                _ = try await client.updateStack(stack.id, UpdateStackRequest(newCardsPerDay: 5))
                #expect(try await client.nextCard(in: stack.id).dueCount == 2)
            }
        }
    }

    @Test(
        "next-card follows Anki's order: learning cards whose step is over, then reviews and new cards by due time, learning cards not yet due last, held cards never",
        arguments: TestDatabase.available, [200, 5_000])
    func queueOrder(db: TestDatabase, reviewsPerDay: Int) async throws {
        // 200 reviews a day are counted apart from the learning queue, 5,000 (more than the due count
        // shows) in one range with it: both statements must give the same answers.
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(
                    CreateStackRequest(
                        name: "Reihenfolge", color: "#000000", newCardsPerDay: 1, reviewsPerDay: reviewsPerDay))
                var cards: [String: UUID] = [:]
                for name in ["review", "learningDue", "learningLater", "new", "heldNew"] {
                    cards[name] = try await client.createCard(
                        in: stack.id, question: name, answer: "A", createdAt: longAgo
                    ).id
                    clock.advance(by: 1)
                }
                let now = clock.now  // 10:00 UTC; the learner day began at 04:00
                // A review card due for weeks; a learning card whose one-minute step ended at 03:01; one
                // whose ten-minute step ends in five minutes; two new cards, due since they were made.
                // The learning cards were first seen yesterday, so today's one new card is still left.
                let yesterday = now.addingTimeInterval(-7 * 3_600)
                _ = try await client.syncReviews([
                    SyncReviewDTO(
                        id: UUID(), cardId: cards["review"]!, rating: .easy,
                        reviewedAt: now.addingTimeInterval(-40 * 86_400)),
                    SyncReviewDTO(id: UUID(), cardId: cards["learningDue"]!, rating: .again, reviewedAt: yesterday),
                    SyncReviewDTO(
                        id: UUID(), cardId: cards["learningLater"]!, rating: .again, reviewedAt: yesterday),
                    SyncReviewDTO(
                        id: UUID(), cardId: cards["learningLater"]!, rating: .good,
                        reviewedAt: now.addingTimeInterval(-300)),
                ])
                let name = Dictionary(uniqueKeysWithValues: cards.map { ($1, $0) })

                // Everything is due before the day ends; one new card a day.
                var next = try await client.nextCard(in: stack.id)
                #expect(next.dueCount == 4)
                #expect(next.card.map { name[$0.id] } == "learningDue")
                // Good moves it to its ten-minute step: the review is older than the new card.
                next = try await client.rate(cards["learningDue"]!, in: stack.id, rating: .good).next
                #expect(next.card.map { name[$0.id] } == "review")
                #expect(next.dueCount == 4)
                next = try await client.rate(cards["review"]!, in: stack.id, rating: .good).next
                #expect(next.card.map { name[$0.id] } == "new")
                #expect(next.dueCount == 3)
                // Again makes the new card a learning card due in a minute; the other new card is held
                // back by the limit, so the learning card due soonest (this one, before the one due in
                // five minutes) comes next, before its time.
                next = try await client.rate(cards["new"]!, in: stack.id, rating: .again).next
                #expect(next.card.map { name[$0.id] } == "new")
                #expect(next.dueCount == 3)
                #expect(try #require(next.card).dueAt > clock.now)
                // Once no learning card is left, held cards are not shown: the session waits for the
                // next learner day.
                for card in ["learningLater", "new", "learningDue"] {
                    next = try await client.rate(cards[card]!, in: stack.id, rating: .easy).next
                }
                #expect(next.card == nil)
                #expect(next.dueCount == 0)
                let day = FSRSDayCounting.ankiDefaultUTC
                #expect(next.nextDueAt == day.startOfDay(day.dayNumber(of: clock.now) + 1))
                // The next day the held card is shown.
                clock.set(try #require(next.nextDueAt))
                next = try await client.nextCard(in: stack.id)
                #expect(next.card.map { name[$0.id] } == "heldNew")
            }
        }
    }

    @Test("the queue statement counts and picks alike for every shape of the caps", arguments: TestDatabase.available)
    func everyCapShape(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(CreateStackRequest(name: "Formen", color: "#000000"))
                var cards: [UUID] = []
                for index in 0..<3 {
                    cards.append(
                        try await client.createCard(
                            in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo
                        ).id)
                    clock.advance(by: 1)
                }
                // One review card (due for weeks) and two new cards.
                _ = try await client.syncReviews([
                    SyncReviewDTO(
                        id: UUID(), cardId: cards[2], rating: .easy,
                        reviewedAt: clock.now.addingTimeInterval(-40 * 86_400))
                ])
                let stackId = try #require(try await StackModel.query(on: app.db).first()?.id)
                let store = app.studyStore(on: app.db)
                // No cap, a lower cap, the whole limit.
                for reviewCap in [0, 1, 1_000] {
                    for newCap in [0, 1, 1_000] {
                        let head = try await store.queueHead(
                            stackId: stackId,
                            order: QueueOrder(
                                cutoff: clock.now.addingTimeInterval(3_600),
                                rule: .fsrs(now: clock.now, reviewCap: reviewCap, newCap: newCap)))
                        #expect(head.dueCount == min(reviewCap, 1) + min(newCap, 2))
                        // The review card was due first; a queue without allowance is held, not shown.
                        let shown = head.card?.uniqueId
                        if reviewCap > 0 {
                            #expect(shown == cards[2] && head.rank == .allowed)
                        } else if newCap > 0 {
                            #expect(shown == cards[0] && head.rank == .allowed)
                        } else {
                            #expect(head.rank == .held && head.shown == nil)
                        }
                    }
                }
            }
        }
    }

    @Test(
        "the queue statement counts to the limit and picks by rank in every mix of queues",
        arguments: TestDatabase.available)
    func countsAcrossQueues(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(CreateStackRequest(name: "Mix", color: "#000000"))
                let model = try #require(try await StackModel.query(on: app.db).first())
                let base = clock.now
                // 1,001 learning cards a second apart from `base`; 40 reviews and 40 new cards in
                // between them, in the first 80 seconds.
                var dues: [(queue: Int, due: Date)] = (0...1_000).map { (1, base.addingTimeInterval(Double($0))) }
                for index in 0..<40 {
                    dues.append((2, base.addingTimeInterval(Double(2 * index) + 0.5)))
                    dues.append((0, base.addingTimeInterval(Double(2 * index) + 0.25)))
                }
                var cards: [CardModel] = []
                for (index, entry) in dues.enumerated() {
                    let card = CardModel(
                        uniqueId: UUID(), stackId: model.id!, userId: model.userId, question: "Q\(index)", answer: "A",
                        hint: nil, now: base)
                    card.queue = entry.queue
                    card.state = ["new", "learning", "review"][entry.queue]
                    card.dueAt = entry.due
                    cards.append(card)
                }
                try await cards.create(on: app.db)
                let stored = try await CardModel.query(on: app.db).all()
                let ids = Dictionary(uniqueKeysWithValues: try stored.map { (try $0.requireID(), $0) })
                let store = app.studyStore(on: app.db)
                let limit = QueueOrder.dueCountLimit
                let entries = try stored.map {
                    QueueOrder.Entry(id: try $0.requireID(), queue: CardQueue(rawValue: $0.queue)!, due: $0.dueAt)
                }
                // Cut-offs that take a few cards of each queue, a learning queue one short of the
                // limit, at it and past it; caps from none to the whole limit.
                for seconds in [10.0, 500, 999.1, 999.9, 1_000.5] {
                    let cutoff = base.addingTimeInterval(seconds)
                    let due = { (queue: Int) in dues.filter { $0.queue == queue && $0.due < cutoff } }
                    for (reviewCap, newCap) in [(0, 0), (5, 0), (0, 5), (5, 5), (limit, limit), (1, limit)] {
                        let expected = min(
                            limit, due(1).count + min(due(2).count, reviewCap) + min(due(0).count, newCap))
                        // Before `base` no learning card is due yet; just after it the first one is.
                        for now in [base.addingTimeInterval(-1), base.addingTimeInterval(0.1)] {
                            let order = QueueOrder(
                                cutoff: cutoff, rule: .fsrs(now: now, reviewCap: reviewCap, newCap: newCap))
                            let head = try await store.queueHead(stackId: model.id!, order: order)
                            let shape =
                                "cut-off \(seconds) s, caps \(reviewCap)/\(newCap), now \(now.timeIntervalSince(base))"
                            #expect(head.dueCount == expected, "\(shape)")
                            // The store's statement gives what the order's own evaluation gives.
                            let reference = order.select(entries)
                            #expect(head.card?.id == reference.head && head.rank == reference.rank, "\(shape)")
                            #expect(head.dueCount == reference.dueCount, "\(shape)")
                            let rank = head.rank
                            let shown = head.card.flatMap { ids[$0.id!] }
                            let allowed =
                                (reviewCap > 0 ? due(2) : []).map(\.due) + (newCap > 0 ? due(0) : []).map(\.due)
                            if now > base {
                                #expect(rank == .learningDue, "\(shape)")
                                #expect(shown?.dueAt == base, "\(shape)")
                            } else if let first = allowed.min() {
                                #expect(rank == .allowed, "\(shape)")
                                #expect(shown?.dueAt == first, "\(shape)")
                            } else {
                                #expect(rank == .learningLater, "\(shape)")
                                #expect(shown?.dueAt == base, "\(shape)")
                            }
                        }
                    }
                }
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
                #expect(plan.contains("cards_review_due"), "\(plan)")
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

    @Test("on PostgreSQL the cards table is vacuumed once 1 % of it changed", arguments: TestDatabase.available)
    func cardsVacuumOften(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let sql = app.db as! any SQLDatabase
            struct Options: Decodable { let options: String? }
            func options() async throws -> String? {
                try await sql.raw(
                    """
                    SELECT array_to_string(reloptions, ',') AS options FROM pg_class
                    WHERE relname = 'cards' AND relnamespace = current_schema()::regnamespace
                    """
                ).first(decoding: Options.self)?.options
            }
            let migration = UpdateCardVacuumOften()
            guard db == .postgres else {
                // Nothing to set on SQLite, in either direction.
                try await migration.revert(on: app.db)
                try await migration.prepare(on: app.db)
                return
            }
            #expect(
                try await options()
                    == "autovacuum_vacuum_scale_factor=0.01,autovacuum_vacuum_insert_scale_factor=0.01")
            try await migration.revert(on: app.db)
            #expect(try await options() == nil)
            try await migration.prepare(on: app.db)
            #expect(try await options()?.contains("autovacuum_vacuum_scale_factor=0.01") == true)
        }
    }

    @Test("on SQLite each queue has its own partial index", arguments: TestDatabase.available)
    func indexEachQueue(db: TestDatabase) async throws {
        // On one connection: another SQLite connection of the pool may still read from a snapshot
        // before the last change of the schema.
        try await withApp(db) { app in
            try await app.db.withConnection { connection in
                let sql = connection as! any SQLDatabase
                struct Index: Decodable { let name: String }
                func indexes() async throws -> Set<String> {
                    let query: SQLQueryString =
                        db == .sqlite
                        ? "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'cards'"
                        : "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'cards' AND schemaname = current_schema()"
                    return Set(try await sql.raw(query).all(decoding: Index.self).map(\.name))
                }
                let partial: Set = ["cards_new_due", "cards_learning_due", "cards_review_due"]
                let migration = UpdateCardIndexEachQueue()
                let migrated = try await indexes()
                if db == .sqlite {
                    #expect(
                        migrated.isSuperset(of: partial) && !migrated.contains("cards_stack_queue_due"), "\(migrated)")
                } else {
                    #expect(
                        migrated.isDisjoint(with: partial) && migrated.contains("cards_stack_queue_due"), "\(migrated)")
                }
                try await migration.revert(on: connection)
                let reverted = try await indexes()
                #expect(reverted.isDisjoint(with: partial) && reverted.contains("cards_stack_queue_due"), "\(reverted)")
                try await migration.prepare(on: connection)
                #expect(try await indexes() == migrated)
            }
        }
    }

    @Test("on PostgreSQL both next-card statements run prepared, by name", arguments: TestDatabase.available)
    func nextCardIsPrepared(db: TestDatabase) async throws {
        try await withApp(db) { app in
            let ladder = PostgresNamedStatements.LadderNext(stackId: 1, cutoff: Date())
            let fsrs = PostgresNamedStatements.FSRSNext(
                stackId: 1, cutoff: Date(), now: Date(), reviewCap: 5, newCap: 0)
            guard db == .postgres else {
                #expect(app.studyStore(on: app.db) is SQLiteStudyStore)
                await #expect(throws: (any Error).self) { try await PostgresNamedStatements.rows(ladder, on: app.db) }
                return
            }
            #expect(app.studyStore(on: app.db) is PostgresStudyStore)
            // On one connection: both statements answer (the count row of an empty stack) and the
            // connection then holds them as prepared statements.
            let names = try await app.db.withConnection { connection in
                for _ in 0..<2 {
                    let rows = try await PostgresNamedStatements.rows(ladder, on: connection)
                    #expect(try rows.first?.decode(column: "due_count", as: Int.self) == 0)
                    let queue = try await PostgresNamedStatements.rows(fsrs, on: connection)
                    #expect(try queue.first?.decode(column: "due_count", as: Int.self) == 0)
                    #expect(try queue.first?.decodeNil(column: "id") == true)
                }
                return try await connection.sql.raw("SELECT name FROM pg_prepared_statements").all()
                    .map { try $0.decode(column: "name", as: String.self) }
            }
            #expect(Set(names).isSuperset(of: [type(of: ladder).name, type(of: fsrs).name]), "\(names)")
        }
    }
}

import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// Statistics computed from a known review history.
@Suite("Statistics")
struct StatsTests {
    @Test(
        "heatmap, true retention, states, forecast and retrievability of a known history",
        arguments: TestDatabase.available)
    func knownHistory(db: TestDatabase) async throws {
        let clock = TestClock()  // Saturday 2026-06-13 10:00 UTC
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(name: "Statistik", color: "#000000")
                var cards: [CardDTO] = []
                for index in 0..<4 {
                    cards.append(
                        try await client.createCard(
                            in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo))
                }
                func at(_ text: String) -> Date { FlashcardsJSON.date(from: text)! }
                func review(_ card: Int, _ rating: RatingKey, _ time: String) -> SyncReviewDTO {
                    SyncReviewDTO(id: UUID(), cardId: cards[card].id, rating: rating, reviewedAt: at(time))
                }
                _ = try await client.syncReviews([
                    review(0, .good, "2026-06-01T10:00:00.000Z"), review(0, .good, "2026-06-03T10:00:00.000Z"),
                    review(0, .again, "2026-06-10T10:00:00.000Z"),
                    review(1, .easy, "2026-06-01T11:00:00.000Z"),
                    // 03:00 is before the 04:00 rollover: it counts for Sunday 06-07.
                    review(1, .good, "2026-06-08T03:00:00.000Z"),
                    review(2, .again, "2026-06-12T10:00:00.000Z"), review(2, .good, "2026-06-12T10:05:00.000Z"),
                    review(0, .good, "2026-06-13T09:00:00.000Z"),
                ])
                // The last one is undone: it counts nowhere.
                _ = try await client.undoLastReview(of: cards[0].id, in: stack.id)

                let stats = try await client.stats(of: stack.id)
                #expect(stats.timeZone == "UTC")
                #expect(stats.dayStartHour == 4)
                #expect(stats.reviewsPerDay.count == 365)
                #expect(stats.reviewsPerDay.last?.date == "2026-06-13")
                let busy = Dictionary(
                    uniqueKeysWithValues: stats.reviewsPerDay.filter { $0.count > 0 }.map { ($0.date, $0.count) })
                #expect(busy == ["2026-06-01": 2, "2026-06-03": 1, "2026-06-07": 1, "2026-06-10": 1, "2026-06-12": 2])

                #expect(stats.retentionPerWeek.count == 52)
                let weeks = stats.retentionPerWeek.suffix(2)
                #expect(weeks.map(\.weekStart) == ["2026-06-01", "2026-06-08"])
                #expect(weeks.map(\.reviews) == [2, 1])
                #expect(weeks.map(\.recalled) == [2, 0])
                #expect(weeks.map(\.retention) == [1.0, 0.0])
                #expect(stats.retentionPerWeek.dropLast(2).allSatisfy { $0.reviews == 0 && $0.retention == nil })

                #expect(stats.cardsByState == CardStateCountsDTO(new: 1, learning: 1, review: 1, relearning: 1))

                // Forecast: the relearning and the learning card are overdue (today); the review card
                // falls on its due day.
                let reviewCard = try await client.card(cards[1].id, in: stack.id)
                let counting = FSRSDayCounting.ankiDefaultUTC
                let offset = counting.dayNumber(of: reviewCard.dueAt) - counting.dayNumber(of: clock.now)
                #expect(stats.forecast.count == 30)
                #expect(stats.forecast.first?.date == "2026-06-13")
                var expected = Array(repeating: 0, count: 30)
                expected[0] = 2
                if (0..<30).contains(offset) { expected[offset] += 1 }
                #expect(stats.forecast.map(\.count) == expected)

                // Retrievability now, paged, against the pure model.
                let scheduler = try FSRSScheduler(configuration: FSRSConfiguration(dayCounting: counting))
                let page1 = try await client.retrievability(of: stack.id, page: 1, perPage: 3)
                let page2 = try await client.retrievability(of: stack.id, page: 2, perPage: 3)
                #expect(page1.total == 4)
                #expect((page1.items + page2.items).map(\.cardId) == cards.map(\.id))
                for item in page1.items + page2.items {
                    let card = try await client.card(item.cardId, in: stack.id)
                    guard let stability = card.stability, let last = card.lastReviewedAt else {
                        #expect(item.retrievability == nil)
                        continue
                    }
                    let state = FSRSCard(
                        state: FSRSState(rawValue: card.state?.rawValue ?? "") ?? .review, step: nil,
                        stability: stability,
                        difficulty: card.difficulty, due: card.dueAt, lastReview: last)
                    #expect(isClose(item.retrievability, scheduler.retrievability(of: state, at: clock.now)))
                    #expect((0...1).contains(item.retrievability ?? -1))
                }
                #expect(page2.items.last?.retrievability == nil)

                // Per user: a ladder stack of the original API adds its review.
                let ladder = try await client.compat.createStack(name: "Alt", color: "#059669")
                let ladderCard = try await client.compat.createCard(
                    stackId: ladder.uniqueId, question: "Q", answer: "A")
                try await client.compat.rate(stackId: ladder.uniqueId, cardId: ladderCard.uniqueId, difficulty: 0)
                let mine = try await client.stats()
                #expect(mine.reviewsPerDay.last?.count == 1)
                #expect(mine.reviewsPerDay.reduce(0) { $0 + $1.count } == 8)
                #expect(mine.cardsByState == CardStateCountsDTO(new: 1, learning: 2, review: 1, relearning: 1))
                #expect(mine.retentionPerWeek.suffix(2).map(\.reviews) == [2, 1])
                let all = try await client.retrievability(perPage: 10)
                #expect(all.total == 5)
                #expect(all.items.last?.stackId == UUID(uuidString: ladder.uniqueId))
                #expect(all.items.last?.retrievability == nil)
                #expect(try await client.stats(of: stack.id).reviewsPerDay.last?.count == 0)
            }
        }
    }

    @Test(
        "days are counted in the learner's zone across daylight saving changes and half-hour offsets",
        arguments: TestDatabase.available)
    func zonesAndDaylightSaving(db: TestDatabase) async throws {
        let clock = TestClock()  // Saturday 2026-06-13 10:00 UTC
        for zoneName in ["Europe/Berlin", "Australia/Adelaide", "America/St_Johns"] {
            try await withApp(db, clock: clock) { app in
                try await withRunningServer(app) { client, _ in
                    try await client.signup(
                        name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: zoneName)
                    let stack = try await client.createStack(name: "Zonen", color: "#000000")
                    let card = try await client.createCard(in: stack.id, question: "Q", answer: "A", createdAt: longAgo)
                    // Every 7 hours 13 minutes over the year: instants on both sides of every rollover
                    // and of the zone's daylight saving changes.
                    let now = clock.now
                    let instants = stride(from: 26_000.0, to: 364 * 86_400.0, by: 26_000.0).map {
                        now.addingTimeInterval(-$0)
                    }
                    for batch in stride(from: 0, to: instants.count, by: 1000) {
                        _ = try await client.syncReviews(
                            instants[batch..<min(batch + 1000, instants.count)].map {
                                SyncReviewDTO(id: UUID(), cardId: card.id, rating: .good, reviewedAt: $0)
                            })
                    }
                    // What Foundation's calendar says, day by day.
                    let counting = FSRSDayCounting.rollover(hourOfDay: 4, timeZone: TimeZone(identifier: zoneName)!)
                    let today = counting.dayNumber(of: now)
                    var expected: [Int: Int] = [:]
                    for instant in instants { expected[counting.dayNumber(of: instant), default: 0] += 1 }
                    let stats = try await client.stats(of: stack.id)
                    let counts = stats.reviewsPerDay.map(\.count)
                    #expect(counts == (today - 364...today).map { expected[$0] ?? 0 }, "\(zoneName)")
                    #expect(counts.reduce(0, +) == instants.count, "\(zoneName)")
                }
            }
        }
    }

    @Test("absent statistics and parameter values are explicit nulls, as everywhere in /api/v1")
    func explicitNulls() throws {
        func json(_ value: some Encodable) throws -> [String: Any] {
            let data = try FlashcardsJSON.makeEncoder().encode(value)
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let week = try json(WeekRetentionDTO(weekStart: "2026-11-16", reviews: 0, recalled: 0, retention: nil))
        #expect(week["retention"] is NSNull)
        let card = try json(
            CardRetrievabilityDTO(
                cardId: UUID(), stackId: UUID(), state: .new, stability: nil, retrievability: nil, dueAt: Date()))
        #expect(card["stability"] is NSNull && card["retrievability"] is NSNull)
        let parameters = try json(
            SchedulerParametersDTO(parameters: FSRSConfiguration.defaultParameters, isDefault: true))
        for key in ["optimizedAt", "logLoss", "defaultLogLoss", "reviews"] {
            #expect(parameters[key] is NSNull, "\(key)")
        }
        let draft = try json(
            DraftDTO(
                id: UUID(), jobId: UUID(), question: "Q", answer: "A", sourcePage: nil, kind: "fact", status: "pending")
        )
        #expect(draft["sourcePage"] is NSNull)
    }
}

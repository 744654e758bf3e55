import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// The workload forecast, "what if" simulations and the retention advice over a known stack.
@Suite("Workload and retention advice")
struct WorkloadTests {
    /// A stack of 30 cards, 10 of them studied (rated Good twice, three days apart).
    static func studiedStack(_ client: FlashcardsClient, name: String = "Biologie") async throws -> StackDTO {
        let stack = try await client.createStack(name: name, color: "#047857")
        var reviews: [SyncReviewDTO] = []
        for index in 0..<30 {
            let card = try await client.createCard(
                in: stack.id, question: "Frage \(index)", answer: "Antwort", createdAt: longAgo)
            guard index < 10 else { continue }
            for time in ["2026-06-05T10:00:00.000Z", "2026-06-08T10:00:00.000Z"] {
                reviews.append(
                    SyncReviewDTO(
                        id: UUID(), cardId: card.id, rating: .good, reviewedAt: FlashcardsJSON.date(from: time)!,
                        durationMs: 6_000))
            }
        }
        _ = try await client.syncReviews(reviews)
        return stack
    }

    static func refused(_ code: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("accepted; expected \(code)")
        } catch let error as FlashcardsError {
            #expect(error.code == code)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a stack's forecast, what-if and advice start from its cards and settings", arguments: TestDatabase.available)
    func stackWorkload(db: TestDatabase) async throws {
        let clock = TestClock()  // Saturday 2026-06-13 10:00 UTC
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await Self.studiedStack(client)

                let workload = try await client.workload(of: stack.id)
                #expect(workload.days.count == 30)
                #expect(workload.days.first?.date == "2026-06-13")
                #expect(workload.days.last?.date == "2026-07-12")
                #expect(workload.cards == 30)
                // 20 new cards at the stack's 20 a day: all of them today.
                #expect(workload.days.map(\.newCards).reduce(0, +) == 20)
                #expect(workload.days[0].newCards == 20)
                // The 10 studied cards come back within the month.
                #expect(workload.days.map(\.reviews).reduce(0, +) >= 10)
                #expect(workload.averageMinutes > 0)
                #expect(workload.days[0].remembered > 5)
                #expect(workload.minutesBudget == nil)
                #expect(try await client.workload(of: stack.id, days: 7).days.count == 7)

                // What if: no new cards; then 100 more at 5 a day.
                let none = try await client.simulate(stack.id, SimulationRequest(newCardsPerDay: 0))
                #expect(none.days.map(\.newCards).allSatisfy { $0 == 0 })
                let more = try await client.simulate(
                    stack.id, SimulationRequest(days: 10, newCardsPerDay: 5, additionalNewCards: 100))
                #expect(more.days.count == 10)
                #expect(more.days.map(\.newCards) == Array(repeating: 5, count: 10))
                #expect(more.cards == 130)
                // A higher retention means more reviews over a year.
                let relaxed = try await client.simulate(stack.id, SimulationRequest(days: 365, desiredRetention: 0.7))
                let strict = try await client.simulate(stack.id, SimulationRequest(days: 365, desiredRetention: 0.97))
                #expect(strict.averageReviews > relaxed.averageReviews)

                _ = try await client.updateSettings(
                    UpdateSettingsRequest(onboarding: OnboardingPatch(minutesPerDay: .set(15))))
                let advice = try await client.retentionAdvice(for: stack.id)
                #expect(advice.options.map(\.desiredRetention) == FSRSRetentionAdvice.retentions)
                #expect(advice.days == 365)
                #expect(advice.minutesBudget == 15)
                #expect(advice.current == 0.9)
                #expect(advice.reason == "within_budget")
                let chosen = try #require(advice.options.first { $0.desiredRetention == advice.recommended })
                #expect(chosen.minutesPerDay <= 15)
                #expect(advice.options.first!.remembered < advice.options.last!.remembered)
                #expect(try await client.workload(of: stack.id).minutesBudget == 15)
            }
        }
    }

    @Test(
        "all stacks add up; bad input, ladder stacks and foreign stacks are refused", arguments: TestDatabase.available)
    func userWorkloadAndErrors(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "Europe/Berlin")
                // Nothing yet: an empty forecast, nothing to advise.
                let empty = try await client.workload()
                #expect(empty.cards == 0 && empty.days.allSatisfy { $0.reviews == 0 && $0.newCards == 0 })
                #expect(try await client.retentionAdvice().reason == "nothing_to_study")

                let first = try await Self.studiedStack(client)
                _ = try await Self.studiedStack(client, name: "Chemie")
                let ladder = try await client.createStack(name: "Vokabeln", color: "#000000", scheduler: .ladder)
                _ = try await client.createCard(in: ladder.id, question: "Haus", answer: "house")
                let all = try await client.workload()
                #expect(all.cards == 60)
                #expect(all.days[0].newCards == 40)
                let one = try await client.workload(of: first.id)
                #expect(all.averageReviews > one.averageReviews)
                #expect(try await client.retentionAdvice().options.count == FSRSRetentionAdvice.retentions.count)

                await Self.refused("workload_needs_fsrs") { _ = try await client.workload(of: ladder.id) }
                await Self.refused("workload_needs_fsrs") { _ = try await client.retentionAdvice(for: ladder.id) }
                await Self.refused("validation_failed") { _ = try await client.workload(of: first.id, days: 0) }
                await Self.refused("validation_failed") { _ = try await client.workload(days: 366) }
                for changes in [
                    SimulationRequest(days: 400), SimulationRequest(newCardsPerDay: -1),
                    SimulationRequest(reviewsPerDay: 20_000), SimulationRequest(desiredRetention: 0.5),
                    SimulationRequest(additionalNewCards: 1_000_000),
                ] {
                    await Self.refused("validation_failed") { _ = try await client.simulate(first.id, changes) }
                }
                let token = try #require(client.token)
                try await app.testing().test(
                    .POST, "api/v1/me/workload/simulate", headers: bearerHeaders(token),
                    beforeRequest: { $0.body = ByteBuffer(string: "{\"days\": ") }
                ) { response in
                    #expect(response.status == .badRequest)
                }
                try await app.testing().test(.GET, "api/v1/me/retention-advice") { response in
                    #expect(response.status == .unauthorized)
                }

                // Another learner's stack is not found.
                let other = FlashcardsClient(baseURL: client.baseURL)
                try await other.signup(name: "Bo", mail: "bo@example.org", password: "correct horse")
                await Self.refused("stack_not_found") { _ = try await other.workload(of: first.id) }
                await Self.refused("stack_not_found") { _ = try await other.simulate(first.id, SimulationRequest()) }
                await Self.refused("stack_not_found") { _ = try await other.retentionAdvice(for: first.id) }
            }
        }
    }

    @Test(
        "memory statistics: distributions, true retention of young and mature cards, buttons",
        arguments: TestDatabase.available)
    func memoryStats(db: TestDatabase) async throws {
        let clock = TestClock()  // Saturday 2026-06-13 10:00 UTC
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(name: "Gedächtnis", color: "#047857")
                var cards: [CardDTO] = []
                for index in 0..<3 {
                    cards.append(
                        try await client.createCard(
                            in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo))
                }
                func review(_ card: Int, _ rating: RatingKey, _ time: String) -> SyncReviewDTO {
                    SyncReviewDTO(
                        id: UUID(), cardId: cards[card].id, rating: rating, reviewedAt: FlashcardsJSON.date(from: time)!
                    )
                }
                _ = try await client.syncReviews([
                    review(0, .good, "2026-05-01T10:00:00.000Z"),  // first: learning
                    review(0, .good, "2026-06-01T10:00:00.000Z"),  // 31 days later: mature, recalled
                    review(0, .again, "2026-06-12T10:00:00.000Z"),  // 11 days later: young, forgotten (yesterday)
                    review(1, .easy, "2026-06-10T10:00:00.000Z"),  // first: learning
                    review(1, .good, "2026-06-13T09:00:00.000Z"),  // 3 days later: young, recalled (today)
                    review(1, .hard, "2026-06-13T09:30:00.000Z"),  // the same day: learning, then undone
                ])
                _ = try await client.undoLastReview(of: cards[1].id, in: stack.id)
                let memory = try await client.memoryStats(of: stack.id)
                #expect(memory.cards == 2)
                #expect(memory.difficulty.reduce(0, +) == 2 && memory.difficulty.count == 10)
                #expect(
                    memory.stability.reduce(0, +) == 2 && memory.stability.count == memory.stabilityBounds.count + 1)
                #expect(memory.retrievability.reduce(0, +) == 2)
                #expect(memory.estimatedKnowledge > 0.5 && memory.estimatedKnowledge <= 2)
                let table = Dictionary(uniqueKeysWithValues: memory.trueRetention.map { ($0.period, $0) })
                #expect(memory.trueRetention.map(\.period) == ["today", "yesterday", "week", "month", "year"])
                #expect(table["today"]?.young == RecallCountDTO(reviews: 1, recalled: 1))
                #expect(table["yesterday"]?.young == RecallCountDTO(reviews: 1, recalled: 0))
                #expect(table["week"]?.young == RecallCountDTO(reviews: 2, recalled: 1))
                #expect(table["week"]?.mature == RecallCountDTO(reviews: 0, recalled: 0))
                #expect(table["month"]?.mature == RecallCountDTO(reviews: 1, recalled: 1))
                #expect(table["year"]?.young == RecallCountDTO(reviews: 2, recalled: 1))
                let buttons = Dictionary(uniqueKeysWithValues: memory.answerButtons.map { ($0.phase, $0.counts) })
                #expect(buttons["learning"] == [0, 0, 1, 1])
                #expect(buttons["young"] == [1, 0, 1, 0])
                #expect(buttons["mature"] == [0, 0, 1, 0])
                // By hour of the day (UTC here): four reviews at 10:00, one at 9:00 (the undone one left out).
                #expect(memory.hours.count == 24)
                #expect(memory.hours[10] == RecallCountDTO(reviews: 4, recalled: 3))
                #expect(memory.hours[9] == RecallCountDTO(reviews: 1, recalled: 1))
                #expect(memory.hours.map(\.reviews).reduce(0, +) == 5)
                // Daily load: card 0 relearns (1 a day), card 1 waits some days.
                #expect(memory.dailyLoad > 1 && memory.dailyLoad < 2)
                // Over all stacks: the same cards; another learner sees nothing of them.
                #expect(try await client.memoryStats().cards == 2)
                let other = FlashcardsClient(baseURL: client.baseURL)
                try await other.signup(name: "Bo", mail: "bo@example.org", password: "correct horse")
                await Self.refused("stack_not_found") { _ = try await other.memoryStats(of: stack.id) }
                let empty = try await other.memoryStats()
                #expect(empty.cards == 0 && empty.estimatedKnowledge == 0)
                #expect(empty.trueRetention.allSatisfy { $0.young.reviews == 0 && $0.mature.reviews == 0 })
            }
        }
    }
}

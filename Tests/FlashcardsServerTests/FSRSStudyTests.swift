import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// The FSRS scheduler in the product: settings, four ratings, the study loop and the compatibility routes.
@Suite("FSRS stacks")
struct FSRSStudyTests {
    @Test("an FSRS study loop through the SDK matches the pure scheduler", arguments: TestDatabase.available)
    func studyLoop(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "Europe/Berlin")
                let stack = try await client.createStack(name: "Biologie", color: "#059669")
                #expect(stack.scheduler == .fsrs)
                #expect(stack.desiredRetention == 0.9)
                #expect(stack.learningSteps == [60, 600])
                #expect(stack.relearningSteps == [600])
                #expect(stack.newCardsPerDay == 20)
                #expect(stack.reviewsPerDay == 200)
                let card = try await client.createCard(in: stack.id, question: "Was ist ATP?", answer: "Energie")
                #expect(card.state == .new)

                var next = try await client.nextCard(in: stack.id)
                #expect(next.card?.id == card.id)
                #expect(next.options.map(\.rating) == [.again, .hard, .good, .easy])
                #expect(next.options.map(\.id) == [11, 12, 13, 14])
                #expect(next.options.map(\.label) == ["Nochmal", "Schwer", "Gut", "Einfach"])
                #expect(next.options.map(\.color) == ["#EF4444", "#F97316", "#22C55E", "#0EA5E9"])
                #expect(next.options.map(\.intervalSeconds).prefix(3) == [60, 330, 600])
                #expect(next.options.map(\.intervalText).prefix(3) == ["1 Minute", "6 Minuten", "10 Minuten"])
                // Easy graduates at once: S0(Easy) = 8.3 days, fuzzed within Anki's 6 … 10 days.
                let easyText = try #require(next.options.last?.intervalText)
                let easyDays = try #require(Int(easyText.split(separator: " ")[0]))
                #expect((6...10).contains(easyDays) && easyText.hasSuffix("Tage"))

                // Good, Good (10 minutes later), then Hard two days later: compare with the core.
                let start = clock.now
                var rated = try await client.rate(card.id, in: stack.id, rating: .good, durationMs: 4_000)
                #expect(rated.card.state == .learning)
                #expect(rated.card.dueAt == start.addingTimeInterval(600))
                clock.advance(by: 600)
                rated = try await client.rate(card.id, in: stack.id, rating: .good)
                #expect(rated.card.state == .review)
                clock.advance(by: 2 * 86_400)
                rated = try await client.rate(card.id, in: stack.id, rating: .hard)

                let numericId = try #require(
                    try await CardModel.query(on: app.db).filter(\.$uniqueId == card.id).first()?.id)
                let scheduler = try FSRSScheduler(
                    configuration: FSRSConfiguration(
                        dayCounting: .rollover(hourOfDay: 4, timeZone: TimeZone(identifier: "Europe/Berlin")!)))
                let expected = scheduler.replay(
                    [(FSRSRating.good, start), (.good, start.addingTimeInterval(600)), (.hard, clock.now)],
                    cardID: Int64(numericId))
                let last = try #require(expected.last)
                #expect(rated.card.state?.rawValue == last.state.rawValue)
                #expect(abs(rated.card.dueAt.timeIntervalSince(last.due)) < 0.001)
                #expect(isClose(rated.card.stability, last.stability))
                #expect(isClose(rated.card.difficulty, last.difficulty))
                #expect(rated.card.reviewCount == 3)
                // The review time and duration went into the log, with the states before and after.
                let logs = try await ReviewLogModel.query(on: app.db).sort(\.$reviewedAt).all()
                #expect(logs.map(\.rating) == [3, 3, 2])
                #expect(logs.allSatisfy { $0.scheduler == "fsrs" && $0.kind == "review" })
                #expect(logs.first?.durationMs == 4_000)
                #expect(logs.map(\.elapsedDays) == [nil, 0, 2])

                // Undo the Hard: the card is what the first two reviews give; the log keeps both rows.
                let undone = try await client.undoLastReview(of: card.id, in: stack.id)
                #expect(undone.undoneReviewId == logs[2].id)
                #expect(undone.card.state?.rawValue == expected[1].state.rawValue)
                #expect(abs(undone.card.dueAt.timeIntervalSince(expected[1].due)) < 0.001)
                #expect(isClose(undone.card.stability, expected[1].stability))
                #expect(undone.card.reviewCount == 2)
                #expect(try await ReviewLogModel.query(on: app.db).count() == 4)
                // A retried undo with the same id undoes once; a second undo goes one further back.
                let undoId = UUID()
                let once = try await client.undoLastReview(of: card.id, in: stack.id, undoId: undoId)
                let twice = try await client.undoLastReview(of: card.id, in: stack.id, undoId: undoId)
                #expect(once.undoneReviewId == logs[1].id)
                #expect(twice.undoneReviewId == logs[1].id)
                #expect(twice.card.reviewCount == 1)
                #expect(twice.card.state?.rawValue == expected[0].state.rawValue)
                _ = try await client.undoLastReview(of: card.id, in: stack.id)
                do {
                    _ = try await client.undoLastReview(of: card.id, in: stack.id)
                    Issue.record("undo without a review succeeded")
                } catch let error as FlashcardsError {
                    #expect(error.code == "conflict")
                }
                next = try await client.nextCard(in: stack.id)
                #expect(next.card?.state == .new)
                #expect(try await ReviewLogModel.query(on: app.db).count() == 6)
            }
        }
    }

    @Test("settings are validated, shown and edited; ladder stays available", arguments: TestDatabase.available)
    func settings(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let ladder = try await client.createStack(name: "Alt", color: "#059669", scheduler: .ladder)
                #expect(ladder.scheduler == .ladder)
                _ = try await client.createCard(in: ladder.id, question: "Q", answer: "A")
                let next = try await client.nextCard(in: ladder.id)
                #expect(next.options.map(\.rating) == [.hard, .medium, .easy])
                #expect(next.options.map(\.id) == [2, 1, 0])

                let custom = try await client.createStack(
                    CreateStackRequest(
                        name: "Neu", color: "#000000", desiredRetention: 0.85, learningSteps: [30, 300, 1_800],
                        relearningSteps: [], newCardsPerDay: 5, reviewsPerDay: 50))
                #expect(custom.scheduler == .fsrs)
                #expect(custom.learningSteps == [30, 300, 1_800])
                #expect(custom.relearningSteps == [])
                #expect(custom.desiredRetention == 0.85)
                let edited = try await client.updateStack(
                    custom.id, UpdateStackRequest(name: "Neu 2", desiredRetention: 0.95, reviewsPerDay: 80))
                #expect(edited.name == "Neu 2")
                #expect(edited.desiredRetention == 0.95)
                #expect(edited.reviewsPerDay == 80)
                #expect(edited.newCardsPerDay == 5)

                let bad: [UpdateStackRequest] = [
                    UpdateStackRequest(desiredRetention: 0.5),
                    UpdateStackRequest(desiredRetention: 1), UpdateStackRequest(learningSteps: [0]),
                    UpdateStackRequest(relearningSteps: Array(repeating: 60, count: 11)),
                    UpdateStackRequest(newCardsPerDay: -1), UpdateStackRequest(reviewsPerDay: 0),
                    UpdateStackRequest(name: "Nie", reviewsPerDay: 0),
                ]
                for request in bad {
                    do {
                        _ = try await client.updateStack(custom.id, request)
                        Issue.record("accepted \(request)")
                    } catch let error as FlashcardsError {
                        #expect(error.code == "validation_failed")
                    }
                }
                // An unknown scheduler is refused by name (the SDK's types cannot send one).
                let token = try #require(client.token)
                try await app.testing().test(
                    .PATCH, "api/v1/stacks/\(custom.id.path)", headers: bearerHeaders(token),
                    body: rawJSON(#"{"scheduler":"sm2"}"#)
                ) { res in
                    #expect(res.status == .badRequest)
                    #expect(res.body.string.contains("scheduler") && res.body.string.contains("validation_failed"))
                }
                try await app.testing().test(
                    .POST, "api/v1/stacks", headers: bearerHeaders(token),
                    body: rawJSON(##"{"name":"X","color":"#000000","scheduler":"x"}"##)
                ) { res in
                    #expect(res.status == .badRequest)
                    #expect(res.body.string.contains("scheduler") && res.body.string.contains("validation_failed"))
                }
                // Nothing of the refused requests was written.
                #expect(try await client.stack(custom.id).name == "Neu 2")
                #expect(try await client.stacks().count == 2)
                // A ladder rating key is refused on an FSRS stack and vice versa.
                let card = try await client.createCard(in: custom.id, question: "Q", answer: "A")
                await #expect(throws: FlashcardsError.self) {
                    _ = try await client.rate(card.id, in: custom.id, rating: .medium)
                }
                await #expect(throws: FlashcardsError.self) {
                    _ = try await client.rate(card.id, in: ladder.id, rating: .good)
                }
            }
        }
    }

    @Test("a stack's scheduling is built anew when a setting, the time zone or the parameters change")
    func schedulingFollowsItsInputs() throws {
        let user = UserModel(
            id: UUID(), name: "A", mail: "a@example.org", passwordHash: "", timeZone: "Europe/Berlin", createdAt: Date()
        )
        let stack = StackModel(uniqueId: UUID(), userId: user.id!, name: "S", color: "#000000", now: Date())
        stack.scheduler = SchedulerKind.fsrs.rawValue
        var custom = FSRSConfiguration.defaultParameters
        custom[0] = 0.4
        custom[2] = 2.5
        let customText = "[" + custom.map { "\($0)" }.joined(separator: ",") + "]"
        /// What a scheduler was built from, as read back from it.
        func built(parameters: String? = nil) -> [String] {
            let scheduler = SchedulerCache.scheduler(for: stack, user: user, parameters: parameters)
            let configuration = scheduler.fsrs.configuration
            guard case .rollover(_, let zone) = configuration.dayCounting else { return [] }
            return [
                scheduler.kind.rawValue, "\(configuration.desiredRetention)", "\(configuration.learningSteps)",
                "\(configuration.relearningSteps)", zone.identifier, "\(configuration.parameters)",
            ]
        }
        let first = built()
        #expect(
            first == [
                "fsrs", "0.9", "[60.0, 600.0]", "[600.0]", "Europe/Berlin", "\(FSRSConfiguration.defaultParameters)",
            ])
        // Each input on its own, then back: every answer is what the inputs say, never a kept one.
        stack.desiredRetention = 0.8
        #expect(built()[1] == "0.8")
        stack.desiredRetention = 0.9
        stack.learningSteps = "30"
        #expect(built()[2] == "[30.0]")
        stack.learningSteps = "60,600"
        stack.relearningSteps = ""
        #expect(built()[3] == "[]")
        stack.relearningSteps = "600"
        user.timeZone = "Asia/Tokyo"
        #expect(built()[4] == "Asia/Tokyo")
        user.timeZone = "Europe/Berlin"
        #expect(built(parameters: customText)[5] == "\(custom)")
        stack.scheduler = SchedulerKind.ladder.rawValue
        #expect(built()[0] == "ladder")
        stack.scheduler = SchedulerKind.fsrs.rawValue
        #expect(built() == first)
        // More distinct inputs than the cache holds still give each its own scheduling.
        for step in 1...(SchedulerCache.limit + 5) {
            stack.learningSteps = "\(step)"
            #expect(built()[2] == "[\(Double(step))]")
        }
    }

    @Test(
        "compatibility routes show an FSRS stack's four options and accept their ids", arguments: TestDatabase.available
    )
    func compatOnFSRS(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            let token = try await app.compatSignup()
            // A stack made through the compatibility API keeps the ladder.
            let compatStack = try await createStack(app, token: token, name: "Alt")
            try await app.testing().test(.GET, "api/v1/stacks/\(compatStack)", headers: bearerHeaders(token)) { res in
                #expect((try? res.decoded(StackDTO.self))?.scheduler == .ladder)
            }
            var stackId = ""
            try await app.testing().test(
                .POST, "api/v1/stacks", headers: bearerHeaders(token),
                body: rawJSON(##"{"name":"FSRS","color":"#000000"}"##)
            ) { res in
                #expect(res.status == .created)
                stackId = (try? res.decoded(StackDTO.self))?.id.path ?? ""
            }
            let first = try await createCard(app, token: token, stackId: stackId, question: "Eins")
            clock.advance(by: 1)
            let second = try await createCard(app, token: token, stackId: stackId, question: "Zwei")

            let next = try #require(try await nextCard(app, token: token, stackId: stackId))
            #expect(next["uniqueId"] as? String == first)
            let options = try #require(next["difficultyAndDurations"] as? [[String: Any]])
            let difficulties = options.compactMap { $0["difficulty"] as? [String: Any] }
            #expect(difficulties.compactMap { $0["id"] as? Int } == [11, 12, 13, 14])
            #expect(difficulties.compactMap { $0["name"] as? String } == ["Nochmal", "Schwer", "Gut", "Einfach"])
            #expect(difficulties.compactMap { $0["color"] as? String } == ["#EF4444", "#F97316", "#22C55E", "#0EA5E9"])
            let durations = options.compactMap { ($0["duration"] as? [String: Any])?["displayName"] as? String }
            #expect(durations.prefix(3) == ["1 Minute", "6 Minuten", "10 Minuten"])
            let shapes = try durationShapes(options)
            #expect(
                Array(shapes.prefix(3)) == [(1, "MINUTES"), (6, "MINUTES"), (10, "MINUTES")].map(DurationShape.init))
            #expect(shapes.last?.unit == "DAYS")

            // The web app sends `difficulty`, the iOS app `difficultyId`; both ids are accepted.
            try await rate(app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(first)","difficulty":14}"#)
            try await rate(
                app, token: token, body: #"{"stackId":"\#(stackId)","cardId":"\#(second)","difficultyId":11}"#)
            try await app.testing().test(
                .POST, "stack/rating", headers: compatHeaders(token),
                body: rawJSON(#"{"stackId":"\#(stackId)","cardId":"\#(first)","difficulty":15}"#)
            ) { res in
                #expect(res.status == .badRequest)
            }
            // On a ladder stack the FSRS ids are refused, as every id outside 0…2.
            let ladderCard = try await createCard(app, token: token, stackId: compatStack, question: "Alt")
            try await app.testing().test(
                .POST, "stack/rating", headers: compatHeaders(token),
                body: rawJSON(#"{"stackId":"\#(compatStack)","cardId":"\#(ladderCard)","difficulty":13}"#)
            ) { res in
                #expect(res.status == .badRequest)
            }
            let logs = try await ReviewLogModel.query(on: app.db).sort(\.$reviewedAt).all()
            #expect(logs.map(\.rating).sorted() == [1, 4])
            #expect(logs.allSatisfy { $0.scheduler == "fsrs" })
            // Easy graduated the first card; Again left the second on the first learning step.
            let firstMaturity = try await cardMaturity(app, token: token, stackId: stackId, cardId: first)
            #expect(firstMaturity.level == 1)
            let secondCard = try #require(try await nextCard(app, token: token, stackId: stackId))
            #expect(secondCard["uniqueId"] as? String == second)
            #expect((secondCard["difficultyAndDurations"] as? [Any])?.count == 4)
        }
    }

    @Test("switching the scheduler recomputes every card from its history", arguments: TestDatabase.available)
    func switchRecomputes(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(name: "S", color: "#000000", scheduler: .ladder)
                let card = try await client.createCard(in: stack.id, question: "Q", answer: "A")
                let untouched = try await client.createCard(in: stack.id, question: "Q2", answer: "A2")
                var times: [Date] = []
                for rating: RatingKey in [.easy, .easy, .medium] {
                    times.append(clock.now)
                    _ = try await client.rate(card.id, in: stack.id, rating: rating)
                    clock.advance(by: 2 * 86_400)
                }
                let ladder = try await client.card(card.id, in: stack.id)
                #expect(ladder.level == 2)

                let switched = try await client.updateStack(stack.id, UpdateStackRequest(scheduler: .fsrs))
                #expect(switched.scheduler == .fsrs)
                let numericId = try #require(
                    try await CardModel.query(on: app.db).filter(\.$uniqueId == card.id).first()?.id)
                let scheduler = try FSRSScheduler(configuration: FSRSConfiguration(dayCounting: .ankiDefaultUTC))
                // Einfach → Good, Mittel → Hard.
                let expected = try #require(
                    scheduler.replay(
                        zip([FSRSRating.good, .good, .hard], times).map { ($0, $1) }, cardID: Int64(numericId)
                    )
                    .last)
                let fsrsCard = try await client.card(card.id, in: stack.id)
                #expect(fsrsCard.state?.rawValue == expected.state.rawValue)
                #expect(abs(fsrsCard.dueAt.timeIntervalSince(expected.due)) < 0.001)
                #expect(isClose(fsrsCard.stability, expected.stability))
                #expect(isClose(fsrsCard.difficulty, expected.difficulty))
                #expect(try await client.card(untouched.id, in: stack.id).state == .new)

                // And back: the ladder state is the original one again.
                _ = try await client.updateStack(stack.id, UpdateStackRequest(scheduler: .ladder))
                let back = try await client.card(card.id, in: stack.id)
                #expect(back.level == ladder.level)
                #expect(abs(back.dueAt.timeIntervalSince(ladder.dueAt)) < 0.001)
                #expect(back.stability == nil)
                #expect(try await ReviewLogModel.query(on: app.db).count() == 3)
            }
        }
    }

    @Test(
        "a stack's day ends at its rollover on the wall clock (FSRS 04:00, ladder midnight), across daylight-saving changes, as the calendar says",
        arguments: ["Europe/Berlin", "America/New_York", "Pacific/Auckland", "America/Santiago", "Asia/Kolkata", "UTC"])
    func cutoffFollowsTheCalendar(zone: String) throws {
        let user = UserModel(
            id: UUID(), name: "A", mail: "a@example.org", passwordHash: "", timeZone: zone, createdAt: Date())
        for (scheduler, hour) in [(SchedulerKind.fsrs, 4), (.ladder, 0)] {
            let stack = StackModel(uniqueId: UUID(), userId: user.id!, name: "S", color: "#000000", now: Date())
            stack.scheduler = scheduler.rawValue
            // Every 37 minutes through 2026 (both changes of each hemisphere), a few days ahead.
            var now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00 UTC
            while now < Date(timeIntervalSince1970: 1_798_761_600) {
                for daysAhead in [0, 1, 6] {
                    let expected = calendarCutoff(now: now, zone: user.zone, daysAhead: daysAhead, hour: hour)
                    let cutoff = try StudyService.cutoff(for: user, stack: stack, now: now, daysAhead: daysAhead)
                    guard cutoff == expected else {
                        Issue.record(
                            "\(zone) \(scheduler) at \(now), \(daysAhead) days ahead: \(cutoff), not \(expected)")
                        return
                    }
                }
                now.addTimeInterval(37 * 60)
            }
        }
    }

    /// The end of the learner's day by the calendar: the learner's date (before `hour` on the wall
    /// clock still yesterday), `daysAhead + 1` dates on, at `hour` on that date's wall clock (the first
    /// instant after it where a daylight-saving change skips that hour).
    private func calendarCutoff(now: Date, zone: TimeZone, daysAhead: Int, hour: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.dateComponents([.year, .month, .day, .hour], from: now)
        // Noon of the date exists on every day; dates are counted from there.
        let noon = calendar.date(from: DateComponents(year: today.year, month: today.month, day: today.day, hour: 12))!
        let shift = (today.hour! < hour ? -1 : 0) + 1 + daysAhead
        let end = calendar.dateComponents(
            [.year, .month, .day], from: calendar.date(byAdding: .day, value: shift, to: noon)!)
        return calendar.date(from: DateComponents(year: end.year, month: end.month, day: end.day, hour: hour))!
    }
}

/// Whether two optional numbers agree to 1e-9 relative.
func isClose(_ a: Double?, _ b: Double?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1)
}

import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FlashcardsServer

/// `POST /api/v1/me/scheduler/optimize`: a job that fits the user's parameters to their history.
@Suite("FSRS optimization")
struct FSRSOptimizeTests {
    @Test(
        "the job fits the parameters to the history and the user's FSRS stacks use them",
        arguments: TestDatabase.available)
    func optimize(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(name: "Verlauf", color: "#000000")
                #expect(try await client.schedulerParameters().isDefault)

                // Too little history: the job fails with a message, nothing is stored.
                var job = try await client.optimizeScheduler()
                #expect(job.kind == "optimize")
                try await app.jobWorker.runNow(id: job.id)
                var finished = try await waitForJob(app, job.id)
                #expect(finished.status == "failed")
                #expect(finished.error?.isEmpty == false)

                // Two and a half years of simulated reviews of 40 cards, synced from a phone.
                // (Histories end today: later simulated reviews have not happened yet.)
                let simulated = FSRSSyntheticHistory.generate(reviewCount: 800, seed: 3).map { history in
                    FSRSReviewHistory(
                        cardID: history.cardID, reviews: history.reviews.filter { $0.reviewedAt < clock.now })
                }
                var reviews: [SyncReviewDTO] = []
                var cardIds: [UUID] = []
                for history in simulated {
                    let card = try await client.createCard(
                        in: stack.id, question: "Q\(history.cardID)", answer: "A", createdAt: longAgo)
                    cardIds.append(card.id)
                    for review in history.reviews {
                        reviews.append(
                            SyncReviewDTO(
                                id: UUID(), cardId: card.id, rating: RatingKey(rawValue: review.rating.key)!,
                                reviewedAt: review.reviewedAt))
                    }
                }
                for start in stride(from: 0, to: reviews.count, by: 500) {
                    _ = try await client.syncReviews(Array(reviews[start..<min(start + 500, reviews.count)]))
                }

                job = try await client.optimizeScheduler()
                try await app.jobWorker.runNow(id: job.id)
                finished = try await waitForJob(app, job.id)
                #expect(finished.status == "succeeded", "\(finished.error ?? "")")

                // The same fit, computed here from the synced reviews.
                var histories: [FSRSReviewHistory] = []
                for (index, cardId) in cardIds.enumerated() {
                    let numericId = try #require(
                        try await CardModel.query(on: app.db).filter(\.$uniqueId == cardId).first()?.id)
                    var previous: Date?
                    let training = simulated[index].reviews.map { review -> FSRSTrainingReview in
                        let elapsed = previous.map {
                            FSRSDayCounting.ankiDefaultUTC.elapsedDays(from: $0, to: review.reviewedAt)
                        }
                        previous = review.reviewedAt
                        return FSRSTrainingReview(
                            rating: review.rating, elapsedDays: elapsed ?? 0, reviewedAt: review.reviewedAt)
                    }
                    histories.append(FSRSReviewHistory(cardID: Int64(numericId), reviews: training))
                }
                let expected = try FSRSOptimizer.fit(histories: histories.sorted { $0.cardID < $1.cardID })
                let stored = try await client.schedulerParameters()
                #expect(!stored.isDefault)
                #expect(stored.parameters.count == 21)
                #expect(zip(stored.parameters, expected.parameters).allSatisfy { isClose($0, $1) })
                #expect(isClose(stored.logLoss, expected.logLoss))
                #expect(stored.reviews == expected.reviews)
                #expect(stored.parameters != FSRSConfiguration.defaultParameters)

                // The result says how the check went and what the new parameters change.
                let outcome = try FlashcardsJSON.makeDecoder().decode(
                    SchedulerParametersDTO.self, from: Data(try #require(finished.result).utf8))
                #expect(outcome.kept == false)
                #expect(outcome.workloadChange != nil)
                if let check = outcome.check {
                    #expect(check.better && check.heldOutReviews >= FSRSParameterCheck.minimumHeldOut)
                }
                // A new card's first Good now starts from the fitted w2.
                let card = try await client.createCard(in: stack.id, question: "Neu", answer: "A", createdAt: longAgo)
                let rated = try await client.rate(card.id, in: stack.id, rating: .good)
                #expect(isClose(rated.card.stability, stored.parameters[2]))

                try await client.resetSchedulerParameters()
                #expect(try await client.schedulerParameters().isDefault)
            }
        }
    }

    @Test(
        "parameters that predict the latest reviews at least as well as a new fit stay",
        arguments: TestDatabase.available)
    func keeps(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(name: "Wahrheit", color: "#000000")
                // A learner whose memory follows the default parameters exactly: a fit to the earlier
                // 80 % of their reviews cannot predict the latest 20 % better than the truth.
                let simulated = FSRSSyntheticHistory.generate(reviewCount: 3_000, seed: 5).map { history in
                    FSRSReviewHistory(
                        cardID: history.cardID, reviews: history.reviews.filter { $0.reviewedAt < clock.now })
                }
                var reviews: [SyncReviewDTO] = []
                for history in simulated {
                    let card = try await client.createCard(
                        in: stack.id, question: "Q\(history.cardID)", answer: "A", createdAt: longAgo)
                    reviews += history.reviews.map {
                        SyncReviewDTO(
                            id: UUID(), cardId: card.id, rating: RatingKey(rawValue: $0.rating.key)!,
                            reviewedAt: $0.reviewedAt)
                    }
                }
                for start in stride(from: 0, to: reviews.count, by: 500) {
                    _ = try await client.syncReviews(Array(reviews[start..<min(start + 500, reviews.count)]))
                }
                let job = try await client.optimizeScheduler()
                try await app.jobWorker.runNow(id: job.id)
                let finished = try await waitForJob(app, job.id)
                #expect(finished.status == "succeeded", "\(finished.error ?? "")")
                let outcome = try FlashcardsJSON.makeDecoder().decode(
                    SchedulerParametersDTO.self, from: Data(try #require(finished.result).utf8))
                let check = try #require(outcome.check)
                #expect(outcome.kept == true && !check.better)
                #expect(check.heldOutReviews >= FSRSParameterCheck.minimumHeldOut)
                #expect(check.healthy)
                #expect(outcome.isDefault && outcome.parameters == FSRSConfiguration.defaultParameters)
                #expect(outcome.workloadChange == nil)
                #expect(try await client.schedulerParameters().isDefault)
            }
        }
    }

    @Test("after 500 new reviews an optimization is queued by itself, once", arguments: TestDatabase.available)
    func automatic(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let userId = try #require(try await UserModel.query(on: app.db).first()?.requireID())
                func optimizeJobs() async throws -> [JobModel] { try await Self.optimizeJobs(of: userId, on: app.db) }
                let stack = try await client.createStack(name: "Viel", color: "#000000")
                var cards: [CardDTO] = []
                for index in 0..<40 {
                    cards.append(
                        try await client.createCard(
                            in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo))
                }
                func history(_ count: Int, from start: Int) -> [SyncReviewDTO] {
                    (start..<start + count).map { index in
                        SyncReviewDTO(
                            id: UUID(), cardId: cards[index % cards.count].id, rating: .good,
                            reviewedAt: clock.now.addingTimeInterval(-Double(600 - index / cards.count) * 86_400))
                    }
                }
                _ = try await client.syncReviews(history(480, from: 0))
                #expect(try await optimizeJobs().isEmpty)
                _ = try await client.syncReviews(history(40, from: 480))
                let queued = try await optimizeJobs()
                #expect(queued.count == 1 && queued.first?.status == "queued")
                // Queued already: more reviews queue no second one.
                _ = try await client.syncReviews(history(40, from: 520))
                #expect(try await optimizeJobs().count == 1)
                let jobId = try #require(queued.first?.id)
                try await app.jobWorker.runNow(id: jobId)
                #expect(try await waitForJob(app, jobId).status == "succeeded")
                // Reviews after it count anew: 25 ratings are far from the next 500.
                let ratings = min(25, cards.count)
                for card in cards.prefix(ratings) { _ = try await client.rate(card.id, in: stack.id, rating: .good) }
                #expect(try await optimizeJobs().count == 1)
            }
        }
    }

    @Test(
        "after a long history an optimization waits for a tenth more reviews or a month",
        arguments: TestDatabase.available)
    func automaticAfterLongHistory(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let userId = try #require(try await UserModel.query(on: app.db).first()?.requireID())
                let stack = try await client.createStack(name: "Viel", color: "#000000")
                var cards: [CardDTO] = []
                for index in 0..<60 {
                    cards.append(
                        try await client.createCard(
                            in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo))
                }
                func optimizeJobs() async throws -> Int { try await Self.optimizeJobs(of: userId, on: app.db).count }
                func reviews(_ count: Int, before end: Date, every seconds: TimeInterval) -> [SyncReviewDTO] {
                    (0..<count).map { index in
                        SyncReviewDTO(
                            id: UUID(), cardId: cards[index % cards.count].id, rating: .good,
                            reviewedAt: end.addingTimeInterval(-Double(count - index) * seconds))
                    }
                }
                // Parameters fitted ten days ago to 6,000 reviews over the 70 days before.
                let fittedAt = clock.now.addingTimeInterval(-10 * 86_400)
                try await SchedulerParametersModel(
                    userId: userId, parameters: FSRSConfiguration.defaultParameters, optimizedAt: fittedAt,
                    logLoss: 0.3, defaultLogLoss: 0.35, reviews: 6_000
                ).create(on: app.db)
                let history = reviews(6_000, before: fittedAt, every: 1_000)
                for start in stride(from: 0, to: history.count, by: 500) {
                    _ = try await client.syncReviews(Array(history[start..<start + 500]))
                }
                #expect(try await optimizeJobs() == 0)
                // 520 new reviews are not a tenth of 6,000, and the fit is ten days old.
                let recent = reviews(600, before: clock.now, every: 600)
                _ = try await client.syncReviews(Array(recent[..<520]))
                #expect(try await optimizeJobs() == 0)
                // 600 are.
                _ = try await client.syncReviews(Array(recent[520...]))
                #expect(try await optimizeJobs() == 1)
            }
        }
    }

    /// The user's `optimize` jobs, queued or done.
    private static func optimizeJobs(of userId: UUID, on db: any Database) async throws -> [JobModel] {
        try await JobModel.query(on: db).filter(\.$userId == userId).filter(\.$kind == OptimizeJobHandler.kind).all()
    }

    @Test("when an optimization is due: 500 new reviews, and a tenth of a long history or a month")
    func dueRule() {
        let now = Date(timeIntervalSince1970: 1_781_344_800)
        let week = now.addingTimeInterval(-7 * 86_400)
        let twoMonths = now.addingTimeInterval(-60 * 86_400)
        // Never optimized, or fitted to a short history: 500 new reviews.
        #expect(!OptimizeTrigger.isDue(newReviews: 499, history: nil, since: nil, now: now))
        #expect(OptimizeTrigger.isDue(newReviews: 500, history: nil, since: nil, now: now))
        #expect(OptimizeTrigger.isDue(newReviews: 500, history: 3_000, since: week, now: now))
        #expect(OptimizeTrigger.isDue(newReviews: 500, history: nil, since: week, now: now))
        // Fitted to 300,000: a tenth more, or a month after.
        #expect(!OptimizeTrigger.isDue(newReviews: 29_999, history: 300_000, since: week, now: now))
        #expect(OptimizeTrigger.isDue(newReviews: 30_000, history: 300_000, since: week, now: now))
        #expect(OptimizeTrigger.isDue(newReviews: 500, history: 300_000, since: twoMonths, now: now))
        #expect(!OptimizeTrigger.isDue(newReviews: 499, history: 300_000, since: twoMonths, now: now))
    }

    @Test("storing the fitted parameters waits for another connection's write, then succeeds (SQLite)")
    func storeWhileAnotherConnectionWrites() async throws {
        try await withApp(.sqlite) { app in
            _ = try await app.compatSignup()
            let userId = try #require(try await UserModel.query(on: app.db).first()?.requireID())
            // The driver keeps one connection per event loop: two loops give two connections.
            let loops = Array(app.eventLoopGroup.makeIterator())
            guard loops.count >= 2,
                let other = app.databases.database(.sqlite, logger: app.logger, on: loops[0]),
                let mine = app.databases.database(.sqlite, logger: app.logger, on: loops[1])
            else { return }
            let row = SchedulerParametersModel(
                userId: userId, parameters: FSRSConfiguration.defaultParameters, optimizedAt: Date(), logLoss: 0.4,
                defaultLogLoss: 0.5, reviews: 7)
            try await other.withConnection { connection in
                let sql = connection.sql
                try await sql.raw("BEGIN IMMEDIATE").run()
                try await sql.raw("UPDATE users SET name = 'Ada B.' WHERE id = \(bind: userId)").run()
                // Storing starts while the other connection holds the write lock. A deferred
                // transaction would read now and fail with SQLITE_BUSY once the other one commits.
                let storing = Task {
                    try await app.studyStore(on: mine).writeTransaction { try await $0.storeParameters(row) }
                }
                try await Task.sleep(nanoseconds: 150_000_000)
                try await sql.raw("COMMIT").run()
                try await storing.value
            }
            #expect(try await SchedulerParametersModel.find(userId, on: app.db)?.reviews == 7)
        }
    }
}

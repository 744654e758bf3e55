import ArgumentParser
import AsyncHTTPClient
import FlashcardsAPI
import FlashcardsCore
import FlashcardsServer
import Foundation
import NIOCore
import NIOHTTP1
import SQLKit
import Vapor

/// `flashcards-bench home`: the home screen of a long-time learner. Seeds one user with 50 FSRS
/// stacks (200 cards each) and 100,000 reviews over the past year (about five active days in six),
/// starts the real server as its own process and measures over loopback HTTP: the first
/// `GET /me/progress` (it builds the cache of finished days from the whole log), then p50/p99 and
/// the server's CPU time of `GET /me/progress` and of the library's `GET /stacks`, and once more
/// after a rating today. Target (issue 18): progress under 20 ms.
struct HomeBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home", abstract: "Benchmark the home screen (progress) of a learner with a year of reviews.")

    @ArgumentParser.Option(help: "Stacks of the learner.")
    var stacks: Int = 50

    @ArgumentParser.Option(help: "Cards per stack.")
    var cardsPerStack: Int = 200

    @ArgumentParser.Option(help: "Reviews in the log, spread over the past year.")
    var reviews: Int = 100_000

    @ArgumentParser.Option(help: "Measured requests per route.")
    var requests: Int = 300

    @ArgumentParser.Option(help: "PostgreSQL URL; SQLite in a temporary folder when absent.")
    var databaseURL: String?

    func run() async throws {
        guard stacks > 0, cardsPerStack > 0, reviews > 0, requests > 1 else {
            throw ValidationError("nothing to measure")
        }
        let serverExecutable = try ServerBenchCommand.serverExecutable()
        ServerBenchCommand.bootstrapLogging(level: "error")
        let store = databaseURL == nil ? "SQLite" : "PostgreSQL"
        print(
            "Smart Flashcards home benchmark (\(store), \(ProcessInfo.processInfo.activeProcessorCount) cores): "
                + "\(stacks) stacks, \(stacks * cardsPerStack) cards, \(reviews) reviews")
        let environment = ServerBenchCommand.environment(name: "home", databaseURL: databaseURL)
        defer { ServerBenchCommand.removeDataDirectory(of: environment) }

        let seedStart = Date()
        let app = try await Application.make(Environment(name: "production", arguments: ["flashcards"]))
        let mail = "home-\(UUID().uuidString.prefix(8).lowercased())@example.org"
        let password = "benchmark-password"
        do {
            try await FlashcardsServer.configure(app, configuration: try AppConfiguration(values: environment))
            try await seed(app, mail: mail, password: password)
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
        print(String(format: "seeded in %.1f s", Date().timeIntervalSince(seedStart)))

        try await ServerBenchCommand.withServer(serverExecutable, environment: environment) { http, base, pid in
            try await drive(http, base: base, mail: mail, password: password, pid: pid)
        }
    }

    /// One user, `stacks` FSRS stacks of `cardsPerStack` cards, and `reviews` log rows at random
    /// cards and moments of the past 365 days, skipping one day in six.
    private func seed(_ app: Application, mail: String, password: String) async throws {
        let sql = app.db as! any SQLDatabase
        let now = Date()
        let userId = try await BenchmarkSeeder.insertUser(
            sql, name: "Langzeit", mail: mail, passwordHash: try await app.password.async.hash(password), now: now)
        var settings = StackSettings()
        settings.scheduler = .fsrs
        var generator = SplitMix64(seed: 18)
        var stackIds: [Int] = []
        for index in 0..<stacks {
            let stack = try await BenchmarkSeeder.insertStack(
                sql, userId: userId, name: "Stapel \(index + 1)", settings: settings, now: now)
            try await BenchmarkSeeder.insertCards(
                sql, stackId: stack.id, userId: userId, count: cardsPerStack, fsrs: true,
                reviewsPerCard: max(1, reviews / (stacks * cardsPerStack)), now: now, generator: &generator)
            stackIds.append(stack.id)
        }
        struct CardRow: Decodable {
            let id: Int
            let stack_id: Int
        }
        let cards = try await sql.raw("SELECT id, stack_id FROM cards WHERE user_id = \(bind: userId)")
            .all(decoding: CardRow.self)
        let activeDays = (1...365).filter { $0 % 6 != 0 }
        let state = #"{"due":"2026-01-01T00:00:00.000Z","level":1}"#
        var written = 0
        while written < reviews {
            let count = min(300, reviews - written)
            var rows: [[any SQLExpression]] = []
            for _ in 0..<count {
                let card = cards[Int(generator.next() % UInt64(cards.count))]
                let day = activeDays[Int(generator.next() % UInt64(activeDays.count))]
                let moment = now.addingTimeInterval(-Double(day) * 86_400 + Double(generator.next() % 36_000))
                rows.append([
                    SQLBind(UUID()), SQLBind(userId), SQLBind(card.id), SQLBind(card.stack_id), SQLBind(moment),
                    SQLBind(Int(generator.next() % 4) + 1), SQLBind("fsrs"), SQLBind(state), SQLBind(state),
                    SQLBind(Optional<Int>.none),
                ])
            }
            try await sql.insert(into: "review_logs")
                .columns(
                    "id", "user_id", "card_id", "stack_id", "reviewed_at", "rating", "scheduler", "state_before",
                    "state_after", "duration_ms"
                )
                .rows(rows)
                .run()
            written += count
        }
        try await sql.raw(sql.dialect.name == "sqlite" ? "ANALYZE" : "ANALYZE review_logs").run()
    }

    private func drive(_ http: HTTPClient, base: String, mail: String, password: String, pid: Int32) async throws {
        try await ServerBenchCommand.waitForHealth(http, base: base)
        let login = try FlashcardsJSON.makeDecoder().decode(
            AuthResponse.self,
            from: try await ServerBenchCommand.call(
                http, .POST, base + "/api/v1/auth/login",
                body: try JSONEncoder().encode(LoginRequest(mail: mail, password: password))))
        let token = login.token
        let progressURL = base + "/api/v1/me/progress"

        let coldStart = Date()
        let first = try FlashcardsJSON.makeDecoder().decode(
            ProgressDTO.self, from: try await ServerBenchCommand.call(http, .GET, progressURL, token: token))
        let cold = Date().timeIntervalSince(coldStart) * 1_000
        print(
            String(
                format: "first GET /me/progress (builds the cache of finished days from the whole log): %.1f ms; "
                    + "level %d, %d XP", cold, first.level.level, first.level.totalXP))

        func measure(_ name: String, _ url: String) async throws -> [String: Double] {
            for _ in 0..<20 { _ = try await ServerBenchCommand.call(http, .GET, url, token: token) }
            var latencies: [Double] = []
            let cpuStart = ServerBenchCommand.cpuSeconds(of: pid)
            for _ in 0..<requests {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try await ServerBenchCommand.call(http, .GET, url, token: token)
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            let cpu = (ServerBenchCommand.cpuSeconds(of: pid) - cpuStart) * 1_000 / Double(requests)
            let (p50, p99) = ServerBenchCommand.percentiles(latencies)
            print(String(format: "%@: p50 %.2f ms, p99 %.2f ms, server CPU %.2f ms per request", name, p50, p99, cpu))
            return ["\(name) p50": p50, "\(name) p99": p99, "\(name) CPU": cpu]
        }
        var figures = try await measure("GET /me/progress", progressURL)
        figures.merge(try await measure("GET /stacks", base + "/api/v1/stacks")) { $1 }

        // A rating today: the home reads today's reviews from the log.
        let stacks = try FlashcardsJSON.makeDecoder().decode(
            [StackDTO].self, from: try await ServerBenchCommand.call(http, .GET, base + "/api/v1/stacks", token: token))
        for stack in stacks.prefix(5) {
            let next = try FlashcardsJSON.makeDecoder().decode(
                StudyNextResponse.self,
                from: try await ServerBenchCommand.call(
                    http, .GET, base + "/api/v1/stacks/\(stack.id.uuidString.lowercased())/study/next", token: token))
            guard let card = next.card else { continue }
            _ = try await ServerBenchCommand.call(
                http, .POST, base + "/api/v1/stacks/\(stack.id.uuidString.lowercased())/study/rate", token: token,
                body: try JSONEncoder().encode(RateRequest(cardId: card.id, rating: .good)))
        }
        figures.merge(try await measure("GET /me/progress after ratings today", progressURL)) { $1 }
        let p50 = figures["GET /me/progress p50"] ?? .infinity
        print(String(format: "target: progress under 20 ms: %@ (p50 %.2f ms)", p50 < 20 ? "met" : "NOT met", p50))
    }
}

import ArgumentParser
import AsyncHTTPClient
import FlashcardsAPI
import FlashcardsServer
import Foundation
import NIOCore
import NIOHTTP1
import Vapor

/// `flashcards-bench server`: seeds a 1,000-card and a 100,000-card stack (with review history)
/// for each scheduler (the original's ladder and FSRS), starts the real server as a separate
/// process and measures over loopback HTTP: p50/p99 of a next-card + rate round trip and the
/// throughput with 32 concurrent clients per scheduler (one learner, as one learner's devices would
/// meet, and `--learners` learners with a 1,000-card stack each, as a school's would), the time to serve the original API's
/// `GET /stack/{id}` (ladder stack), next-card alone on both schedulers' stacks in alternating
/// blocks (their fair comparison), and the server's peak memory. The server is the `flashcards`
/// executable of the same build (the bin folder this executable runs from).
struct ServerBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server", abstract: "Benchmark the learning loop and large stacks over HTTP.")

    @ArgumentParser.Option(help: "Stack sizes to measure, comma-separated.")
    var cards: String = "1000,100000"

    @ArgumentParser.Option(help: "Sequential next+rate round trips per size for the latency figures.")
    var roundTrips: Int = 2_000

    @ArgumentParser.Option(
        help: "Unmeasured round trips before the latency figures (both processes' first requests fill caches).")
    var warmUp: Int = 300

    @ArgumentParser.Option(
        help: "next-card requests per scheduler in the interleaved comparison (alternating blocks of 100).")
    var interleaved: Int = 6_000

    @ArgumentParser.Option(help: "Quiz questions (GET study/quiz) per scheduler for the quiz figures.")
    var quiz: Int = 1_000

    @ArgumentParser.Option(help: "Seconds of the 32-client throughput run per size.")
    var seconds: Double = 8

    @ArgumentParser.Option(help: "Concurrent clients of the throughput run.")
    var clients: Int = 32

    @ArgumentParser.Option(
        help: ArgumentHelp(
            "Learners of the second throughput run: as many clients, each its own learner with a stack of 1,000 cards.",
            discussion: "0 leaves that run out."))
    var learners: Int = 32

    @ArgumentParser.Option(help: "PostgreSQL URL; SQLite in a temporary folder when absent.")
    var databaseURL: String?

    @ArgumentParser.Option(help: "Schedulers to measure, comma-separated: ladder, fsrs.")
    var schedulers: String = "ladder,fsrs"

    func run() async throws {
        let sizes = cards.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !sizes.isEmpty, roundTrips > 0, interleaved > 0, clients > 0, learners >= 0, !schedulerList.isEmpty
        else {
            throw ValidationError("nothing to measure")
        }
        guard schedulerList.allSatisfy({ ["ladder", "fsrs"].contains($0) }) else {
            throw ValidationError("--schedulers takes ladder and/or fsrs")
        }
        // Before any seeding: a missing server should not cost minutes of seeding first.
        let serverExecutable = try Self.serverExecutable()
        Self.bootstrapLogging(level: "error")
        let store = databaseURL == nil ? "SQLite" : "PostgreSQL"
        print("Smart Flashcards server benchmark (\(store), \(ProcessInfo.processInfo.activeProcessorCount) cores)")
        var results: [Result] = []
        for size in sizes {
            results.append(try await measure(size: size, serverExecutable: serverExecutable))
        }
        if let small = results.first, let large = results.last, results.count > 1 {
            for (smallLoop, largeLoop) in zip(small.loops, large.loops) {
                print(
                    "\(largeLoop.scheduler): p99 latency ratio \(large.size)/\(small.size) cards: "
                        + String(format: "%.2f", largeLoop.p99 / smallLoop.p99))
            }
        }
        let json = try JSONSerialization.data(
            withJSONObject: results.map(\.dictionary), options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    }

    private var schedulerList: [String] {
        schedulers.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The learning loop of one stack.
    struct LoopResult {
        let scheduler: String
        let p50: Double
        let p99: Double
        let nextP50: Double
        let nextP99: Double
        let throughput: Double
        /// The server's CPU time (user + system) per sequential next+rate round trip: steadier on a
        /// shared machine than the latencies.
        let serverCPUms: Double
        /// Round trips/s of `--learners` clients, each its own learner (nil: not measured).
        var learnersThroughput: Double? = nil

        var dictionary: [String: Any] {
            var value: [String: Any] = [
                "scheduler": scheduler, "nextRateP50ms": p50, "nextRateP99ms": p99, "nextP50ms": nextP50,
                "nextP99ms": nextP99, "roundTripsPerSecond": throughput, "serverCPUPerRoundTripMs": serverCPUms,
            ]
            value["learnersRoundTripsPerSecond"] = learnersThroughput
            return value
        }
    }

    /// Quiz questions (`study/quiz`: next card, candidates, distractors) on one stack.
    struct QuizResult {
        let scheduler: String
        let p50: Double
        let p99: Double
        /// The server's CPU time per question.
        let serverCPUms: Double

        var dictionary: [String: Any] {
            ["scheduler": scheduler, "quizP50ms": p50, "quizP99ms": p99, "serverCPUPerQuizMs": serverCPUms]
        }
    }

    /// Next-card alone on both schedulers' stacks, measured in alternating blocks.
    struct Interleaved {
        let ladderP50: Double
        let fsrsP50: Double
        /// The server's CPU time per request.
        let ladderCPUms: Double
        let fsrsCPUms: Double

        var dictionary: [String: Any] {
            [
                "ladderNextP50ms": ladderP50, "fsrsNextP50ms": fsrsP50, "fsrsToLadder": fsrsP50 / ladderP50,
                "ladderServerCPUms": ladderCPUms, "fsrsServerCPUms": fsrsCPUms,
            ]
        }
    }

    struct Result {
        let size: Int
        let seedSeconds: Double
        let loops: [LoopResult]
        let stackSeconds: Double
        let stackBytes: Int
        let peakMB: Double
        let interleaved: Interleaved?
        let quiz: [QuizResult]

        var dictionary: [String: Any] {
            var value: [String: Any] = [
                "cards": size, "seedSeconds": seedSeconds, "loops": loops.map(\.dictionary),
                "compatStackSeconds": stackSeconds, "compatStackBytes": stackBytes, "serverPeakMB": peakMB,
            ]
            value["nextInterleaved"] = interleaved?.dictionary
            value["quiz"] = quiz.map(\.dictionary)
            return value
        }
    }

    /// The `flashcards` executable beside this one: `swift build --product flashcards` (or
    /// `scripts/bench`) puts both in the same bin folder.
    static func serverExecutable() throws -> URL {
        let own = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
            .resolvingSymlinksInPath()
        let server = own.deletingLastPathComponent().appendingPathComponent("flashcards")
        guard FileManager.default.isExecutableFile(atPath: server.path) else {
            throw ServerMissing(path: server.path)
        }
        return server
    }

    /// No `flashcards` beside `flashcards-bench`: a build step is missing, not a wrong option.
    struct ServerMissing: Error, CustomStringConvertible {
        let path: String

        var description: String {
            "the server executable \(path) is missing: build it beside flashcards-bench with "
                + "`swift build --product flashcards` (add `-c release` for a release build, as scripts/bench does)"
        }
    }

    /// Logs of the in-process seeding at `level`; once per process, as the logging system allows.
    static func bootstrapLogging(level: String) {
        var environment = Environment(name: "production", arguments: ["flashcards-bench", "--log", level])
        try? LoggingSystem.bootstrap(from: &environment)
    }

    private func measure(size: Int, serverExecutable: URL) async throws -> Result {
        let environment = Self.environment(name: "bench", databaseURL: databaseURL)
        defer { Self.removeDataDirectory(of: environment) }

        // Seed in-process through the server library.
        let seedStart = Date()
        let configuration = try AppConfiguration(values: environment)
        let app = try await Application.make(Environment(name: "production", arguments: ["flashcards"]))
        var seeded: [(scheduler: String, stack: BenchmarkSeeder.Seeded)] = []
        var learnerStacks: [String: [BenchmarkSeeder.Seeded]] = [:]
        do {
            try await FlashcardsServer.configure(app, configuration: configuration)
            for scheduler in schedulerList {
                seeded.append(
                    (
                        scheduler,
                        try await BenchmarkSeeder.seed(app, cardCount: size, scheduler: scheduler, analyze: false)
                    ))
                for _ in 0..<learners {
                    learnerStacks[scheduler, default: []].append(
                        try await BenchmarkSeeder.seed(app, cardCount: 1_000, scheduler: scheduler, analyze: false))
                }
            }
            try await BenchmarkSeeder.analyze(app)
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
        let seedSeconds = Date().timeIntervalSince(seedStart)

        // Run the server as its own process so its memory is measured alone.
        return try await Self.withServer(serverExecutable, environment: environment) { http, base, pid in
            try await drive(
                http, base: base, seeded: seeded, learners: learnerStacks, size: size, seedSeconds: seedSeconds,
                pid: pid)
        }
    }

    /// The server's environment for a benchmark: a new data folder in the temporary directory
    /// (`flashcards-NAME-…`), or a new schema (`NAME_…`) on `databaseURL`; quick password hashing,
    /// errors only in the log, no reminder loop, no starter catalogue.
    static func environment(name: String, databaseURL: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["FLASHCARDS_DATA_DIR"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("flashcards-\(name)-\(UUID())").path
        environment["FLASHCARDS_BCRYPT_COST"] = "10"
        environment["LOG_LEVEL"] = "error"
        environment["FLASHCARDS_JWT_SECRET"] = String(repeating: "b", count: 40)
        environment["FLASHCARDS_REMINDER_INTERVAL_SECONDS"] = "0"
        // Only the benchmark's own data in the database.
        environment["FLASHCARDS_STARTER_CATALOGUE"] = "0"
        // The learners of a benchmark all sign up from 127.0.0.1.
        environment["FLASHCARDS_SIGNUPS_PER_HOUR"] = "100000"
        if let databaseURL {
            environment["DATABASE_URL"] = databaseURL
            environment["DATABASE_SCHEMA"] = name + "_" + UUID().uuidString.prefix(8).lowercased()
        } else {
            environment.removeValue(forKey: "DATABASE_URL")
        }
        return environment
    }

    /// Removes the data folder `environment(name:databaseURL:)` named.
    static func removeDataDirectory(of environment: [String: String]) {
        if let path = environment["FLASHCARDS_DATA_DIR"] { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Runs `flashcards serve` with `environment` on a free loopback port, hands an HTTP client, the
    /// base URL and the process id to `body`, and stops the server afterwards.
    static func withServer<T>(
        _ executable: URL, environment: [String: String],
        _ body: (HTTPClient, String, Int32) async throws -> T
    ) async throws -> T {
        var environment = environment
        let port = try freePort()
        environment["PORT"] = "\(port)"
        environment["HOST"] = "127.0.0.1"
        let server = Process()
        server.executableURL = executable
        server.arguments = ["serve"]
        server.environment = environment
        server.standardOutput = FileHandle.nullDevice
        if let log = ProcessInfo.processInfo.environment["FLASHCARDS_BENCH_SERVER_LOG"] {
            FileManager.default.createFile(atPath: log, contents: nil)
            server.standardOutput = FileHandle(forWritingAtPath: log)
        }
        try server.run()
        defer {
            if server.isRunning {
                kill(server.processIdentifier, SIGINT)
                server.waitUntilExit()
            }
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let result = try await body(http, "http://127.0.0.1:\(port)", server.processIdentifier)
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func drive(
        _ http: HTTPClient, base: String, seeded: [(scheduler: String, stack: BenchmarkSeeder.Seeded)],
        learners: [String: [BenchmarkSeeder.Seeded]], size: Int, seedSeconds: Double, pid: Int32
    ) async throws -> Result {
        try await Self.waitForHealth(http, base: base)
        var loops: [LoopResult] = []
        var stackTimes: [Double] = []
        var stackBytes = 0
        var nextPaths: [(scheduler: String, path: String, token: String)] = []
        for (scheduler, stack) in seeded {
            var (loop, token) = try await learningLoop(
                http, base: base, seeded: stack, scheduler: scheduler, pid: pid)
            if let own = learners[scheduler], !own.isEmpty {
                loop.learnersThroughput = try await learnersThroughput(
                    http, base: base, learners: own, scheduler: scheduler)
            }
            loops.append(loop)
            nextPaths.append((scheduler, Self.stackPath(base: base, stack), token))
            // The original API's full stack document (ladder, as the original clients see it),
            // three times; the median counts.
            guard scheduler == "ladder" else { continue }
            for _ in 0..<3 {
                let start = Date()
                let body = try await Self.call(
                    http, .GET, base + "/stack/\(stack.stackId.uuidString.lowercased())", token: token, raw: true)
                stackTimes.append(Date().timeIntervalSince(start))
                stackBytes = body.count
            }
        }
        let interleaved = try await interleavedNext(http, nextPaths, pid: pid)
        var quizzes: [QuizResult] = []
        for stack in nextPaths {
            quizzes.append(try await quizLoop(http, stack, pid: pid))
        }
        stackTimes.sort()
        let stackSeconds = stackTimes.isEmpty ? 0 : stackTimes[stackTimes.count / 2]
        let peak = Self.peakMemoryMB(of: pid)
        for loop in loops {
            print(
                String(format: "%7d cards, ", size) + loop.scheduler
                    + String(
                        format:
                            ": next+rate p50 %.2f ms, p99 %.2f ms (server CPU %.2f ms) | next alone p50 %.2f ms, p99 %.2f ms | %d clients: %.0f round trips/s",
                        loop.p50, loop.p99, loop.serverCPUms, loop.nextP50, loop.nextP99, clients, loop.throughput)
                    + (loop.learnersThroughput.map {
                        String(format: " | %d learners: %.0f round trips/s", learners[loop.scheduler]?.count ?? 0, $0)
                    } ?? ""))
        }
        for quiz in quizzes {
            print(
                String(
                    format: "%7d cards, %@: quiz question p50 %.2f ms, p99 %.2f ms (server CPU %.3f ms)", size,
                    quiz.scheduler, quiz.p50, quiz.p99, quiz.serverCPUms))
        }
        if let interleaved {
            print(
                String(
                    format:
                        "%7d cards: next alone, interleaved: ladder p50 %.2f ms (server CPU %.3f ms), fsrs p50 %.2f ms (server CPU %.3f ms), fsrs/ladder p50 %.2f, CPU %.2f",
                    size, interleaved.ladderP50, interleaved.ladderCPUms, interleaved.fsrsP50, interleaved.fsrsCPUms,
                    interleaved.fsrsP50 / interleaved.ladderP50, interleaved.fsrsCPUms / interleaved.ladderCPUms))
        }
        print(
            String(
                format: "%7d cards: seed %.1f s | GET /stack/{id}: %.3f s (%.1f MB) | server peak %.0f MB", size,
                seedSeconds, stackSeconds, Double(stackBytes) / 1e6, peak))
        return Result(
            size: size, seedSeconds: seedSeconds, loops: loops, stackSeconds: stackSeconds, stackBytes: stackBytes,
            peakMB: peak, interleaved: interleaved, quiz: quizzes)
    }

    /// `quiz` quiz questions in a row on one stack (after 50 unmeasured ones): latency and the
    /// server's CPU per question. Nothing is rated, so every question asks the same card; its
    /// candidates are read anew each time.
    private func quizLoop(
        _ http: HTTPClient, _ stack: (scheduler: String, path: String, token: String), pid: Int32
    ) async throws -> QuizResult {
        var latencies: [Double] = []
        var cpuStart = 0.0
        let warmUp = 50
        for index in 0..<(max(1, quiz) + warmUp) {
            if index == warmUp { cpuStart = Self.cpuSeconds(of: pid) }
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try await Self.call(http, .GET, stack.path + "/study/quiz", token: stack.token)
            if index >= warmUp { latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
        }
        let (p50, p99) = Self.percentiles(latencies)
        return QuizResult(
            scheduler: stack.scheduler, p50: p50, p99: p99,
            serverCPUms: (Self.cpuSeconds(of: pid) - cpuStart) * 1_000 / Double(latencies.count))
    }

    /// Next-card alone on the ladder and the FSRS stack in alternating blocks, so that both meet the
    /// same machine state (the first loop of a process runs slower, and the load of a shared machine
    /// drifts): the fair comparison of the two schedulers. nil unless both were measured.
    private func interleavedNext(
        _ http: HTTPClient, _ stacks: [(scheduler: String, path: String, token: String)], pid: Int32
    ) async throws -> Interleaved? {
        guard let ladder = stacks.first(where: { $0.scheduler == "ladder" }),
            let fsrs = stacks.first(where: { $0.scheduler == "fsrs" })
        else { return nil }
        var latencies: [String: [Double]] = [:]
        var cpuSeconds: [String: Double] = [:]
        let block = 100
        for round in 0..<max(1, interleaved / block) {
            // Alternate which goes first, so neither always follows the other.
            for stack in round.isMultiple(of: 2) ? [ladder, fsrs] : [fsrs, ladder] {
                let cpuStart = Self.cpuSeconds(of: pid)
                for _ in 0..<block {
                    let start = DispatchTime.now().uptimeNanoseconds
                    _ = try await Self.call(http, .GET, stack.path + "/study/next", token: stack.token)
                    latencies[stack.scheduler, default: []].append(
                        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
                cpuSeconds[stack.scheduler, default: 0] += Self.cpuSeconds(of: pid) - cpuStart
            }
        }
        let requests = Double(latencies["ladder"]!.count)
        return Interleaved(
            ladderP50: Self.percentiles(latencies["ladder"]!).0, fsrsP50: Self.percentiles(latencies["fsrs"]!).0,
            ladderCPUms: cpuSeconds["ladder"]! * 1_000 / requests, fsrsCPUms: cpuSeconds["fsrs"]! * 1_000 / requests)
    }

    private static func stackPath(base: String, _ seeded: BenchmarkSeeder.Seeded) -> String {
        base + "/api/v1/stacks/\(seeded.stackId.uuidString.lowercased())"
    }

    /// Sequential round trips for the latency figures, then `clients` concurrent loops for the
    /// throughput, on one seeded stack. Ladder stacks are rated Schwer and FSRS stacks Nochmal, so
    /// the rated card comes back within minutes and even a 1,000-card stack never runs dry.
    private func learningLoop(
        _ http: HTTPClient, base: String, seeded: BenchmarkSeeder.Seeded, scheduler: String, pid: Int32
    ) async throws -> (LoopResult, String) {
        let rating: RatingKey = scheduler == "fsrs" ? .again : .hard
        let token = try await Self.signIn(http, base: base, seeded)
        let stackPath = Self.stackPath(base: base, seeded)

        // Warm-up, then sequential round trips for latency.
        var latencies: [Double] = []
        latencies.reserveCapacity(roundTrips)
        var cpuStart = 0.0
        for index in 0..<(roundTrips + warmUp) {
            if index == warmUp { cpuStart = Self.cpuSeconds(of: pid) }
            let start = DispatchTime.now().uptimeNanoseconds
            try await Self.nextAndRate(http, stackPath: stackPath, token: token, rating: rating)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            if index >= warmUp { latencies.append(elapsed) }
        }
        let serverCPUms = (Self.cpuSeconds(of: pid) - cpuStart) * 1_000 / Double(roundTrips)
        let (p50, p99) = Self.percentiles(latencies)

        // Next-card alone (what a client asks when a session opens), read-only.
        var nextLatencies: [Double] = []
        for _ in 0..<roundTrips {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try await Self.call(http, .GET, stackPath + "/study/next", token: token)
            nextLatencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        let (nextP50, nextP99) = Self.percentiles(nextLatencies)

        // Throughput: concurrent clients looping for a fixed time.
        let throughput = try await Self.roundTripsPerSecond(
            http, sessions: Array(repeating: (stackPath, token), count: clients), rating: rating, seconds: seconds)
        return (
            LoopResult(
                scheduler: scheduler, p50: p50, p99: p99, nextP50: nextP50, nextP99: nextP99, throughput: throughput,
                serverCPUms: serverCPUms),
            token
        )
    }

    /// Round trips/s of one client per learner, each on their own stack, looping for `seconds`: a
    /// school's load, where the `clients` of `learningLoop` are one learner whose requests all
    /// meet on the same first card.
    private func learnersThroughput(
        _ http: HTTPClient, base: String, learners: [BenchmarkSeeder.Seeded], scheduler: String
    ) async throws -> Double {
        let rating: RatingKey = scheduler == "fsrs" ? .again : .hard
        var sessions: [(path: String, token: String)] = []
        for learner in learners {
            let session = (Self.stackPath(base: base, learner), try await Self.signIn(http, base: base, learner))
            // A few unmeasured round trips each: every learner's first requests fill caches.
            for _ in 0..<3 { try await Self.nextAndRate(http, stackPath: session.0, token: session.1, rating: rating) }
            sessions.append(session)
        }
        return try await Self.roundTripsPerSecond(http, sessions: sessions, rating: rating, seconds: seconds)
    }

    /// Round trips/s of one client per session (a stack's path and a token), each looping next+rate
    /// for `seconds`.
    private static func roundTripsPerSecond(
        _ http: HTTPClient, sessions: [(path: String, token: String)], rating: RatingKey, seconds: Double
    ) async throws -> Double {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        let start = Date()
        let completed = try await withThrowingTaskGroup(of: Int.self) { group in
            for session in sessions {
                group.addTask {
                    var done = 0
                    while DispatchTime.now().uptimeNanoseconds < deadline {
                        try await Self.nextAndRate(http, stackPath: session.path, token: session.token, rating: rating)
                        done += 1
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(completed) / Date().timeIntervalSince(start)
    }

    /// Signs the seeded learner in: their token.
    private static func signIn(_ http: HTTPClient, base: String, _ seeded: BenchmarkSeeder.Seeded) async throws
        -> String
    {
        let login = try await call(
            http, .POST, base + "/api/v1/auth/login",
            body: try JSONEncoder().encode(LoginRequest(mail: seeded.mail, password: seeded.password)))
        return try FlashcardsJSON.makeDecoder().decode(AuthResponse.self, from: login).token
    }

    /// p50 and p99 of `values`.
    static func percentiles(_ values: [Double]) -> (Double, Double) {
        let sorted = values.sorted()
        return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))])
    }

    private static func nextAndRate(_ http: HTTPClient, stackPath: String, token: String, rating: RatingKey)
        async throws
    {
        let next = try FlashcardsJSON.makeDecoder().decode(
            StudyNextResponse.self, from: try await Self.call(http, .GET, stackPath + "/study/next", token: token))
        guard let card = next.card else { throw ValidationError("no due card left to rate") }
        _ = try await Self.call(
            http, .POST, stackPath + "/study/rate", token: token,
            body: try JSONEncoder().encode(RateRequest(cardId: card.id, rating: rating)))
    }

    static func call(
        _ http: HTTPClient, _ method: NIOHTTP1.HTTPMethod, _ url: String, token: String? = nil, body: Data? = nil,
        raw: Bool = false
    ) async throws -> Data {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: raw ? token : "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: body))
        }
        let response = try await http.execute(request, timeout: .seconds(60))
        let buffer = try await response.body.collect(upTo: 512 * 1024 * 1024)
        guard response.status.code < 300 else {
            throw ValidationError("\(method) \(url) answered \(response.status.code): \(String(buffer: buffer))")
        }
        return Data(buffer.readableBytesView)
    }

    static func waitForHealth(_ http: HTTPClient, base: String) async throws {
        for _ in 0..<300 {
            if (try? await Self.call(http, .GET, base + "/api/v1/health")) != nil { return }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw ValidationError("server did not start")
    }

    static func freePort() throws -> Int {
        // Bind port 0, read the port the kernel chose, release it for the server.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
            }
        }
        guard bound else { throw ValidationError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The CPU seconds all threads of `pid` have run so far (Linux `/proc`; 0 elsewhere): the
    /// scheduler's nanoseconds (`/proc/PID/task/*/schedstat`), else user plus system clock ticks of
    /// `/proc/PID/stat` (10 ms each, a tenth of a 100-request block of next-card).
    static func cpuSeconds(of pid: Int32) -> Double {
        if let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
            let nanoseconds = threads.compactMap { thread -> Double? in
                let line = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/schedstat", encoding: .utf8)
                return line?.split(separator: " ").first.flatMap { Double($0) }
            }
            if !nanoseconds.isEmpty { return nanoseconds.reduce(0, +) / 1e9 }
        }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        // Fields after the command name: state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// VmHWM of a process: its peak resident memory.
    static func peakMemoryMB(of pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kb = line.split(separator: " ").compactMap { Double($0) }.first ?? -1
            return kb / 1024
        }
        return -1
    }
}

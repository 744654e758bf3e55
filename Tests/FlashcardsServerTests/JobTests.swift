import FlashcardsAPI
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// Counts how often each job ran, across workers.
final class RunCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [UUID: Int] = [:]

    func hit(_ id: UUID) { lock.withLock { counts[id, default: 0] += 1 } }
    var all: [UUID: Int] { lock.withLock { counts } }
}

/// Reports three steps of progress and echoes its input.
struct EchoHandler: JobHandler {
    static let kind = "test-echo"
    let counter: RunCounter

    struct Input: Codable { let text: String }

    func run(_ job: JobContext) async throws -> String? {
        counter.hit(job.id)
        let input = try job.payload(Input.self)
        for step in 1...3 {
            try await job.report(
                JobProgressDTO(stage: "working", current: step, total: 3, message: "Schritt \(step) von 3"))
        }
        if input.text == "fail" { throw JobFailure("Absichtlich fehlgeschlagen.") }
        return #"{"echo":"\#(input.text)"}"#
    }
}

/// Reports progress until it is cancelled.
struct EndlessHandler: JobHandler {
    static let kind = "test-endless"

    func run(_ job: JobContext) async throws -> String? {
        var step = 0
        while true {
            step += 1
            try await job.report(JobProgressDTO(stage: "working", current: step, message: "Schritt \(step)"))
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}

func waitForJob(_ app: Application, _ id: UUID, timeout: TimeInterval = 20) async throws -> JobModel {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if let job = try await JobModel.find(id, on: app.db), JobStatus(rawValue: job.status)?.isFinished == true {
            return job
        }
        try await Task.sleep(nanoseconds: 50_000_000)
    }
    throw JobFailure("job \(id) did not finish in time")
}

@Suite("Background jobs")
struct JobTests {
    @Test(
        "a queued job runs once, reports progress, and its result and failures are kept",
        arguments: TestDatabase.available)
    func runs(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(2)) { app in
            let counter = RunCounter()
            app.jobs.register(EchoHandler(counter: counter))
            let token = try await app.compatSignup()
            let user = try #require(try await UserModel.query(on: app.db).first())
            let queue = JobQueue(store: app.studyStore(on: app.db), now: Date())
            let ok = try await queue.enqueue(
                kind: EchoHandler.kind, userId: user.id!, payload: EchoHandler.Input(text: "hallo"))
            let bad = try await queue.enqueue(
                kind: EchoHandler.kind, userId: user.id!, payload: EchoHandler.Input(text: "fail"))
            let done = try await waitForJob(app, ok.id!)
            #expect(done.status == "succeeded")
            #expect(done.result == #"{"echo":"hallo"}"#)
            #expect(try done.dto.progress.message == "Schritt 3 von 3")
            let failed = try await waitForJob(app, bad.id!)
            #expect(failed.status == "failed")
            #expect(failed.error == "Absichtlich fehlgeschlagen.")
            #expect(counter.all[ok.id!] == 1)

            // The owner reads it over the API; someone else gets a 404.
            try await app.testing().test(.GET, "api/v1/jobs/\(ok.id!)", headers: bearerHeaders(token)) { res in
                #expect(res.status == .ok)
                let job = try res.decoded(JobDTO.self)
                #expect(job.status == "succeeded")
                #expect(job.progress.current == 3)
            }
            let other = try await app.compatSignup(name: "Eve", mail: "eve@example.org")
            try await app.testing().test(.GET, "api/v1/jobs/\(ok.id!)", headers: bearerHeaders(other)) { res in
                #expect(res.status == .notFound)
            }
            // The event stream of a finished job sends it once and ends.
            try await app.testing(method: .running(port: 0)).test(
                .GET, "api/v1/jobs/\(ok.id!)/events", headers: bearerHeaders(token)
            ) { res in
                #expect(res.status == .ok)
                #expect(res.headers.contentType?.description.contains("text/event-stream") == true)
                let text = res.body.string
                #expect(text.hasPrefix("event: progress\ndata: {"))
                #expect(text.contains(#""status":"succeeded""#))
            }
        }
    }

    @Test("cancelling stops a running job and a queued one at once", arguments: TestDatabase.available)
    func cancel(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(2)) { app in
            app.jobs.register(EndlessHandler())
            let token = try await app.compatSignup()
            let user = try #require(try await UserModel.query(on: app.db).first())
            let job = try await JobQueue(store: app.studyStore(on: app.db), now: Date())
                .enqueue(kind: EndlessHandler.kind, userId: user.id!, payload: ["x": 1])
            // Wait until it runs.
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, try await JobModel.find(job.id!, on: app.db)?.status != "running" {
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            try await app.testing().test(.POST, "api/v1/jobs/\(job.id!)/cancel", headers: bearerHeaders(token)) { res in
                #expect(res.status == .ok)
            }
            let finished = try await waitForJob(app, job.id!)
            #expect(finished.status == "cancelled")
        }
    }

    @Test("two workers on one database run every job exactly once", arguments: TestDatabase.available)
    func exclusiveClaims(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(0)) { app in
            let counter = RunCounter()
            app.jobs.register(EchoHandler(counter: counter))
            _ = try await app.compatSignup()
            let user = try #require(try await UserModel.query(on: app.db).first())
            let queue = JobQueue(store: app.studyStore(on: app.db), now: Date())
            var ids: [UUID] = []
            for index in 0..<20 {
                ids.append(
                    try await queue.enqueue(
                        kind: EchoHandler.kind, userId: user.id!, payload: EchoHandler.Input(text: "\(index)")
                    ).id!)
            }
            // Two workers as two server instances would have, each with two loops.
            let first = JobWorker(application: app, pollInterval: 0.01)
            let second = JobWorker(application: app, pollInterval: 0.01)
            first.start(slots: 2)
            second.start(slots: 2)
            for id in ids { _ = try await waitForJob(app, id) }
            await first.stop()
            await second.stop()
            #expect(counter.all.count == 20)
            #expect(counter.all.values.allSatisfy { $0 == 1 })
            #expect(try await JobModel.query(on: app.db).filter(\.$status == "succeeded").count() == 20)
        }
    }

    @Test("a job whose worker died is taken over when its lease runs out", arguments: TestDatabase.available)
    func expiredLease(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(0)) { app in
            let counter = RunCounter()
            app.jobs.register(EchoHandler(counter: counter))
            _ = try await app.compatSignup()
            let user = try #require(try await UserModel.query(on: app.db).first())
            let job = try await JobQueue(store: app.studyStore(on: app.db), now: Date())
                .enqueue(kind: EchoHandler.kind, userId: user.id!, payload: EchoHandler.Input(text: "again"))
            // Another instance claimed it and died: running, locked, lease over.
            job.status = "running"
            job.lockedBy = "worker-dead"
            job.lockedUntil = Date().addingTimeInterval(-1)
            job.attempts = 1
            try await job.save(on: app.db)
            // A live lease is respected.
            let other = try await JobQueue(store: app.studyStore(on: app.db), now: Date())
                .enqueue(kind: EchoHandler.kind, userId: user.id!, payload: EchoHandler.Input(text: "busy"))
            other.status = "running"
            other.lockedBy = "worker-alive"
            other.lockedUntil = Date().addingTimeInterval(600)
            try await other.save(on: app.db)

            let worker = JobWorker(application: app)
            #expect(try await worker.runOnce())
            #expect(try await worker.runOnce() == false)
            let finished = try #require(try await JobModel.find(job.id!, on: app.db))
            #expect(finished.status == "succeeded")
            #expect(finished.attempts == 2)
            #expect(try await JobModel.find(other.id!, on: app.db)?.status == "running")
        }
    }

    @Test("queued jobs survive a restart and run on the next start")
    func survivesRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flashcards-jobs-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = AppConfiguration()
        configuration.dataDirectory = directory.path
        configuration.bcryptCost = 4
        configuration.publicDirectory = publicDirectory
        configuration.jobWorkers = 0
        var jobId: UUID?
        let counter = RunCounter()
        for round in 0..<2 {
            let app = try await Application.make(.testing)
            do {
                try await configure(app, configuration: configuration)
                app.jobs.register(EchoHandler(counter: counter))
                if round == 0 {
                    _ = try await app.compatSignup()
                    let user = try #require(try await UserModel.query(on: app.db).first())
                    jobId = try await JobQueue(store: app.studyStore(on: app.db), now: Date())
                        .enqueue(kind: EchoHandler.kind, userId: user.id!, payload: EchoHandler.Input(text: "later")).id
                } else {
                    app.jobWorker.start(slots: 1)
                    let job = try await waitForJob(app, try #require(jobId))
                    #expect(job.status == "succeeded")
                }
            } catch {
                try? await app.asyncShutdown()
                throw error
            }
            try await app.asyncShutdown()
            configuration.jobWorkers = 0
        }
        #expect(counter.all[try #require(jobId)] == 1)
    }
}

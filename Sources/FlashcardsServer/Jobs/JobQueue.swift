import FlashcardsAPI
import Fluent
import Foundation
import SQLKit
import Vapor

// Persisted background jobs.
//
// How to add a kind of job:
// 1. Write a handler: `struct MyHandler: JobHandler { static let kind = "my-kind"; func run(_ job: JobContext) async throws -> String? }`.
//    Read input with `try job.payload(MyInput.self)` (and `job.input()` for uploaded bytes);
//    report progress with `try await job.report(JobProgressDTO(...))`, which also renews the
//    lease and throws `CancellationError` once the user cancelled; return the result as JSON text
//    (or nil). Throw `JobFailure("German message")` for a failure the user should read.
// 2. Register it in `configure.swift`: `app.jobs.register(MyHandler())`.
// 3. Enqueue with `try await JobQueue(store: req.studyStore, now: req.now).enqueue(kind:userId:payload:input:)`;
//    any instance's worker runs it (`JobWorker`), or run it inline with `app.jobs.runNow(id:)`.

/// A failure the user should see, with a German message and a stable code.
struct JobFailure: Error, Sendable {
    let message: String
    let code: String
    /// Whether the user's input is at fault (a 4xx where a route waits for the job).
    let userError: Bool
    /// Where and why, as JSON for programs (stored as the failed job's `result`).
    let detail: String?

    init(_ message: String, code: String = "job_failed", userError: Bool = true, detail: String? = nil) {
        self.message = message
        self.code = code
        self.userError = userError
        self.detail = detail
    }
}

/// Runs one kind of job.
protocol JobHandler: Sendable {
    /// The `kind` value this handler runs.
    static var kind: String { get }
    /// Does the work; returns the result as JSON text (or nil).
    func run(_ job: JobContext) async throws -> String?
}

/// What a running handler sees: its job, the database, and progress reporting.
struct JobContext: Sendable {
    let id: UUID
    let userId: UUID
    let payloadJSON: String
    let db: any Database
    let application: Application
    let workerId: String

    /// The store over the job's database.
    var store: any StudyStore { application.studyStore(on: db) }
    let lease: TimeInterval
    let now: @Sendable () -> Date

    /// Decodes the job's input.
    func payload<T: Decodable>(_ type: T.Type) throws -> T {
        try FlashcardsJSON.makeDecoder().decode(T.self, from: Data(payloadJSON.utf8))
    }

    /// The uploaded bytes of the job, if any.
    func input() async throws -> Data? {
        try await JobInputModel.find(id, on: db)?.data
    }

    /// Stores progress, renews the lease, and throws `CancellationError` when the user cancelled.
    func report(_ progress: JobProgressDTO) async throws {
        let json = String(decoding: try FlashcardsJSON.makeEncoder().encode(progress), as: UTF8.self)
        let cancelRequested = try await store.jobs.report(
            id, lockedBy: workerId, progress: json, now: now(), lease: lease)
        // No row: another worker took the job over after our lease ran out. Stop quietly.
        guard let cancelRequested, !cancelRequested else { throw CancellationError() }
        try Task.checkCancellation()
    }
}

/// Enqueues, reads and cancels jobs.
struct JobQueue {
    let store: any StudyStore
    let now: Date

    private var db: any Database { store.db }

    /// Queues a job; `input` (an upload) is stored with it so any instance can run it.
    func enqueue<P: Encodable & Sendable>(kind: String, userId: UUID, payload: P, input: Data? = nil) async throws
        -> JobModel
    {
        let now = self.now
        return try await store.modelTransaction { tx in
            try await Self.enqueue(kind: kind, userId: userId, payload: payload, input: input, now: now, in: tx)
        }
    }

    /// Queues a job in the write transaction `tx` (one that writes more than the job).
    static func enqueue<P: Encodable>(
        kind: String, userId: UUID, payload: P, input: Data? = nil, now: Date, in tx: any ModelTransaction
    ) async throws -> JobModel {
        let job = JobModel()
        job.id = UUID()
        job.userId = userId
        job.kind = kind
        job.status = JobStatus.queued.rawValue
        job.payload = String(decoding: try FlashcardsJSON.makeEncoder().encode(payload), as: UTF8.self)
        job.progress = String(decoding: try FlashcardsJSON.makeEncoder().encode(JobProgressDTO.queued), as: UTF8.self)
        job.attempts = 0
        job.cancelRequested = false
        job.createdAt = now
        job.updatedAt = now
        try await job.create(on: tx.db)
        if let input { try await JobInputModel(jobId: job.id!, data: input).create(on: tx.db) }
        return job
    }

    /// The caller's job with this id.
    func find(_ id: String?, userId: UUID) async throws -> JobModel {
        guard let id = id.flatMap(UUID.init(uuidString:)),
            let job = try await JobModel.query(on: db).filter(\.$id == id).filter(\.$userId == userId).first()
        else { throw AppError.notFound("Auftrag nicht gefunden.", code: "job_not_found") }
        return job
    }

    /// Asks a job to stop: a queued job is cancelled at once, a running one at its next report.
    func cancel(_ job: JobModel) async throws -> JobModel {
        let status = try job.jobStatus
        guard !status.isFinished else { return job }
        job.cancelRequested = true
        if status == .queued {
            job.status = JobStatus.cancelled.rawValue
            job.finishedAt = now
            job.progress = try Self.progressJSON(JobProgressDTO(stage: "cancelled", message: "Abgebrochen."))
        }
        job.updatedAt = now
        try await job.save(on: db)
        return job
    }

    static func progressJSON(_ progress: JobProgressDTO) throws -> String {
        String(decoding: try FlashcardsJSON.makeEncoder().encode(progress), as: UTF8.self)
    }
}

extension JobModel {
    /// The wire form.
    var dto: JobDTO {
        get throws {
            let progress: JobProgressDTO
            do {
                progress = try FlashcardsJSON.makeDecoder().decode(JobProgressDTO.self, from: Data(self.progress.utf8))
            } catch {
                throw UnknownStoredValue(column: "jobs.progress", value: self.progress)
            }
            return JobDTO(
                id: id!, kind: kind, status: status, progress: progress, result: result, error: error,
                errorCode: errorCode.map { $0.hasPrefix("user:") ? String($0.dropFirst(5)) : $0 },
                createdAt: createdAt, updatedAt: updatedAt)
        }
    }
}

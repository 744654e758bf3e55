import FlashcardsAPI
import Fluent
import Foundation
import SQLKit
import Vapor

/// The handlers this server can run, by kind.
final class JobRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [String: any JobHandler] = [:]

    /// Adds a handler for its kind.
    func register<H: JobHandler>(_ handler: H) {
        lock.withLock { handlers[H.kind] = handler }
    }

    /// The kinds of job this server runs, sorted.
    var kinds: [String] { lock.withLock { handlers.keys.sorted() } }

    func handler(for kind: String) -> (any JobHandler)? {
        lock.withLock { handlers[kind] }
    }
}

/// Claims and runs jobs. Every server instance runs one; claiming is a conditional
/// `UPDATE … RETURNING` on the job row, so two instances never run the same job, and an
/// instance that dies leaves a lease that runs out, after which another instance takes over.
final class JobWorker: @unchecked Sendable {
    let application: Application
    let id: String
    let lease: TimeInterval
    let pollInterval: TimeInterval
    let maxAttempts = 3
    private let lock = NSLock()
    private var loops: [Task<Void, Never>] = []

    init(application: Application, lease: TimeInterval = 60, pollInterval: TimeInterval = 0.25) {
        self.application = application
        self.id = "worker-" + UUID().uuidString.prefix(8).lowercased()
        self.lease = lease
        self.pollInterval = pollInterval
    }

    /// Starts `slots` loops that poll for work.
    func start(slots: Int) {
        lock.withLock {
            for _ in 0..<slots {
                loops.append(
                    Task { [self] in
                        while !Task.isCancelled {
                            let worked = (try? await runOnce()) ?? false
                            if !worked { try? await Task.sleep(nanoseconds: UInt64(pollInterval * 1e9)) }
                        }
                    })
            }
        }
    }

    /// Stops the loops; jobs they were running go back to the queue at once.
    func stop() async {
        let running = lock.withLock {
            let current = loops
            loops = []
            return current
        }
        for loop in running { loop.cancel() }
        for loop in running { await loop.value }
        try? await jobStore.release(lockedBy: id)
    }

    private var jobStore: JobStore { application.studyStore(on: application.db).jobs }

    private var now: Date { application.serverEnvironment.now() }

    /// Claims the oldest runnable job, if any, and runs it to the end. Returns whether it ran one.
    @discardableResult
    func runOnce() async throws -> Bool {
        guard let claimed = try await claim() else { return false }
        await run(claimed)
        return true
    }

    /// Runs the job with this id now, in the caller's task, if it can be claimed.
    func runNow(id jobId: UUID) async throws {
        guard let claimed = try await claim(only: jobId) else { return }
        await run(claimed)
    }

    private func claim(only jobId: UUID? = nil) async throws -> JobStore.Claimed? {
        try await jobStore.claim(by: id, now: now, lease: lease, only: jobId)
    }

    private func run(_ claimed: JobStore.Claimed) async {
        let logger = application.logger
        guard claimed.attempts <= maxAttempts else {
            await finish(
                claimed.id, status: .failed, error: "Der Auftrag ist mehrfach abgebrochen und wurde aufgegeben.")
            return
        }
        guard let handler = application.jobs.handler(for: claimed.kind) else {
            await finish(claimed.id, status: .failed, error: "Unbekannte Auftragsart \(claimed.kind).")
            return
        }
        let environment = application.serverEnvironment
        let context = JobContext(
            id: claimed.id, userId: claimed.userId, payloadJSON: claimed.payload, db: application.db,
            application: application, workerId: id, lease: lease, now: environment.now)
        do {
            let result = try await handler.run(context)
            await finish(claimed.id, status: .succeeded, result: result)
        } catch is CancellationError {
            // Cancelled by the user (the flag is set) or by shutdown / a lost lease (it is not).
            if (try? await JobModel.find(claimed.id, on: application.db))?.cancelRequested == true {
                await finish(
                    claimed.id, status: .cancelled,
                    progress: JobProgressDTO(stage: "cancelled", message: "Abgebrochen."))
            }
        } catch let failure as JobFailure {
            await finish(
                claimed.id, status: .failed, result: failure.detail, error: failure.message,
                errorCode: (failure.userError ? "user:" : "") + failure.code)
        } catch {
            logger.error("job \(claimed.id) (\(claimed.kind)) failed: \(String(reflecting: error))")
            await finish(
                claimed.id, status: .failed, error: "Der Auftrag ist fehlgeschlagen. Bitte versuche es erneut.")
        }
    }

    private func finish(
        _ jobId: UUID, status: JobStatus, result: String? = nil, error: String? = nil, errorCode: String? = nil,
        progress: JobProgressDTO? = nil
    ) async {
        var ending = JobStore.Ending(status: status, result: result, error: error, errorCode: errorCode)
        if let error {
            ending.progress = try? JobQueue.progressJSON(JobProgressDTO(stage: "failed", message: error))
        }
        if let progress, let json = try? JobQueue.progressJSON(progress) { ending.progress = json }
        do {
            try await jobStore.finish(jobId, lockedBy: id, ending, now: now)
        } catch {
            application.logger.error("could not finish job \(jobId): \(String(reflecting: error))")
        }
    }
}

extension Application {
    private struct JobRegistryKey: StorageKey { typealias Value = JobRegistry }
    private struct JobWorkerKey: StorageKey { typealias Value = JobWorker }

    /// The registered job handlers.
    var jobs: JobRegistry {
        if let registry = storage[JobRegistryKey.self] { return registry }
        let registry = JobRegistry()
        storage[JobRegistryKey.self] = registry
        return registry
    }

    /// This instance's worker.
    var jobWorker: JobWorker {
        if let worker = storage[JobWorkerKey.self] { return worker }
        let worker = JobWorker(application: self)
        storage[JobWorkerKey.self] = worker
        return worker
    }
}

/// Stops the worker when the application shuts down.
struct JobWorkerLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        await application.jobWorker.stop()
    }
}

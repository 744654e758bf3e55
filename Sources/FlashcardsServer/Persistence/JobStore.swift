import Foundation
import SQLKit

/// The statements of the persisted job queue (`JobWorker`, `JobContext`) and of what jobs write
/// row by row (a generated hint, a sent reset mail). They run through the driver: the worker polls,
/// and a claim is a write that must not run on an inline reader. The claim is the dialect's
/// (`FOR UPDATE SKIP LOCKED` on PostgreSQL).
struct JobStore {
    let sql: any SQLDatabase
    /// Appended to the claiming `SELECT … LIMIT 1` (`StudyStore.skipLockedClause`).
    let skipLocked: SQLQueryString

    /// A job a worker claimed.
    struct Claimed {
        let id: UUID
        let userId: UUID
        let kind: String
        let payload: String
        let attempts: Int
    }

    /// Claims the oldest runnable job (queued, or running with a lease past `now`; only `jobId` when
    /// given) for `workerId` until `now + lease`.
    func claim(by workerId: String, now: Date, lease: TimeInterval, only jobId: UUID?) async throws -> Claimed? {
        let only: SQLQueryString = jobId.map { "AND id = \(bind: $0) " } ?? ""
        let query: SQLQueryString = """
            UPDATE jobs SET status = 'running', locked_by = \(bind: workerId), locked_until = \(bind: now.addingTimeInterval(lease)),
              attempts = attempts + 1, updated_at = \(bind: now)
            WHERE id = (
              SELECT id FROM jobs
              WHERE (status = 'queued' OR (status = 'running' AND locked_until < \(bind: now))) \(only)
              ORDER BY created_at LIMIT 1\(skipLocked)
            )
            AND (status = 'queued' OR (status = 'running' AND locked_until < \(bind: now)))
            RETURNING id, user_id, kind, payload, attempts
            """
        guard let row = try await sql.raw(query).first() else { return nil }
        return Claimed(
            id: try row.decode(column: "id", as: UUID.self), userId: try row.decode(column: "user_id", as: UUID.self),
            kind: try row.decode(column: "kind", as: String.self),
            payload: try row.decode(column: "payload", as: String.self),
            attempts: try row.decode(column: "attempts", as: Int.self))
    }

    /// Puts the running jobs of `workerId` back in the queue.
    func release(lockedBy workerId: String) async throws {
        try await sql.update("jobs")
            .set("status", to: JobStatus.queued.rawValue)
            .set(SQLIdentifier("locked_by"), to: SQLLiteral.null)
            .set(SQLIdentifier("locked_until"), to: SQLLiteral.null)
            .where("locked_by", .equal, workerId)
            .where("status", .equal, JobStatus.running.rawValue)
            .run()
    }

    /// How a job ended.
    struct Ending {
        var status: JobStatus
        var result: String?
        var error: String?
        var errorCode: String?
        /// The final progress as JSON.
        var progress: String?
    }

    /// Ends job `jobId`, if `workerId` still holds it.
    func finish(_ jobId: UUID, lockedBy workerId: String, _ ending: Ending, now: Date) async throws {
        var update = sql.update("jobs")
            .set("status", to: ending.status.rawValue)
            .set("updated_at", to: now)
            .set("finished_at", to: now)
            .set(SQLIdentifier("locked_until"), to: SQLLiteral.null)
        if let result = ending.result { update = update.set("result", to: result) }
        if let errorCode = ending.errorCode { update = update.set("error_code", to: errorCode) }
        if let error = ending.error { update = update.set("error", to: error) }
        if let progress = ending.progress { update = update.set("progress", to: progress) }
        try await update.where("id", .equal, jobId).where("locked_by", .equal, workerId).run()
    }

    /// Stores a running job's progress (JSON) and renews its lease; answers whether the user asked
    /// it to stop, nil when `workerId` no longer holds it.
    func report(_ jobId: UUID, lockedBy workerId: String, progress: String, now: Date, lease: TimeInterval)
        async throws -> Bool?
    {
        let rows = try await sql.update("jobs")
            .set("progress", to: progress)
            .set("updated_at", to: now)
            .set("locked_until", to: now.addingTimeInterval(lease))
            .where("id", .equal, jobId)
            .where("locked_by", .equal, workerId)
            .returning("cancel_requested")
            .all()
        guard let row = rows.first else { return nil }
        return try row.decode(column: "cancel_requested", as: Bool.self)
    }

    /// Empties a job's payload (a sealed reset token, once it is no longer needed).
    func clearPayload(of jobId: UUID) async throws {
        try await sql.update("jobs").set("payload", to: "{}").where("id", .equal, jobId).run()
    }

    /// A reset link as its mail job checks it.
    struct PasswordReset {
        let expiresAt: Date
        let spent: Bool
    }

    /// Reset link `id` of `userId`'s.
    func passwordReset(_ id: UUID, of userId: UUID) async throws -> PasswordReset? {
        guard
            let row = try await sql.select()
                .columns("user_id", "expires_at", "used_at")
                .from("password_resets")
                .where("id", .equal, id)
                .where("user_id", .equal, userId)
                .first()
        else { return nil }
        return PasswordReset(
            expiresAt: try row.decode(column: "expires_at", as: Date.self),
            spent: try !row.decodeNil(column: "used_at"))
    }

    /// Stores a generated hint on card `cardId`, only while the card has none (the learner may
    /// have written one meanwhile).
    func setGeneratedHint(_ hint: String, searchText: String, onCard cardId: Int) async throws {
        try await sql.update("cards")
            .set("hint", to: hint)
            .set("hint_source", to: "generated")
            .set("search_text", to: searchText)
            .where("id", .equal, cardId)
            .where(SQLColumn("hint"), .is, SQLLiteral.null)
            .where(SQLColumn("hint_source"), .is, SQLLiteral.null)
            .run()
    }

    /// What the automatic re-optimization needs to know (`OptimizeTrigger`): whether an `optimize` job
    /// of the user is queued or running, and since when reviews are new to the parameters (the later
    /// of the last optimize job's creation and the parameters' fitting time).
    func optimizeState(of userId: UUID) async throws -> (active: Bool, since: Date?) {
        struct Row: Decodable {
            let active: Int?
            let last: Date?
        }
        let row = try await sql.raw(
            """
            SELECT SUM(CASE WHEN status IN ('queued', 'running') THEN 1 ELSE 0 END) AS active, MAX(created_at) AS last
            FROM jobs WHERE user_id = \(bind: userId) AND kind = 'optimize'
            """
        ).first(decoding: Row.self)
        struct Fitted: Decodable { let optimized_at: Date }
        let fitted = try await sql.raw(
            "SELECT optimized_at FROM scheduler_parameters WHERE user_id = \(bind: userId)"
        ).first(decoding: Fitted.self)
        let since = [row?.last, fitted?.optimized_at].compactMap { $0 }.max()
        return ((row?.active ?? 0) > 0, since)
    }

    /// The user's reviews (not undo entries) made at or after `since` (all when nil). By review time:
    /// reviews synced late from an offline device count by when they were made.
    func reviewCount(of userId: UUID, since: Date?) async throws -> Int {
        try await reviewCount(of: userId, where: since.map { "AND reviewed_at >= \(bind: $0)" } ?? "")
    }

    /// The user's reviews (not undo entries) made before `date`.
    func reviewCount(of userId: UUID, before date: Date) async throws -> Int {
        try await reviewCount(of: userId, where: "AND reviewed_at < \(bind: date)")
    }

    private func reviewCount(of userId: UUID, where filter: SQLQueryString) async throws -> Int {
        struct Row: Decodable { let n: Int }
        return try await sql.raw(
            "SELECT COUNT(*) AS n FROM review_logs WHERE user_id = \(bind: userId) AND kind = 'review' \(filter)"
        ).first(decoding: Row.self)?.n ?? 0
    }
}

extension StudyStore {
    /// The job queue's statements (through the driver).
    var jobs: JobStore { JobStore(sql: db.sql, skipLocked: skipLockedClause) }
}

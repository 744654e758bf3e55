import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// The `optimize` job: fits the user's FSRS-6 parameters to their whole review history
/// (`FSRSOptimizer`, the fsrs-rs method) and stores them; every FSRS stack of the user schedules
/// with them from then on. Reviews of ladder stacks count too, mapped as a scheduler switch maps
/// them (Einfach → Good, Mittel → Hard, Schwer → Again); undone reviews do not.
struct OptimizeJobHandler: JobHandler {
    static let kind = "optimize"

    /// The job needs nothing beyond its user.
    struct Payload: Codable, Sendable {}

    func run(_ job: JobContext) async throws -> String? {
        try await job.report(JobProgressDTO(stage: "reading", message: "Wiederholungen werden gelesen …"))
        guard let user = try await UserModel.find(job.userId, on: job.db) else {
            throw JobFailure("Das Konto gibt es nicht mehr.")
        }
        let histories = try await Self.histories(of: job.userId, timeZone: user.zone, on: job.db)
        try await job.report(
            JobProgressDTO(
                stage: "optimizing", total: histories.reduce(0) { $0 + $1.reviews.count },
                message: "Parameter werden angepasst …"))
        let result: FSRSOptimizationResult
        do {
            result = try FSRSOptimizer.fit(histories: histories, shouldContinue: { _ in !Task.isCancelled })
        } catch .notEnoughData {
            throw JobFailure("Noch zu wenige Wiederholungen für eine Anpassung (mindestens einige Tage Verlauf nötig).")
        } catch .cancelled {
            throw CancellationError()
        } catch {
            throw JobFailure("Die Anpassung ist fehlgeschlagen: \(error)")
        }
        try await job.report(JobProgressDTO(stage: "saving", message: "Parameter werden gespeichert …"))
        let now = job.now()
        let row = SchedulerParametersModel(
            userId: job.userId, parameters: result.parameters, optimizedAt: now, logLoss: result.logLoss,
            defaultLogLoss: result.defaultLogLoss, reviews: result.reviews)
        try await Self.store(row, on: job.db)
        try await job.report(JobProgressDTO(stage: "done", message: "Fertig."))
        let dto = SchedulerParametersDTO(
            parameters: result.parameters, isDefault: false, optimizedAt: now, logLoss: result.logLoss,
            defaultLogLoss: result.defaultLogLoss, reviews: result.reviews)
        return String(decoding: try FlashcardsJSON.makeEncoder().encode(dto), as: UTF8.self)
    }

    /// Replaces the user's stored parameters with `row`. A write transaction: this one reads first,
    /// and a deferred one fails with SQLITE_BUSY when another connection writes in between.
    static func store(_ row: SchedulerParametersModel, on db: any Database) async throws {
        try await db.writeTransaction { db in
            try await SchedulerParametersModel.find(row.id, on: db)?.delete(on: db)
            try await row.create(on: db)
        }
    }

    /// The user's counted reviews as per-card histories, elapsed days counted across the 04:00
    /// rollover in the user's time zone (as the scheduler counts them). Reads only the columns it needs.
    static func histories(of userId: UUID, timeZone: TimeZone, on db: any Database) async throws
        -> [FSRSReviewHistory]
    {
        struct Row: Decodable {
            let id: UUID
            let card_id: Int
            let reviewed_at: Date
            let rating: Int
            let scheduler: String
            let kind: String
            let undoes: UUID?
            let seq: Int
        }
        let sql = db as! any SQLDatabase
        let rows = try await sql.raw(
            """
            SELECT id, card_id, reviewed_at, rating, scheduler, kind, undoes, seq FROM review_logs
            WHERE user_id = \(bind: userId)
            """
        ).all(decoding: Row.self)
        let undone = Set(rows.compactMap { $0.kind == "undo" ? $0.undoes : nil })
        let counting = FSRSDayCounting.rollover(hourOfDay: fsrsDayStartHour, timeZone: timeZone)
        let byCard = Dictionary(grouping: rows.filter { $0.kind == "review" && !undone.contains($0.id) }, by: \.card_id)
        return byCard.keys.sorted().map { cardId in
            let reviews = byCard[cardId]!.sorted { a, b in
                if a.reviewed_at != b.reviewed_at { return a.reviewed_at < b.reviewed_at }
                if a.seq != b.seq { return a.seq < b.seq }
                return a.id.uuidString.lowercased() < b.id.uuidString.lowercased()
            }
            var previous: Date?
            let training = reviews.map { row -> FSRSTrainingReview in
                let elapsed = previous.map { counting.elapsedDays(from: $0, to: row.reviewed_at) } ?? 0
                previous = row.reviewed_at
                let rating = StoredRating(storedScheduler: row.scheduler, value: row.rating)
                return FSRSTrainingReview(rating: rating.fsrs, elapsedDays: elapsed, reviewedAt: row.reviewed_at)
            }
            return FSRSReviewHistory(cardID: Int64(cardId), reviews: training)
        }
    }
}

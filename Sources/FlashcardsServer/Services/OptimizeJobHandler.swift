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
        let histories = try await Self.histories(of: job.userId, timeZone: user.zone, in: job.store)
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
        try await job.store.writeTransaction { try await $0.storeParameters(row) }
        try await job.report(JobProgressDTO(stage: "done", message: "Fertig."))
        let dto = SchedulerParametersDTO(
            parameters: result.parameters, isDefault: false, optimizedAt: now, logLoss: result.logLoss,
            defaultLogLoss: result.defaultLogLoss, reviews: result.reviews)
        return String(decoding: try FlashcardsJSON.makeEncoder().encode(dto), as: UTF8.self)
    }

    /// The user's counted reviews as per-card histories, elapsed days counted across the 04:00
    /// rollover in the user's time zone (as the scheduler counts them). Reads only the columns it needs.
    static func histories(of userId: UUID, timeZone: TimeZone, in store: any StudyStore) async throws
        -> [FSRSReviewHistory]
    {
        let rows = try await store.optimizerReviews(of: userId)
        let counting = FSRSDayCounting.rollover(hourOfDay: SchedulerKind.fsrs.dayStartHour, timeZone: timeZone)
        let byCard = Dictionary(grouping: rows, by: \.card_id)
        return try byCard.keys.sorted().map { cardId in
            let logged = try byCard[cardId]!.map { row in
                LoggedReview(
                    id: row.id, kind: try storedValue(ReviewLogKind.self, row.kind, column: "review_logs.kind"),
                    undoes: row.undoes, rating: try StudyRating.stored(scheduler: row.scheduler, rating: row.rating),
                    reviewedAt: row.reviewed_at, seq: row.seq)
            }
            var previous: Date?
            let training = ReviewOrder.counted(logged).map { review -> FSRSTrainingReview in
                let elapsed = previous.map { counting.elapsedDays(from: $0, to: review.reviewedAt) } ?? 0
                previous = review.reviewedAt
                return FSRSTrainingReview(
                    rating: review.rating.fsrs, elapsedDays: elapsed, reviewedAt: review.reviewedAt)
            }
            return FSRSReviewHistory(cardID: Int64(cardId), reviews: training)
        }
    }
}

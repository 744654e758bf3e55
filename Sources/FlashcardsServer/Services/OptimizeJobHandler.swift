import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// The `optimize` job: checks first whether fitting helps (`FSRSParameterCheck`: parameters fitted to
/// the earlier 80 % of the reviews must predict the latest 20 % better than the learner's own), then
/// fits the user's FSRS-6 parameters to their whole review history (`FSRSOptimizer`, the fsrs-rs
/// method) and stores them, with the simulated change of the month's workload; every FSRS stack of the
/// user schedules with them from then on. When the check fails the learner's parameters stay. Reviews of ladder stacks count too, mapped as a scheduler switch maps
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
        let rows = try await job.store.optimizerReviews(of: job.userId)
        let timeZone = user.zone
        // Grouping, checking and fitting run off the event loops (`runOffEventLoops`).
        let histories = try await runOffEventLoops { _ in try Self.histories(of: rows, timeZone: timeZone) }
        let stored = try await job.store.parameters(of: job.userId).flatMap(SchedulerParametersModel.weights)
        let current = stored ?? FSRSConfiguration.defaultParameters
        try await job.report(
            JobProgressDTO(
                stage: "checking", total: histories.reduce(0) { $0 + $1.reviews.count },
                message: "Neue Parameter werden an deinen letzten Wiederholungen geprüft …"))
        let check = try await runOffEventLoops { cancelled in
            try Self.fitting { () throws(FSRSOptimizerError) in
                try FSRSParameterCheck.check(
                    current: current, histories: histories, shouldContinue: { _ in !cancelled() })
            }
        }
        let checkDTO = check.map {
            ParameterCheckDTO(
                currentLogLoss: $0.current.logLoss, currentRMSEBins: $0.current.rmseBins,
                candidateLogLoss: $0.candidate.logLoss, candidateRMSEBins: $0.candidate.rmseBins,
                heldOutReviews: $0.current.reviews, better: $0.better, healthy: $0.healthy)
        }
        if let check, !check.better {
            // The parameters the learner has predict their latest reviews at least as well: kept.
            try await job.report(JobProgressDTO(stage: "done", message: "Deine Parameter bleiben: sie passen weiter."))
            let row = try await SchedulerParametersModel.find(job.userId, on: job.db)
            let dto = SchedulerParametersDTO(
                parameters: current, isDefault: stored == nil, optimizedAt: row?.optimizedAt, logLoss: row?.logLoss,
                defaultLogLoss: row?.defaultLogLoss, reviews: row?.reviews, kept: true, check: checkDTO)
            return String(decoding: try FlashcardsJSON.makeEncoder().encode(dto), as: UTF8.self)
        }
        try await job.report(
            JobProgressDTO(
                stage: "optimizing", total: histories.reduce(0) { $0 + $1.reviews.count },
                message: "Parameter werden angepasst …"))
        let result = try await runOffEventLoops { cancelled in
            try Self.fitting { () throws(FSRSOptimizerError) in
                try FSRSOptimizer.fit(histories: histories, shouldContinue: { _ in !cancelled() })
            }
        }
        try await job.report(JobProgressDTO(stage: "saving", message: "Parameter werden gespeichert …"))
        let context = ServiceContext(job)
        let before = try await WorkloadService(context: context, user: user, parameters: current)
            .workload(.user, days: 30).averageReviews
        let after = try await WorkloadService(context: context, user: user, parameters: result.parameters)
            .workload(.user, days: 30).averageReviews
        let now = job.now()
        let row = SchedulerParametersModel(
            userId: job.userId, parameters: result.parameters, optimizedAt: now, logLoss: result.logLoss,
            defaultLogLoss: result.defaultLogLoss, reviews: result.reviews)
        try await job.store.writeTransaction { try await $0.storeParameters(row) }
        try await job.report(JobProgressDTO(stage: "done", message: "Fertig."))
        let dto = SchedulerParametersDTO(
            parameters: result.parameters, isDefault: false, optimizedAt: now, logLoss: result.logLoss,
            defaultLogLoss: result.defaultLogLoss, reviews: result.reviews, kept: false, check: checkDTO,
            workloadChange: before > 0 ? (after - before) / before : nil)
        return String(decoding: try FlashcardsJSON.makeEncoder().encode(dto), as: UTF8.self)
    }

    /// Runs a fit, turning its errors into the job's: too little history is a German message,
    /// cancelling ends the job.
    private static func fitting<T>(_ body: () throws(FSRSOptimizerError) -> T) throws -> T {
        do {
            return try body()
        } catch .notEnoughData {
            throw JobFailure("Noch zu wenige Wiederholungen für eine Anpassung (mindestens einige Tage Verlauf nötig).")
        } catch .cancelled {
            throw CancellationError()
        } catch {
            throw JobFailure("Die Anpassung ist fehlgeschlagen: \(error)")
        }
    }

    /// The user's counted reviews as per-card histories, elapsed days counted across the 04:00
    /// rollover in the user's time zone (as the scheduler counts them), from the user's log rows
    /// (`StudyStore.optimizerReviews`).
    static func histories(of rows: [OptimizerReview], timeZone: TimeZone) throws -> [FSRSReviewHistory] {
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

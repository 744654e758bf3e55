import Foundation
import SQLKit

/// The statements of the statistics (`StatsService`): the review log and the cards counted per
/// learner day (`LearnerDays`), so a year of reviews is at most 365 rows. The day expression is the
/// dialect's (`StudyStore.shiftedDay`).
struct StatsStore {
    let store: any StudyStore

    /// What the statistics cover: one stack, or all of a user's.
    enum Scope {
        case stack(Int)
        case user(UUID)

        fileprivate var filter: SQLQueryString {
            switch self {
            case .stack(let id): "stack_id = \(bind: id)"
            case .user(let id): "user_id = \(bind: id)"
            }
        }
    }

    /// Figures of one learner day of the review log: reviews (`n`), long-term reviews (`l`: at least
    /// a day after the card's previous review), and of these the recalled ones (`k`).
    struct ReviewBucket: Decodable {
        let b: Int
        let n: Int
        let l: Int?
        let k: Int?
        /// Of the long-term reviews, the mature ones (21 days or more after the previous review), and
        /// of these the recalled ones.
        let m: Int?
        let mk: Int?
    }

    /// A count per learner day.
    struct DayCount: Decodable {
        let b: Int
        let n: Int
    }

    /// The aggregates of a `ReviewBucket`; recalled is anything but FSRS Again and ladder Schwer.
    private static let reviewFigures: SQLQueryString = """
        COUNT(*) AS n, SUM(CASE WHEN elapsed_days >= 1 THEN 1 ELSE 0 END) AS l,
        SUM(CASE WHEN elapsed_days >= 1 AND \(unsafeRaw: recalled) THEN 1 ELSE 0 END) AS k,
        SUM(CASE WHEN elapsed_days >= 21 THEN 1 ELSE 0 END) AS m,
        SUM(CASE WHEN elapsed_days >= 21 AND \(unsafeRaw: recalled) THEN 1 ELSE 0 END) AS mk
        """

    /// A review that was recalled: anything but FSRS Again and ladder Schwer.
    private static let recalled = "((scheduler = 'fsrs' AND rating >= 2) OR (scheduler = 'ladder' AND rating <> 2))"

    /// The reviews since `since` per learner day of `days`, and (`undone`) those of them undone
    /// since: undone reviews are counted, then taken off again from a second, small query over the
    /// undo entries, one probe per undo instead of one per review.
    func reviews(_ scope: Scope, since: Date, days: LearnerDays) async throws
        -> (counted: [ReviewBucket], undone: [ReviewBucket])
    {
        let bucket = days.day("reviewed_at", store: store)
        let counted = try await store.sql.raw(
            """
            SELECT \(bucket) AS b, \(Self.reviewFigures) FROM review_logs
            WHERE \(scope.filter) AND kind = 'review' AND reviewed_at >= \(bind: since) GROUP BY b
            """
        ).all(decoding: ReviewBucket.self)
        let undone = try await store.sql.raw(
            """
            SELECT \(bucket) AS b, \(Self.reviewFigures) FROM review_logs
            WHERE kind = 'review' AND reviewed_at >= \(bind: since) AND id IN
            (SELECT undoes FROM review_logs WHERE \(scope.filter) AND kind = 'undo') GROUP BY b
            """
        ).all(decoding: ReviewBucket.self)
        return (counted, undone)
    }

    /// Cards by state (`new`, `learning`, `review`, `relearning`).
    func cardsByState(_ scope: Scope) async throws -> [String: Int] {
        struct StateRow: Decodable {
            let state: String
            let n: Int
        }
        let rows = try await store.sql.raw(
            "SELECT state, COUNT(*) AS n FROM cards WHERE \(scope.filter) GROUP BY state"
        ).all(decoding: StateRow.self)
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.state, $0.n) })
    }

    /// Cards that are not new and due before `before`, per learner day of `days`.
    func dueCards(_ scope: Scope, before: Date, days: LearnerDays) async throws -> [DayCount] {
        try await store.sql.raw(
            """
            SELECT \(days.day("due_at", store: store)) AS b, COUNT(*) AS n FROM cards
            WHERE \(scope.filter) AND state <> 'new' AND due_at < \(bind: before) GROUP BY b
            """
        ).all(decoding: DayCount.self)
    }

    /// FSRS answers since `since` by rating and phase (`p`: 0 learning, 1 young, 2 mature), undone
    /// ones left out.
    struct ButtonCount: Decodable {
        let rating: Int
        let p: Int
        let n: Int
    }

    func answerButtons(_ scope: Scope, since: Date) async throws -> [ButtonCount] {
        try await store.sql.raw(
            """
            SELECT rating, CASE WHEN elapsed_days IS NULL OR elapsed_days < 1 THEN 0
            WHEN elapsed_days < 21 THEN 1 ELSE 2 END AS p, COUNT(*) AS n FROM review_logs
            WHERE \(scope.filter) AND kind = 'review' AND scheduler = 'fsrs' AND reviewed_at >= \(bind: since)
            AND id NOT IN (SELECT undoes FROM review_logs WHERE \(scope.filter) AND kind = 'undo' AND undoes IS NOT NULL)
            GROUP BY rating, p
            """
        ).all(decoding: ButtonCount.self)
    }

    /// A card's FSRS memory: stability, difficulty, last review and due time.
    struct MemoryRow: Decodable {
        let stability: Double
        let difficulty: Double
        let last_reviewed_at: Date
        let due_at: Date
    }

    /// Counted reviews since `since` per 15-minute bucket (`TimeBuckets`, which no time zone offset
    /// splits), with the recalled ones (`k`); undone ones left out.
    struct HourBucket: Decodable {
        let b: Int
        let n: Int
        let k: Int?
    }

    func reviewsByTime(_ scope: Scope, since: Date) async throws -> [HourBucket] {
        try await store.sql.raw(
            """
            SELECT \(store.bucket("reviewed_at")) AS b, COUNT(*) AS n,
            SUM(CASE WHEN \(unsafeRaw: Self.recalled) THEN 1 ELSE 0 END) AS k FROM review_logs
            WHERE \(scope.filter) AND kind = 'review' AND reviewed_at >= \(bind: since)
            AND id NOT IN (SELECT undoes FROM review_logs WHERE \(scope.filter) AND kind = 'undo' AND undoes IS NOT NULL)
            GROUP BY b
            """
        ).all(decoding: HourBucket.self)
    }

    /// The memory of every card that has one.
    func memory(_ scope: Scope) async throws -> [MemoryRow] {
        try await store.bulk.raw(
            """
            SELECT stability, difficulty, last_reviewed_at, due_at FROM cards
            WHERE \(scope.filter) AND stability IS NOT NULL AND difficulty IS NOT NULL AND last_reviewed_at IS NOT NULL
            """
        ).all(decoding: MemoryRow.self)
    }
}

extension StudyStore {
    /// The statistics' statements.
    var stats: StatsStore { StatsStore(store: self) }
}

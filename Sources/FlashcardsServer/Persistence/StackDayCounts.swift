import Foundation
import SQLKit

/// When a card was first and last reviewed: what an FSRS stack's daily limits count.
struct ReviewTimes: Equatable, Sendable {
    var first: Date?
    var last: Date?

    init(first: Date?, last: Date?) {
        self.first = first
        self.last = last
    }

    init(_ card: CardModel) {
        self.init(first: card.firstReviewedAt, last: card.lastReviewedAt)
    }

    /// A card never reviewed (or no longer there).
    static let unreviewed = ReviewTimes(first: nil, last: nil)
}

/// A change of one card's review times, written in a transaction that has not ended yet.
struct ReviewTimesChange: Sendable {
    let stackId: Int
    let before: ReviewTimes
    let after: ReviewTimes

    /// Whether the times changed at all (a replay often leaves them as they were).
    var changesTimes: Bool { before != after }
}

/// The counts behind an FSRS stack's daily limits: its cards reviewed since the start of the
/// learner's day and, of those, the ones first reviewed then (new cards learnt today).
///
/// Counting them from the cards reads one index entry per card reviewed today, thousands in a long
/// session, on every next-card request. So the stack row keeps them (`reviewed_today`, `fresh_today`)
/// for the moment `reviewed_since` names, and they stay exact because every change of a card's
/// review times adjusts them in the same transaction:
/// - a rating or undo (`apply`), a deleted card (`apply` with the times it had);
/// - a sync batch or a recomputed stack stops keeping them (`forget`), the next rating counts again;
/// - the first rating of a learner day on an FSRS stack counts again from that day's start (`recount`).
///
/// A reader uses them only when `reviewed_since` is the start of its own learner day, and counts
/// from the cards otherwise (a new day before its first rating, another time zone, a ladder stack).
///
/// Lock order: these statements run after the transaction's card writes, so that on PostgreSQL a
/// transaction never holds the stack row while it waits for a card row (a sync batch and a rating
/// in the same stack would deadlock).
enum StackDayCounts {
    struct Counts: Equatable, Sendable {
        let since: Date
        let reviewed: Int
        let fresh: Int
    }

    /// The counts `stack` was read with, if they count from `dayStart`.
    static func kept(by stack: StackModel, from dayStart: Date) -> Counts? {
        guard stack.reviewedSince == dayStart else { return nil }
        return Counts(since: dayStart, reviewed: stack.reviewedToday, fresh: stack.freshToday)
    }

    /// Keeps `counts` on the stack as read in this request (after the rating that returned them).
    static func remember(_ counts: Counts, on stack: StackModel) {
        stack.reviewedSince = counts.since
        stack.reviewedToday = counts.reviewed
        stack.freshToday = counts.fresh
    }

    /// The counts of several stacks in one statement (one range of `cards_stack_reviewed` each).
    fileprivate static func count(stackIds: [Int], since: Date, on sql: any SQLDatabase) async throws -> [Int: Counts] {
        guard !stackIds.isEmpty else { return [:] }
        struct Row: Decodable {
            let stack_id: Int
            let reviewed: Int
            let fresh: Int
        }
        let rows = try await sql.raw(
            """
            SELECT stack_id, COUNT(*) AS reviewed, COALESCE(SUM(CASE WHEN first_reviewed_at >= \(bind: since) THEN 1 ELSE 0 END), 0)
            AS fresh FROM cards WHERE stack_id IN (\(binds: stackIds)) AND last_reviewed_at >= \(bind: since)
            GROUP BY stack_id
            """
        ).all(decoding: Row.self)
        return Dictionary(
            uniqueKeysWithValues: rows.map {
                ($0.stack_id, Counts(since: since, reviewed: $0.reviewed, fresh: $0.fresh))
            })
    }

    /// The counts from the cards: one range of `cards_stack_reviewed`, read from the index alone.
    fileprivate static func count(stackId: Int, since: Date, on sql: any SQLDatabase) async throws -> Counts {
        let row = try await sql.raw(
            """
            SELECT COUNT(*) AS reviewed, COALESCE(SUM(CASE WHEN first_reviewed_at >= \(bind: since) THEN 1 ELSE 0 END), 0)
            AS fresh FROM cards WHERE stack_id = \(key: stackId) AND last_reviewed_at >= \(bind: since)
            """
        ).first()
        return Counts(
            since: since, reviewed: try row?.decode(column: "reviewed", as: Int.self) ?? 0,
            fresh: try row?.decode(column: "fresh", as: Int.self) ?? 0)
    }

    /// Adjusts the stack's counts, if it keeps any, by `change`. Returns the counts now kept.
    ///
    /// The row is updated (and so locked) even when the stack keeps no counts (`reviewed_since`
    /// null: every term is then 0). Otherwise, on PostgreSQL, a transaction that changed a card
    /// would not hold the row, a `recount` running meanwhile would not wait for it, and its count
    /// would miss that change once it commits (a card deleted while counted stayed counted).
    fileprivate static func apply(_ change: ReviewTimesChange, in tx: any StudyTransaction) async throws -> Counts? {
        guard change.changesTimes else { return nil }
        let set: SQLQueryString = adjustment(
            firstBefore: "\(bind: change.before.first)", lastBefore: "\(bind: change.before.last)",
            firstAfter: "\(bind: change.after.first)", lastAfter: "\(bind: change.after.last)")
        let statement: SQLQueryString =
            "UPDATE stacks SET " + set
                + """
                 WHERE id = \(key: change.stackId)
                RETURNING reviewed_since, reviewed_today, fresh_today
                """
        return try await tx.sql.raw(statement).first().flatMap(kept(in:))
    }

    /// The `SET` list that moves the counts by a change of a card's review times: +1 for a time now
    /// at or after `reviewed_since`, −1 for one that was (a missing time, SQL null, counts 0). Each
    /// time is given as SQL: a bound value (`apply`) or a statement's parameter
    /// (`PostgresNamedStatements.AppendReview`).
    static func adjustment<S: SQLText>(firstBefore: S, lastBefore: S, firstAfter: S, lastAfter: S) -> S {
        func term(_ time: S) -> S { "CASE WHEN reviewed_since <= " + time + " THEN 1 ELSE 0 END" }
        let reviewed: S = "reviewed_today = reviewed_today + " + term(lastAfter) + " - " + term(lastBefore)
        let fresh: S = ", fresh_today = fresh_today + " + term(firstAfter) + " - " + term(firstBefore)
        return reviewed + fresh
    }

    /// The counts a row of `reviewed_since`, `reviewed_today` and `fresh_today` keeps (nil when the
    /// stack keeps none): an adjustment's `RETURNING` (`apply`, `PostgresAppendedReviews.write`).
    static func kept(in row: any SQLRow) throws -> Counts? {
        guard try row.decode(column: "reviewed_since", as: Date?.self) != nil else { return nil }
        return try decode(row)
    }

    /// Counts again from `dayStart`, unless the stack keeps counts from then already (nil).
    fileprivate static func recount(stackId: Int, from dayStart: Date, in tx: any StudyTransaction) async throws
        -> Counts?
    {
        let sql = tx.sql
        // First claim the row. On PostgreSQL this waits for a transaction adjusting the counts to
        // end, so that the count below, a statement of its own, sees that transaction's cards.
        let claimed = try await sql.raw(
            """
            UPDATE stacks SET reviewed_since = NULL WHERE id = \(key: stackId)
            AND (reviewed_since IS NULL OR reviewed_since <> \(bind: dayStart)) RETURNING id
            """
        ).first()
        guard claimed != nil else { return nil }
        let row = try await sql.raw(
            """
            UPDATE stacks SET reviewed_since = \(bind: dayStart),
            reviewed_today = (SELECT COUNT(*) FROM cards WHERE stack_id = \(key: stackId)
            AND last_reviewed_at >= \(bind: dayStart)),
            fresh_today = (SELECT COUNT(*) FROM cards WHERE stack_id = \(key: stackId)
            AND last_reviewed_at >= \(bind: dayStart) AND first_reviewed_at >= \(bind: dayStart))
            WHERE id = \(key: stackId) RETURNING reviewed_since, reviewed_today, fresh_today
            """
        ).first()
        return try row.map(decode)
    }

    /// Stops keeping the counts of these stacks (after changes too many to adjust one by one).
    fileprivate static func forget(stackIds: some Collection<Int>, in tx: any StudyTransaction) async throws {
        try await forget(stackIds: stackIds, on: tx.sql)
    }

    /// ``forget(stackIds:in:)`` on any connection (an import's transaction).
    fileprivate static func forget(stackIds: some Collection<Int>, on sql: any SQLDatabase) async throws {
        guard !stackIds.isEmpty else { return }
        try await sql.update("stacks").set("reviewed_since", to: SQLLiteral.null)
            .where("id", .in, Array(Set(stackIds)).sorted()).run()
    }

    private static func decode(_ row: any SQLRow) throws -> Counts {
        Counts(
            since: try row.decode(column: "reviewed_since", as: Date.self),
            reviewed: try row.decode(column: "reviewed_today", as: Int.self),
            fresh: try row.decode(column: "fresh_today", as: Int.self))
    }
}

// MARK: The stores' way in

extension StudyStore {
    /// The counts behind an FSRS stack's daily limits, from the cards: one range of
    /// `cards_stack_reviewed`, read from the index alone.
    func dayCounts(stackId: Int, since: Date) async throws -> StackDayCounts.Counts {
        try await StackDayCounts.count(stackId: stackId, since: since, on: sql)
    }

    /// `dayCounts(stackId:since:)` of several stacks in one statement.
    func dayCounts(stackIds: [Int], since: Date) async throws -> [Int: StackDayCounts.Counts] {
        try await StackDayCounts.count(stackIds: stackIds, since: since, on: sql)
    }
}

extension StudyTransaction {
    /// Adjusts the day counts a stack row keeps by a change of one card's review times.
    func applyDayCounts(_ change: ReviewTimesChange) async throws -> StackDayCounts.Counts? {
        try await StackDayCounts.apply(change, in: self)
    }

    /// Counts the stack's day from `dayStart` from its cards and keeps the counts on its row.
    func recountDay(stackId: Int, from dayStart: Date) async throws -> StackDayCounts.Counts? {
        try await StackDayCounts.recount(stackId: stackId, from: dayStart, in: self)
    }

    /// Drops the kept counts of these stacks: the next request counts them from the cards.
    func forgetDayCounts(stackIds: some Collection<Int>) async throws {
        try await StackDayCounts.forget(stackIds: stackIds, in: self)
    }
}

import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// "No pressure after a break": when more review cards are due today than the stack's daily review
/// cap leaves room for, the most forgotten ones (lowest predicted recall now) stay today and the rest
/// move to the next days, each day filled up to the cap on top of the cards already due then.
///
/// Nothing is lost or reset: only the day a card is shown moves later (`due_at`); its memory state
/// and history stay, and its next review uses the real elapsed time. Runs at most once per learner
/// day and stack (`stacks.spread_day`), on the first next-card request of the day, so next-card
/// itself stays a few index seeks. A replay that recomputes a card (a new review, a scheduler
/// switch) sets its scheduled due date again; the spread of the next day picks it up.
struct BacklogSpreader {
    let context: ServiceContext
    let stack: StackModel
    let scheduling: StackScheduling
    /// Review cards the learner may still see today.
    let reviewsLeft: Int

    /// How many days ahead the load of the following days is read at once.
    static let horizonDays = 120

    /// Spreads the backlog if this stack was not spread today yet. Returns how many cards moved.
    @discardableResult
    func spreadIfNeeded() async throws -> Int {
        let today = scheduling.day(of: context.now)
        if stack.spreadDay == today { return 0 }
        let stackId = stack.id!
        let cap = stack.reviewsPerDay
        let budget = reviewsLeft
        let now = context.now
        let scheduling = self.scheduling
        let moved = try await context.db.writeTransaction { db -> Int in
            let sql = db as! any SQLDatabase
            // Claim the day; a concurrent request that claimed it first has done the work.
            let unclaimed: SQLQueryString = "(spread_day IS NULL OR spread_day <> \(bind: today))"
            let claimed = try await sql.update("stacks").set("spread_day", to: today)
                .where("id", .equal, stackId).where(unclaimed)
                .returning("id").all()
            guard !claimed.isEmpty else { return 0 }
            return try await Self.spread(
                stackId: stackId, cap: cap, budget: budget, today: today, now: now, scheduling: scheduling, sql: sql)
        }
        stack.spreadDay = today
        return moved
    }

    private static func spread(
        stackId: Int, cap: Int, budget: Int, today: Int, now: Date, scheduling: StackScheduling, sql: any SQLDatabase
    ) async throws -> Int {
        let endOfToday = scheduling.start(ofDay: today + 1)
        let due =
            try await sql.raw(
                """
                SELECT COUNT(*) AS n FROM cards WHERE stack_id = \(bind: stackId) AND queue = 2 AND due_at < \(bind: endOfToday)
                """
            ).first(decoding: CountRow.self)?.n ?? 0
        guard due > budget else { return 0 }

        struct PoolRow: Decodable {
            let id: Int
            let stability: Double?
            let difficulty: Double?
            let last_reviewed_at: Date?
            let due_at: Date
        }
        let pool = try await sql.raw(
            """
            SELECT id, stability, difficulty, last_reviewed_at, due_at FROM cards
            WHERE stack_id = \(bind: stackId) AND queue = 2 AND due_at < \(bind: endOfToday)
            """
        ).all(decoding: PoolRow.self)
        // Most forgotten first: lowest predicted recall now; ties by due date, then card.
        let ranked = pool.map { row -> (row: PoolRow, recall: Double) in
            guard let stability = row.stability, let last = row.last_reviewed_at else { return (row, 0) }
            let card = FSRSCard(
                state: .review, step: nil, stability: stability, difficulty: row.difficulty ?? 5, due: row.due_at,
                lastReview: last)
            return (row, scheduling.fsrs.retrievability(of: card, at: now))
        }.sorted { a, b in
            if a.recall != b.recall { return a.recall < b.recall }
            if a.row.due_at != b.row.due_at { return a.row.due_at < b.row.due_at }
            return a.row.id < b.row.id
        }
        let kept = ranked.prefix(budget).map(\.row.id)
        let excess = ranked.dropFirst(budget).map(\.row.id)
        guard !excess.isEmpty else { return 0 }

        // The review cards already due on each of the following days.
        let horizonEnd = scheduling.start(ofDay: today + 1 + horizonDays)
        var load: [Int: Int] = [:]
        for (instant, count) in try await SQLTime.countsPerBucket(
            table: "cards", column: "due_at",
            filter:
                "stack_id = \(bind: stackId) AND queue = 2 AND due_at >= \(bind: endOfToday) AND due_at < \(bind: horizonEnd)",
            sql: sql)
        {
            load[scheduling.day(of: instant), default: 0] += count
        }
        var assignment: [Int: [Int]] = [:]
        var day = today + 1
        for id in excess {
            while load[day, default: 0] >= cap { day += 1 }
            load[day, default: 0] += 1
            assignment[day, default: []].append(id)
        }
        // Each day's cards get due times one second apart from the day's start, in rank order, so
        // next-card (ordered by due time) shows the most forgotten first on every day, today included.
        assignment[today] = kept
        for (day, ids) in assignment {
            let start = day == today ? scheduling.start(ofDay: today) : scheduling.start(ofDay: day)
            try await setDue(ids, from: start, sql: sql)
        }
        return excess.count
    }

    /// Sets `due_at` of `ids` to `start`, `start + 1 s`, … in one statement per 200 cards.
    private static func setDue(_ ids: [Int], from start: Date, sql: any SQLDatabase) async throws {
        var index = 0
        while index < ids.count {
            let chunk = Array(ids[index..<min(index + 200, ids.count)])
            var cases: SQLQueryString = "CASE id"
            for (offset, id) in chunk.enumerated() {
                let due = start.addingTimeInterval(Double(index + offset))
                cases.appendInterpolation(" WHEN \(literal: id) THEN \(bind: due)" as SQLQueryString)
            }
            cases.appendLiteral(" END")
            try await sql.raw("UPDATE cards SET due_at = \(cases) WHERE id IN (\(binds: chunk))")
                .run()
            index += chunk.count
        }
    }
}

/// Time arithmetic that SQLite (dates stored as Unix seconds) and PostgreSQL (timestamptz) share.
enum SQLTime {
    /// The width of the buckets rows are grouped in before Swift maps them to learner days: 15
    /// minutes divides every time zone offset in use, so no bucket straddles a day rollover.
    static let bucketSeconds = 900

    /// `column` as Unix seconds.
    static func epoch(_ column: String, sql: any SQLDatabase) -> SQLQueryString {
        sql.dialect.name == "sqlite" ? "\(ident: column)" : "EXTRACT(EPOCH FROM \(ident: column))"
    }

    /// The bucket number (Unix seconds / 900, floored) of `column`.
    static func bucket(_ column: String, sql: any SQLDatabase) -> SQLQueryString {
        // SQLite's CAST truncates, which floors the (positive) Unix times; FLOOR may be missing there.
        sql.dialect.name == "sqlite"
            ? "CAST(\(ident: column) / \(literal: bucketSeconds) AS INTEGER)"
            : "CAST(FLOOR(EXTRACT(EPOCH FROM \(ident: column)) / \(literal: bucketSeconds)) AS BIGINT)"
    }

    /// Row counts per 15-minute bucket of `column`, as (bucket start, count).
    static func countsPerBucket(table: String, column: String, filter: SQLQueryString, sql: any SQLDatabase)
        async throws -> [(Date, Int)]
    {
        struct Row: Decodable {
            let b: Int
            let n: Int
        }
        let rows = try await sql.raw(
            """
            SELECT \(bucket(column, sql: sql)) AS b, COUNT(*) AS n FROM \(ident: table) WHERE \(filter) GROUP BY b
            """
        ).all(decoding: Row.self)
        return rows.map { (Date(timeIntervalSince1970: Double($0.b * bucketSeconds)), $0.n) }
    }
}

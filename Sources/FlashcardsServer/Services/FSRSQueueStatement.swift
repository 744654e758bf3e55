import FluentPostgresDriver
import Foundation
import SQLKit

/// The one statement of an FSRS next-card: the due cards today's limits let through, counted no
/// further than `StudyService.dueCountLimit`, and the card to show with its `HeadRank`. One seek on
/// `cards_stack_queue_due` per queue for its first due card; the statement returns only the one to
/// show (a row with a NULL `id` when no queue has a due card).
enum FSRSQueueStatement {
    /// How the first due card of a queue ranks; the statement returns the lowest (ties: the earlier
    /// due time, then the older card). Anki's order: a (re)learning card whose step is over comes
    /// first; then reviews and new cards by due time; a learning card not yet due only when nothing
    /// else is left; cards the limits hold back never.
    enum HeadRank: Int {
        case learningDue = 0
        case allowed = 1
        case learningLater = 2
        case held = 3
    }

    /// A queue and how many of its due cards today's limits let through.
    private struct Queue {
        let number: Int
        let cap: Int
    }

    /// The statement's row for `stackId` with the cards due before `cutoff`: learning cards without
    /// a cap, reviews and new cards up to `reviewCap` and `newCap`; learning cards due at `now` count
    /// as due now. On PostgreSQL (`db`) the prepared `Postgres`, otherwise the SQLite text on `sql`.
    static func row(
        stackId: Int, cutoff: Date, now: Date, reviewCap: Int, newCap: Int, db: any Database, sql: any SQLDatabase
    ) async throws -> (any SQLRow)? {
        if let rows = try await PostgresNamedStatements.rows(
            Postgres(stackId: stackId, cutoff: cutoff, now: now, reviewCap: reviewCap, newCap: newCap), on: db)
        {
            return rows.first
        }
        return try await sql.raw(
            sqlite(stackId: stackId, cutoff: cutoff, now: now, reviewCap: reviewCap, newCap: newCap)
        )
        .first()
    }

    private static func sqlite(stackId: Int, cutoff: Date, now: Date, reviewCap: Int, newCap: Int) -> SQLQueryString {
        // Learning first (its rank follows its due time), then reviews and new cards.
        let queues = [
            Queue(number: 1, cap: StudyService.dueCountLimit), Queue(number: 2, cap: reviewCap),
            Queue(number: 0, cap: newCap),
        ]
        return "\(sqlite(stackId: stackId, cutoff: cutoff, now: now, queues: queues))"
    }

    /// The rank of a review or new queue's first card with this cap.
    private static func rank(cap: Int) -> HeadRank { cap > 0 ? .allowed : .held }

    // MARK: SQLite

    /// How a queue enters the SQLite count: not at all (cap 0), on its own (a lower cap) or in the
    /// one range with the learning queue (the whole limit).
    private enum CountShape: Int, CaseIterable {
        case none, lowerCap, wide

        init(cap: Int) {
            self = cap <= 0 ? .none : cap < StudyService.dueCountLimit ? .lowerCap : .wide
        }
    }

    /// On SQLite, written out as text: building and serializing it from SQLKit fragments cost more
    /// than running it. The count reads one index range for the queues whose cap is the whole limit
    /// (`queue IN (…)`: the learning queue always, reviews and new cards unless today's cap is lower)
    /// and one per lower cap; a count per queue through `UNION ALL` cost a third more. The card to
    /// show is picked with `min()` over a sort key, whose bare columns SQLite takes from the row of
    /// the minimum: an `ORDER BY` over the three first cards built a temporary B-tree per queue,
    /// which cost as much as the count.
    private static func sqlite(stackId: Int, cutoff: Date, now: Date, queues: [Queue]) -> SQLiteStatement {
        let shapes = queues.dropFirst().map { CountShape(cap: $0.cap) }
        var binds: [any Encodable & Sendable] = [stackId, cutoff]
        binds.reserveCapacity(20)
        for (queue, shape) in zip(queues.dropFirst(), shapes) where shape == .lowerCap {
            binds.append(stackId)
            binds.append(cutoff)
            binds.append(queue.cap)
        }
        binds.append(now)
        for queue in queues.dropFirst() { binds.append(rank(cap: queue.cap).rawValue) }
        for _ in queues {
            binds.append(stackId)
            binds.append(cutoff)
        }
        return SQLiteStatement(text: sqliteTexts[shapes[0].rawValue * 3 + shapes[1].rawValue], binds: binds)
    }

    /// The text for each shape of the review and the new queue (`review.rawValue * 3 + new.rawValue`).
    private static let sqliteTexts: [String] = CountShape.allCases.flatMap { review in
        CountShape.allCases.map { new in sqliteText(shapes: [(2, review), (0, new)]) }
    }

    private static func sqliteText(shapes: [(queue: Int, shape: CountShape)]) -> String {
        let limit = StudyService.dueCountLimit
        let wide = ([1] + shapes.filter { $0.shape == .wide }.map(\.queue)).map(String.init).joined(separator: ", ")
        let counts =
            [
                "(SELECT COUNT(*) FROM (SELECT 1 FROM cards WHERE stack_id = +? AND queue IN (\(wide)) AND due_at < ? LIMIT \(limit)))"
            ]
            + shapes.filter { $0.shape == .lowerCap }.map { queue, _ in
                "(SELECT COUNT(*) FROM (SELECT 1 FROM cards WHERE stack_id = +? AND queue = \(queue) AND due_at < ? LIMIT +?))"
            }
        // The learning queue's rank follows its due time; the others' are bound.
        let ranks = shapes.map { "WHEN \($0.queue) THEN ?" }.joined(separator: " ")
        let rank =
            "CASE queue WHEN 1 THEN CASE WHEN due_at <= ? THEN \(HeadRank.learningDue.rawValue) "
            + "ELSE \(HeadRank.learningLater.rawValue) END \(ranks) END"
        let heads = ([1] + shapes.map(\.queue)).map { queue in
            "SELECT * FROM (SELECT * FROM cards WHERE stack_id = +? AND queue = \(queue) AND due_at < ? ORDER BY due_at, id LIMIT 1)"
        }
        // Rank, due time to the microsecond and id, as text that sorts in that order.
        let sortKey = "printf('%d%020.6f%020d', \(rank), due_at, id)"
        return "SELECT counted.n AS due_count, head.* FROM (SELECT min(" + counts.joined(separator: " + ")
            + ", \(limit)) AS n) counted LEFT JOIN (SELECT *, CAST(substr(min(\(sortKey)), 1, 1) AS INTEGER) AS head_rank FROM ("
            + heads.joined(separator: " UNION ALL ") + ")) head ON 1 = 1"
    }

    // MARK: PostgreSQL

    /// On PostgreSQL, a statement prepared once per connection (`PostgresNamedStatements`): the
    /// same seeks and count written once for all queues (`LATERAL` over the queue numbers), the card
    /// to show picked by `ORDER BY` over the three first cards.
    struct Postgres: PostgresNamedStatement {
        static let sql = """
            SELECT counted.n AS due_count, head.* FROM (SELECT COUNT(*) AS n FROM (SELECT 1 FROM
            (VALUES (1, \(StudyService.dueCountLimit)), (2, $4), (0, $5)) q(queue, cap) CROSS JOIN LATERAL
            (SELECT 1 FROM cards WHERE stack_id = $1 AND queue = q.queue AND due_at < $2 LIMIT q.cap) c
            LIMIT \(StudyService.dueCountLimit)) due) counted LEFT JOIN (SELECT h.*, CASE h.queue
            WHEN 1 THEN CASE WHEN h.due_at <= $3 THEN \(HeadRank.learningDue.rawValue)
            ELSE \(HeadRank.learningLater.rawValue) END WHEN 2 THEN $6 WHEN 0 THEN $7 END AS head_rank
            FROM (VALUES (1), (2), (0)) q(queue) CROSS JOIN LATERAL (SELECT \(PostgresNamedStatements.cardColumns("cards"))
            FROM cards WHERE stack_id = $1 AND queue = q.queue AND due_at < $2 ORDER BY due_at, id LIMIT 1) h
            ORDER BY head_rank, h.due_at, h.id LIMIT 1) head ON 1 = 1
            """

        let stackId: Int
        let cutoff: Date
        let now: Date
        let reviewCap: Int
        let newCap: Int

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(stackId)
            bindings.append(cutoff)
            bindings.append(now)
            bindings.append(reviewCap)
            bindings.append(newCap)
            bindings.append(rank(cap: reviewCap).rawValue)
            bindings.append(rank(cap: newCap).rawValue)
            return bindings
        }
    }
}

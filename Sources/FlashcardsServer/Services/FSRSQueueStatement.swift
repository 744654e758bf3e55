import FluentPostgresDriver
import Foundation
import SQLKit

/// The one statement of an FSRS next-card: the due cards today's limits let through, counted no
/// further than `StudyService.dueCountLimit`, and the card to show with its `HeadRank`. One seek per
/// queue for its first due card, on SQLite in the queue's own index (`cards_learning_due`,
/// `cards_review_due`, `cards_new_due`), on PostgreSQL in `cards_stack_queue_due`; the statement
/// returns only the card to show (a row with a NULL `id` when no queue has a due card).
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
        let binds: [any Encodable & Sendable] = [
            stackId, cutoff, now, reviewCap, max(reviewCap - 1, 0), newCap, max(newCap - 1, 0),
        ]
        return try await sql.raw("\(SQLiteStatement(text: sqliteText, binds: binds))").first()
    }

    /// The rank of a review or new queue's first card with this cap.
    private static func rank(cap: Int) -> HeadRank { cap > 0 ? .allowed : .held }

    // MARK: SQLite

    /// On SQLite, one text for every cap (numbered parameters: ?1 stack, ?2 cut-off, ?3 now, ?4 and
    /// ?5 the review cap and the offset of its last card, ?6 and ?7 the same for new cards), written
    /// out: building it from SQLKit fragments cost more than running it. Each queue has its own
    /// partial index (`UpdateCardIndexEachQueue`), so a seek or a count in one compares two key
    /// columns, as the ladder's do on `cards_stack_due`.
    ///
    /// The count is `SQLiteCappedCount`'s per queue: the learning queue alone when it fills the
    /// limit (nothing else is read then), otherwise its exact count plus reviews and new cards each
    /// up to its cap. The card to show is picked in rank order by `COALESCE`, which stops at the
    /// first rank that has one, as `id * 4 + rank`; it is then read by its row id. Reviews and new
    /// cards share a rank and are picked by due time, then id (`min()` over a sort key, whose bare
    /// column SQLite takes from the row of the minimum; an `ORDER BY` over the two sorted them).
    private static let sqliteText: String = {
        let limit = StudyService.dueCountLimit
        func range(_ queue: Int, _ condition: String = "due_at < ?2") -> String {
            "FROM cards WHERE stack_id = +?1 AND queue = \(queue) AND \(condition)"
        }
        let learning = range(1)
        let counted =
            "SELECT COALESCE((SELECT \(limit) \(learning) LIMIT 1 OFFSET \(limit - 1)), min(\(limit), "
            + "(SELECT COUNT(*) \(learning)) + \(SQLiteCappedCount.text(range(2), cap: "+?4", lastOffset: "+?5")) + "
            + "\(SQLiteCappedCount.text(range(0), cap: "+?6", lastOffset: "+?7")))) AS n"
        func first(_ rank: HeadRank, _ range: String) -> String {
            "(SELECT id * 4 + \(rank.rawValue) \(range) ORDER BY due_at, id LIMIT 1)"
        }
        func allowedHead(_ queue: Int, cap: String) -> String {
            "SELECT * FROM (SELECT id, due_at \(range(queue, "due_at < ?2 AND \(cap) > 0")) ORDER BY due_at, id LIMIT 1)"
        }
        let allowed =
            "(SELECT id * 4 + \(HeadRank.allowed.rawValue) FROM (SELECT min(printf('%020.6f%020d', due_at, id)), id FROM ("
            + allowedHead(2, cap: "+?4") + " UNION ALL " + allowedHead(0, cap: "+?6") + ")))"
        func held(_ queue: Int, cap: String) -> String {
            "(SELECT id * 4 + \(HeadRank.held.rawValue) \(range(queue, "due_at < ?2 AND \(cap) <= 0")) LIMIT 1)"
        }
        let picks = [
            first(.learningDue, range(1, "due_at <= ?3")), allowed, first(.learningLater, learning),
            held(2, cap: "+?4"), held(0, cap: "+?6"),
        ]
        return "SELECT counted.n AS due_count, picked.pick & 3 AS head_rank, cards.* FROM (\(counted)) counted "
            + "LEFT JOIN (SELECT COALESCE(\(picks.joined(separator: ", "))) AS pick) picked ON 1 = 1 "
            + "LEFT JOIN cards ON cards.id = picked.pick >> 2"
    }()

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

import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// The study store on SQLite. Statements written out in SQL run on `InlineSQLite`'s connections (on
/// the calling thread, prepared once per connection) when the database is a file; write
/// transactions run on its writer, one at a time (`SQLiteWriteGate`), beginning with `BEGIN
/// IMMEDIATE`. Next-card statements are written once as text with numbered parameters
/// (`SQLiteStatement`: building and serializing them from SQLKit fragments cost more than running
/// them) and count with `SQLiteCappedCount`.
struct SQLiteStudyStore: StudyStore {
    /// The inline connections of the database file (nil: the driver runs everything).
    let inline: InlineSQLite?
    /// The driver's database.
    let driver: any Database

    var db: any Database { driver }

    var sql: any SQLDatabase { inline?.database(fallback: driver.sql) ?? driver.sql }
    var bulk: any SQLDatabase { inline?.bulkDatabase(fallback: driver.sql) ?? driver.sql }

    var skipLockedClause: SQLQueryString { "" }

    var appendedReviews: (any AppendedReviews)? { nil }

    func takeCardIds(_ count: Int) async throws -> Int { try await Self.cardIdsAfterLast(on: sql) }

    /// The ids after the largest card id (`cards.id` is a rowid without AUTOINCREMENT: SQLite gives
    /// the next card the one after it).
    fileprivate static func cardIdsAfterLast(on sql: any SQLDatabase) async throws -> Int {
        struct Last: Decodable { let id: Int? }
        return (try await sql.raw("SELECT MAX(id) AS id FROM cards").first(decoding: Last.self)?.id ?? 0) + 1
    }

    func bucket(_ column: String) -> SQLQueryString { Self.bucket(column) }

    func shiftedDay(_ column: String, shift: SQLQueryString) -> SQLQueryString {
        "CAST((\(ident: column) + \(shift)) / 86400 AS INTEGER)"
    }

    /// SQLite's CAST truncates, which floors the (positive) Unix times SQLite stores dates as.
    fileprivate static func bucket(_ column: String) -> SQLQueryString {
        "CAST(\(ident: column) / \(literal: TimeBuckets.seconds) AS INTEGER)"
    }

    func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (any StudyTransaction) async throws -> T)
        async throws -> T
    {
        if let inline {
            return try await inline.writeTransaction(fallback: driver.sql) {
                try await body(Transaction(sql: $0))
            }
        }
        return try await modelTransaction { try await body($0) }
    }

    func modelTransaction<T: Sendable>(_ body: @escaping @Sendable (any ModelTransaction) async throws -> T)
        async throws -> T
    {
        // The file's gate (an in-memory database, which has no inline connections, the process's).
        let gate = inline?.gate ?? SQLiteWriteGate.shared
        await gate.enter()
        defer { gate.leave() }
        return try await driver.withConnection { connection in
            let sql = connection.sql
            try await sql.raw("BEGIN IMMEDIATE").run()
            do {
                let result = try await body(ModelTransactionOnDriver(sql: sql, db: connection))
                try await sql.raw("COMMIT").run()
                return result
            } catch {
                try? await sql.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// A transaction on the inline writer.
    struct Transaction: StudyTransaction {
        let sql: any SQLDatabase

        func lockCards(_ uniqueIds: [UUID], of userId: UUID, in stackId: Int?) async throws {}

        func bucket(_ column: String) -> SQLQueryString { SQLiteStudyStore.bucket(column) }

        func takeCardIds(_ count: Int, taken: Int?) async throws -> Int {
            try await SQLiteStudyStore.cardIdsAfterLast(on: sql)
        }
    }

    /// A transaction on one of the driver's connections, with Fluent on it.
    struct ModelTransactionOnDriver: ModelTransaction {
        let sql: any SQLDatabase
        let db: any Database

        func lockCards(_ uniqueIds: [UUID], of userId: UUID, in stackId: Int?) async throws {}

        func bucket(_ column: String) -> SQLQueryString { SQLiteStudyStore.bucket(column) }

        func takeCardIds(_ count: Int, taken: Int?) async throws -> Int {
            try await SQLiteStudyStore.cardIdsAfterLast(on: sql)
        }
    }

    // MARK: Next card

    func queueHead(stackId: Int, order: QueueOrder) async throws -> QueueHead {
        switch order.rule {
        case .ladder:
            // The ladder's count has no daily cap, so a due range may go either way; the co-routine
            // unless this stack's last count reached the limit (see `SQLiteCappedCount`).
            let hints = inline?.cappedCountHints
            let probe = hints?.full(stackId) ?? false
            let text = probe ? Self.ladderTexts.probe : Self.ladderTexts.limited
            guard
                let row = try await sql.raw("\(SQLiteStatement(text: text, binds: [stackId, order.cutoff]))").first()
            else { return .empty }
            let due = try row.decode(column: "due_count", as: Int.self)
            if (due >= QueueOrder.dueCountLimit) != probe { hints?.remember(stackId, full: !probe) }
            let card = try row.decodeNil(column: "id") ? nil : try CardModel.read(row)
            return QueueHead(card: card, rank: nil, dueCount: due)
        case .fsrs(let now, let reviewCap, let newCap):
            let binds: [any Encodable & Sendable] = [
                stackId, order.cutoff, now, reviewCap, max(reviewCap - 1, 0), newCap, max(newCap - 1, 0),
            ]
            guard let row = try await sql.raw("\(SQLiteStatement(text: Self.fsrsText, binds: binds))").first()
            else { return .empty }
            let due = try row.decode(column: "due_count", as: Int.self)
            guard try !row.decodeNil(column: "id") else { return QueueHead(card: nil, rank: nil, dueCount: due) }
            let rank = QueueOrder.HeadRank(rawValue: try row.decode(column: "head_rank", as: Int.self))
            return QueueHead(card: try CardModel.read(row), rank: rank, dueCount: due)
        }
    }

    /// The ladder's next card with the count of due cards (?1 stack, ?2 cut-off), the count in
    /// either of `SQLiteCappedCount`'s forms: the probe for a stack whose last count reached the
    /// limit, the co-routine otherwise.
    private static let ladderTexts: (probe: String, limited: String) = {
        let range = "FROM cards WHERE stack_id = +?1 AND due_at < ?2"
        func text(_ count: String) -> String {
            "SELECT counted.n AS due_count, head.* FROM (SELECT \(count) AS n) counted "
                + "LEFT JOIN (SELECT * \(range) ORDER BY due_at, id LIMIT 1) head ON 1 = 1"
        }
        return (
            text(SQLiteCappedCount.text(range, cap: QueueOrder.dueCountLimit)),
            text(SQLiteCappedCount.limitedText(range, cap: QueueOrder.dueCountLimit))
        )
    }()

    /// The FSRS next card as one text for every cap (numbered parameters: ?1 stack, ?2 cut-off, ?3
    /// now, ?4 and ?5 the review cap and the offset of its last card, ?6 and ?7 the same for new
    /// cards). Each queue has its own partial index (`UpdateCardIndexEachQueue`), so a seek or a count
    /// in one compares two key columns, as the ladder's do on `cards_stack_due`.
    ///
    /// The count is `SQLiteCappedCount`'s per queue: the learning queue alone when it fills the
    /// limit (nothing else is read then), otherwise its exact count plus reviews and new cards each
    /// up to its cap. The card to show is picked in rank order by `COALESCE`, which stops at the
    /// first rank that has one, as `id * 4 + rank`; it is then read by its row id. Reviews and new
    /// cards share a rank and are picked by due time, then id (`min()` over a sort key, whose bare
    /// column SQLite takes from the row of the minimum).
    private static let fsrsText: String = {
        typealias Rank = QueueOrder.HeadRank
        let limit = QueueOrder.dueCountLimit
        let (new, learning, review) = (CardQueue.new.rawValue, CardQueue.learning.rawValue, CardQueue.review.rawValue)
        func range(_ queue: Int, _ condition: String = "due_at < ?2") -> String {
            "FROM cards WHERE stack_id = +?1 AND queue = \(queue) AND \(condition)"
        }
        let learningRange = range(learning)
        let counted =
            "SELECT COALESCE((SELECT \(limit) \(learningRange) LIMIT 1 OFFSET \(limit - 1)), min(\(limit), "
            + "(SELECT COUNT(*) \(learningRange)) + \(SQLiteCappedCount.text(range(review), cap: "+?4", lastOffset: "+?5")) + "
            + "\(SQLiteCappedCount.text(range(new), cap: "+?6", lastOffset: "+?7")))) AS n"
        func first(_ rank: Rank, _ range: String) -> String {
            "(SELECT id * 4 + \(rank.rawValue) \(range) ORDER BY due_at, id LIMIT 1)"
        }
        func allowedHead(_ queue: Int, cap: String) -> String {
            "SELECT * FROM (SELECT id, due_at \(range(queue, "due_at < ?2 AND \(cap) > 0")) ORDER BY due_at, id LIMIT 1)"
        }
        let allowed =
            "(SELECT id * 4 + \(Rank.allowed.rawValue) FROM (SELECT min(printf('%020.6f%020d', due_at, id)), id FROM ("
            + allowedHead(review, cap: "+?4") + " UNION ALL " + allowedHead(new, cap: "+?6") + ")))"
        func held(_ queue: Int, cap: String) -> String {
            "(SELECT id * 4 + \(Rank.held.rawValue) \(range(queue, "due_at < ?2 AND \(cap) <= 0")) LIMIT 1)"
        }
        let picks = [
            first(.learningDue, range(learning, "due_at <= ?3")), allowed, first(.learningLater, learningRange),
            held(review, cap: "+?4"), held(new, cap: "+?6"),
        ]
        return "SELECT counted.n AS due_count, picked.pick & 3 AS head_rank, cards.* FROM (\(counted)) counted "
            + "LEFT JOIN (SELECT COALESCE(\(picks.joined(separator: ", "))) AS pick) picked ON 1 = 1 "
            + "LEFT JOIN cards ON cards.id = picked.pick >> 2"
    }()
}

import Foundation
import SQLKit

/// The statements of motivation (`MotivationService`): the review log as activity, the cache of
/// finished days (`motivation_days`, with its marks on `learner_settings`), rest days, mystery
/// boxes and achievements, all of one learner. Both databases run them alike.
struct MotivationStore {
    /// Short statements.
    let sql: any SQLDatabase
    /// Reads of many rows (the log).
    let bulk: any SQLDatabase
    let userId: UUID

    /// A review as motivation reads it.
    struct LoggedReview: Decodable {
        let id: UUID
        let card_id: Int
        let stack_id: Int
        let reviewed_at: Date
        let rating: Int
        let scheduler: String
    }

    /// A mystery box as stored.
    struct Box: Decodable {
        let day: Int
        let rarity: String
        let xp: Int?
        let theme: String?
    }

    /// An achievement as stored.
    struct Achievement: Decodable {
        let kind: String
        let earned_at: Date
    }

    /// The learner's reviews from `start` on (before `end` when given), in review order, without the
    /// undone ones: an undo may be made on a later day than its review, so the undo entries are read
    /// over the whole log (from the covering index; there are few).
    func reviews(from start: Date?, before end: Date?) async throws -> [LoggedReview] {
        struct UndoneRow: Decodable { let undoes: UUID }
        let undone = Set(
            try await bulk.raw(
                """
                SELECT undoes FROM review_logs WHERE user_id = \(bind: userId) AND kind = 'undo' AND undoes IS NOT NULL
                """
            ).all(decoding: UndoneRow.self).map(\.undoes))
        var query: SQLQueryString = """
            SELECT id, card_id, stack_id, reviewed_at, rating, scheduler FROM review_logs
            WHERE user_id = \(bind: userId) AND kind = 'review'
            """
        if let start { query = query + " AND reviewed_at >= \(bind: start)" }
        if let end { query = query + " AND reviewed_at < \(bind: end)" }
        query = query + " ORDER BY reviewed_at, seq"
        return try await bulk.raw(query).all(decoding: LoggedReview.self).filter { !undone.contains($0.id) }
    }

    /// The cached figures (encoded) of the days up to `day`.
    func cachedDays(through day: Int) async throws -> [(day: Int, figures: String)] {
        struct DayRow: Decodable {
            let day: Int
            let figures: String
        }
        return try await sql.raw(
            "SELECT day, figures FROM motivation_days WHERE user_id = \(bind: userId) AND day <= \(bind: day)"
        ).all(decoding: DayRow.self).map { ($0.day, $0.figures) }
    }

    /// Notes the cache as built through `day` for `key`. A change of the log recorded meanwhile (a
    /// `cache_dirty_from` other than `started`, the one the build started from) is kept.
    func markCached(key: String, through day: Int, started: Date?) async throws {
        var update: SQLQueryString = """
            UPDATE learner_settings SET cache_key = \(bind: key), cache_through = \(bind: day),
            cache_dirty_from = CASE WHEN
            """
        if let started {
            update = update + " cache_dirty_from = \(bind: started)"
        } else {
            update = update + " cache_dirty_from IS NULL"
        }
        update = update + " THEN NULL ELSE cache_dirty_from END WHERE user_id = \(bind: userId)"
        try await sql.raw(update).run()
    }

    /// Replaces the cached days after `day` with `figures` (encoded; an instance racing with this
    /// one writes the same figures).
    func replaceDays(after day: Int, with figures: [Int: String]) async throws {
        try await sql.raw("DELETE FROM motivation_days WHERE user_id = \(bind: userId) AND day > \(bind: day)").run()
        guard !figures.isEmpty else { return }
        let rows: [[any SQLExpression]] = figures.sorted { $0.key < $1.key }.map { day, value in
            [SQLBind(userId), SQLBind(day), SQLBind(value)]
        }
        // Batches keep every statement within both databases' bind limits.
        for chunk in stride(from: 0, to: rows.count, by: 200) {
            try await sql.insert(into: "motivation_days")
                .columns("user_id", "day", "figures")
                .rows(Array(rows[chunk..<min(chunk + 200, rows.count)]))
                .onConflict(with: ["user_id", "day"]) { $0.set(excludedValueOf: "figures") }
                .run()
        }
    }

    /// The learner's rest days.
    func restDays() async throws -> Set<Int> {
        struct DayNumberRow: Decodable { let day: Int }
        return Set(
            try await sql.raw("SELECT day FROM rest_days WHERE user_id = \(bind: userId)")
                .all(decoding: DayNumberRow.self).map(\.day))
    }

    /// Marks (`rest`) or unmarks a rest day.
    func setRestDay(_ day: Int, rest: Bool) async throws {
        if rest {
            try await sql.insert(into: "rest_days").columns("user_id", "day").values(SQLBind(userId), SQLBind(day))
                .ignoringConflicts(with: ["user_id", "day"]).run()
        } else {
            try await sql.delete(from: "rest_days").where("user_id", .equal, userId).where("day", .equal, day).run()
        }
    }

    /// The boxes opened.
    func boxes() async throws -> [Box] {
        try await sql.raw("SELECT day, rarity, xp, theme FROM mystery_boxes WHERE user_id = \(bind: userId)")
            .all(decoding: Box.self)
    }

    /// Stores the box of `box.day` unless one is stored already.
    func addBox(_ box: Box, openedAt: Date) async throws {
        try await sql.insert(into: "mystery_boxes")
            .columns("user_id", "day", "rarity", "xp", "theme", "opened_at")
            .values(
                SQLBind(userId), SQLBind(box.day), SQLBind(box.rarity), SQLBind(box.xp), SQLBind(box.theme),
                SQLBind(openedAt)
            )
            .ignoringConflicts(with: ["user_id", "day"])
            .run()
    }

    /// Themes won in boxes, in the order they were won, each once.
    func themes() async throws -> [String] {
        struct Row: Decodable { let theme: String }
        return try await sql.raw(
            "SELECT theme FROM mystery_boxes WHERE user_id = \(bind: userId) AND theme IS NOT NULL ORDER BY day"
        ).all(decoding: Row.self).map(\.theme).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    }

    /// The achievements earned.
    func achievements() async throws -> [Achievement] {
        try await sql.raw("SELECT kind, earned_at FROM achievements WHERE user_id = \(bind: userId)")
            .all(decoding: Achievement.self)
    }

    /// Keeps these achievements as earned at `moment` (those earned before keep their moment).
    func addAchievements(_ kinds: [String], at moment: Date) async throws {
        guard !kinds.isEmpty else { return }
        try await sql.insert(into: "achievements").columns("user_id", "kind", "earned_at")
            .rows(kinds.map { [SQLBind(userId), SQLBind($0), SQLBind(moment)] })
            .ignoringConflicts(with: ["user_id", "kind"])
            .run()
    }

    /// Marks the cache of `userId` as changed from `moment` on (see `StudyTransaction.logChanged`).
    fileprivate static func logChanged(userId: UUID, from moment: Date, on sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            UPDATE learner_settings SET cache_dirty_from = \(bind: moment)
            WHERE user_id = \(bind: userId) AND cache_through IS NOT NULL
            AND (cache_dirty_from IS NULL OR cache_dirty_from > \(bind: moment))
            """
        ).run()
    }
}

extension StudyStore {
    /// The motivation statements of `userId`.
    func motivation(of userId: UUID) -> MotivationStore { MotivationStore(sql: sql, bulk: bulk, userId: userId) }

    /// `StudyTransaction.logChanged` outside a transaction (one statement).
    func logChanged(userId: UUID, from moment: Date) async throws {
        try await MotivationStore.logChanged(userId: userId, from: moment, on: sql)
    }
}

extension StudyTransaction {
    /// Marks the motivation cache of `userId` as changed from `moment` on, in the transaction that
    /// changes the log before today (a review synced late, an undo, a deleted card or stack). Ratings
    /// made now never need it: today is never cached. A learner without settings has no cache.
    func logChanged(userId: UUID, from moment: Date) async throws {
        try await MotivationStore.logChanged(userId: userId, from: moment, on: sql)
    }
}

// MARK: Backups

extension MotivationStore {
    /// A mystery box as a backup keeps it.
    struct OpenedBox: Decodable {
        let day: Int
        let rarity: String
        let xp: Int?
        let theme: String?
        let opened_at: Date
    }

    /// What a backup keeps of motivation: rest days, opened boxes (by day) and achievements (by kind).
    func backupRecords() async throws -> (restDays: [Int], boxes: [OpenedBox], achievements: [Achievement]) {
        struct DayRow: Decodable { let day: Int }
        let restDays = try await sql.raw("SELECT day FROM rest_days WHERE user_id = \(bind: userId) ORDER BY day")
            .all(decoding: DayRow.self).map(\.day)
        let boxes = try await sql.raw(
            "SELECT day, rarity, xp, theme, opened_at FROM mystery_boxes WHERE user_id = \(bind: userId) ORDER BY day"
        ).all(decoding: OpenedBox.self)
        let achievements = try await sql.raw(
            "SELECT kind, earned_at FROM achievements WHERE user_id = \(bind: userId) ORDER BY kind"
        ).all(decoding: Achievement.self)
        return (restDays, boxes, achievements)
    }
}

import FlashcardsCore
import Foundation
import SQLKit

/// The statements of the public catalogue (`CatalogueService`, `CatalogueOperator`, the starter
/// catalogue): entries, reports and the cards a page previews. Both databases run them alike.
struct CatalogueStore {
    let sql: any SQLDatabase

    /// An entry as published (the owner's view).
    struct Publication: Decodable {
        let id: UUID
        let category: String
        let language: String
        let published_at: Date
    }

    /// An entry with its stack's name and the author, as browsing shows it.
    struct Entry: Decodable {
        let id: UUID
        let stack_id: Int
        let user_id: UUID
        let category: String
        let language: String
        let official: Bool
        let published_at: Date
        let name: String
        let description: String
        let color: String
        let icon: String?
        let author: String
        let card_count: Int
    }

    /// Which entries a learner browses: not hidden, not reported by them, of a category and a
    /// language when given, whose search text contains every word.
    struct Filter {
        var callerId: UUID
        var category: String?
        var language: String?
        var words: [String] = []
    }

    /// A report waiting for the operator.
    struct OpenReport: Decodable {
        let entry_id: UUID
        let name: String
        let author: String
        let reason: String
        let note: String?
        let created_at: Date
    }

    /// The entry of stack `stackId`, if it is published.
    func publication(ofStack stackId: Int) async throws -> Publication? {
        try await sql.raw(
            """
            SELECT id, category, language, published_at FROM catalogue_entries WHERE stack_id = \(bind: stackId)
            """
        ).first(decoding: Publication.self)
    }

    /// Writes an entry row (publishing, and the starter catalogue).
    func insertEntry(
        id: UUID, stackId: Int, userId: UUID, category: String, language: String, searchText: String, official: Bool,
        now: Date
    ) async throws {
        try await sql.insert(into: "catalogue_entries")
            .columns("id", "stack_id", "user_id", "category", "language", "search_text", "official", "published_at")
            .values(
                SQLBind(id), SQLBind(stackId), SQLBind(userId), SQLBind(category), SQLBind(language),
                SQLBind(searchText), SQLBind(official), SQLBind(now)
            ).run()
    }

    /// Changes the category, language and search text of stack `stackId`'s entry.
    func updateEntry(ofStack stackId: Int, category: String, language: String, searchText: String) async throws {
        try await sql.update("catalogue_entries")
            .set("category", to: SQLBind(category))
            .set("language", to: SQLBind(language))
            .set("search_text", to: SQLBind(searchText))
            .where("stack_id", .equal, SQLBind(stackId)).run()
    }

    /// Sets the search text of stack `stackId`'s entry (nothing when it is not published).
    func setSearchText(ofStack stackId: Int, to text: String) async throws {
        try await sql.update("catalogue_entries").set("search_text", to: SQLBind(text))
            .where("stack_id", .equal, SQLBind(stackId)).run()
    }

    /// Takes stack `stackId`'s entry out of the catalogue.
    func deleteEntry(ofStack stackId: Int) async throws {
        try await sql.delete(from: "catalogue_entries").where("stack_id", .equal, SQLBind(stackId)).run()
    }

    private func condition(_ filter: Filter) -> SQLQueryString {
        var conditions: [SQLQueryString] = [
            "e.hidden_at IS NULL",
            "NOT EXISTS (SELECT 1 FROM catalogue_reports r WHERE r.entry_id = e.id AND r.user_id = \(bind: filter.callerId))",
        ]
        if let category = filter.category { conditions.append("e.category = \(bind: category)") }
        if let language = filter.language { conditions.append("e.language = \(bind: language)") }
        for word in filter.words {
            conditions.append("e.search_text LIKE \(bind: "%" + LikePattern.escaped(word) + "%") ESCAPE '\\'")
        }
        return conditions.map { "(\($0))" as SQLQueryString }.joined(separator: " AND ")
    }

    /// How many entries `filter` lets through.
    func count(_ filter: Filter) async throws -> Int {
        try await sql.raw("SELECT COUNT(*) AS n FROM catalogue_entries e WHERE \(condition(filter))")
            .first(decoding: CountRow.self)?.n ?? 0
    }

    /// A page of the entries `filter` lets through: the starter decks first, then the newest.
    func entries(_ filter: Filter, limit: Int, offset: Int) async throws -> [Entry] {
        try await sql.raw(
            """
            \(unsafeRaw: Self.entryColumns) WHERE \(condition(filter))
            ORDER BY e.official DESC, e.published_at DESC, e.id LIMIT \(bind: limit) OFFSET \(bind: offset)
            """
        ).all(decoding: Entry.self)
    }

    /// Entry `id` when it is shown to `callerId` (not hidden, not reported by them).
    func visibleEntry(_ id: UUID, to callerId: UUID) async throws -> Entry? {
        try await sql.raw(
            """
            \(unsafeRaw: Self.entryColumns) WHERE e.id = \(bind: id) AND e.hidden_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM catalogue_reports r WHERE r.entry_id = e.id AND r.user_id = \(bind: callerId))
            """
        ).first(decoding: Entry.self)
    }

    /// Stores a report of `userId`'s (a second one of the same learner keeps the first).
    func addReport(entryId: UUID, userId: UUID, reason: String, note: String?, now: Date) async throws {
        try await sql.insert(into: "catalogue_reports")
            .columns("entry_id", "user_id", "reason", "note", "created_at")
            .values(SQLBind(entryId), SQLBind(userId), SQLBind(reason), SQLBind(note), SQLBind(now))
            .ignoringConflicts(with: ["entry_id", "user_id"])
            .run()
    }

    /// The first three cards of each stack, in one statement.
    func previews(ofStacks stacks: [Int]) async throws -> [Int: [CardModel]] {
        guard !stacks.isEmpty else { return [:] }
        let rows = try await sql.raw(
            """
            SELECT \(unsafeRaw: CardModel.columns.joined(separator: ", ")) FROM (
              SELECT c.*, ROW_NUMBER() OVER (PARTITION BY c.stack_id ORDER BY c.id) AS position
              FROM cards c WHERE c.stack_id IN (\(binds: stacks))
            ) ranked WHERE position <= 3 ORDER BY stack_id, id
            """
        ).all()
        var previews: [Int: [CardModel]] = [:]
        for row in rows {
            let card = try CardModel.read(row)
            previews[card.stackId, default: []].append(card)
        }
        return previews
    }

    // MARK: The operator

    /// Open reports of entries still shown, oldest first.
    func openReports() async throws -> [OpenReport] {
        try await sql.raw(
            """
            SELECT r.entry_id, s.name, u.name AS author, r.reason, r.note, r.created_at
            FROM catalogue_reports r JOIN catalogue_entries e ON e.id = r.entry_id
            JOIN stacks s ON s.id = e.stack_id JOIN users u ON u.id = e.user_id
            WHERE r.resolved_at IS NULL AND e.hidden_at IS NULL ORDER BY r.created_at, r.entry_id
            """
        ).all(decoding: OpenReport.self)
    }

    /// Resolves the open reports of entry `entry` (hiding it for everyone with `hiding`). False
    /// when there is no such entry.
    func resolve(_ entry: UUID, hiding: Bool, now: Date) async throws -> Bool {
        struct Found: Decodable { let id: UUID }
        guard
            try await sql.raw("SELECT id FROM catalogue_entries WHERE id = \(bind: entry)").first(decoding: Found.self)
                != nil
        else { return false }
        if hiding {
            try await sql.update("catalogue_entries").set("hidden_at", to: SQLBind(now))
                .where("id", .equal, SQLBind(entry)).run()
        }
        try await sql.update("catalogue_reports").set("resolved_at", to: SQLBind(now))
            .where("entry_id", .equal, SQLBind(entry)).where("resolved_at", .is, SQLLiteral.null).run()
        return true
    }

    private static let entryColumns = """
        SELECT e.id, e.stack_id, e.user_id, e.category, e.language, e.official, e.published_at,
        s.name, s.description, s.color, s.icon, u.name AS author,
        (SELECT COUNT(*) FROM cards c WHERE c.stack_id = s.id) AS card_count
        FROM catalogue_entries e JOIN stacks s ON s.id = e.stack_id JOIN users u ON u.id = e.user_id
        """
}

extension StudyStore {
    /// The catalogue's statements.
    var catalogue: CatalogueStore { CatalogueStore(sql: sql) }
}

extension StudyTransaction {
    /// The catalogue's statements in this transaction.
    var catalogue: CatalogueStore { CatalogueStore(sql: sql) }
}

import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// The public catalogue: owners publish a stack with a category and a language and take it back;
/// every signed-in learner browses, searches, previews and copies published stacks. An entry
/// always shows the stack as it is now (name, cards); never its learning state. A report hides the
/// entry for the reporter at once and waits for the operator (`flashcards catalogue`), who can hide
/// it for everyone.
struct CatalogueService {
    let context: ServiceContext
    let user: UserModel

    static let notFound = AppError.notFound(
        "Diesen Stapel gibt es im Katalog nicht (mehr).", code: "catalogue_entry_not_found")

    // MARK: Publishing (the owner)

    /// The stack's entry, if it is published.
    func publication(of stack: StackModel) async throws -> PublicationDTO? {
        try await context.store.sql.raw(
            """
            SELECT id, category, language, published_at FROM catalogue_entries WHERE stack_id = \(bind: stack.id!)
            """
        ).first(decoding: PublicationRow.self)?.dto
    }

    /// Publishes `stack` (an empty one cannot be), or changes its category and language. Answers
    /// the entry and whether it is new.
    func publish(_ stack: StackModel, _ request: PublishRequest) async throws -> (PublicationDTO, created: Bool) {
        let cards = try await CardModel.query(on: context.db).filter(\.$stackId == stack.id!).count()
        guard cards > 0 else {
            throw AppError.refused(
                "Ein leerer Stapel kann nicht veröffentlicht werden. Lege zuerst Karten an.", code: "stack_empty")
        }
        if var existing = try await publication(of: stack) {
            try await context.store.sql.update("catalogue_entries")
                .set("category", to: SQLBind(request.category.rawValue))
                .set("language", to: SQLBind(request.language.rawValue))
                .set("search_text", to: SQLBind(Self.searchText(stack)))
                .where("stack_id", .equal, SQLBind(stack.id!)).run()
            existing.category = request.category
            existing.language = request.language
            return (existing, false)
        }
        let id = context.uuid()
        try await Self.insertEntry(
            id: id, stack: stack, category: request.category, language: request.language, official: false,
            now: context.now, sql: context.store.sql)
        return (
            PublicationDTO(
                entryId: id, category: request.category, language: request.language, publishedAt: context.now), true
        )
    }

    /// Takes the stack out of the catalogue at once (nothing to do when it is not in it). Copies
    /// learners made stay theirs.
    func unpublish(_ stack: StackModel) async throws {
        try await context.store.sql.delete(from: "catalogue_entries").where("stack_id", .equal, SQLBind(stack.id!))
            .run()
    }

    /// Writes an entry row (publishing, and the starter catalogue).
    static func insertEntry(
        id: UUID, stack: StackModel, category: CatalogueCategory, language: CatalogueLanguage, official: Bool,
        now: Date, sql: any SQLDatabase
    ) async throws {
        try await sql.insert(into: "catalogue_entries")
            .columns("id", "stack_id", "user_id", "category", "language", "search_text", "official", "published_at")
            .values(
                SQLBind(id), SQLBind(stack.id!), SQLBind(stack.userId), SQLBind(category.rawValue),
                SQLBind(language.rawValue), SQLBind(searchText(stack)), SQLBind(official), SQLBind(now)
            ).run()
    }

    /// Keeps a published stack's search text in step with its name and description.
    static func refreshSearchText(of stack: StackModel, sql: any SQLDatabase) async throws {
        try await sql.update("catalogue_entries").set("search_text", to: SQLBind(searchText(stack)))
            .where("stack_id", .equal, SQLBind(stack.id!)).run()
    }

    /// Name and description, lowercased in Swift (SQLite's LOWER folds ASCII only).
    static func searchText(_ stack: StackModel) -> String {
        (stack.name + "\n" + stack.description).lowercased()
    }

    // MARK: Browsing (everyone signed in)

    /// A page of the catalogue: entries not hidden, not reported by the caller, of `category` and
    /// `language` when given, whose name or description contains every word of `search`; the
    /// starter decks first, then the newest.
    func browse(
        search: String?, category: CatalogueCategory?, language: CatalogueLanguage?, page: Int, perPage: Int
    ) async throws -> PageDTO<CatalogueEntryDTO> {
        var conditions: [SQLQueryString] = [
            "e.hidden_at IS NULL",
            "NOT EXISTS (SELECT 1 FROM catalogue_reports r WHERE r.entry_id = e.id AND r.user_id = \(bind: user.id!))",
        ]
        if let category { conditions.append("e.category = \(bind: category.rawValue)") }
        if let language { conditions.append("e.language = \(bind: language.rawValue)") }
        for word in (search ?? "").lowercased().split(whereSeparator: \.isWhitespace).prefix(8) {
            conditions.append("e.search_text LIKE \(bind: "%" + Self.likeEscaped(String(word)) + "%") ESCAPE '\\'")
        }
        let filter = conditions.map { "(\($0))" as SQLQueryString }.joined(separator: " AND ")
        struct Count: Decodable { let n: Int }
        let total =
            try await context.store.sql.raw("SELECT COUNT(*) AS n FROM catalogue_entries e WHERE \(filter)")
            .first(decoding: Count.self)?.n ?? 0
        let rows = try await context.store.sql.raw(
            """
            \(unsafeRaw: Self.entryColumns) WHERE \(filter)
            ORDER BY e.official DESC, e.published_at DESC, e.id LIMIT \(bind: perPage) OFFSET \(bind: (page - 1) * perPage)
            """
        ).all(decoding: EntryRow.self)
        let previews = try await previews(of: rows.map(\.stack_id))
        return PageDTO(
            items: try rows.map { row in try row.dto(preview: previews[row.stack_id] ?? [], caller: user.id!) },
            page: page,
            perPage: perPage, total: total)
    }

    /// One entry with a page of its cards (not found when hidden, reported by the caller, or gone).
    func entry(_ id: String?, page: Int, perPage: Int) async throws -> CatalogueStackDTO {
        let (row, stack) = try await find(id)
        let cards = try await ShareService.cards(of: stack, page: page, perPage: perPage, on: context.db)
        return CatalogueStackDTO(
            entry: try row.dto(preview: Array(cards.items.prefix(3)), caller: user.id!), cards: cards)
    }

    /// The caller's own copy of a published stack (new progress).
    func copy(_ id: String?) async throws -> StackModel {
        let (_, stack) = try await find(id)
        return try await ShareService(context: context).copy(stack, for: user)
    }

    /// Reports an entry: hidden for the caller from now on, queued for the operator. Reporting
    /// twice keeps the first report; one's own entry cannot be reported.
    func report(_ id: String?, _ request: ReportRequest) async throws {
        let (row, _) = try await find(id)
        guard row.user_id != user.id! else {
            throw AppError.refused("Du kannst deinen eigenen Stapel nicht melden.", code: "own_entry")
        }
        let note = try request.note.map { try Validate.optionalText($0, field: "Die Beschreibung", max: 1_000) }
            .flatMap { $0.isEmpty ? nil : $0 }
        try await context.store.sql.insert(into: "catalogue_reports")
            .columns("entry_id", "user_id", "reason", "note", "created_at")
            .values(
                SQLBind(row.id), SQLBind(user.id!), SQLBind(request.reason.rawValue), SQLBind(note),
                SQLBind(context.now)
            )
            .ignoringConflicts(with: ["entry_id", "user_id"])
            .run()
    }

    // MARK: Reading

    private func find(_ id: String?) async throws -> (EntryRow, StackModel) {
        let entryId = try Validate.uuid(id, notFound: Self.notFound)
        guard
            let row = try await context.store.sql.raw(
                """
                \(unsafeRaw: Self.entryColumns) WHERE e.id = \(bind: entryId) AND e.hidden_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM catalogue_reports r WHERE r.entry_id = e.id AND r.user_id = \(bind: user.id!))
                """
            ).first(decoding: EntryRow.self),
            let stack = try await StackModel.find(row.stack_id, on: context.db)
        else { throw Self.notFound }
        return (row, stack)
    }

    /// The first three cards of each stack, in one statement.
    private func previews(of stacks: [Int]) async throws -> [Int: [SharedCardDTO]] {
        guard !stacks.isEmpty else { return [:] }
        let ids = stacks.map { "\(bind: $0)" as SQLQueryString }.joined(separator: ", ")
        let rows = try await context.store.sql.raw(
            """
            SELECT \(unsafeRaw: CardModel.columns.joined(separator: ", ")) FROM (
              SELECT c.*, ROW_NUMBER() OVER (PARTITION BY c.stack_id ORDER BY c.id) AS position
              FROM cards c WHERE c.stack_id IN (\(ids))
            ) ranked WHERE position <= 3 ORDER BY stack_id, id
            """
        ).all()
        var previews: [Int: [SharedCardDTO]] = [:]
        for row in rows {
            let card = try CardModel.read(row)
            previews[card.stackId, default: []].append(try card.shared)
        }
        return previews
    }

    private static let entryColumns = """
        SELECT e.id, e.stack_id, e.user_id, e.category, e.language, e.official, e.published_at,
        s.name, s.description, s.color, s.icon, u.name AS author,
        (SELECT COUNT(*) FROM cards c WHERE c.stack_id = s.id) AS card_count
        FROM catalogue_entries e JOIN stacks s ON s.id = e.stack_id JOIN users u ON u.id = e.user_id
        """

    /// `%`, `_` and `\` taken literally in a LIKE pattern.
    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}

private struct PublicationRow: Decodable {
    let id: UUID
    let category: String
    let language: String
    let published_at: Date

    var dto: PublicationDTO {
        get throws {
            PublicationDTO(
                entryId: id,
                category: try storedValue(CatalogueCategory.self, category, column: "catalogue_entries.category"),
                language: try storedValue(CatalogueLanguage.self, language, column: "catalogue_entries.language"),
                publishedAt: published_at)
        }
    }
}

private struct EntryRow: Decodable {
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

    func dto(preview: [SharedCardDTO], caller: UUID) throws -> CatalogueEntryDTO {
        CatalogueEntryDTO(
            id: id, name: name, description: description, color: color,
            icon: try icon.map { try storedValue(StackIcon.self, $0, column: "stacks.icon") },
            category: try storedValue(CatalogueCategory.self, category, column: "catalogue_entries.category"),
            language: try storedValue(CatalogueLanguage.self, language, column: "catalogue_entries.language"),
            cardCount: card_count, author: author,
            official: official, publishedAt: published_at, preview: preview, mine: user_id == caller)
    }
}

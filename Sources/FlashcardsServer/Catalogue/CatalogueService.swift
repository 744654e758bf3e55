import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation

/// The public catalogue: owners publish a stack with a category and a language and take it back;
/// every signed-in learner browses, searches, previews and copies published stacks. An entry
/// always shows the stack as it is now (name, cards); never its learning state. A report hides the
/// entry for the reporter at once and waits for the operator (`flashcards catalogue`), who can hide
/// it for everyone.
struct CatalogueService {
    let context: ServiceContext
    let user: UserModel

    private var catalogue: CatalogueStore { context.store.catalogue }

    static let notFound = AppError.notFound(
        "Diesen Stapel gibt es im Katalog nicht (mehr).", code: "catalogue_entry_not_found")

    // MARK: Publishing (the owner)

    /// The stack's entry, if it is published.
    func publication(of stack: StackModel) async throws -> PublicationDTO? {
        try await catalogue.publication(ofStack: stack.id!)?.dto
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
            try await catalogue.updateEntry(
                ofStack: stack.id!, category: request.category.rawValue, language: request.language.rawValue,
                searchText: Self.searchText(stack))
            existing.category = request.category
            existing.language = request.language
            return (existing, false)
        }
        let id = context.uuid()
        try await Self.insertEntry(
            id: id, stack: stack, category: request.category, language: request.language, official: false,
            now: context.now, in: catalogue)
        return (
            PublicationDTO(
                entryId: id, category: request.category, language: request.language, publishedAt: context.now), true
        )
    }

    /// Takes the stack out of the catalogue at once (nothing to do when it is not in it). Copies
    /// learners made stay theirs.
    func unpublish(_ stack: StackModel) async throws {
        try await catalogue.deleteEntry(ofStack: stack.id!)
    }

    /// Writes an entry row (publishing, and the starter catalogue).
    static func insertEntry(
        id: UUID, stack: StackModel, category: CatalogueCategory, language: CatalogueLanguage, official: Bool,
        now: Date, in catalogue: CatalogueStore
    ) async throws {
        try await catalogue.insertEntry(
            id: id, stackId: stack.id!, userId: stack.userId, category: category.rawValue, language: language.rawValue,
            searchText: searchText(stack), official: official, now: now)
    }

    /// Keeps a published stack's search text in step with its name and description.
    static func refreshSearchText(of stack: StackModel, in catalogue: CatalogueStore) async throws {
        try await catalogue.setSearchText(ofStack: stack.id!, to: searchText(stack))
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
        let filter = CatalogueStore.Filter(
            callerId: user.id!, category: category?.rawValue, language: language?.rawValue,
            words: (search ?? "").lowercased().split(whereSeparator: \.isWhitespace).prefix(8).map(String.init))
        let total = try await catalogue.count(filter)
        let rows = try await catalogue.entries(filter, limit: perPage, offset: (page - 1) * perPage)
        let previews = try await catalogue.previews(ofStacks: rows.map(\.stack_id)).mapValues {
            try $0.map { try $0.shared }
        }
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
        try await catalogue.addReport(
            entryId: row.id, userId: user.id!, reason: request.reason.rawValue, note: note, now: context.now)
    }

    // MARK: Reading

    private func find(_ id: String?) async throws -> (CatalogueStore.Entry, StackModel) {
        let entryId = try Validate.uuid(id, notFound: Self.notFound)
        guard
            let row = try await catalogue.visibleEntry(entryId, to: user.id!),
            let stack = try await StackModel.find(row.stack_id, on: context.db)
        else { throw Self.notFound }
        return (row, stack)
    }

}

extension CatalogueStore.Publication {
    var dto: PublicationDTO {
        PublicationDTO(
            entryId: id, category: CatalogueCategory(rawValue: category) ?? .other,
            language: CatalogueLanguage(rawValue: language) ?? .other, publishedAt: published_at)
    }
}

extension CatalogueStore.Entry {
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

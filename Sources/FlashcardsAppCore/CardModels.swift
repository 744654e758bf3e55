import FlashcardsAPI
import FlashcardsClient
import Foundation
import Observation

/// A stack's page: its cards, a page at a time, searched on the server; deleting a card.
@MainActor @Observable
public final class StackDetailModel {
    /// The cards shown (the pages loaded so far), or why they could not be loaded.
    public private(set) var state: LoadState<[CardDTO]> = .idle
    /// Cards matching the search, on all pages.
    public private(set) var total = 0
    /// The search text of the list shown.
    public private(set) var search = ""
    /// Why the last change failed.
    public private(set) var errorMessage: String?

    /// The stack.
    public let stackId: UUID
    private let client: FlashcardsClient
    private let perPage: Int
    private var page = 0

    /// The cards of `stackId`, `perPage` at a time.
    public init(stackId: UUID, client: FlashcardsClient, perPage: Int = 50) {
        self.stackId = stackId
        self.client = client
        self.perPage = perPage
    }

    /// Whether more pages are on the server.
    public var hasMore: Bool { (state.value?.count ?? 0) < total }

    /// The first page for `search` (blank: all cards).
    public func load(search: String = "") async {
        self.search = search.trimmingCharacters(in: .whitespacesAndNewlines)
        page = 0
        state = .loading
        await loadMore()
    }

    /// The next page, appended.
    public func loadMore() async {
        do {
            let next = try await client.cards(
                in: stackId, page: page + 1, perPage: perPage, search: search.isEmpty ? nil : search)
            page = next.page
            total = next.total
            state = .loaded((page == 1 ? [] : state.value ?? []) + next.items)
        } catch {
            state = .failed(UserFacingError.message(for: error))
        }
    }

    /// Deletes a card (the view asks first).
    public func delete(_ card: CardDTO) async {
        do {
            try await client.deleteCard(card.id, in: stackId)
            state = .loaded((state.value ?? []).filter { $0.id != card.id })
            total -= 1
            errorMessage = nil
        } catch {
            errorMessage = UserFacingError.message(for: error)
        }
    }
}

/// Writing a card, new or changed: the fields, their checks, the rich-text option with a preview
/// rendered by the server, and saving.
@MainActor @Observable
public final class CardEditorModel {
    /// Front side.
    public var question: String
    /// Back side.
    public var answer: String
    /// Hint (empty: none).
    public var hint: String
    /// Markdown and formulas instead of plain text.
    public var isRich: Bool
    /// The preview of a rich card's sides, as the server renders them.
    public private(set) var preview: RenderedCardDTO?
    /// What is wrong with the fields, or why saving failed; nil when all is well.
    public private(set) var errorMessage: String?
    /// Saving or previewing.
    public private(set) var isWorking = false

    /// The card being changed; nil for a new one. Not observed (the fields above are what the view
    /// shows), which also keeps this large value out of the macro's init accessors: with them,
    /// Swift 6.3's debug build crashed in this initializer.
    @ObservationIgnored public private(set) var card: CardDTO?
    private let stackId: UUID
    private let client: FlashcardsClient

    /// An editor for a new card in `stackId`, or for `card`.
    public init(stackId: UUID, client: FlashcardsClient, card: CardDTO? = nil) {
        self.stackId = stackId
        self.client = client
        self.card = card
        question = card?.question ?? ""
        answer = card?.answer ?? ""
        hint = card?.hint ?? ""
        isRich = card?.format == .markdown
    }

    /// What keeps the card from being saved, checked here before asking the server (its limits:
    /// 10,000 and 20,000 characters, a hint of 2,000).
    public var problem: String? {
        if question.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "Die Vorderseite ist leer." }
        if answer.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "Die Rückseite ist leer." }
        if question.unicodeScalars.count > 10_000 { return "Die Vorderseite ist zu lang (höchstens 10.000 Zeichen)." }
        if answer.unicodeScalars.count > 20_000 { return "Die Rückseite ist zu lang (höchstens 20.000 Zeichen)." }
        if hint.unicodeScalars.count > 2_000 { return "Der Hinweis ist zu lang (höchstens 2.000 Zeichen)." }
        return nil
    }

    /// Renders the sides as the server will (a rich card only).
    public func updatePreview() async {
        guard isRich else {
            preview = nil
            return
        }
        do {
            async let front = client.render(question)
            async let back = client.render(answer)
            let hintText = hint.trimmingCharacters(in: .whitespacesAndNewlines)
            let hintHTML = hintText.isEmpty ? nil : try await client.render(hintText).html
            preview = RenderedCardDTO(html: try await front.html, try await back.html, hintHTML)
        } catch {
            preview = nil
        }
    }

    /// A side of the card an image goes on.
    public enum Side: Sendable {
        case question, answer, hint
    }

    /// Uploads a picture (from the camera or the photo library; the server re-encodes it without
    /// metadata) and appends it to `side` as Markdown, with `description` for screen readers; the
    /// card becomes rich. True on success; otherwise `errorMessage` says why (too large, no picture).
    @discardableResult
    public func insertImage(_ data: Data, on side: Side, description: String = "") async -> Bool {
        guard data.count <= 10 * 1_024 * 1_024 else {
            errorMessage = "Bilder dürfen höchstens 10 MB groß sein."
            return false
        }
        isWorking = true
        defer { isWorking = false }
        do {
            let image = try await client.uploadImage(data, fileName: "photo")
            let markdown = RichText.imageMarkdown(id: image.id.uuidString, description: description)
            func appended(_ text: String) -> String {
                text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? markdown : text + "\n\n" + markdown
            }
            switch side {
            case .question: question = appended(question)
            case .answer: answer = appended(answer)
            case .hint: hint = appended(hint)
            }
            isRich = true
            errorMessage = nil
            await updatePreview()
            return true
        } catch {
            errorMessage = UserFacingError.message(for: error)
            return false
        }
    }

    /// Saves the card; true on success (a new card's fields are emptied for the next one).
    @discardableResult
    public func save() async -> Bool {
        if let problem {
            errorMessage = problem
            return false
        }
        isWorking = true
        defer { isWorking = false }
        let format: CardFormat = isRich ? .markdown : .plain
        let trimmedHint = hint.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            if let card {
                self.card = try await client.updateCard(
                    card.id, in: stackId, question: question, answer: answer,
                    hint: trimmedHint == (card.hint ?? "") ? nil : trimmedHint,
                    format: format == card.format ? nil : format)
            } else {
                _ = try await client.createCard(
                    in: stackId, question: question, answer: answer, hint: trimmedHint.isEmpty ? nil : trimmedHint,
                    format: format)
                question = ""
                answer = ""
                hint = ""
                preview = nil
            }
            errorMessage = nil
            return true
        } catch {
            errorMessage = UserFacingError.message(for: error)
            return false
        }
    }
}

extension RenderedCardDTO {
    /// A preview made of rendered texts (the initializer of the wire type renders sources).
    fileprivate init(html question: String, _ answer: String, _ hint: String?) {
        self.init(question: "", answer: "", hint: nil)
        self.question = question
        self.answer = answer
        self.hint = hint
    }
}

import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation

/// Read-only links to a stack: its owner makes or revokes one; anyone with the link sees the
/// stack's cards (never its learning state), and a signed-in learner can copy it into their own
/// library with new progress. A revoked link stops working at once, and never comes back.
struct ShareService {
    let context: ServiceContext

    static let notFound = AppError.notFound(
        "Dieser Link gilt nicht (mehr): Der Stapel wird nicht mehr geteilt oder der Link ist falsch.",
        code: "share_not_found")

    /// The stack's active link, if it has one.
    func link(of stack: StackModel) async throws -> ShareLinkDTO? {
        try await context.store.accounts.shareLink(ofStack: stack.id!).map {
            ShareLinkDTO(token: $0.token, createdAt: $0.created_at)
        }
    }

    /// The stack's active link: the one there is, or a new one (`created` says which).
    func create(for stack: StackModel) async throws -> (link: ShareLinkDTO, created: Bool) {
        if let link = try await link(of: stack) { return (link, false) }
        let token = RandomToken.make()
        try await context.store.accounts.addShareLink(
            token: token, stackId: stack.id!, userId: stack.userId, now: context.now)
        return (ShareLinkDTO(token: token, createdAt: context.now), true)
    }

    /// Revokes the stack's link (nothing to do when it has none).
    func revoke(for stack: StackModel) async throws {
        try await context.store.accounts.revokeShareLinks(ofStack: stack.id!, now: context.now)
    }

    /// The stack an active link shows.
    func stack(token: String?) async throws -> StackModel {
        guard let token, RandomToken.isWellFormed(token) else { throw Self.notFound }
        guard
            let stackId = try await context.store.accounts.sharedStackId(token: token),
            let stack = try await StackModel.find(stackId, on: context.db)
        else { throw Self.notFound }
        return stack
    }

    /// A shared stack with a page of its cards.
    func shared(token: String?, page: Int, perPage: Int) async throws -> SharedStackDTO {
        let stack = try await stack(token: token)
        let cards = try await Self.cards(of: stack, page: page, perPage: perPage, on: context.db)
        return SharedStackDTO(
            name: stack.name, color: stack.color, description: stack.description,
            icon: stack.icon.flatMap { StackIcon(rawValue: $0) }, cardCount: cards.total, cards: cards)
    }

    /// A page of a stack's cards as others see them (texts only), in the order they were made.
    static func cards(of stack: StackModel, page: Int, perPage: Int, on db: any Database) async throws
        -> PageDTO<SharedCardDTO>
    {
        let query = CardModel.query(on: db).filter(\.$stackId == stack.id!)
        let total = try await query.count()
        let cards = try await query.sort(\.$id).range((page - 1) * perPage..<(page * perPage)).all()
        return PageDTO(items: try cards.map { try $0.shared }, page: page, perPage: perPage, total: total)
    }

    /// The caller's own copy of a shared stack: the same texts, colour, description and icon, and
    /// new progress (every card new, no history), in one transaction.
    func copy(token: String?, for user: UserModel) async throws -> StackModel {
        try await copy(try await stack(token: token), for: user)
    }

    /// The caller's own copy of `source` (a shared or published stack).
    func copy(_ source: StackModel, for user: UserModel) async throws -> StackModel {
        let stored = try await CardModel.query(on: context.db).filter(\.$stackId == source.id!).sort(\.$id).all()
        // The images the cards show become the learner's own copies (the owner may delete theirs).
        let (cards, images) = try await ImageService.copies(
            of: stored.map { card in
                CardImport.Card(
                    question: card.question, answer: card.answer, hint: card.hint,
                    tags: (card.tags ?? "").split(separator: " ").map(String.init), format: try card.cardFormat,
                    kind: try card.cardKind, variant: card.variant, noteId: card.noteId, choices: card.choices)
            }, ownerId: source.userId, for: user.id!, uuid: context.uuid, in: context.store.images)
        let deck = ImportWriter.Deck(
            name: source.name, cards: cards.map { ImportWriter.Card(card: $0, reviews: []) })
        let written = try await ImportWriter.save(
            [deck], target: nil, name: nil, userId: user.id!, uuid: context.uuid, now: context.now, on: context.db,
            store: context.store, images: images)
        guard let written = written.first?.stack, let copy = try await StackModel.find(written.id, on: context.db)
        else { throw Self.notFound }
        copy.color = source.color
        copy.description = source.description
        copy.icon = source.icon
        try await copy.save(on: context.db)
        return copy
    }
}

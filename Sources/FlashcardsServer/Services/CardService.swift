import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// Cards of one of the caller's stacks.
struct CardService {
    let context: ServiceContext
    let stack: StackModel

    private var stackId: Int { stack.id! }

    /// The card with this path id in this stack.
    func find(_ uniqueId: String?) async throws -> CardModel {
        let id = try Validate.uuid(uniqueId, notFound: .cardNotFound)
        guard
            let card = try await CardModel.query(on: context.db)
                .filter(\.$uniqueId == id).filter(\.$stackId == stackId).first()
        else { throw AppError.cardNotFound }
        return card
    }

    /// One page of cards in creation order, optionally only those whose question, answer or hint
    /// contains `search` (case-insensitive), and only the bookmarked (or the other) ones.
    func page(search: String?, bookmarked: Bool? = nil, page: Int, perPage: Int) async throws
        -> (cards: [CardModel], total: Int)
    {
        let pattern = search?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        func query() -> QueryBuilder<CardModel> {
            let query = CardModel.query(on: context.db).filter(\.$stackId == stackId)
            if let pattern, !pattern.isEmpty {
                let like = "%" + Self.escapeLike(pattern) + "%"
                query.filter(.sql(embed: "search_text LIKE \(bind: like) ESCAPE '\\'"))
            }
            if let bookmarked { query.filter(\.$bookmarked == bookmarked) }
            return query
        }
        let total = try await query().count()
        let cards = try await query().sort(\.$id).range((page - 1) * perPage..<(page * perPage)).all()
        return (cards, total)
    }

    /// Bookmarks `card` or removes its bookmark; the schedule stays as it is.
    func setBookmark(_ card: CardModel, _ bookmarked: Bool) async throws -> CardModel {
        guard card.bookmarked != bookmarked else { return card }
        card.bookmarked = bookmarked
        try await card.save(on: context.db)
        return card
    }

    /// All cards of the stack in creation order.
    func all() async throws -> [CardModel] {
        try await CardModel.query(on: context.db).filter(\.$stackId == stackId).sort(\.$id).all()
    }

    /// A new card, due at once; one without a hint gets one from a hint job. `createdAt` is when a
    /// card made offline was made (its reviews may not be older): not before 2000 (400, as the
    /// document's pattern says), at most a day ahead of the server's clock (409, as that depends on
    /// when it is sent).
    func create(
        question: String, answer: String, hint: String?, createdAt: Date? = nil, format: CardFormat = .plain
    ) async throws -> CardModel {
        if let createdAt {
            guard createdAt >= ReviewService.earliestReview else {
                throw AppError.validation("createdAt liegt vor dem Jahr 2000.")
            }
            guard createdAt <= context.now.addingTimeInterval(86_400) else {
                throw AppError.refused("createdAt liegt in der Zukunft.", code: "created_in_future")
            }
        }
        let card = CardModel(
            uniqueId: context.uuid(), stackId: stackId, userId: stack.userId,
            question: try Validate.text(question, field: "Die Vorderseite", max: TextLimits.question),
            answer: try Validate.text(answer, field: "Die Rückseite", max: TextLimits.answer),
            hint: try Validate.hint(hint), now: context.now, format: format)
        if let createdAt { card.createdAt = min(createdAt, context.now) }
        card.hintSource = card.hint == nil ? nil : "user"
        try await card.create(on: context.db)
        if card.hint == nil { try await queueHint() }
        return card
    }

    /// Changes the given fields; an empty hint removes the hint. A generated hint is remade when
    /// the question or answer changes; a hint the user wrote (or removed) stays theirs.
    func update(
        _ card: CardModel, question: String?, answer: String?, hint: String?, format: CardFormat? = nil
    ) async throws -> CardModel {
        let before = (card.question, card.answer)
        if let format { card.format = format.rawValue }
        if let question {
            card.question = try Validate.text(question, field: "Die Vorderseite", max: TextLimits.question)
        }
        if let answer { card.answer = try Validate.text(answer, field: "Die Rückseite", max: TextLimits.answer) }
        if let hint {
            card.hint = try Validate.hint(hint)
            card.hintSource = "user"
        } else if card.hintSource == "generated", before != (card.question, card.answer) {
            card.hint = nil
            card.hintSource = nil
        }
        card.refreshSearchText()
        card.updatedAt = context.now
        try await card.save(on: context.db)
        if card.hint == nil, card.hintSource == nil { try await queueHint() }
        return card
    }

    private func queueHint() async throws {
        try await HintJobs.enqueueMissing(stackId: stackId, userId: stack.userId, db: context.db, now: context.now)
    }

    /// Deletes a card with its schedule and reviews; the stack's day counts no longer count it.
    func delete(_ card: CardModel) async throws {
        let cardId = card.id!
        let stackId = self.stackId
        let userId = stack.userId
        try await context.store.writeTransaction { tx in
            guard let times = try await tx.deleteCard(id: cardId) else { return }
            _ = try await StackDayCounts.apply(
                ReviewTimesChange(stackId: stackId, before: times, after: .unreviewed), in: tx)
            // Its reviews leave the progress of their days.
            if let first = times.first {
                try await MotivationService.logChanged(userId: userId, from: first, on: tx.sql)
            }
        }
    }

    /// Escapes LIKE's wildcards so a search for "50%" finds "50%" only.
    static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

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
            if let pattern, !pattern.isEmpty { query.filter(searchTextContains: pattern) }
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
        question: String, answer: String, hint: String?, createdAt: Date? = nil, format: CardFormat = .plain,
        kind: CardKind = .basic, choices: [String]? = nil
    ) async throws -> CardModel {
        let new = NewCard(
            question: question, answer: answer, hint: hint, createdAt: createdAt, format: format, kind: kind,
            choices: choices)
        return try await create([new])[0]
    }

    /// The texts of a card to make.
    struct NewCard {
        var question: String
        var answer: String
        var hint: String?
        var createdAt: Date? = nil
        var format: CardFormat = .plain
        var kind: CardKind = .basic
        var choices: [String]? = nil
    }

    /// New cards, all or none: every one is checked before any is written, and they are written in
    /// one transaction. Answers with the first card of each (a reversed pair or a cloze makes several).
    func create(_ new: [NewCard]) async throws -> [CardModel] {
        var notes: [[CardModel]] = []
        for card in new { notes.append(try await checked(card)) }
        let all = notes.flatMap { $0 }
        if all.count == 1 {
            try await all[0].create(on: context.db)
        } else {
            try await context.store.modelTransaction { tx in
                for card in all { try await card.create(on: tx.db) }
            }
        }
        if notes.contains(where: { $0[0].hint == nil }) { try await queueHint() }
        return notes.map { $0[0] }
    }

    /// The cards one new card makes, checked (`createdAt`, texts, hint, images) and not yet written.
    private func checked(_ new: NewCard) async throws -> [CardModel] {
        if let createdAt = new.createdAt {
            guard createdAt >= ReviewService.earliestReview else {
                throw AppError.validation("createdAt liegt vor dem Jahr 2000.")
            }
            guard createdAt <= context.now.addingTimeInterval(86_400) else {
                throw AppError.refused("createdAt liegt in der Zukunft.", code: "created_in_future")
            }
        }
        let texts = try Self.checkedTexts(
            question: new.question, answer: new.answer, choices: new.choices, kind: new.kind)
        let hint = try Validate.hint(new.hint)
        try await ImageService(context: context).checkOwned(
            [texts.question, texts.answer, hint], format: new.format, userId: stack.userId)
        // A reversed pair or a cloze is one note of several cards, made together.
        let noteId = new.kind.makesSeveralCards ? context.uuid().uuidString.lowercased() : nil
        return new.kind.variants(question: texts.question).map { variant in
            let card = CardModel(
                uniqueId: context.uuid(), stackId: stackId, userId: stack.userId, question: texts.question,
                answer: texts.answer, hint: hint, now: context.now, format: new.format)
            if let createdAt = new.createdAt { card.createdAt = min(createdAt, context.now) }
            card.hintSource = card.hint == nil ? nil : "user"
            card.kind = new.kind.rawValue
            card.variant = variant
            card.noteId = noteId
            card.choices = texts.choices
            return card
        }
    }

    /// A card's texts checked for its kind: trimmed, within their limits, and what the kind needs
    /// (`CardKind.problem`, refused with code `card_kind_rules`: rules a JSON schema cannot state).
    /// A cloze's answer (extra notes) may be empty.
    static func checkedTexts(question: String, answer: String, choices: [String]?, kind: CardKind) throws
        -> (question: String, answer: String, choices: [String]?)
    {
        let question = try Validate.text(question, field: "Die Vorderseite", max: TextLimits.question)
        let answer = try Validate.optionalText(answer, field: "Die Rückseite", max: TextLimits.answer)
        if let problem = kind.problem(question: question, answer: answer, choices: choices) {
            throw AppError.invalid(problem, code: cardKindRules)
        }
        return (question, answer, kind == .multipleChoice ? choices.map { $0.map(TextCheck.trimmed) } : nil)
    }

    /// The error code of a card its kind's rules refuse.
    static let cardKindRules = "card_kind_rules"

    /// Changes the given fields; an empty hint removes the hint. A generated hint is remade when
    /// the question or answer changes; a hint the user wrote (or removed) stays theirs.
    /// The texts of a reversed pair or a cloze belong to its note: an edit changes every card of it,
    /// and a cloze gets a card for a new gap number and loses the card of a number no longer there
    /// (the other cards keep their progress). Everything in one transaction.
    func update(
        _ card: CardModel, question: String?, answer: String?, hint: String?, format: CardFormat? = nil,
        choices: [String]? = nil
    ) async throws -> CardModel {
        let kind = try card.cardKind
        let before = (card.question, card.answer)
        let texts = try Self.checkedTexts(
            question: question ?? card.question, answer: answer ?? card.answer, choices: choices ?? card.choices,
            kind: kind)
        let hint = try hint.map { try Validate.hint($0) }
        try await ImageService(context: context).checkOwned(
            [texts.question, texts.answer, hint ?? card.hint], format: try format ?? card.cardFormat,
            userId: stack.userId,
            keeping: try card.cardFormat == .markdown ? [card.question, card.answer, card.hint] : [])
        let now = context.now
        let apply: @Sendable (CardModel) -> Void = { card in
            if let format { card.format = format.rawValue }
            card.question = texts.question
            card.answer = texts.answer
            card.choices = texts.choices
            if let hint {
                card.hint = hint
                card.hintSource = "user"
            } else if card.hintSource == "generated", before != (card.question, card.answer) {
                card.hint = nil
                card.hintSource = nil
            }
            card.refreshSearchText()
            card.updatedAt = now
        }
        guard kind.makesSeveralCards, let noteId = card.noteId else {
            apply(card)
            try await card.save(on: context.db)
            if card.hint == nil, card.hintSource == nil { try await queueHint() }
            return card
        }
        let stackId = self.stackId
        let userId = stack.userId
        let uuid = context.uuid
        let wanted = Set(kind.variants(question: texts.question))
        let siblings = try await CardModel.query(on: context.db).filter(\.$userId == userId)
            .filter(\.$noteId == noteId).filter(\.$id != card.id!).all()
        var have: Set<Int> = []
        var keeping: [CardModel] = []
        var gone: [CardModel] = []
        for sibling in [card] + siblings {
            if wanted.contains(sibling.variant), have.insert(sibling.variant).inserted {
                apply(sibling)
                keeping.append(sibling)
            } else {
                gone.append(sibling)
            }
        }
        let kept = keeping
        let missing = wanted.subtracting(have).sorted()
        let added = try await context.store.modelTransaction { tx in
            let db = tx.db
            for sibling in kept { try await sibling.save(on: db) }
            var added: [CardModel] = []
            for variant in missing {
                // Made like the edited card was, then edited like its siblings (also when the
                // edited card's own gap is the one that went).
                let new = CardModel(
                    uniqueId: uuid(), stackId: stackId, userId: userId, question: before.0, answer: before.1,
                    hint: card.hint, now: now, format: try card.cardFormat)
                new.hintSource = card.hintSource
                new.kind = card.kind
                new.variant = variant
                new.noteId = noteId
                apply(new)
                try await new.create(on: db)
                added.append(new)
            }
            return added
        }
        // Cards of gaps no longer in the text go with their reviews, as a deleted card does.
        for card in gone { try await delete(card) }
        if card.hint == nil, card.hintSource == nil { try await queueHint() }
        // The edited card, or (when its own gap went) the note's first card now.
        return kept.first { $0 === card } ?? (kept + added).min { $0.variant < $1.variant } ?? card
    }

    private func queueHint() async throws {
        try await HintJobs.enqueueMissing(
            stackId: stackId, userId: stack.userId, store: context.store, now: context.now)
    }

    /// Deletes a card with its schedule and reviews; the stack's day counts no longer count it.
    func delete(_ card: CardModel) async throws {
        let cardId = card.id!
        let stackId = self.stackId
        let userId = stack.userId
        try await context.store.writeTransaction { tx in
            guard let times = try await tx.deleteCard(id: cardId) else { return }
            _ = try await tx.applyDayCounts(ReviewTimesChange(stackId: stackId, before: times, after: .unreviewed))
            // Its reviews leave the progress of their days.
            if let first = times.first {
                try await tx.logChanged(userId: userId, from: first)
            }
        }
    }
}

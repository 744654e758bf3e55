import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import SQLiteNIO

/// Writes what an import read (a CSV/TSV file or an Anki package): the stacks, their cards with
/// the schedule their history gives, and the history, in one transaction.
enum ImportWriter {
    /// A card to write and its answers from an Anki review log (none for CSV/TSV).
    struct Card: Sendable {
        let card: CardImport.Card
        let reviews: [AnkiPackage.Review]
    }

    /// Cards for one new stack of this name.
    struct Deck: Sendable {
        let name: String
        var cards: [Card]
    }

    /// A card ready to write: its id, the schedule its history gives, and each review's replay step.
    struct Prepared: Sendable {
        let cardId: Int
        let card: CardImport.Card
        let schedule: CardSchedule
        let reviews: [(review: LoggedReview, step: ReplayStep, durationMs: Int)]
    }

    /// What a group of cards needs before it can be written: the replays of their histories (the
    /// expensive part, done before the transaction so it stays short).
    static func prepare(_ cards: [Card], firstId: Int, scheduler: CardScheduler, now: Date, uuid: () -> UUID)
        -> [Prepared]
    {
        cards.enumerated().map { offset, item in
            let cardId = firstId + offset
            let logged = item.reviews.enumerated().map { index, review in
                LoggedReview(
                    id: uuid(), kind: .review, undoes: nil, rating: .fsrs(FSRSRating(rawValue: review.ease) ?? .good),
                    reviewedAt: review.time, seq: index + 1)
            }
            let replay = scheduler.replay(
                logged, cardID: Int64(cardId), createdAt: min(now, logged.first?.reviewedAt ?? now),
                describing: Set(logged.map(\.id)))
            let reviews = zip(logged, item.reviews).compactMap { review, source in
                replay.steps[review.id].map { (review, $0, source.durationMs) }
            }
            return Prepared(cardId: cardId, card: item.card, schedule: replay.schedule, reviews: reviews)
        }
    }

    /// Writes the stacks, their cards with the schedule their history gives, and the history, in
    /// one transaction. `target` puts every card into one existing stack; `name` into one new stack;
    /// neither makes a stack per deck. The histories are replayed before the transaction, with card
    /// ids taken beforehand (PostgreSQL: from the sequence; SQLite: the ones after the largest, checked
    /// again in the transaction, which replays anew in the rare case another card came first).
    /// `images` are the card images the cards show, written in the same transaction.
    static func save(
        _ decks: [Deck], target: StackModel?, name: String?, userId: UUID, uuid: @escaping @Sendable () -> UUID,
        now: Date, on db: any Database, store: any StudyStore, images: [StoredImage] = []
    ) async throws -> [(stack: StackModel, cards: Int, created: Bool)] {
        guard let user = try await UserModel.find(userId, on: db) else {
            throw JobFailure("Das Konto gibt es nicht mehr.", code: "account_not_found")
        }
        let parameters = try await store.parameters(of: userId)
        var building: [(stack: StackModel, cards: [Card], created: Bool)] = []
        if let target {
            building = [(target, decks.flatMap(\.cards), false)]
        } else {
            let named = name.map { [Deck(name: $0, cards: decks.flatMap(\.cards))] } ?? decks
            for (index, deck) in named.enumerated() {
                let stack = try StackService.newStack(
                    uniqueId: uuid(), userId: userId, name: String(deck.name.prefix(TextLimits.stackName)),
                    color: ImportService.stackColors[index % ImportService.stackColors.count],
                    settings: .init(scheduler: .fsrs), now: now)
                building.append((stack, deck.cards, true))
            }
        }
        let groups = building
        let total = groups.reduce(0) { $0 + $1.cards.count }
        @Sendable func prepareAll(from first: Int) -> [[Prepared]] {
            var next = first
            return groups.map { group in
                defer { next += group.cards.count }
                let scheduler = SchedulerCache.scheduler(for: group.stack, user: user, parameters: parameters)
                return prepare(group.cards, firstId: next, scheduler: scheduler, now: now, uuid: uuid)
            }
        }
        let firstId = try await store.takeCardIds(total)
        let prepared = prepareAll(from: firstId)
        // The store's write transaction: on SQLite the inline writer under the write gate (the write
        // lock taken up front, no driver connection held, the long inserts on the thread pool), on
        // PostgreSQL a transaction whose rows go in by COPY.
        let saved = try await store.writeTransaction { transaction in
            let sql = transaction.sql
            var prepared = prepared
            // Still free unless a card was made between taking them and now (SQLite).
            let next = try await transaction.takeCardIds(total, taken: firstId)
            if next != firstId { prepared = prepareAll(from: next) }
            try await transaction.images.insert(images, now: now)
            var firstReview: Date?
            // The source's notes (an Anki cloze, a copied reversed pair) get ids of their own here.
            var noteIds = NoteIds()
            for (group, cards) in zip(groups, prepared) {
                if group.created { try await group.stack.insert(on: sql) }
                let stackId = group.stack.id!
                var cardRows: [[StoredValue]] = []
                var logRows: [[StoredValue]] = []
                cardRows.reserveCapacity(cards.count)
                for card in cards {
                    var written = card.card
                    written.noteId = written.noteId.map { noteIds.id(for: $0, keep: false, uuid: uuid) }
                    cardRows.append(
                        NewCardRows.values(
                            written, id: card.cardId, stackId: stackId, userId: userId, uuid: uuid(),
                            schedule: card.schedule, now: now))
                    for (review, step, duration) in card.reviews {
                        firstReview = min(firstReview ?? review.reviewedAt, review.reviewedAt)
                        logRows.append(
                            logRow(
                                id: review.id, userId: userId, cardId: card.cardId, stackId: stackId,
                                reviewedAt: review.reviewedAt, rating: review.rating.storedValue,
                                scheduler: SchedulerKind.fsrs.rawValue, before: StateJSON.text(step.before),
                                after: StateJSON.text(step.after), durationMs: duration,
                                kind: ReviewLogKind.review.rawValue, undoes: nil, elapsedDays: step.elapsedDays,
                                seq: review.seq, mode: StudyMode.flashcards.rawValue))
                    }
                }
                try await BulkInsert.run(into: "cards", columns: NewCardRows.columns, rows: cardRows, on: sql)
                try await BulkInsert.run(into: "review_logs", columns: logColumns, rows: logRows, on: sql)
            }
            if let firstReview {
                try await transaction.forgetDayCounts(stackIds: groups.map { $0.stack.id! })
                try await transaction.logChanged(userId: userId, from: firstReview)
            }
            return groups.map { ($0.stack, $0.cards.count, $0.created) }
        }
        // A large import changes the tables' make-up at once; PostgreSQL's statistics (and with them
        // its plans) would follow only at autovacuum's next round.
        if total >= analyzeAfter, let sql = db as? any SQLDatabase, sql.dialect.name == "postgresql" {
            try await sql.raw("ANALYZE cards, review_logs").run()
        }
        return saved
    }

    /// Imports of at least this many cards refresh PostgreSQL's statistics.
    static let analyzeAfter = 10_000

    static let logColumns = [
        "id", "user_id", "card_id", "stack_id", "reviewed_at", "rating", "scheduler", "state_before", "state_after",
        "duration_ms", "kind", "undoes", "elapsed_days", "seq", "mode", "balanced_days",
    ]

    /// One row of `review_logs` in `logColumns` order (imports and backups write the log alike).
    static func logRow(
        id: UUID, userId: UUID, cardId: Int, stackId: Int, reviewedAt: Date, rating: Int, scheduler: String,
        before: String, after: String, durationMs: Int?, kind: String, undoes: UUID?, elapsedDays: Int?, seq: Int,
        mode: String, balancedDays: Int? = nil
    ) -> [StoredValue] {
        [
            .uuid(id), .uuid(userId), .int(cardId), .int(stackId), .date(reviewedAt), .int(rating), .text(scheduler),
            .text(before), .text(after), durationMs.map(StoredValue.int) ?? .null, .text(kind),
            undoes.map(StoredValue.uuid) ?? .null, elapsedDays.map(StoredValue.int) ?? .null, .int(seq), .text(mode),
            balancedDays.map(StoredValue.int) ?? .null,
        ]
    }
}

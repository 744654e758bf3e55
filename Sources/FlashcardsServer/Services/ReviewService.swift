import FlashcardsAPI
import FlashcardsCore
import Foundation

/// Offline sync, undo and recomputing whole stacks. Every lookup is scoped to the caller.
struct ReviewService {
    let context: ServiceContext
    let user: UserModel

    /// The most reviews one sync request may carry.
    static let maximumBatch = 1_000

    /// Stores a batch of reviews made offline, in any order and with duplicates, then recomputes
    /// every card it names by replaying the card's whole history.
    ///
    /// All or nothing: a card that is not the caller's (or does not exist) rejects the whole batch
    /// with 404 `card_not_found` naming the ids; an invalid rating, time or duration with 400; a review
    /// id already used for another card or user with 409. A review id already stored for the same
    /// card counts as a duplicate and changes nothing (the first stored version wins).
    /// No review is older than this (2000-01-01).
    static let earliestReview = Date(timeIntervalSince1970: 946_684_800)
    /// How far a review may lie before its card was made: a device's clock running behind.
    static let clockLeeway: TimeInterval = 600

    func sync(_ reviews: [SyncReviewDTO]) async throws -> SyncReviewsResponse {
        guard reviews.count <= Self.maximumBatch else {
            throw AppError.validation("Höchstens \(Self.maximumBatch) Bewertungen pro Anfrage.")
        }
        let userId = try user.requireID()
        var seen = Set<UUID>()
        let unique = reviews.filter { seen.insert($0.id).inserted }
        let repeatedInBatch = reviews.count - unique.count
        for review in unique {
            if let duration = review.durationMs, !(0...86_400_000).contains(duration) {
                throw AppError.validation("durationMs muss zwischen 0 und 86400000 liegen (\(review.id.path)).")
            }
            // A review must have happened: no more than a day in the future of the server's clock.
            guard review.reviewedAt <= context.now.addingTimeInterval(86_400) else {
                throw AppError.refused(
                    "reviewedAt liegt in der Zukunft (\(review.id.path)).", code: "reviewed_in_future")
            }
            guard review.reviewedAt >= Self.earliestReview else {
                throw AppError.validation("reviewedAt liegt vor dem Jahr 2000 (\(review.id.path)).")
            }
            if let days = review.balancedDays, !(1...36_500).contains(days) {
                throw AppError.validation(
                    "balancedDays muss zwischen 1 und 36500 liegen (\(review.id.path)).")
            }
        }
        let cardIds = Array(Set(unique.map(\.cardId)))
        let timeZone = user.timeZone
        return try await context.store.writeTransaction { tx in
            var duplicates = repeatedInBatch
            try await tx.lockCards(cardIds, of: userId, in: nil)
            let cards = try await tx.cards(uniqueIds: cardIds, of: userId)
            let cardsById = Dictionary(uniqueKeysWithValues: cards.map { ($0.uniqueId, $0) })
            let missing = cardIds.filter { cardsById[$0] == nil }.map(\.path).sorted()
            if !missing.isEmpty {
                throw AppError.notFound(
                    "Unbekannte Karten, nichts wurde gespeichert: \(missing.joined(separator: ", "))",
                    code: "card_not_found")
            }
            let stacks = try await tx.stacks(ids: Array(Set(cards.map(\.stackId))).sorted(), of: userId)
            let parameters = try await tx.parameters(of: userId)
            var schedulers: [Int: CardScheduler] = [:]
            var stacksById: [Int: StackModel] = [:]
            for stack in stacks {
                stacksById[stack.id!] = stack
                schedulers[stack.id!] = SchedulerCache.scheduler(
                    for: stack, timeZone: timeZone, parameters: try stack.schedulerKind == .fsrs ? parameters : nil)
            }
            let stored = try await tx.reviewLogs(ids: unique.map(\.id))
            let storedById = Dictionary(uniqueKeysWithValues: stored.map { ($0.id!, $0) })
            var newLogs: [Int: [ReviewLogModel]] = [:]
            var invalid: [String] = []
            for review in unique {
                let card = cardsById[review.cardId]!
                if let existing = storedById[review.id] {
                    guard existing.userId == userId, existing.cardId == card.id else {
                        throw AppError.conflict("Die Bewertung \(review.id.path) gehört zu einer anderen Karte.")
                    }
                    duplicates += 1
                    continue
                }
                // Nor before its card was made (a device's clock may run a little behind).
                guard review.reviewedAt >= card.createdAt.addingTimeInterval(-Self.clockLeeway) else {
                    throw AppError.refused(
                        "reviewedAt liegt vor dem Anlegen der Karte (\(review.id.path)).", code: "reviewed_before_card")
                }
                guard let scheduler = schedulers[card.stackId],
                    let rating = StudyRating(key: review.rating.rawValue, scheduler: scheduler.kind)
                else {
                    invalid.append(review.id.path)
                    continue
                }
                let log = ReviewLogModel(
                    id: review.id, userId: userId, cardId: card.id!, stackId: card.stackId,
                    reviewedAt: review.reviewedAt, rating: rating, durationMs: review.durationMs,
                    mode: review.mode ?? .flashcards)
                log.balancedDays = scheduler.kind == .fsrs ? review.balancedDays : nil
                newLogs[card.id!, default: []].append(log)
            }
            if !invalid.isEmpty {
                throw AppError.refused(
                    "Ungültige Bewertung (FSRS: again, hard, good, easy; Leiter: easy, medium, hard): "
                        + invalid.joined(separator: ", "), code: "rating_not_for_scheduler")
            }
            var inserted = 0
            var changedStacks = Set<Int>()
            for card in cards.sorted(by: { $0.id! < $1.id! }) {
                guard let logs = newLogs[card.id!], let scheduler = schedulers[card.stackId] else { continue }
                let change = try await ReviewRecorder(scheduler: scheduler).record(logs, for: card, in: tx)
                if change.changesTimes { changedStacks.insert(card.stackId) }
                inserted += logs.count
            }
            // A batch may change hundreds of cards: the next rating counts the day again.
            try await tx.forgetDayCounts(stackIds: changedStacks)
            LearnerLoad.forget(userId: userId)
            // Reviews of earlier days change the progress of those days.
            if let earliest = newLogs.values.joined().map(\.reviewedAt).min() {
                try await tx.logChanged(userId: userId, from: earliest)
            }
            let ordered = cardIds.compactMap { cardsById[$0] }.sorted { $0.id! < $1.id! }
            return SyncReviewsResponse(
                inserted: inserted, duplicates: duplicates,
                cards: try ordered.map { try $0.dto(stack: stacksById[$0.stackId]!) })
        }
    }

    /// Undoes the card's last counted review by appending an undo entry that names it; the log keeps
    /// both rows and replay skips the undone review. A repeated undo `id` changes nothing. With a
    /// `reviewId` only that review is taken back, and only while it is the card's last counted one
    /// (an undo synced late never takes back a rating made since on another device).
    /// `parameters`: the caller's FSRS parameters when read with the account.
    func undo(
        card cardUUID: String?, in stack: StackModel, undoId: UUID?, reviewId: UUID? = nil,
        parameters: PreloadedParameters? = nil
    ) async throws -> UndoResponse {
        let cardId = try Validate.uuid(cardUUID, notFound: .cardNotFound)
        let userId = try user.requireID()
        let scheduler = try await StudyService(context: context, user: user, stack: stack, parameters: parameters)
            .scheduler()
        let now = context.now
        let entryId = undoId ?? context.uuid()
        let stackId = stack.id!
        return try await context.store.writeTransaction { tx in
            try await tx.lockCards([cardId], of: userId, in: stackId)
            guard let card = try await tx.card(uniqueId: cardId, stackId: stackId) else { throw AppError.cardNotFound }
            let logs = try await tx.reviewLogs(cardId: card.id!)
            if undoId != nil, let existing = try await tx.reviewLogs(ids: [entryId]).first {
                guard existing.userId == userId, existing.cardId == card.id, try existing.logKind == .undo,
                    let undone = existing.undoes
                else { throw AppError.conflict("Diese Id gehört zu einem anderen Eintrag.") }
                return UndoResponse(card: try card.dto(stack: stack), undoneReviewId: undone)
            }
            guard let last = ReviewOrder.counted(try logs.map { try $0.logged }).last else {
                throw AppError.conflict("Diese Karte hat keine Bewertung, die rückgängig gemacht werden kann.")
            }
            if let reviewId, last.id != reviewId {
                throw AppError.refused(
                    "Diese Bewertung ist nicht die letzte der Karte oder schon rückgängig gemacht.",
                    code: "review_not_last")
            }
            let entry = ReviewLogModel(
                id: entryId, userId: userId, cardId: card.id!, stackId: stackId, reviewedAt: now, rating: last.rating,
                durationMs: nil)
            entry.kind = ReviewLogKind.undo.rawValue
            entry.undoes = last.id
            // The undo belongs to the review it cancels, mode included.
            entry.mode = logs.first { $0.id == last.id }?.mode ?? StudyMode.flashcards.rawValue
            let change = try await ReviewRecorder(scheduler: scheduler).record([entry], for: card, in: tx)
            _ = try await tx.applyDayCounts(change)
            LearnerLoad.forget(userId: userId)
            // The undone review no longer counts on its day.
            try await tx.logChanged(userId: userId, from: last.reviewedAt)
            return UndoResponse(card: try card.dto(stack: stack), undoneReviewId: last.id)
        }
    }

    /// Switches `stack` to the settings it carries now and, when its scheduler changed, recomputes
    /// every card from its review history under the new one, in one transaction: one query for the
    /// cards, one for the log. `undoingSpread` first puts the cards a backlog spread moved back on
    /// their scheduled due dates (`BacklogSpreader`), to be spread again with the new limits.
    func saveSettings(
        of stack: StackModel, recomputing: Bool, undoingSpread: Bool = false, parameters: PreloadedParameters? = nil
    ) async throws {
        let scheduler = try await StudyService(context: context, user: user, stack: stack, parameters: parameters)
            .scheduler()
        try await context.store.writeTransaction { tx in
            try await tx.saveSettings(stack)
            if undoingSpread { try await tx.undoMoves(stackId: stack.id!) }
            guard recomputing else { return }
            let cards = try await tx.cards(stackId: stack.id!)
            let logsByCard = Dictionary(grouping: try await tx.reviewLogs(stackId: stack.id!), by: \.cardId)
            let recorder = ReviewRecorder(scheduler: scheduler)
            for card in cards {
                try await recorder.recompute(card, logs: logsByCard[card.id!] ?? [], in: tx)
            }
            try await tx.forgetDayCounts(stackIds: [stack.id!])
        }
        LearnerLoad.forget(userId: stack.userId)
    }
}

extension UUID {
    /// The lowercase form used on the wire.
    var path: String { uuidString.lowercased() }
}

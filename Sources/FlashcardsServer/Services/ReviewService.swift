import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// Appends reviews to the log and sets the card to the replay of its whole history. The log is the
/// source of truth: a card's schedule is always what replaying its counted reviews in
/// `(reviewed_at, id)` order gives, so reviews that arrive late or out of order land where they belong.
struct ReviewRecorder {
    let scheduling: StackScheduling

    /// Stores `newLogs` (reviews or undo entries of `card`, not yet saved) and recomputes the card.
    /// Each stored review gets its state before and after and its elapsed days from the replay.
    ///
    /// Reviews made after the card's last counted one (every rating in a session) continue from the
    /// card's state, which is the replay of its history, without reading that history; anything
    /// else (an undo, a review that arrives late) replays the card's whole log.
    /// `lastSeq` is the card's highest arrival number when the caller has read it already.
    /// Returns how the card's review times changed, for the stack's day counts (`StackDayCounts`).
    func record(
        _ newLogs: [ReviewLogModel], for card: CardModel, lastSeq knownSeq: Int? = nil, on sql: any SQLDatabase
    ) async throws -> ReviewTimesChange {
        let before = ReviewTimes(card)
        let ordered = newLogs.sorted(by: ReviewOrder.precedes)
        let appending = ordered.allSatisfy { log in
            log.kind == "review" && card.lastReviewedAt.map { log.reviewedAt >= $0 } ?? true
        }
        let existing =
            appending
            ? []
            : try await sql.raw("SELECT * FROM review_logs WHERE card_id = \(bind: card.id!)")
                .all(decodingFluent: ReviewLogModel.self)
        let lastSeq: Int
        if let knownSeq {
            lastSeq = knownSeq
        } else if appending {
            lastSeq =
                try await sql.raw(
                    "SELECT COALESCE(MAX(seq), 0) AS n FROM review_logs WHERE card_id = \(bind: card.id!)"
                )
                .first(decoding: CountRow.self)?.n ?? 0
        } else {
            lastSeq = existing.map(\.seq).max() ?? 0
        }
        // Arrival numbers continue the card's; within one request in replay order, so a batch's
        // order does not matter.
        for (offset, log) in ordered.enumerated() { log.seq = lastSeq + 1 + offset }
        let described = Set(newLogs.map { $0.id! })
        let snapshotBefore = appending ? "" : Self.snapshot(card)
        let steps =
            appending
            ? scheduling.advance(card, by: ordered, describing: described)
            : scheduling.replay(card, logs: existing + newLogs, describing: described)
        // Undo entries record the card as it was and as it is; appended reviews never need it.
        let snapshotAfter = appending ? "" : Self.snapshot(card)
        for log in newLogs {
            if let step = steps[log.id!] {
                log.stateBefore = step.before
                log.stateAfter = step.after
                log.elapsedDays = step.elapsedDays
            } else {
                // An undo entry (or a review an earlier undo already cancelled): the card as it was
                // and as it is now.
                log.stateBefore = snapshotBefore
                log.stateAfter = snapshotAfter
            }
        }
        try await ReviewLogModel.insert(ordered, on: sql)
        try await card.saveSchedule(on: sql)
        return ReviewTimesChange(stackId: card.stackId, before: before, after: ReviewTimes(card))
    }

    /// Recomputes `card` from the logs given (all of its logs). The caller forgets the stack's day
    /// counts (`StackDayCounts.forget`).
    func recompute(_ card: CardModel, logs: [ReviewLogModel], on sql: any SQLDatabase) async throws {
        scheduling.replay(card, logs: logs)
        try await card.saveSchedule(on: sql)
    }

    /// The card's schedule as JSON, for undo entries.
    static func snapshot(_ card: CardModel) -> String {
        struct Snapshot: Encodable {
            let state: String
            let step: Int?
            let stability: Double?
            let difficulty: Double?
            let due: Date
            let level: Int
            let lastReview: Date?
        }
        let value = Snapshot(
            state: card.state, step: card.step, stability: card.stability, difficulty: card.difficulty,
            due: card.dueAt, level: card.level, lastReview: card.lastReviewedAt)
        return StateJSON.text(value)
    }
}

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
                throw AppError.validation("reviewedAt liegt in der Zukunft (\(review.id.path)).")
            }
        }
        let cardIds = Array(Set(unique.map(\.cardId)))
        let loadedUser = user
        return try await context.db.writeTransaction { db in
            var duplicates = repeatedInBatch
            try await db.sql.lockCards(cardIds, of: userId)
            let cards = try await Self.chunked(cardIds) { chunk in
                try await CardModel.query(on: db).filter(\.$userId == userId).filter(\.$uniqueId ~~ chunk).all()
            }
            let cardsById = Dictionary(uniqueKeysWithValues: cards.map { ($0.uniqueId, $0) })
            let missing = cardIds.filter { cardsById[$0] == nil }.map(\.path).sorted()
            if !missing.isEmpty {
                throw AppError.notFound(
                    "Unbekannte Karten, nichts wurde gespeichert: \(missing.joined(separator: ", "))",
                    code: "card_not_found")
            }
            let stackIds = Array(Set(cards.map(\.stackId)))
            let stacks = try await StackModel.query(on: db).filter(\.$userId == userId).filter(\.$id ~~ stackIds).all()
            let parameters = try await SchedulerParametersModel.find(userId, on: db)?.weights
            var schedulings: [Int: StackScheduling] = [:]
            var stacksById: [Int: StackModel] = [:]
            for stack in stacks {
                stacksById[stack.id!] = stack
                schedulings[stack.id!] = StackScheduling(
                    stack: stack, timeZone: loadedUser.zone, parameters: parameters)
            }
            let stored = try await Self.chunked(unique.map(\.id)) { chunk in
                try await ReviewLogModel.query(on: db).filter(\.$id ~~ chunk).all()
            }
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
                guard let scheduling = schedulings[card.stackId], let rating = scheduling.rating(forKey: review.rating)
                else {
                    invalid.append(review.id.path)
                    continue
                }
                newLogs[card.id!, default: []].append(
                    ReviewLogModel(
                        id: review.id, userId: userId, cardId: card.id!, stackId: card.stackId,
                        reviewedAt: review.reviewedAt, rating: rating.value, scheduler: rating.scheduler.rawValue,
                        stateBefore: "", stateAfter: "", durationMs: review.durationMs))
            }
            if !invalid.isEmpty {
                throw AppError.validation(
                    "Ungültige Bewertung (FSRS: again, hard, good, easy; Leiter: easy, medium, hard): "
                        + invalid.joined(separator: ", "))
            }
            var inserted = 0
            var changedStacks = Set<Int>()
            for card in cards {
                guard let logs = newLogs[card.id!], let scheduling = schedulings[card.stackId] else { continue }
                let change = try await ReviewRecorder(scheduling: scheduling).record(logs, for: card, on: db.sql)
                if change.changesTimes { changedStacks.insert(card.stackId) }
                inserted += logs.count
            }
            // A batch may change hundreds of cards: the next rating counts the day again.
            try await StackDayCounts.forget(stackIds: changedStacks, on: db.sql)
            let ordered = cardIds.compactMap { cardsById[$0] }.sorted { $0.id! < $1.id! }
            return SyncReviewsResponse(
                inserted: inserted, duplicates: duplicates,
                cards: ordered.map { $0.stateDTO(stack: stacksById[$0.stackId]!) })
        }
    }

    /// Undoes the card's last counted review by appending an undo entry that names it; the log keeps
    /// both rows and replay skips the undone review. A repeated undo `id` changes nothing.
    func undo(card cardUUID: String?, in stack: StackModel, undoId: UUID?) async throws -> UndoResponse {
        let cardId = try Validate.uuid(cardUUID, notFound: .cardNotFound)
        let userId = try user.requireID()
        let scheduling = try await StackScheduling.load(stack: stack, user: user, on: context.db)
        let now = context.now
        let entryId = undoId ?? context.uuid()
        return try await context.db.writeTransaction { db in
            try await db.sql.lockCards([cardId], of: userId, in: stack.id!)
            guard
                let card = try await CardModel.query(on: db)
                    .filter(\.$uniqueId == cardId).filter(\.$stackId == stack.id!).first()
            else { throw AppError.cardNotFound }
            let logs = try await ReviewLogModel.query(on: db).filter(\.$cardId == card.id!).all()
            if undoId != nil, let existing = try await ReviewLogModel.find(entryId, on: db) {
                guard existing.userId == userId, existing.cardId == card.id, existing.kind == "undo",
                    let undone = existing.undoes
                else { throw AppError.conflict("Diese Id gehört zu einem anderen Eintrag.") }
                return UndoResponse(card: card.stateDTO(stack: stack), undoneReviewId: undone)
            }
            let undone = Set(logs.filter { $0.kind == "undo" }.compactMap(\.undoes))
            guard let last = ReviewOrder.sorted(logs.filter { $0.kind == "review" && !undone.contains($0.id!) }).last
            else { throw AppError.conflict("Diese Karte hat keine Bewertung, die rückgängig gemacht werden kann.") }
            let entry = ReviewLogModel(
                id: entryId, userId: userId, cardId: card.id!, stackId: stack.id!, reviewedAt: now,
                rating: last.rating, scheduler: last.scheduler, stateBefore: "", stateAfter: "", durationMs: nil)
            entry.kind = "undo"
            entry.undoes = last.id
            let change = try await ReviewRecorder(scheduling: scheduling).record([entry], for: card, on: db.sql)
            _ = try await StackDayCounts.apply(change, on: db.sql)
            return UndoResponse(card: card.stateDTO(stack: stack), undoneReviewId: last.id!)
        }
    }

    /// Recomputes every card of `stack` from its review history under the stack's current
    /// scheduler (after a switch), in one transaction: one query for the cards, one for the log.
    func recomputeStack(_ stack: StackModel, on db: any Database) async throws {
        let scheduling = try await StackScheduling.load(stack: stack, user: user, on: db)
        let cards = try await CardModel.query(on: db).filter(\.$stackId == stack.id!).all()
        let logs = try await ReviewLogModel.query(on: db).filter(\.$stackId == stack.id!).all()
        let logsByCard = Dictionary(grouping: logs, by: \.cardId)
        let recorder = ReviewRecorder(scheduling: scheduling)
        for card in cards {
            try await recorder.recompute(card, logs: logsByCard[card.id!] ?? [], on: db.sql)
        }
        try await StackDayCounts.forget(stackIds: [stack.id!], on: db.sql)
    }

    /// Runs `query` over chunks of at most 500 ids (bind limits of SQLite and PostgreSQL).
    static func chunked<ID: Sendable, T>(_ ids: [ID], _ query: ([ID]) async throws -> [T]) async throws -> [T] {
        var result: [T] = []
        var start = 0
        while start < ids.count {
            let end = min(start + 500, ids.count)
            result += try await query(Array(ids[start..<end]))
            start = end
        }
        return result
    }
}

extension UUID {
    /// The lowercase form used on the wire.
    var path: String { uuidString.lowercased() }
}

import FlashcardsCore
import Foundation

/// Appends reviews to the log and sets the card to the replay of its whole history. The log is the
/// source of truth: a card's schedule is always what replaying its counted reviews in replay order
/// (`ReviewOrder`) gives, so reviews that arrive late or out of order land where they belong.
struct ReviewRecorder {
    let scheduler: CardScheduler

    /// Stores `newLogs` (reviews or undo entries of `card`, not yet saved) and recomputes the card.
    /// Each stored review gets its state before and after and its elapsed days from the replay.
    ///
    /// Reviews made after the card's last counted one (every rating in a session) continue from the
    /// card's schedule, which is the replay of its history, without reading that history; anything
    /// else (an undo, a review that arrives late) replays the card's whole log. `lastSeq` is the
    /// card's highest arrival number when the caller has read it already. Returns how the card's
    /// review times changed, for the stack's day counts (`StackDayCounts`).
    ///
    /// With `load` (the learner's days ahead), an appended FSRS review made on its day that graduates
    /// the card gets its day from the load balancer, and the log row keeps the choice (`balancedDays`)
    /// so that every later replay gives the same day.
    func record(
        _ newLogs: [ReviewLogModel], for card: CardModel, lastSeq knownSeq: Int? = nil,
        load: LearnerLoad.Snapshot? = nil, in tx: any StudyTransaction
    )
        async throws -> ReviewTimesChange
    {
        let before = ReviewTimes(card)
        let appending = try Self.appends(newLogs, to: card)
        let existing = appending ? [] : try await tx.reviewLogs(cardId: card.id!)
        let lastSeq: Int
        if let knownSeq {
            lastSeq = knownSeq
        } else if appending {
            lastSeq = try await tx.lastSeq(cardId: card.id!)
        } else {
            lastSeq = existing.map(\.seq).max() ?? 0
        }
        let siblings = appending && load != nil ? try await tx.siblingDues(of: card) : []
        let ordered = try apply(
            newLogs, to: card, existing: appending ? nil : existing, lastSeq: lastSeq, load: load, siblings: siblings)
        try await tx.append(ordered)
        try await tx.saveSchedule(card)
        return ReviewTimesChange(stackId: card.stackId, before: before, after: ReviewTimes(card))
    }

    /// Whether `newLogs` are reviews made after the card's last counted one (every rating in a
    /// session): they continue from the card's schedule without its history.
    static func appends(_ newLogs: [ReviewLogModel], to card: CardModel) throws -> Bool {
        try newLogs.allSatisfy { log in
            try log.logKind == .review && card.lastReviewedAt.map { log.reviewedAt >= $0 } ?? true
        }
    }

    /// Sets `card` to its schedule with `newLogs` and fills in the logs' arrival numbers, states and
    /// elapsed days, writing nothing; returns the logs in replay order. `existing`: the card's whole
    /// log to replay with them, nil for appended reviews (`appends`), which advance the card's
    /// schedule, balanced by `load` (the learner's days ahead; `siblings`: the due times of the
    /// card's note's other review cards, `StudyTransaction.siblingDues`).
    func apply(
        _ newLogs: [ReviewLogModel], to card: CardModel, existing: [ReviewLogModel]?, lastSeq: Int,
        load: LearnerLoad.Snapshot?, siblings: [Date]
    ) throws -> [ReviewLogModel] {
        // Arrival numbers continue the card's; within one request in replay order, so a batch's
        // order does not matter.
        let ordered = try newLogs.sorted { try ReviewOrder.precedes($0.logged, $1.logged) }
        for (offset, log) in ordered.enumerated() { log.seq = lastSeq + 1 + offset }
        let described = Set(newLogs.map { $0.id! })
        let cardID = Int64(card.id!)
        let steps: [UUID: ReplayStep]
        var snapshots = (before: "", after: "")
        if let existing {
            snapshots.before = StateJSON.snapshot(try card.schedule)
            let replay = scheduler.replay(
                try (existing + newLogs).map { try $0.logged }, cardID: cardID, createdAt: card.createdAt,
                describing: described)
            card.setSchedule(replay.schedule)
            steps = replay.steps
            // Undo entries record the card as it was and as it is; appended reviews never need it.
            snapshots.after = StateJSON.snapshot(try card.schedule)
        } else {
            let days = load?.days(for: card, siblings: siblings, scheduler: scheduler)
            var schedule = try card.schedule
            steps = scheduler.advance(
                &schedule, cardID: cardID, by: try ordered.map { try $0.logged }, describing: described,
                load: { review in days.flatMap { scheduler.day(of: review.reviewedAt) == load?.today ? $0 : nil } })
            card.setSchedule(schedule)
        }
        for log in newLogs {
            if let step = steps[log.id!] {
                log.stateBefore = StateJSON.text(step.before)
                log.stateAfter = StateJSON.text(step.after)
                log.elapsedDays = step.elapsedDays
                if let balanced = step.balancedDays { log.balancedDays = balanced }
            } else {
                // An undo entry (or a review an earlier undo already cancelled): the card as it was
                // and as it is now.
                log.stateBefore = snapshots.before
                log.stateAfter = snapshots.after
            }
        }
        return ordered
    }

    /// Recomputes `card` from all of its log entries. The caller forgets the stack's day counts
    /// (`StackDayCounts.forget`).
    func recompute(_ card: CardModel, logs: [ReviewLogModel], in tx: any StudyTransaction) async throws {
        card.setSchedule(
            scheduler.replay(try logs.map { try $0.logged }, cardID: Int64(card.id!), createdAt: card.createdAt)
                .schedule)
        try await tx.saveSchedule(card)
    }
}

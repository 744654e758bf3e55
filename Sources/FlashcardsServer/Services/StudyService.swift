import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation

/// Learning: the next due card and ratings, with every rating appended to the review log.
struct StudyService {
    let context: ServiceContext
    let user: UserModel
    let stack: StackModel

    /// The answer to "what next?" for a session with `daysAhead` days of learning ahead.
    struct Next {
        let card: CardModel?
        let dueCount: Int
        let nextDueAt: Date?
    }

    /// The moment before which cards count as due for this user.
    func cutoff(daysAhead: Int) -> Date {
        Self.cutoff(for: user, now: context.now, daysAhead: daysAhead)
    }

    /// The end of `user`'s current day in their time zone, plus `daysAhead` days.
    static func cutoff(for user: UserModel, now: Date, daysAhead: Int) -> Date {
        StudyDay.dueCutoff(now: now, timeZone: TimeZone(identifier: user.timeZone) ?? .gmt, daysAhead: daysAhead)
    }

    /// The due card with the earliest due time (ties: oldest card first). One index seek on
    /// `cards_stack_due`; nothing else of the user's data is loaded.
    func nextCard(daysAhead: Int) async throws -> CardModel? {
        try await CardModel.query(on: context.db)
            .filter(\.$stackId == stack.id!)
            .filter(\.$dueAt < cutoff(daysAhead: daysAhead))
            .sort(\.$dueAt).sort(\.$id)
            .first()
    }

    /// The next card with the session's counts.
    func next(daysAhead: Int) async throws -> Next {
        let cutoff = cutoff(daysAhead: daysAhead)
        let card = try await nextCard(daysAhead: daysAhead)
        let due = try await CardModel.query(on: context.db)
            .filter(\.$stackId == stack.id!).filter(\.$dueAt < cutoff).count()
        var nextDueAt: Date?
        if card == nil {
            nextDueAt = try await CardModel.query(on: context.db)
                .filter(\.$stackId == stack.id!).sort(\.$dueAt).first()?.dueAt
        }
        return Next(card: card, dueCount: due, nextDueAt: nextDueAt)
    }

    /// The ratings offered for `card` now, each with the interval it would apply.
    func options(for card: CardModel) -> [LadderOption] {
        LadderRating.allCases.map { rating in
            LadderOption(rating: rating, seconds: LadderScheduler.intervalSeconds(for: rating, level: card.level))
        }
    }

    /// Applies a rating to the card with this path id and appends it to the review log, in one
    /// transaction. A repeated `reviewId` changes nothing and answers with the card as it is.
    func rate(cardId: String?, rating: LadderRating, reviewId: UUID?) async throws -> CardModel {
        let cardUUID = try Validate.uuid(cardId, notFound: .cardNotFound)
        let stackId = stack.id!
        let userId = try user.requireID()
        let now = context.now
        let logId = reviewId ?? context.uuid()
        return try await context.db.writeTransaction { db in
            guard
                let card = try await CardModel.query(on: db)
                    .filter(\.$uniqueId == cardUUID).filter(\.$stackId == stackId).first()
            else { throw AppError.cardNotFound }
            if reviewId != nil, let existing = try await ReviewLogModel.find(logId, on: db) {
                guard existing.userId == userId, existing.cardId == card.id else {
                    throw AppError.conflict("Diese reviewId gehört zu einer anderen Bewertung.")
                }
                return card
            }
            let before = card.ladderState
            let after = LadderScheduler.review(before, rating: rating, at: now)
            card.ladderState = after
            card.reviewCount += 1
            try await card.save(on: db)
            try await ReviewLogModel(
                id: logId, userId: userId, cardId: card.id!, stackId: stackId, reviewedAt: now,
                rating: rating.rawValue, scheduler: "ladder", stateBefore: try Self.json(before),
                stateAfter: try Self.json(after), durationMs: nil
            ).create(on: db)
            return card
        }
    }

    private static func json(_ state: LadderState) throws -> String {
        String(decoding: try FlashcardsJSON.makeEncoder().encode(state), as: UTF8.self)
    }
}

/// A rating option with its interval for the current card.
struct LadderOption {
    let rating: LadderRating
    let seconds: Int
}

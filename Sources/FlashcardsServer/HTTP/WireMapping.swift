import FlashcardsAPI
import FlashcardsCore
import Foundation

// Fluent models never leave the server; these build the wire types.
extension UserModel {
    var dto: UserDTO {
        UserDTO(
            id: id!, name: name, mail: mail, timeZone: timeZone, createdAt: createdAt, isGuest: isGuest,
            passwordSet: passwordSet)
    }
}

extension StackModel {
    /// The stack as `/api/v1` shows it, with its scheduler settings.
    func dto(cardCount: Int, dueCount: Int, inReview: Int = 0, lastStudiedAt: Date? = nil) -> StackDTO {
        let settings = settings
        return StackDTO(
            id: uniqueId, name: name, color: color, cardCount: cardCount, dueCount: dueCount, createdAt: createdAt,
            updatedAt: updatedAt, scheduler: settings.scheduler, desiredRetention: settings.desiredRetention,
            learningSteps: settings.learningSteps, relearningSteps: settings.relearningSteps,
            newCardsPerDay: settings.newCardsPerDay, reviewsPerDay: settings.reviewsPerDay, hintsEnabled: hintsEnabled,
            matchBestMs: matchBestMs, description: description, icon: icon, favorite: favorite,
            lastStudiedAt: lastStudiedAt, reviewShare: cardCount > 0 ? Double(inReview) / Double(cardCount) : 0)
    }
}

extension StackService.Summary {
    /// The stack as `/api/v1` shows it, with its counts.
    var dto: StackDTO {
        stack.dto(cardCount: cardCount, dueCount: dueCount, inReview: inReview, lastStudiedAt: lastStudiedAt)
    }
}

extension CardModel {
    /// The card as `/api/v1` shows it, with its scheduling state; without its hint where the study
    /// routes hide it (the card routes always return it, for editing).
    func dto(stack: StackModel, hintVisible: Bool = true) throws -> CardDTO {
        let hint = hintVisible ? hint : nil
        let kind = try cardKind
        let sides = kind == .basic ? nil : try self.sides
        return CardDTO(
            id: uniqueId, stackId: stack.uniqueId, question: question, answer: answer, hint: hint,
            dueAt: dueAt, level: level, createdAt: createdAt, updatedAt: updatedAt, state: try cardState,
            stability: stability, difficulty: difficulty, lastReviewedAt: lastReviewedAt, reviewCount: reviewCount,
            step: step, firstReviewedAt: firstReviewedAt, number: id, bookmarked: bookmarked, format: try cardFormat,
            rendered: try rendered(sides, hint: hint), kind: kind, variant: variant, noteId: noteId, choices: choices,
            shown: sides.map(CardSidesDTO.init))
    }

    /// The card as a shared stack shows it: its sides as a learner sees them, no learning state.
    var shared: SharedCardDTO {
        get throws {
            let sides = try self.sides
            return SharedCardDTO(
                question: sides.question, answer: sides.answer, hint: hint, format: try cardFormat,
                rendered: try rendered(sides, hint: hint))
        }
    }

    /// A rich card's sides as sanitised HTML (`hint` as shown); nil for a plain card. `sides` nil:
    /// the stored texts (a basic card's sides).
    private func rendered(_ sides: CardSides?, hint: String?) throws -> RenderedCardDTO? {
        guard try cardFormat == .markdown else { return nil }
        return RenderedCardDTO(question: sides?.question ?? question, answer: sides?.answer ?? answer, hint: hint)
    }

    /// The card as the original API shows it, with the rating options of `GET …/card/next`: a rich
    /// card's texts without their formatting, as its clients show plain text; a card of another kind
    /// shows its sides (a cloze its gap hidden), as its clients know only question and answer.
    func compat(options: [RatingOption] = [], hintVisible: Bool = true) throws -> CompatCard {
        let format = try cardFormat
        let sides = try self.sides
        return CompatCard(
            id: id!, uniqueId: uniqueId.uuidString.lowercased(), question: format.plainText(sides.question),
            answer: format.plainText(sides.answer), hint: hintVisible ? hint.map(format.plainText) ?? "" : "",
            difficultyAndDurations: options.sorted { $0.compatId < $1.compatId }.map(\.compat),
            maturity: CompatMaturity(id: id!, maturity: FlashcardsJSON.string(from: dueAt), level: level))
    }
}

extension StudyNextResponse {
    /// What to learn next in `stack`, as `/api/v1` sends it.
    init(_ state: StudyState, stack: StackModel) throws {
        self.init(
            card: try state.card.map { try $0.dto(stack: stack, hintVisible: state.hintsVisible) },
            options: state.options.map(\.dto), dueCount: state.dueCount, nextDueAt: state.nextDueAt)
    }
}

extension StudyRating {
    /// The rating's key on the wire (every key of either scheduler is a `RatingKey`).
    var wireKey: RatingKey {
        switch self {
        case .ladder(.easy), .fsrs(.easy): .easy
        case .ladder(.medium): .medium
        case .ladder(.hard), .fsrs(.hard): .hard
        case .fsrs(.again): .again
        case .fsrs(.good): .good
        }
    }

    /// The rating of wire key `key` in a stack of `scheduler`; nil for a key that scheduler has no
    /// button for (ladder: easy, medium, hard; FSRS: again, hard, good, easy).
    init?(_ key: RatingKey, scheduler: SchedulerKind) {
        switch (scheduler, key) {
        case (.ladder, .easy): self = .ladder(.easy)
        case (.ladder, .medium): self = .ladder(.medium)
        case (.ladder, .hard): self = .ladder(.hard)
        case (.fsrs, .again): self = .fsrs(.again)
        case (.fsrs, .hard): self = .fsrs(.hard)
        case (.fsrs, .good): self = .fsrs(.good)
        case (.fsrs, .easy): self = .fsrs(.easy)
        case (.ladder, .again), (.ladder, .good), (.fsrs, .medium): return nil
        }
    }
}

extension RatingOption {
    /// An answer button of `/api/v1`.
    var dto: StudyOptionDTO {
        StudyOptionDTO(
            rating: rating.wireKey, id: compatId, label: label, color: color, intervalSeconds: seconds,
            intervalText: text)
    }

    /// An answer button of the original API, its duration in both shapes.
    var compat: CompatDifficultyAndDuration {
        CompatDifficultyAndDuration(
            difficulty: CompatDifficulty(id: compatId, name: label, color: color),
            duration: CompatDuration(displayName: shown.german, amount: shown.amount, unit: shown.unit))
    }
}

import FlashcardsCore
import Fluent
import Foundation

/// A card with its schedule. Stacks have exactly one owner, so the schedule lives on the card;
/// `userId` is kept on the row so every lookup can be scoped to the caller in one indexed query.
final class CardModel: Model, @unchecked Sendable {
    static let schema = "cards"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "unique_id") var uniqueId: UUID
    @Field(key: "stack_id") var stackId: Int
    @Field(key: "user_id") var userId: UUID
    @Field(key: "question") var question: String
    @Field(key: "answer") var answer: String
    @OptionalField(key: "hint") var hint: String?
    /// Lowercased question, answer and hint, for case-insensitive search that behaves the same on
    /// SQLite (whose LOWER() knows only ASCII) and PostgreSQL.
    @Field(key: "search_text") var searchText: String
    @Field(key: "due_at") var dueAt: Date
    @Field(key: "level") var level: Int
    @Field(key: "review_count") var reviewCount: Int
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    /// Who wrote the hint: `user`, `generated`, or nil for no hint. Generated hints are remade when
    /// the question or answer changes; a user's hint is never overwritten.
    @OptionalField(key: "hint_source") var hintSource: String?
    /// 0 new, 1 learning or relearning, 2 review: leads the index that lets next-card honour the
    /// daily limits with one seek per queue.
    @Field(key: "queue") var queue: Int
    /// `new`, `learning`, `review` or `relearning`.
    @Field(key: "state") var state: String
    /// FSRS (re)learning step; nil in review.
    @OptionalField(key: "step") var step: Int?
    /// FSRS stability in days.
    @OptionalField(key: "stability") var stability: Double?
    /// FSRS difficulty.
    @OptionalField(key: "difficulty") var difficulty: Double?
    /// The first review that counts; the daily new-card limit counts cards first reviewed today.
    @OptionalField(key: "first_reviewed_at") var firstReviewedAt: Date?
    /// The last review that counts.
    @OptionalField(key: "last_reviewed_at") var lastReviewedAt: Date?
    /// Bookmarked by the learner (the feed's swipe left).
    @Field(key: "bookmarked") var bookmarked: Bool
    /// Tags, space-separated (from imports; exports write them back).
    @OptionalField(key: "tags") var tags: String?
    /// `plain` or `markdown` (`CardFormat`): how question, answer and hint are written.
    @Field(key: "format") var format: String
    /// `CardKind`: how the texts become the sides a learner sees.
    @Field(key: "kind") var kind: String
    /// Which card of its note this is: 1 for the reversed side of a pair, the gap number of a cloze.
    @Field(key: "variant") var variant: Int
    /// The note a reversed pair or a cloze's cards share (lowercased UUID); nil for a single card.
    @OptionalField(key: "note_id") var noteId: String?
    /// A multiple-choice card's wrong options, as a JSON array of strings.
    @OptionalField(key: "choices") var choicesJSON: String?

    init() {}

    init(
        uniqueId: UUID, stackId: Int, userId: UUID, question: String, answer: String, hint: String?, now: Date,
        format: CardFormat = .plain
    ) {
        self.format = format.rawValue
        self.kind = CardKind.basic.rawValue
        self.variant = 0
        self.uniqueId = uniqueId
        self.stackId = stackId
        self.userId = userId
        self.question = question
        self.answer = answer
        self.hint = hint
        self.searchText = CardModel.searchText(question: question, answer: answer, hint: hint)
        self.createdAt = now
        setSchedule(.new(createdAt: now))
        self.bookmarked = false
        self.updatedAt = now
    }

    /// Recomputes ``searchText`` after an edit.
    func refreshSearchText() {
        searchText = CardModel.searchText(question: question, answer: answer, hint: hint)
    }

    static func searchText(question: String, answer: String, hint: String?) -> String {
        [question, answer, hint ?? ""].joined(separator: "\n").lowercased()
    }

    /// How the texts are written; an unknown stored value is `UnknownStoredValue`.
    var cardFormat: CardFormat {
        get throws { try storedValue(CardFormat.self, format, column: "cards.format") }
    }

    /// The card's kind; an unknown stored value is `UnknownStoredValue`.
    var cardKind: CardKind {
        get throws { try storedValue(CardKind.self, kind, column: "cards.kind") }
    }

    /// A multiple-choice card's wrong options; nil for every other card.
    var choices: [String]? {
        get { StoredChoices.decode(choicesJSON) }
        set { choicesJSON = StoredChoices.encode(newValue) }
    }

    /// What the learner sees of the card and what an answer is checked against.
    var sides: CardSides {
        get throws {
            CardSides(kind: try cardKind, variant: variant, question: question, answer: answer, format: try cardFormat)
        }
    }

    /// The card's state as the scheduler rules see it; an unknown stored state is
    /// `UnknownStoredValue`.
    var cardState: CardState {
        get throws { try storedValue(CardState.self, state, column: "cards.state") }
    }

    /// The schedule fields as one value: what a replay reads (`setSchedule` writes it).
    var schedule: CardSchedule {
        get throws {
            CardSchedule(
                state: try cardState, step: step, stability: stability, difficulty: difficulty, due: dueAt,
                level: level, reviewCount: reviewCount, firstReviewedAt: firstReviewedAt,
                lastReviewedAt: lastReviewedAt)
        }
    }

    /// Writes the schedule fields.
    func setSchedule(_ schedule: CardSchedule) {
        state = schedule.state.rawValue
        queue = schedule.queue.rawValue
        step = schedule.step
        stability = schedule.stability
        difficulty = schedule.difficulty
        dueAt = schedule.due
        level = schedule.level
        reviewCount = schedule.reviewCount
        firstReviewedAt = schedule.firstReviewedAt
        lastReviewedAt = schedule.lastReviewedAt
    }
}

/// Wrong options of a multiple-choice card or draft, stored as a JSON array of strings.
enum StoredChoices {
    static func decode(_ json: String?) -> [String]? {
        json.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
    }

    static func encode(_ choices: [String]?) -> String? {
        choices.flatMap { (try? JSONEncoder().encode($0)).map { String(decoding: $0, as: UTF8.self) } }
    }
}

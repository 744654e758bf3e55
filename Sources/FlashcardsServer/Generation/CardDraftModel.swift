import FlashcardsCore
import Fluent
import Foundation

/// A generated card the user has not accepted yet. Accepting turns it into a card; discarding
/// marks it so the review list no longer shows it.
final class CardDraftModel: Model, @unchecked Sendable {
    static let schema = "card_drafts"

    @ID(key: .id) var id: UUID?
    @Field(key: "job_id") var jobId: UUID
    @Field(key: "user_id") var userId: UUID
    @Field(key: "stack_id") var stackId: Int
    /// Order within its job, as the generator returned them.
    @Field(key: "position") var position: Int
    @Field(key: "question") var question: String
    @Field(key: "answer") var answer: String
    @OptionalField(key: "hint") var hint: String?
    @OptionalField(key: "source_page") var sourcePage: Int?
    @Field(key: "kind") var kind: String
    /// `pending`, `accepted` or `discarded`.
    @Field(key: "status") var status: String
    @Field(key: "created_at") var createdAt: Date
    /// The sentence of the source it was made from.
    @OptionalField(key: "source_text") var sourceText: String?
    /// The same fact as another kind of card (question, answer, kind), for the user to switch to.
    @OptionalField(key: "alt_question") var alternativeQuestion: String?
    @OptionalField(key: "alt_answer") var alternativeAnswer: String?
    @OptionalField(key: "alt_kind") var alternativeKind: String?
    /// The question of a card already in the stack that asks the same.
    @OptionalField(key: "duplicate_of") var duplicateOf: String?
    /// The card an accepted draft became (its path id), so the card can name its source sentence.
    @OptionalField(key: "card_id") var cardId: UUID?
    /// The kind of card it becomes when a model said so; nil: its texts decide (`CardKind.ofDraft`).
    @OptionalField(key: "card_kind") var cardKindName: String?
    /// A multiple-choice draft's wrong options, as JSON.
    @OptionalField(key: "choices") var choicesJSON: String?

    init() {}

    /// A pending (or, for compatibility route 13, accepted) draft of a generated card.
    init(
        _ draft: DraftCard, jobId: UUID, userId: UUID, stackId: Int, position: Int, status: String, now: Date
    ) {
        id = UUID()
        self.jobId = jobId
        self.userId = userId
        self.stackId = stackId
        self.position = position
        question = String(draft.question.prefix(TextLimits.question))
        answer = String(draft.answer.prefix(TextLimits.answer))
        sourcePage = draft.sourcePage
        kind = draft.kind.rawValue
        self.status = status
        createdAt = now
        sourceText = draft.source.map { String($0.prefix(TextLimits.answer)) }
        if let alternative = draft.alternative {
            alternativeQuestion = String(alternative.question.prefix(TextLimits.question))
            alternativeAnswer = String(alternative.answer.prefix(TextLimits.answer))
            alternativeKind = alternative.kind.rawValue
        }
        duplicateOf = draft.duplicateOf.map { String($0.prefix(TextLimits.question)) }
        cardKindName = draft.cardKind?.rawValue
        choices = draft.choices
    }

    /// The kind of card accepting it makes: the model's, while the (edited) texts still make a card
    /// of it (a blank left, an answer of true or false), else what the texts make.
    var cardKind: CardKind {
        if let stored = cardKindName.flatMap(CardKind.init(rawValue:)),
            stored.problem(question: question, answer: answer, choices: stored == .multipleChoice ? choices : nil)
                == nil
        {
            return stored
        }
        return CardKind.ofDraft(question: question, answer: answer)
    }

    /// A multiple-choice draft's wrong options.
    var choices: [String]? {
        get { StoredChoices.decode(choicesJSON) }
        set { choicesJSON = StoredChoices.encode(newValue) }
    }
}

extension CardModel {
    /// The new card an accepted draft becomes: its texts, and the kind they make (`CardKind.ofDraft`).
    /// The draft notes the card's id (saved with the draft).
    static func accepted(_ draft: CardDraftModel, uniqueId: UUID, stackId: Int, userId: UUID, now: Date) -> CardModel {
        draft.cardId = uniqueId
        let card = CardModel(
            uniqueId: uniqueId, stackId: stackId, userId: userId, question: draft.question, answer: draft.answer,
            hint: nil, now: now)
        card.kind = draft.cardKind.rawValue
        if draft.cardKind == .multipleChoice { card.choices = draft.choices }
        return card
    }
}

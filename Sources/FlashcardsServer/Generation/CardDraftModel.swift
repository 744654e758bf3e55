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

    init() {}
}

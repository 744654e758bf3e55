import Fluent
import Foundation

/// A stack of cards owned by one user. `id` is the sequential number the original clients show;
/// `uniqueId` is what every path uses.
final class StackModel: Model, @unchecked Sendable {
    static let schema = "stacks"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "unique_id") var uniqueId: UUID
    @Field(key: "user_id") var userId: UUID
    @Field(key: "name") var name: String
    @Field(key: "color") var color: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(uniqueId: UUID, userId: UUID, name: String, color: String, now: Date) {
        self.uniqueId = uniqueId
        self.userId = userId
        self.name = name
        self.color = color
        self.createdAt = now
        self.updatedAt = now
    }
}

import Fluent
import Foundation

/// A failed login, kept for the rate limit window. Stored in the database (not in memory) so that
/// several server instances share one limit.
final class LoginFailureModel: Model, @unchecked Sendable {
    static let schema = "login_failures"

    @ID(key: .id) var id: UUID?
    /// `mail:<lowercased mail>` or `ip:<address>`.
    @Field(key: "key") var key: String
    @Field(key: "failed_at") var failedAt: Date

    init() {}

    init(key: String, failedAt: Date) {
        self.id = UUID()
        self.key = key
        self.failedAt = failedAt
    }
}

import Fluent
import Foundation

/// An account. `mailKey` is the lowercased mail, unique, so mails compare case-insensitively.
final class UserModel: Model, @unchecked Sendable {
    static let schema = "users"

    @ID(key: .id) var id: UUID?
    @Field(key: "name") var name: String
    @Field(key: "mail") var mail: String
    @Field(key: "mail_key") var mailKey: String
    @Field(key: "password_hash") var passwordHash: String
    @Field(key: "time_zone") var timeZone: String
    /// Raised on every password change; tokens carry it, so older tokens stop working.
    @Field(key: "token_version") var tokenVersion: Int
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(id: UUID, name: String, mail: String, passwordHash: String, timeZone: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.mail = mail
        self.mailKey = UserModel.key(forMail: mail)
        self.passwordHash = passwordHash
        self.timeZone = timeZone
        self.tokenVersion = 0
        self.createdAt = createdAt
    }

    /// The unique, case-insensitive form of a mail address.
    static func key(forMail mail: String) -> String {
        mail.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}

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
    /// A guest account: made without mail or password, until the learner upgrades it.
    @Field(key: "is_guest") var isGuest: Bool
    /// False for an account a provider's sign-in made (its hash is of a password nobody knows) until
    /// the learner sets one of their own.
    @Field(key: "password_set") var passwordSet: Bool

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
        self.isGuest = false
        self.passwordSet = true
    }

    /// Reads every field from `output` as Fluent's `output(from:)` does (the model is then clean: a
    /// save writes only fields changed afterwards), field by field instead of through Fluent's
    /// reflection of the model, a measurable share of a learning request's CPU for the user and the
    /// stack read with every authenticated request (docs/benchmarks.md). A field added to the model must be added here
    /// (`AuthTests` compares both readings).
    func read(from output: any DatabaseOutput) throws {
        try $id.output(from: output)
        try $name.output(from: output)
        try $mail.output(from: output)
        try $mailKey.output(from: output)
        try $passwordHash.output(from: output)
        try $timeZone.output(from: output)
        try $tokenVersion.output(from: output)
        try $createdAt.output(from: output)
        try $isGuest.output(from: output)
        try $passwordSet.output(from: output)
    }

    /// The unique, case-insensitive form of a mail address.
    static func key(forMail mail: String) -> String {
        mail.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}

extension UserModel {
    /// The user's time zone (UTC should the stored name ever be unknown).
    var zone: TimeZone { TimeZone(identifier: timeZone) ?? .gmt }
}

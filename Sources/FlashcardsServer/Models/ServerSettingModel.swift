import Fluent
import Foundation

/// Server-wide values every instance must agree on, such as the generated token secret.
final class ServerSettingModel: Model, @unchecked Sendable {
    static let schema = "server_settings"

    @ID(custom: "key", generatedBy: .user) var id: String?
    @Field(key: "value") var value: String

    init() {}

    init(key: String, value: String) {
        self.id = key
        self.value = value
    }
}

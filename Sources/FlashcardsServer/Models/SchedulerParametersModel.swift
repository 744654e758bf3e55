import Fluent
import Foundation

/// A user's fitted FSRS parameters, used by all their FSRS stacks; no row means the defaults.
final class SchedulerParametersModel: Model, @unchecked Sendable {
    static let schema = "scheduler_parameters"

    @ID(custom: "user_id", generatedBy: .user) var id: UUID?
    /// The 21 weights as a JSON array.
    @Field(key: "parameters") var parameters: String
    @Field(key: "optimized_at") var optimizedAt: Date
    @OptionalField(key: "log_loss") var logLoss: Double?
    @OptionalField(key: "default_log_loss") var defaultLogLoss: Double?
    @OptionalField(key: "reviews") var reviews: Int?

    init() {}

    init(
        userId: UUID, parameters: [Double], optimizedAt: Date, logLoss: Double?, defaultLogLoss: Double?, reviews: Int?
    ) {
        self.id = userId
        self.parameters = "[" + parameters.map { "\($0)" }.joined(separator: ",") + "]"
        self.optimizedAt = optimizedAt
        self.logLoss = logLoss
        self.defaultLogLoss = defaultLogLoss
        self.reviews = reviews
    }

    /// The weights, or nil when the stored text is not 21 numbers.
    var weights: [Double]? { Self.weights(parameters) }

    /// The weights in a stored `parameters` text, or nil when it is not 21 numbers.
    static func weights(_ text: String) -> [Double]? {
        guard let values = try? JSONDecoder().decode([Double].self, from: Data(text.utf8)), values.count == 21
        else { return nil }
        return values
    }
}

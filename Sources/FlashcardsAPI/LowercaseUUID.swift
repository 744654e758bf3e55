import Foundation

/// A UUID that is written to JSON in lowercase, as every id of the API is (Foundation writes
/// uppercase). Reading accepts either case.
@propertyWrapper
public struct LowercaseUUID: Codable, Sendable, Hashable {
    /// The id.
    public var wrappedValue: UUID

    /// Wraps an id.
    public init(wrappedValue: UUID) { self.wrappedValue = wrappedValue }

    /// Reads a UUID string in any case.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected a UUID, got \(text)")
        }
        wrappedValue = id
    }

    /// Writes the lowercase string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.uuidString.lowercased())
    }
}

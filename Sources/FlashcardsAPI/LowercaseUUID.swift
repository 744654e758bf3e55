import FlashcardsCore
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

/// An optional that is written to JSON as an explicit `null` when absent (the API's convention;
/// synthesized coding would leave the key out), and read from `null` or a missing key. A UUID is
/// written in lowercase, as every id of the API is.
@propertyWrapper
public struct Nullable<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// The value, nil when absent.
    public var wrappedValue: Value?

    /// Wraps a value.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    /// Reads the value, or nil for `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch wrappedValue {
        case nil: try container.encodeNil()
        case let id as UUID: try container.encode(id.uuidString.lowercased())
        case let value?: try container.encode(value)
        }
    }
}

extension KeyedDecodingContainer {
    /// A missing key reads as nil, as for a plain optional.
    public func decode<Value>(_ type: Nullable<Value>.Type, forKey key: Key) throws -> Nullable<Value> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}

/// A value with a default that `/api/v1` always writes (a card's `kind` and `variant`): an older
/// server left it out, so it is optional in Swift.
public protocol WireDefault: Codable, Sendable, Hashable {
    /// What an absent value means.
    static var wireDefault: Self { get }
}

extension CardKind: WireDefault {
    /// A card of no other kind is a basic one.
    public static var wireDefault: CardKind { .basic }
}

extension Int: WireDefault {
    /// The first (or only) card of its note.
    public static var wireDefault: Int { 0 }
}

/// An optional that is written as its value or, when absent, as ``WireDefault/wireDefault``, and
/// read from a value, `null` or a missing key (nil).
@propertyWrapper
public struct WrittenWithDefault<Value: WireDefault>: Codable, Sendable, Hashable {
    /// The value, nil when absent.
    public var wrappedValue: Value?

    /// Wraps a value.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    /// Reads the value, or nil for `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    /// Writes the value, or the default.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue ?? Value.wireDefault)
    }
}

extension KeyedDecodingContainer {
    /// A missing key reads as nil, as for a plain optional.
    public func decode<Value>(_ type: WrittenWithDefault<Value>.Type, forKey key: Key) throws
        -> WrittenWithDefault<Value>
    {
        try decodeIfPresent(type, forKey: key) ?? WrittenWithDefault(wrappedValue: nil)
    }
}

/// A field of a partial update that can also be removed: left out of the JSON it is ``keep``,
/// `null` is ``clear`` and a value is ``set(_:)``. (A plain optional cannot tell "left out" from
/// `null`.)
public enum Patch<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    case keep
    case clear
    case set(Value)

    /// The value to store given the current one.
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .keep: current
        case .clear: nil
        case .set(let value): value
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .clear : .set(try container.decode(Value.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .keep, .clear: try container.encodeNil()
        case .set(let value): try container.encode(value)
        }
    }
}

extension KeyedDecodingContainer {
    /// A ``Patch`` field: absent is `keep`, `null` is `clear` (synthesised `Decodable` calls this).
    public func decode<Value>(_ type: Patch<Value>.Type, forKey key: Key) throws -> Patch<Value> {
        guard contains(key) else { return .keep }
        return try decodeNil(forKey: key) ? .clear : .set(try decode(Value.self, forKey: key))
    }
}

extension KeyedEncodingContainer {
    /// A ``Patch`` field: `keep` is left out, `clear` is `null` (synthesised `Encodable` calls this).
    public mutating func encode<Value>(_ value: Patch<Value>, forKey key: Key) throws {
        switch value {
        case .keep: return
        case .clear: try encodeNil(forKey: key)
        case .set(let wrapped): try encode(wrapped, forKey: key)
        }
    }
}

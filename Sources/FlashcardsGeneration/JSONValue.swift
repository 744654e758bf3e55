import Foundation

/// A JSON value whose objects keep their members in order. The order matters for schemas: grammar-based
/// decoders (llama.cpp) make the model write properties in schema order, and a card whose answer comes
/// before its question is a worse card. `JSONSerialization` does not keep dictionary order.
public indirect enum JSONValue: Sendable, Hashable {
    /// An object; members in order.
    case object([Member])
    /// An array.
    case array([JSONValue])
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int)
    /// A floating-point number.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// One member of an object.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: JSONValue

        /// Creates a member.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The member `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Compact JSON text, members in order.
    public var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// The value as `JSONSerialization` objects (`[String: Any]`, `[Any]`, `String`, `NSNumber`, `NSNull`).
    public var foundationObject: Any {
        switch self {
        case .object(let members):
            var dictionary: [String: Any] = [:]
            for member in members { dictionary[member.key] = member.value.foundationObject }
            return dictionary
        case .array(let values): return values.map(\.foundationObject)
        case .string(let value): return value
        case .integer(let value): return value
        case .number(let value): return value
        case .bool(let value): return value
        case .null: return NSNull()
        }
    }

    private func write(to output: inout String) {
        switch self {
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .string(let value): Self.writeString(value, to: &output)
        case .integer(let value): output += String(value)
        case .number(let value):
            output +=
                value.isFinite
                ? (value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)") : "null"
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        }
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar == "\u{2028}" || scalar == "\u{2029}":
                output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object with the members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { Member($0.0, $0.1) })
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer.
    public init(integerLiteral value: Int) {
        self = .integer(value)
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A number.
    public init(floatLiteral value: Double) {
        self = .number(value)
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: Decodable {
    /// Reads any JSON value. Objects read this way keep no particular member order (the decoder's
    /// keyed container has none); write-side order comes from the literals and ``Member``s.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let values = try? container.decode([JSONValue].self) {
            self = .array(values)
        } else {
            let members = try container.decode([String: JSONValue].self)
            self = .object(members.keys.sorted().map { Member($0, members[$0]!) })
        }
    }

    /// The value `encodable` encodes to with `encoder` (dates and keys as that encoder writes them).
    public init(encoding encodable: some Encodable, with encoder: JSONEncoder) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: try encoder.encode(encodable))
    }
}

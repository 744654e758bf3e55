import FlashcardsGeneration
import Foundation

/// A tool's arguments, read as its input schema says: a missing required argument, a value of the
/// wrong type or out of range, and an argument the schema does not name are all refused with a
/// sentence the assistant can act on (``MCPToolFailure``), before anything is read or written.
struct MCPArguments {
    private let members: [String: JSONValue]

    /// The arguments of a call; `allowed` are the names the tool's schema lists.
    init(_ value: JSONValue?, allowed: Set<String>) throws {
        switch value {
        case nil, .null:
            members = [:]
        case .object(let list):
            var members: [String: JSONValue] = [:]
            for member in list { members[member.key] = member.value }
            self.members = members
        default:
            throw MCPToolFailure("The arguments must be a JSON object.")
        }
        if let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw MCPToolFailure("Unknown argument '\(unknown)'. Allowed: \(allowed.sorted().joined(separator: ", ")).")
        }
    }

    private func value(_ key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    /// Whether `key` was given (and is not null).
    func has(_ key: String) -> Bool { value(key) != nil }

    /// A required string (trimmed and checked for length by the service that takes it).
    func string(_ key: String) throws -> String {
        guard let text = try optionalString(key) else { throw MCPToolFailure("The argument '\(key)' is required.") }
        return text
    }

    func optionalString(_ key: String) throws -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw MCPToolFailure("The argument '\(key)' must be a string.") }
        return text
    }

    /// An integer within `range`, or `fallback` when it is not given.
    func int(_ key: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let value = value(key) else { return fallback }
        let number: Int
        switch value {
        case .integer(let whole): number = whole
        case .number(let real) where real == real.rounded() && abs(real) < 1e15: number = Int(real)
        default: throw MCPToolFailure("The argument '\(key)' must be an integer.")
        }
        guard range.contains(number) else {
            throw MCPToolFailure(
                "The argument '\(key)' must be between \(range.lowerBound) and \(range.upperBound).")
        }
        return number
    }

    /// An id (a UUID) as text, for the services' `find`, which answer "not found" for a foreign one.
    func id(_ key: String) throws -> String {
        let text = try string(key)
        guard UUID(uuidString: text) != nil else { throw MCPToolFailure("The argument '\(key)' must be an id (UUID).") }
        return text
    }

    func optionalId(_ key: String) throws -> String? {
        guard value(key) != nil else { return nil }
        return try id(key)
    }

    /// An array of up to `limit` items, or nil when it is not given.
    func optionalArray(_ key: String, limit: Int) throws -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw MCPToolFailure("The argument '\(key)' must be an array.") }
        guard items.count <= limit else {
            throw MCPToolFailure("The argument '\(key)' takes at most \(limit) items.")
        }
        return items
    }

    /// One of `choices`, or nil when it is not given.
    func optionalChoice<Choice: RawRepresentable>(_ key: String, of choices: [Choice]) throws -> Choice?
    where Choice.RawValue == String {
        guard let text = try optionalString(key) else { return nil }
        guard let choice = choices.first(where: { $0.rawValue == text }) else {
            throw MCPToolFailure(
                "The argument '\(key)' must be one of \(choices.map(\.rawValue).joined(separator: ", ")).")
        }
        return choice
    }
}

/// A tool call that cannot be done as asked: a result with `isError`, its text for the assistant.
struct MCPToolFailure: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

import Foundation

@testable import FlashcardsGeneration

/// A small JSON Schema validator for the keywords the card schema uses (`type`, `properties`,
/// `required`, `additionalProperties: false`, `items`, `minItems`, `maxItems`, `minLength`,
/// `maxLength`, `pattern`, `enum` of strings, `anyOf`), written independently of the generator so that tests check model output against
/// the schema itself rather than against the parser's leniency. Unknown keywords fail loudly.
enum JSONSchemaValidator {
    private static let known: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "minItems", "maxItems", "minLength",
        "maxLength", "pattern", "enum", "anyOf",
    ]

    /// The violations of `text` (JSON) against `schema`; empty when it validates.
    static func violations(of text: String, against schema: JSONValue) -> [String] {
        // Strict JSON: JSONSerialization refuses raw control characters inside strings, as RFC 8259 does.
        guard let data = text.data(using: .utf8),
            let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return ["not JSON"] }
        return violations(of: value, against: schema.foundationObject as? [String: Any] ?? [:], at: "$")
    }

    static func violations(of value: Any, against schema: [String: Any], at path: String) -> [String] {
        var found: [String] = []
        for key in schema.keys where !known.contains(key) { found.append("\(path): unsupported keyword \(key)") }
        if let options = schema["anyOf"] as? [[String: Any]] {
            // Valid when one option takes it; otherwise the option with the fewest violations speaks.
            let results = options.map { violations(of: value, against: $0, at: path) }
            guard !results.contains(where: \.isEmpty) else { return found }
            return found + (results.min { $0.count < $1.count } ?? ["\(path): no option of anyOf"])
        }
        if let allowed = schema["enum"] as? [String] {
            guard let string = value as? String, allowed.contains(string) else {
                return found + ["\(path): not one of \(allowed)"]
            }
            if schema["type"] == nil { return found }
        }
        switch schema["type"] as? String {
        case "object":
            guard let object = value as? [String: Any] else { return ["\(path): not an object"] }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                found.append("\(path): missing \(name)")
            }
            if schema["additionalProperties"] as? Bool == false {
                for name in object.keys where properties[name] == nil { found.append("\(path): extra \(name)") }
            }
            for (name, item) in object {
                if let property = properties[name] as? [String: Any] {
                    found += violations(of: item, against: property, at: "\(path).\(name)")
                }
            }
        case "array":
            guard let array = value as? [Any] else { return ["\(path): not an array"] }
            if let minimum = schema["minItems"] as? Int, array.count < minimum {
                found.append("\(path): \(array.count) items < \(minimum)")
            }
            if let maximum = schema["maxItems"] as? Int, array.count > maximum {
                found.append("\(path): \(array.count) items > \(maximum)")
            }
            if let items = schema["items"] as? [String: Any] {
                for (index, item) in array.enumerated() {
                    found += violations(of: item, against: items, at: "\(path)[\(index)]")
                }
            }
        case "string":
            guard let string = value as? String else { return ["\(path): not a string"] }
            if let minimum = schema["minLength"] as? Int, string.count < minimum {
                found.append("\(path): length \(string.count) < \(minimum)")
            }
            if let maximum = schema["maxLength"] as? Int, string.count > maximum {
                found.append("\(path): length \(string.count) > \(maximum)")
            }
            if let pattern = schema["pattern"] as? String {
                let range = NSRange(string.startIndex..., in: string)
                guard let expression = try? NSRegularExpression(pattern: pattern) else {
                    return found + ["\(path): bad pattern \(pattern)"]
                }
                if expression.firstMatch(in: string, range: range) == nil {
                    found.append("\(path): does not match \(pattern)")
                }
            }
        case "integer":
            // JSONSerialization gives NSNumber; booleans are NSNumbers of type "c" (char), so exclude those.
            guard let number = value as? NSNumber, String(cString: number.objCType) != "c",
                number.doubleValue == number.doubleValue.rounded()
            else { return ["\(path): not an integer"] }
        default:
            found.append("\(path): unsupported type \(String(describing: schema["type"]))")
        }
        return found
    }
}

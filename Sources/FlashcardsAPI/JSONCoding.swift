import FlashcardsCore
import Foundation

/// The JSON conventions every Smart Flashcards client and the server share: ISO-8601 dates with
/// fractional seconds and `Z`.
public enum FlashcardsJSON {
    /// Formats a date as ISO-8601 UTC with milliseconds, e.g. `2026-06-13T15:51:05.123Z`, rounded to
    /// the nearest millisecond. (The format style truncates, and a parsed `.063` is the double just
    /// below it, which it would write as `.062`: a date sent in must come back as it was.)
    ///
    /// Years 1970 … 9999 are written from the day count directly (every response carries several
    /// dates, and the format style is slow; docs/benchmarks.md); others go through the format style.
    public static func string(from date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded()
        guard milliseconds >= 0, milliseconds < 253_402_300_800_000 else { return formatted(milliseconds) }
        let total = Int(milliseconds)
        let (year, month, day) = CivilDate.date(daysSince1970: total / 86_400_000)
        let time = total % 86_400_000
        let fields = [
            (year, 4), (month, 2), (day, 2), (time / 3_600_000, 2), (time / 60_000 % 60, 2), (time / 1_000 % 60, 2),
            (time % 1_000, 3),
        ]
        let separators: [UInt8] = Array("--T::.Z".utf8)
        return String(unsafeUninitializedCapacity: 24) { bytes in
            var index = 0
            for (field, (value, width)) in fields.enumerated() {
                var rest = value
                for position in stride(from: index + width - 1, through: index, by: -1) {
                    bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                index += width
                bytes[index] = separators[field]
                index += 1
            }
            return index
        }
    }

    /// `string(from:)` through the format style, for `milliseconds` since 1970 outside 1970 … 9999.
    static func formatted(_ milliseconds: Double) -> String {
        let seconds = (milliseconds / 1_000).rounded(.down)
        let fraction = Int(milliseconds - seconds * 1_000)
        let whole = Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Parses ISO-8601 with or without fractional seconds.
    public static func date(from string: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(string) {
            return date
        }
        return try? Date.ISO8601FormatStyle().parse(string)
    }

    /// An encoder using the shared date format.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(string(from: date))
        }
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// A decoder using the shared date format.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO-8601 date, got \(text)")
            }
            return date
        }
        return decoder
    }
}

/// The error body of every endpoint: a human-readable message and a stable machine code.
public struct ErrorResponse: Codable, Sendable, Hashable {
    /// A message that can be shown to the user (the compatibility routes keep the original texts).
    public var message: String
    /// A stable code for programs, e.g. `stack_not_found`, `validation_failed`.
    public var code: String?

    /// Creates an error body.
    public init(message: String, code: String? = nil) {
        self.message = message
        self.code = code
    }
}

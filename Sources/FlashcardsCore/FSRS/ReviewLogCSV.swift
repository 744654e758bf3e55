import Foundation

/// Reads review logs in the CSV layout used by py-fsrs' test data and the FSRS benchmark:
/// `card_id,review_rating,review_time,review_duration`, one review per line, times in ISO-8601
/// (`2024-03-29T20:32:32.250000+00:00`), duration in milliseconds.
///
/// Hand-written over UTF-8 bytes rather than `DateFormatter`/`ISO8601DateFormatter`, because replaying
/// a million reviews must take well under a second and those formatters cost microseconds per call.
public enum ReviewLogCSV {
    /// The header line this reader expects (columns may appear in any order; `review_duration` may be absent).
    public static let header = "card_id,review_rating,review_time,review_duration"

    /// One parsed review.
    public struct Row: Sendable, Hashable {
        /// The card's identifier as written in the file.
        public var cardID: Int64
        /// The rating given.
        public var rating: FSRSRating
        /// When the review happened.
        public var reviewTime: Date
        /// How long the review took in milliseconds, if the file says.
        public var reviewDuration: Int?
        /// 1-based line number in the file, for messages about this row.
        public var line: Int

        /// Creates a row.
        public init(cardID: Int64, rating: FSRSRating, reviewTime: Date, reviewDuration: Int? = nil, line: Int = 0) {
            self.cardID = cardID
            self.rating = rating
            self.reviewTime = reviewTime
            self.reviewDuration = reviewDuration
            self.line = line
        }
    }

    /// A malformed file: names the 1-based line and what is wrong with it.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// 1-based line number (1 is the header).
        public var line: Int
        /// What is wrong, in English.
        public var message: String

        /// Creates an error.
        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }

        /// "line N: message".
        public var description: String { "line \(line): \(message)" }
    }

    /// Parses a whole file given as text. Empty lines are skipped; CRLF line ends are accepted.
    public static func parse(_ text: String) throws(ParseError) -> [Row] {
        var text = text
        let result: Result<[Row], ParseError> = text.withUTF8 { buffer in
            Result { () throws(ParseError) in try parse(utf8: buffer) }
        }
        return try result.get()
    }

    /// Parses a whole file given as UTF-8 bytes.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(ParseError) -> [Row] {
        var rows: [Row] = []
        rows.reserveCapacity(bytes.count / 48)
        var columns: (card: Int, rating: Int, time: Int, duration: Int?)? = nil
        var columnCount = 0
        var lineNumber = 0
        var start = 0
        let count = bytes.count
        // Byte ranges of the fields on the current line; reused to avoid allocating per line.
        var fields: [Range<Int>] = []
        fields.reserveCapacity(8)
        while start < count {
            lineNumber += 1
            var end = start
            while end < count && bytes[end] != 0x0A { end += 1 }
            let next = end + 1
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            defer { start = next }
            if lineEnd == start { continue }  // blank line
            fields.removeAll(keepingCapacity: true)
            var fieldStart = start
            for i in start..<lineEnd where bytes[i] == 0x2C {
                fields.append(fieldStart..<i)
                fieldStart = i + 1
            }
            fields.append(fieldStart..<lineEnd)

            guard let cols = columns else {
                columns = try headerColumns(bytes, fields, line: lineNumber)
                columnCount = fields.count
                continue
            }
            guard fields.count == columnCount else {
                throw ParseError(
                    line: lineNumber, message: "expected \(columnCount) fields, found \(fields.count)")
            }
            guard let cardID = parseInt(bytes, fields[cols.card]) else {
                throw ParseError(
                    line: lineNumber, message: "card_id is not an integer: \"\(text(bytes, fields[cols.card]))\"")
            }
            guard let ratingValue = parseInt(bytes, fields[cols.rating]),
                let rating = FSRSRating(rawValue: Int(ratingValue))
            else {
                throw ParseError(
                    line: lineNumber,
                    message: "review_rating must be 1, 2, 3 or 4, found \"\(text(bytes, fields[cols.rating]))\"")
            }
            guard let time = parseTimestamp(bytes, fields[cols.time]) else {
                throw ParseError(
                    line: lineNumber,
                    message:
                        "review_time is not an ISO-8601 time with offset (like 2024-03-29T20:32:32.250000+00:00): \"\(text(bytes, fields[cols.time]))\""
                )
            }
            var duration: Int? = nil
            if let d = cols.duration, !fields[d].isEmpty {
                guard let value = parseInt(bytes, fields[d]), value >= 0 else {
                    throw ParseError(
                        line: lineNumber,
                        message: "review_duration is not a non-negative integer: \"\(text(bytes, fields[d]))\"")
                }
                duration = Int(value)
            }
            rows.append(
                Row(cardID: cardID, rating: rating, reviewTime: time, reviewDuration: duration, line: lineNumber))
        }
        if columns == nil { throw ParseError(line: 1, message: "empty file: expected the header \"\(header)\"") }
        return rows
    }

    /// Parses one ISO-8601 timestamp such as `2024-03-29T20:32:32.250000+00:00` or `2024-03-29T20:32:32Z`.
    ///
    /// The offset (`Z`, `±HH:MM` or `±HHMM`) is required, because a time without one is ambiguous.
    /// Returns nil for anything else.
    public static func parseTimestamp(_ string: String) -> Date? {
        var string = string
        return string.withUTF8 { parseTimestamp($0, 0..<$0.count) }
    }

    /// Formats an instant as ISO-8601 UTC: `2024-03-29T20:32:32Z`, with `.SSS` or `.SSSSSS` when
    /// the time has a fractional part (rounded to microseconds).
    public static func formatTimestamp(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(27)
        appendTimestamp(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `formatTimestamp(date)` as UTF-8 bytes (no intermediate strings: the replay command
    /// writes two timestamps per review).
    public static func appendTimestamp(_ date: Date, to out: inout [UInt8]) {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (y, m, d) = CivilDate.date(daysSince1970: Int(days))
        if y < 0 { out.append(0x2D) }
        appendDigits(&out, Int64(abs(y)), 4)
        out.append(0x2D)
        appendDigits(&out, Int64(m), 2)
        out.append(0x2D)
        appendDigits(&out, Int64(d), 2)
        out.append(0x54)  // T
        appendDigits(&out, secondOfDay / 3600, 2)
        out.append(0x3A)
        appendDigits(&out, secondOfDay / 60 % 60, 2)
        out.append(0x3A)
        appendDigits(&out, secondOfDay % 60, 2)
        if fraction != 0 {
            out.append(0x2E)
            if fraction % 1000 == 0 {
                appendDigits(&out, fraction / 1000, 3)
            } else {
                appendDigits(&out, fraction, 6)
            }
        }
        out.append(0x5A)  // Z
    }

    /// Appends a non-negative integer in decimal, zero-padded to at least `width` digits.
    static func appendDigits(_ out: inout [UInt8], _ value: Int64, _ width: Int) {
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value.magnitude
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(rest % 10) + 0x30
                rest /= 10
                count += 1
            } while rest > 0
            while count < width {
                buffer[count] = 0x30
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[i]) }
        }
    }

    // MARK: - Internals

    private static func headerColumns(
        _ bytes: UnsafeBufferPointer<UInt8>, _ fields: [Range<Int>], line: Int
    ) throws(ParseError) -> (card: Int, rating: Int, time: Int, duration: Int?) {
        var names = fields.map { text(bytes, $0).trimmingCharacters(in: .whitespaces) }
        // A UTF-8 byte order mark would otherwise become part of the first column name.
        if let first = names.first, first.hasPrefix("\u{FEFF}") { names[0] = String(first.dropFirst()) }
        func index(_ name: String) -> Int? { names.firstIndex(of: name) }
        guard let card = index("card_id"), let rating = index("review_rating"), let time = index("review_time") else {
            throw ParseError(
                line: line,
                message:
                    "header must name the columns card_id, review_rating, review_time (found \"\(names.joined(separator: ","))\")"
            )
        }
        return (card, rating, time, index("review_duration"))
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private static func parseInt(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        var i = range.lowerBound
        var negative = false
        if i < range.upperBound && (bytes[i] == 0x2D || bytes[i] == 0x2B) {
            negative = bytes[i] == 0x2D
            i += 1
        }
        guard i < range.upperBound, range.upperBound - i <= 18 else { return nil }
        var value: Int64 = 0
        while i < range.upperBound {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            i += 1
        }
        return negative ? -value : value
    }

    /// Reads exactly `width` decimal digits at `i`.
    @inline(__always)
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, _ width: Int, _ end: Int) -> Int? {
        guard i + width <= end else { return nil }
        var value = 0
        for j in i..<(i + width) {
            let digit = bytes[j] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }

    static func parseTimestamp(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Date? {
        let end = range.upperBound
        let s = range.lowerBound
        // yyyy-MM-ddTHH:mm:ss is 19 bytes.
        guard end - s >= 20,
            let year = digits(bytes, s, 4, end), bytes[s + 4] == 0x2D,
            let month = digits(bytes, s + 5, 2, end), bytes[s + 7] == 0x2D,
            let day = digits(bytes, s + 8, 2, end),
            bytes[s + 10] == 0x54 || bytes[s + 10] == 0x20 || bytes[s + 10] == 0x74,
            let hour = digits(bytes, s + 11, 2, end), bytes[s + 13] == 0x3A,
            let minute = digits(bytes, s + 14, 2, end), bytes[s + 16] == 0x3A,
            let second = digits(bytes, s + 17, 2, end),
            (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var i = s + 19
        var fraction = 0.0
        if i < end && (bytes[i] == 0x2E || bytes[i] == 0x2C) {
            i += 1
            var numerator = 0
            var scale = 1
            let fractionStart = i
            while i < end, bytes[i] &- 0x30 < 10 {
                if scale < 1_000_000_000 {  // digits past nanoseconds cannot change a Double date
                    numerator = numerator * 10 + Int(bytes[i] &- 0x30)
                    scale *= 10
                }
                i += 1
            }
            guard i > fractionStart else { return nil }
            fraction = Double(numerator) / Double(scale)
        }
        guard i < end else { return nil }
        var offsetSeconds = 0
        if bytes[i] == 0x5A || bytes[i] == 0x7A {  // Z
            i += 1
        } else if bytes[i] == 0x2B || bytes[i] == 0x2D {
            let sign = bytes[i] == 0x2D ? -1 : 1
            i += 1
            guard let oh = digits(bytes, i, 2, end), oh < 24 else { return nil }
            i += 2
            if i < end && bytes[i] == 0x3A { i += 1 }
            guard let om = digits(bytes, i, 2, end), om < 60 else { return nil }
            i += 2
            offsetSeconds = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == end else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

}

import Foundation

/// Cards from delimited text (issue 19, first part): CSV and TSV files as spreadsheets, Anki's text
/// export and Quizlet's "term TAB definition, one per line" write them. Pure functions: bytes to
/// text (UTF-8 with or without a byte order mark, else Windows-1252), the separator, rows with
/// RFC 4180 quoting (quoted fields may hold separators, doubled quotes and line breaks), whether the
/// first row is a header, and which columns hold front, back, hint and tags.
public enum DelimitedText {
    /// How the bytes were read.
    public enum Encoding: String, Sendable, Hashable {
        case utf8 = "utf-8"
        case utf8WithBOM = "utf-8-bom"
        case windows1252 = "windows-1252"
    }

    /// A row that cannot be read, with its line (1-based) for the error message.
    public struct ParseError: Error, Sendable, Hashable {
        public var line: Int
        public var reason: Reason

        public enum Reason: Sendable, Hashable {
            /// A quoted field that never ends.
            case unterminatedQuote
            /// Text right after a closing quote (`"a"b`).
            case textAfterQuote
        }
    }

    /// Separators tried when none is given, in order of preference on a tie.
    public static let separators: [Character] = ["\t", ";", ","]

    // MARK: Bytes

    /// The text of `bytes`: UTF-8 (a byte order mark is dropped), or Windows-1252 when the bytes are
    /// not UTF-8 (what Excel on Windows saves as "CSV").
    public static func decode(_ bytes: [UInt8]) -> (text: String, encoding: Encoding) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]), let text = String(validating: bytes.dropFirst(3), as: UTF8.self) {
            return (text, .utf8WithBOM)
        }
        if let text = String(validating: bytes, as: UTF8.self) { return (text, .utf8) }
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            if (0x80...0x9F).contains(byte), let mapped = windows1252[Int(byte - 0x80)] {
                scalars.append(mapped)
            } else {
                scalars.append(Unicode.Scalar(byte))
            }
        }
        return (String(scalars), .windows1252)
    }

    /// Windows-1252's characters at 0x80 … 0x9F (nil: undefined, read as the C1 control).
    private static let windows1252: [Unicode.Scalar?] = [
        "\u{20AC}", nil, "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", nil, "\u{017D}", nil,
        nil, "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", nil, "\u{017E}", "\u{0178}",
    ]

    // MARK: Rows

    /// The rows of `text` split at `separator`; fields in double quotes may hold the separator,
    /// line breaks and doubled quotes. Line ends may be LF, CRLF or CR; empty lines are skipped.
    public static func rows(_ text: String, separator: Character) throws(ParseError) -> [[String]] {
        try numberedRows(text, separator: separator).rows
    }

    /// ``rows(_:separator:)`` with the line (1-based) each row starts on, for error messages.
    public static func numberedRows(_ text: String, separator: Character) throws(ParseError)
        -> (rows: [[String]], lines: [Int])
    {
        try numberedRows(utf8: Array(text.utf8), separator: Array(String(separator).utf8))
    }

    /// The scanner: works on UTF-8 bytes (quotes, separators and line ends are ASCII, or a whole
    /// UTF-8 sequence for a custom separator, so no byte of another character matches them).
    static func numberedRows(utf8 bytes: [UInt8], separator: [UInt8]) throws(ParseError)
        -> (rows: [[String]], lines: [Int])
    {
        let quote: UInt8 = 0x22
        let lf: UInt8 = 0x0A
        let cr: UInt8 = 0x0D
        let space: UInt8 = 0x20
        let tab: UInt8 = 0x09
        let first = separator[0]
        let trimsTabs = separator != [tab]
        var rows: [[String]] = []
        var lines: [Int] = []
        var row: [String] = []
        var line = 1
        var rowLine = 1
        var index = 0
        let count = bytes.count
        var field: [UInt8] = []

        func isSeparator(at position: Int) -> Bool {
            guard bytes[position] == first else { return false }
            if separator.count == 1 { return true }
            guard position + separator.count <= count else { return false }
            for offset in 1..<separator.count where bytes[position + offset] != separator[offset] { return false }
            return true
        }
        func isBlank(_ byte: UInt8) -> Bool { byte == space || (trimsTabs && byte == tab) }
        func endRow() {
            if !(row.count == 1 && row[0].isEmpty) {
                rows.append(row)
                lines.append(rowLine)
            }
            row = []
        }

        while true {
            // One field: blanks, then a quoted or a plain field.
            var start = index
            while start < count, isBlank(bytes[start]) { start += 1 }
            if start < count, bytes[start] == quote {
                field.removeAll(keepingCapacity: true)
                index = start + 1
                var closed = false
                while index < count {
                    let byte = bytes[index]
                    if byte == quote {
                        if index + 1 < count, bytes[index + 1] == quote {
                            field.append(quote)
                            index += 2
                            continue
                        }
                        index += 1
                        closed = true
                        break
                    }
                    // Line breaks inside a field are kept as \n whatever the file used.
                    if byte == cr {
                        field.append(lf)
                        line += 1
                        index += (index + 1 < count && bytes[index + 1] == lf) ? 2 : 1
                        continue
                    }
                    if byte == lf { line += 1 }
                    field.append(byte)
                    index += 1
                }
                if !closed { throw ParseError(line: rowLine, reason: .unterminatedQuote) }
                while index < count, isBlank(bytes[index]) { index += 1 }
                if index < count, !isSeparator(at: index), bytes[index] != lf, bytes[index] != cr {
                    throw ParseError(line: line, reason: .textAfterQuote)
                }
                row.append(String(decoding: field, as: UTF8.self))
            } else {
                index = start
                while index < count, bytes[index] != lf, bytes[index] != cr, !isSeparator(at: index) { index += 1 }
                var end = index
                while end > start, isBlank(bytes[end - 1]) { end -= 1 }
                row.append(String(decoding: bytes[start..<end], as: UTF8.self))
            }
            // What ends the field: a separator, a line end, or the end of the text.
            if index >= count {
                endRow()
                break
            }
            if isSeparator(at: index) {
                index += separator.count
                continue
            }
            index += (bytes[index] == cr && index + 1 < count && bytes[index + 1] == lf) ? 2 : 1
            line += 1
            endRow()
            rowLine = line
            if index >= count { break }
        }
        return (rows, lines)
    }

    /// The separator that splits the first lines most consistently into two or more fields: the
    /// one whose field count is the same on most of the first 20 rows (ties: tab, semicolon,
    /// comma). Comma when nothing splits.
    public static func detectSeparator(_ text: String) -> Character {
        let sample = String(text.prefix(20_000))
        var best: (separator: Character, score: Int) = (",", 0)
        for separator in separators {
            guard let rows = try? rows(sample, separator: separator).prefix(20), !rows.isEmpty else { continue }
            let counts = rows.map(\.count).filter { $0 >= 2 }
            guard let common = Dictionary(grouping: counts, by: { $0 }).max(by: { $0.value.count < $1.value.count })
            else { continue }
            if common.value.count > best.score { best = (separator, common.value.count) }
        }
        return best.separator
    }

    // MARK: Writing

    /// `rows` as delimited text that this reader and spreadsheets read back unchanged: a field is
    /// quoted when it holds the separator, a quote, a line break or spaces at either end (quotes
    /// doubled); rows end in CRLF (RFC 4180). `byteOrderMark` puts U+FEFF first, which Excel needs
    /// to read UTF-8.
    public static func text(_ rows: [[String]], separator: Character = ",", byteOrderMark: Bool = false) -> String {
        var text = byteOrderMark ? "\u{FEFF}" : ""
        for row in rows {
            text += row.map { field in
                let needsQuotes =
                    field.contains(separator) || field.contains("\"") || field.contains(where: \.isNewline)
                    || field.first?.isWhitespace == true || field.last?.isWhitespace == true
                guard needsQuotes else { return field }
                return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }.joined(separator: String(separator))
            text += "\r\n"
        }
        return text
    }

    // MARK: Columns

    /// Which columns hold what (indexes into a row).
    public struct Mapping: Codable, Sendable, Hashable {
        public var front: Int
        public var back: Int
        public var hint: Int?
        public var tags: Int?

        public init(front: Int = 0, back: Int = 1, hint: Int? = nil, tags: Int? = nil) {
            self.front = front
            self.back = back
            self.hint = hint
            self.tags = tags
        }

        private enum CodingKeys: String, CodingKey {
            case front, back, hint, tags
        }

        /// Writes every field, `null` for an unused role (the API's way).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(front, forKey: .front)
            try container.encode(back, forKey: .back)
            try container.encode(hint, forKey: .hint)
            try container.encode(tags, forKey: .tags)
        }
    }

    /// Header names per role, lowercased (German and English, and what Quizlet and Anki write).
    static let headerNames: [(role: String, names: Set<String>)] = [
        ("front", ["front", "question", "term", "vorderseite", "frage", "begriff", "word", "wort"]),
        ("back", ["back", "answer", "definition", "rückseite", "antwort", "bedeutung", "meaning"]),
        ("hint", ["hint", "hinweis", "tipp", "clue"]),
        ("tags", ["tags", "tag", "schlagwörter", "schlagworte"]),
    ]

    /// The mapping a header names, or nil when the row is no header (it names neither a front nor
    /// a back column).
    public static func mapping(header: [String]) -> Mapping? {
        var found: [String: Int] = [:]
        for (index, cell) in header.enumerated() {
            let name = cell.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            for (role, names) in headerNames where found[role] == nil && names.contains(name) {
                found[role] = index
            }
        }
        guard let front = found["front"], let back = found["back"] else { return nil }
        return Mapping(front: front, back: back, hint: found["hint"], tags: found["tags"])
    }

    /// A table read from delimited text: its separator, whether the first row was a header, the
    /// column mapping (from the header, else front, back, then hint and tags by position) and the
    /// data rows.
    public struct Table: Sendable, Hashable {
        public var encoding: Encoding
        public var separator: Character
        public var header: [String]?
        public var mapping: Mapping
        public var rows: [[String]]
        /// The line (1-based) each of `rows` starts on.
        public var lines: [Int]
        /// The most fields any row has (the header included).
        public var columns: Int
    }

    /// Reads `bytes` with the separator given or detected. `header` says whether the first row is
    /// a header; nil decides by its names (``mapping(header:)``).
    public static func table(_ bytes: [UInt8], separator given: Character? = nil, header hasHeader: Bool? = nil)
        throws(ParseError) -> Table
    {
        let (text, encoding) = decode(bytes)
        let separator = given ?? detectSeparator(text)
        var (rows, lines) = try numberedRows(utf8: Array(text.utf8), separator: Array(String(separator).utf8))
        let columns = rows.lazy.map(\.count).max() ?? 0
        var header: [String]?
        var mapping = Mapping(hint: columns > 2 ? 2 : nil, tags: columns > 3 ? 3 : nil)
        let named = rows.first.flatMap { self.mapping(header: $0) }
        if let first = rows.first, hasHeader ?? (named != nil) {
            header = first
            if let named { mapping = named }
            rows.removeFirst()
            lines.removeFirst()
        }
        return Table(
            encoding: encoding, separator: separator, header: header, mapping: mapping, rows: rows, lines: lines,
            columns: columns)
    }
}

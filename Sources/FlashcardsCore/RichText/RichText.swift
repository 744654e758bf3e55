/// The formatting a card may carry: a small Markdown subset with formulas.
///
/// - Blocks: paragraphs (a single line break stays a line break), fenced code (three backticks),
///   lists (`- `, `* `, `+ ` or `1. ` / `1) `), tables (a row of cells between pipes followed by a
///   rule such as `|---|:---:|`), and display formulas (`$$ … $$`).
/// - Inline: `**strong**` / `__strong__`, `*emphasis*` / `_emphasis_` (underscores only at word
///   edges, so `snake_case` stays text), `` `code` ``, `$formula$` (LaTeX; an opening `$` is not
///   followed by a space, a closing one not preceded by a space nor followed by a digit, so `5 $ and
///   10 $` stays text), images stored on this server (`![description](image:<uuid>)`, nothing but an
///   image id as the target), and backslash escapes of the marker characters.
/// - Anything else is text: there is no raw HTML, no link and no image from elsewhere, so there is
///   nothing a text could smuggle in. Rendering escapes every character of the source it copies.
///
/// The parser is total: every string is a valid document (a marker without its partner is text).
public enum RichText {
    /// A block of a document.
    public enum Block: Equatable, Sendable {
        case paragraph([Inline])
        case code(String)
        case list(ordered: Bool, items: [[Inline]])
        case table(header: [[Inline]], alignments: [Alignment], rows: [[[Inline]]])
        case formula(String)
    }

    /// A run of text inside a block.
    public indirect enum Inline: Equatable, Sendable {
        case text(String)
        case strong([Inline])
        case emphasis([Inline])
        case code(String)
        case formula(String)
        /// An image stored on this server: its id (a lowercase UUID) and its description.
        case image(id: String, alt: String)
        case lineBreak
    }

    /// A table column's alignment.
    public enum Alignment: String, Equatable, Sendable {
        case none, left, center, right
    }

    /// The document of `source`.
    public static func parse(_ source: String) -> [Block] {
        BlockParser(source: source).blocks()
    }

    /// `source` as sanitised HTML: only `p`, `br`, `strong`, `em`, `code`, `pre`, `ul`, `ol`,
    /// `li`, `table`, `thead`, `tbody`, `tr`, `th`, `td`, and formulas as
    /// `<span class="math">` / `<div class="math math-display">` holding their LaTeX source as text
    /// (a client typesets them, KaTeX without trust). Every text is escaped.
    ///
    /// An image is `<img class="card-image" data-image="<id>" alt="…">` (a client loads it with the
    /// viewer's rights), or with `imageFile` `<img src="<file>" alt="…">` (Anki's fields; an image
    /// without a file becomes its description).
    public static func html(
        _ source: String, formulas: FormulaStyle = .elements, imageFile: ((String) -> String?)? = nil
    ) -> String {
        var out = ""
        let writer = HTMLWriter(formulas: formulas, imageFile: imageFile)
        for block in parse(source) { writer.write(block, to: &out) }
        return out
    }

    /// How `html` writes a formula.
    public enum FormulaStyle: Sendable {
        /// `<span class="math">` / `<div class="math math-display">` with the LaTeX as text (our clients).
        case elements
        /// MathJax's delimiters `\(…\)` and `\[…\]` around the escaped LaTeX (Anki's fields).
        case mathJax
    }

    /// `source` without its formatting, for clients that show plain text (the original API's):
    /// markers dropped, list items on lines of their own (`- ` or `1. `), table rows with cells
    /// between ` | `, formulas as their LaTeX source.
    /// An image shows as its description, or `[Bild]` without one; with `showingImages` false it
    /// leaves nothing (and the spaces around it collapse).
    public static func plainText(_ source: String, showingImages: Bool = true) -> String {
        let writer = PlainWriter(showingImages: showingImages)
        let text = parse(source).map(writer.text).joined(separator: "\n\n")
        guard !showingImages else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: " ").joined(separator: " ")
        }.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The ids of the images `source` shows, each once, in order. A cheap test comes first: most
    /// texts have no image.
    public static func imageIds(_ source: String) -> [String] {
        guard source.utf8.contains(UInt8(ascii: "!")), source.contains("](image:") else { return [] }
        var seen: Set<String> = []
        var ids: [String] = []
        func visit(_ inlines: [Inline]) {
            for inline in inlines {
                switch inline {
                case .image(let id, _): if seen.insert(id).inserted { ids.append(id) }
                case .strong(let content), .emphasis(let content): visit(content)
                default: break
                }
            }
        }
        for block in parse(source) {
            switch block {
            case .paragraph(let inlines): visit(inlines)
            case .list(_, let items): for item in items { visit(item) }
            case .table(let header, _, let rows):
                for cell in header + rows.joined() { visit(cell) }
            case .code, .formula: break
            }
        }
        return ids
    }

    /// Plain `text` as a source that shows it literally: the inline markers (`\\ * _ ` $ |`, and `[`
    /// so nothing becomes an image) escaped everywhere, and what would start a block at the start
    /// of a line (a list's `- `, `+ `, `1. `, `1) `) made text. `plainText` of the result is `text`
    /// for texts whose lines have no spaces at either end and no two empty lines in a row (an HTML
    /// field's text), but for a no-break space after a number's `)`, which cannot be escaped.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if index > 0 { out += "\n" }
            var rest = Substring(line)
            // A list marker at the start of the line: `-`/`+` escaped, a number's `.` escaped; the
            // space after a number's `)` (which cannot be escaped) becomes a no-break space.
            let leading = rest.prefix { $0 == " " || $0 == "\t" }
            out += leading
            rest = rest.dropFirst(leading.count)
            if let first = rest.first, first == "-" || first == "+", rest.dropFirst().first == " " {
                out += "\\" + String(first)
                rest = rest.dropFirst()
            } else {
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                let after = rest.dropFirst(digits.count)
                if (1...9).contains(digits.count), let mark = after.first, mark == "." || mark == ")",
                    after.dropFirst().first == " "
                {
                    out += digits + (mark == "." ? "\\. " : ")\u{00A0}")
                    rest = after.dropFirst(2)
                }
            }
            for character in rest {
                switch character {
                case "\\", "*", "_", "`", "$", "|", "[", "]": out += "\\" + String(character)
                default: out.append(character)
                }
            }
        }
        return out
    }

    /// The Markdown that shows image `id` with `description` (brackets and backslashes escaped,
    /// line breaks as spaces).
    public static func imageMarkdown(id: String, description: String) -> String {
        var alt = ""
        for character in description {
            switch character {
            case "\\", "[", "]": alt += "\\" + String(character)
            case "\n", "\r", "\r\n": alt += " "
            default: alt.append(character)
            }
        }
        return "![\(alt)](image:\(id.lowercased()))"
    }
}

// MARK: - Blocks

// The parsers work on UTF-8 bytes: every marker is ASCII, and a card page renders hundreds of texts.
// A byte of a multi-byte character counts as a letter (so `für_alle` keeps its underscore) and never
// as white space.

private typealias Bytes = ArraySlice<UInt8>

private enum ASCII {
    static let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r"), space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t"), pipe = UInt8(ascii: "|"), backslash = UInt8(ascii: "\\")
    static let backtick = UInt8(ascii: "`"), dollar = UInt8(ascii: "$"), star = UInt8(ascii: "*")
    static let underscore = UInt8(ascii: "_"), colon = UInt8(ascii: ":"), dash = UInt8(ascii: "-")
    static let bang = UInt8(ascii: "!"), openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let openParen = UInt8(ascii: "("), closeParen = UInt8(ascii: ")")

    static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == space || byte == tab || (0x0A...0x0D).contains(byte) }
    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    /// A letter or digit, or part of a character beyond ASCII.
    static func isWordByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte >= 0x80
    }
}

extension ArraySlice where Element == UInt8 {
    /// Without spaces and tabs at either end.
    fileprivate var trimmingSpaces: ArraySlice<UInt8> {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == ASCII.space || self[start] == ASCII.tab { start += 1 }
        while end > start, self[end - 1] == ASCII.space || self[end - 1] == ASCII.tab { end -= 1 }
        return self[start..<end]
    }

    /// Without any white space (line breaks too) at either end.
    fileprivate var trimmingWhiteSpace: ArraySlice<UInt8> {
        var start = startIndex
        var end = endIndex
        while start < end, ASCII.isSpace(self[start]) { start += 1 }
        while end > start, ASCII.isSpace(self[end - 1]) { end -= 1 }
        return self[start..<end]
    }

    fileprivate func hasPrefix(_ prefix: [UInt8]) -> Bool {
        count >= prefix.count && zip(self, prefix).allSatisfy { $0 == $1 }
    }

    fileprivate func hasSuffix(_ suffix: [UInt8]) -> Bool {
        count >= suffix.count && zip(self[(endIndex - suffix.count)...], suffix).allSatisfy { $0 == $1 }
    }

    fileprivate var string: String { String(decoding: self, as: UTF8.self) }
}

private struct BlockParser {
    let lines: [Bytes]
    static let fence = Array("```".utf8)
    static let displayMath = Array("$$".utf8)

    init(source: String) {
        var bytes = Array(source.utf8)
        if bytes.contains(ASCII.carriageReturn) {
            // CRLF and CR become LF.
            var unified: [UInt8] = []
            unified.reserveCapacity(bytes.count)
            for (index, byte) in bytes.enumerated() {
                if byte == ASCII.carriageReturn {
                    if index + 1 < bytes.count, bytes[index + 1] == ASCII.newline { continue }
                    unified.append(ASCII.newline)
                } else {
                    unified.append(byte)
                }
            }
            bytes = unified
        }
        lines = bytes.split(separator: ASCII.newline, omittingEmptySubsequences: false)
    }

    func blocks() -> [RichText.Block] {
        var result: [RichText.Block] = []
        var index = 0
        var paragraph: [Bytes] = []
        func flush() {
            guard !paragraph.isEmpty else { return }
            result.append(Self.paragraphOrFormula(paragraph))
            paragraph = []
        }
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty {
                flush()
                index += 1
            } else if trimmed.hasPrefix(Self.fence) {
                flush()
                var code: [Bytes] = []
                index += 1
                while index < lines.count, !lines[index].trimmingSpaces.hasPrefix(Self.fence) {
                    code.append(lines[index])
                    index += 1
                }
                index += 1  // the closing fence (or the end)
                result.append(.code(code.map(\.string).joined(separator: "\n")))
            } else if let item = Self.listItem(line) {
                flush()
                var items: [[RichText.Inline]] = []
                var current = [item.text]
                index += 1
                while index < lines.count {
                    let next = lines[index]
                    if let following = Self.listItem(next), following.ordered == item.ordered {
                        items.append(InlineParser.parse(Self.joined(current)))
                        current = [following.text]
                    } else if !next.trimmingSpaces.isEmpty, next.first == ASCII.space || next.first == ASCII.tab {
                        current.append(next.trimmingSpaces)  // an indented continuation line
                    } else {
                        break
                    }
                    index += 1
                }
                items.append(InlineParser.parse(Self.joined(current)))
                result.append(.list(ordered: item.ordered, items: items))
            } else if index + 1 < lines.count, let header = Self.cells(line),
                let alignments = Self.rule(lines[index + 1]), alignments.count == header.count
            {
                flush()
                var rows: [[[RichText.Inline]]] = []
                index += 2
                while index < lines.count, let row = Self.cells(lines[index]) {
                    var cells = row.prefix(header.count).map { InlineParser.parse($0) }
                    while cells.count < header.count { cells.append([]) }
                    rows.append(cells)
                    index += 1
                }
                result.append(
                    .table(header: header.map { InlineParser.parse($0) }, alignments: alignments, rows: rows))
            } else {
                paragraph.append(line)
                index += 1
            }
        }
        flush()
        return result
    }

    private static func joined(_ lines: [Bytes]) -> Bytes {
        guard lines.count > 1 else { return lines.first ?? [] }
        var bytes: [UInt8] = []
        for (index, line) in lines.enumerated() {
            if index > 0 { bytes.append(ASCII.newline) }
            bytes.append(contentsOf: line)
        }
        return bytes[...]
    }

    /// A paragraph, or a display formula when the whole paragraph is one `$$ … $$`.
    private static func paragraphOrFormula(_ lines: [Bytes]) -> RichText.Block {
        let text = joined(lines.map(\.trimmingSpaces))
        if text.count > 4, text.hasPrefix(displayMath), text.hasSuffix(displayMath) {
            let inner = text.dropFirst(2).dropLast(2).trimmingWhiteSpace
            let containsFence = inner.indices.dropLast().contains {
                inner[$0] == ASCII.dollar && inner[$0 + 1] == ASCII.dollar
            }
            if !inner.isEmpty, !containsFence { return .formula(inner.string) }
        }
        return .paragraph(InlineParser.parse(text))
    }

    private static func listItem(_ line: Bytes) -> (ordered: Bool, text: Bytes)? {
        var start = line.startIndex
        while start < line.endIndex, line[start] == ASCII.space { start += 1 }
        guard start - line.startIndex < 4, start < line.endIndex else { return nil }
        let rest = line[start...]
        let first = rest[start]
        if first == ASCII.dash || first == ASCII.star || first == UInt8(ascii: "+") {
            guard rest.count > 1, rest[start + 1] == ASCII.space else { return nil }
            let text = rest.dropFirst(2).trimmingSpaces
            return text.isEmpty ? nil : (false, text)
        }
        var digits = start
        while digits < rest.endIndex, ASCII.isDigit(rest[digits]) { digits += 1 }
        guard (1...9).contains(digits - start), digits + 1 < rest.endIndex,
            rest[digits] == UInt8(ascii: ".") || rest[digits] == UInt8(ascii: ")"), rest[digits + 1] == ASCII.space
        else { return nil }
        let text = rest[(digits + 2)...].trimmingSpaces
        return text.isEmpty ? nil : (true, text)
    }

    /// The cells of a table row: a line with a pipe that is not escaped.
    private static func cells(_ line: Bytes) -> [Bytes]? {
        var text = line.trimmingSpaces
        guard text.contains(ASCII.pipe) else { return nil }
        if text.first == ASCII.pipe { text = text.dropFirst() }
        if text.last == ASCII.pipe, !(text.count > 1 && text[text.endIndex - 2] == ASCII.backslash) {
            text = text.dropLast()
        }
        var cells: [Bytes] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == ASCII.backslash, index + 1 < text.endIndex {
                index += 2
                continue
            }
            if text[index] == ASCII.pipe {
                cells.append(text[start..<index].trimmingSpaces)
                start = index + 1
            }
            index += 1
        }
        cells.append(text[start...].trimmingSpaces)
        return cells
    }

    /// The alignments of a table's rule line (`|---|:--|--:|:-:|`), or nil when it is none.
    private static func rule(_ line: Bytes) -> [RichText.Alignment]? {
        guard let cells = cells(line), !cells.isEmpty else { return nil }
        var alignments: [RichText.Alignment] = []
        for cell in cells {
            let left = cell.first == ASCII.colon
            let right = cell.last == ASCII.colon
            let dashes = cell.dropFirst(left ? 1 : 0).dropLast(right && cell.count > 1 ? 1 : 0)
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == ASCII.dash }) else { return nil }
            alignments.append(left && right ? .center : left ? .left : right ? .right : .none)
        }
        return alignments
    }
}

// MARK: - Inlines

private enum InlineParser {
    static let escapable = Set("\\*_`$|#-+.![]".utf8)

    static func parse(_ text: Bytes) -> [RichText.Inline] {
        var parser = Scanner(bytes: text)
        return parser.inlines()
    }

    struct Scanner {
        let bytes: Bytes
        var position: Int
        /// Per delimiter: the position from which a search for a closer already failed; a later
        /// opener cannot find one either, so texts full of lone markers stay linear.
        var failedFrom: [UInt16: Int] = [:]

        init(bytes: Bytes) {
            self.bytes = bytes
            self.position = bytes.startIndex
        }

        mutating func inlines() -> [RichText.Inline] {
            var result: [RichText.Inline] = []
            var text: [UInt8] = []
            func flushText() {
                if !text.isEmpty { result.append(.text(String(decoding: text, as: UTF8.self))) }
                text.removeAll(keepingCapacity: true)
            }
            let end = bytes.endIndex
            while position < end {
                let byte = bytes[position]
                switch byte {
                case ASCII.backslash:
                    if position + 1 < end, InlineParser.escapable.contains(bytes[position + 1]) {
                        text.append(bytes[position + 1])
                        position += 2
                    } else {
                        text.append(byte)
                        position += 1
                    }
                case ASCII.newline:
                    flushText()
                    result.append(.lineBreak)
                    position += 1
                case ASCII.backtick, ASCII.dollar:
                    // A code span or a formula: its content is taken as it is, without formatting.
                    let code = byte == ASCII.backtick
                    if let close = code ? find(ASCII.backtick, from: position + 1) : formulaEnd(from: position) {
                        flushText()
                        let content = bytes[(position + 1)..<close].string
                        result.append(code ? .code(content) : .formula(content))
                        position = close + 1
                    } else {
                        text.append(byte)
                        position += 1
                    }
                case ASCII.bang:
                    if let (id, alt, next) = image(at: position) {
                        flushText()
                        result.append(.image(id: id, alt: alt))
                        position = next
                    } else {
                        text.append(byte)
                        position += 1
                    }
                case ASCII.star, ASCII.underscore:
                    let width = position + 1 < end && bytes[position + 1] == byte ? 2 : 1
                    if canOpen(byte, width, at: position), let close = closing(byte, width, from: position + width),
                        close > position + width
                    {
                        flushText()
                        var inner = Scanner(bytes: bytes[(position + width)..<close])
                        let content = inner.inlines()
                        result.append(width == 2 ? .strong(content) : .emphasis(content))
                        position = close + width
                    } else {
                        text.append(contentsOf: repeatElement(byte, count: width))
                        position += width
                    }
                default:
                    text.append(byte)
                    position += 1
                }
            }
            flushText()
            return result
        }

        func matches(_ marker: UInt8, _ width: Int, at index: Int) -> Bool {
            index + width <= bytes.endIndex && (index..<(index + width)).allSatisfy { bytes[$0] == marker }
        }

        /// An opener is followed by something that is no space; `_` also needs no letter or digit
        /// before it.
        func canOpen(_ marker: UInt8, _ width: Int, at index: Int) -> Bool {
            let after = index + width
            guard after < bytes.endIndex, !ASCII.isSpace(bytes[after]) else { return false }
            if marker == ASCII.underscore, index > bytes.startIndex, ASCII.isWordByte(bytes[index - 1]) {
                return false
            }
            return true
        }

        /// A closer follows something that is no space and is not part of a longer run of the
        /// same marker; `_` also needs no letter or digit after it.
        func canClose(_ marker: UInt8, _ width: Int, at index: Int) -> Bool {
            guard index > bytes.startIndex, !ASCII.isSpace(bytes[index - 1]) else { return false }
            let after = index + width
            if after < bytes.endIndex, bytes[after] == marker { return false }
            if marker == ASCII.underscore, after < bytes.endIndex, ASCII.isWordByte(bytes[after]) { return false }
            return true
        }

        /// Where the closer of the marker starts, skipping escapes and code spans; nil for none.
        mutating func closing(_ marker: UInt8, _ width: Int, from start: Int) -> Int? {
            let key = UInt16(marker) << 8 | UInt16(width)
            if let failed = failedFrom[key], failed <= start { return nil }
            var index = start
            while index < bytes.endIndex {
                let byte = bytes[index]
                if byte == ASCII.backslash {
                    index += 2
                    continue
                }
                if byte == ASCII.backtick, let end = find(ASCII.backtick, from: index + 1) {
                    index = end + 1
                    continue
                }
                if byte == marker {
                    if matches(marker, width, at: index), index > start, canClose(marker, width, at: index) {
                        return index
                    }
                    // A run of the marker longer than this one is skipped whole.
                    while index < bytes.endIndex, bytes[index] == marker { index += 1 }
                    continue
                }
                index += 1
            }
            failedFrom[key] = start
            return nil
        }

        /// `![description](image:<uuid>)` at `start`: the id (lowercased), the description
        /// (backslash escapes resolved) and the position after it; nil for anything else. The
        /// description ends at the first unescaped `]` within the line.
        func image(at start: Int) -> (id: String, alt: String, next: Int)? {
            let end = bytes.endIndex
            guard start + 1 < end, bytes[start + 1] == ASCII.openBracket else { return nil }
            var alt: [UInt8] = []
            var index = start + 2
            while index < end, bytes[index] != ASCII.closeBracket {
                let byte = bytes[index]
                if byte == ASCII.newline || alt.count > 500 { return nil }
                if byte == ASCII.backslash, index + 1 < end, InlineParser.escapable.contains(bytes[index + 1]) {
                    alt.append(bytes[index + 1])
                    index += 2
                } else {
                    alt.append(byte)
                    index += 1
                }
            }
            let prefix = Array("](image:".utf8)
            guard index + prefix.count + 37 <= end, bytes[index..<(index + prefix.count)].elementsEqual(prefix) else {
                return nil
            }
            let idStart = index + prefix.count
            let id = bytes[idStart..<(idStart + 36)]
            for (offset, byte) in id.enumerated() {
                let dash = offset == 8 || offset == 13 || offset == 18 || offset == 23
                guard dash ? byte == ASCII.dash : ASCII.isHex(byte) else { return nil }
            }
            guard bytes[idStart + 36] == ASCII.closeParen else { return nil }
            return (id.string.lowercased(), String(decoding: alt, as: UTF8.self), idStart + 37)
        }

        /// The position of the next `byte` from `start` (nil for none).
        func find(_ byte: UInt8, from start: Int) -> Int? {
            guard start < bytes.endIndex else { return nil }
            return bytes[start...].firstIndex(of: byte)
        }

        /// The closing `$` of an inline formula opened at `start`: not after a space, not before a
        /// digit, within the paragraph.
        mutating func formulaEnd(from start: Int) -> Int? {
            let first = start + 1
            guard first < bytes.endIndex, !ASCII.isSpace(bytes[first]), bytes[first] != ASCII.dollar else {
                return nil
            }
            let key = UInt16(ASCII.dollar) << 8
            if let failed = failedFrom[key], failed <= first { return nil }
            var index = first
            while index < bytes.endIndex {
                let byte = bytes[index]
                if byte == ASCII.backslash {
                    index += 2
                    continue
                }
                if byte == ASCII.dollar, index > first, !ASCII.isSpace(bytes[index - 1]),
                    index + 1 >= bytes.endIndex || !ASCII.isDigit(bytes[index + 1])
                {
                    return index
                }
                index += 1
            }
            failedFrom[key] = first
            return nil
        }
    }
}

// MARK: - Writers

private struct HTMLWriter {
    let formulas: RichText.FormulaStyle
    let imageFile: ((String) -> String?)?

    func write(_ block: RichText.Block, to out: inout String) {
        switch block {
        case .paragraph(let inlines):
            out += "<p>"
            write(inlines, to: &out)
            out += "</p>"
        case .code(let code):
            out += "<pre><code>" + Self.escape(code) + "</code></pre>"
        case .list(let ordered, let items):
            out += ordered ? "<ol>" : "<ul>"
            for item in items {
                out += "<li>"
                write(item, to: &out)
                out += "</li>"
            }
            out += ordered ? "</ol>" : "</ul>"
        case .table(let header, let alignments, let rows):
            func cell(_ tag: String, _ content: [RichText.Inline], _ alignment: RichText.Alignment) {
                out += alignment == .none ? "<\(tag)>" : "<\(tag) class=\"align-\(alignment.rawValue)\">"
                write(content, to: &out)
                out += "</\(tag)>"
            }
            out += "<table><thead><tr>"
            for (index, content) in header.enumerated() { cell("th", content, alignments[index]) }
            out += "</tr></thead>"
            if !rows.isEmpty {
                out += "<tbody>"
                for row in rows {
                    out += "<tr>"
                    for (index, content) in row.enumerated() { cell("td", content, alignments[index]) }
                    out += "</tr>"
                }
                out += "</tbody>"
            }
            out += "</table>"
        case .formula(let latex):
            out +=
                formulas == .elements
                ? "<div class=\"math math-display\">" + Self.escape(latex) + "</div>"
                : "\\[" + Self.escape(latex) + "\\]"
        }
    }

    func write(_ inlines: [RichText.Inline], to out: inout String) {
        for inline in inlines {
            switch inline {
            case .text(let text): out += Self.escape(text)
            case .strong(let content):
                out += "<strong>"
                write(content, to: &out)
                out += "</strong>"
            case .emphasis(let content):
                out += "<em>"
                write(content, to: &out)
                out += "</em>"
            case .code(let code): out += "<code>" + Self.escape(code) + "</code>"
            case .formula(let latex):
                out +=
                    formulas == .elements
                    ? "<span class=\"math\">" + Self.escape(latex) + "</span>" : "\\(" + Self.escape(latex) + "\\)"
            case .image(let id, let alt):
                if let imageFile {
                    if let file = imageFile(id) {
                        out += "<img src=\"" + Self.escape(file) + "\" alt=\"" + Self.escape(alt) + "\">"
                    } else {
                        out += Self.escape(alt)
                    }
                } else {
                    out += "<img class=\"card-image\" data-image=\"" + id + "\" alt=\"" + Self.escape(alt) + "\">"
                }
            case .lineBreak: out += "<br>"
            }
        }
    }

    static func escape(_ text: String) -> String {
        func special(_ byte: UInt8) -> Bool {
            byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27
        }
        guard text.utf8.contains(where: special) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 32)
        for byte in text.utf8 {
            switch byte {
            case 0x26: bytes.append(contentsOf: "&amp;".utf8)
            case 0x3C: bytes.append(contentsOf: "&lt;".utf8)
            case 0x3E: bytes.append(contentsOf: "&gt;".utf8)
            case 0x22: bytes.append(contentsOf: "&quot;".utf8)
            case 0x27: bytes.append(contentsOf: "&#39;".utf8)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private struct PlainWriter {
    let showingImages: Bool

    func text(_ block: RichText.Block) -> String {
        switch block {
        case .paragraph(let inlines): return text(inlines)
        case .code(let code): return code
        case .list(let ordered, let items):
            return items.enumerated().map { index, item in (ordered ? "\(index + 1). " : "- ") + text(item) }
                .joined(separator: "\n")
        case .table(let header, _, let rows):
            return ([header] + rows).map { row in row.map(text).joined(separator: " | ") }.joined(separator: "\n")
        case .formula(let latex): return latex
        }
    }

    func text(_ inlines: [RichText.Inline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text), .code(let text), .formula(let text): text
            case .strong(let content), .emphasis(let content): text(content)
            case .image(_, let alt): showingImages ? (alt.isEmpty ? "[Bild]" : alt) : ""
            case .lineBreak: "\n"
            }
        }.joined()
    }
}

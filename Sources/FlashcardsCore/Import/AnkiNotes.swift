import Foundation

/// Anki's notes as our cards: note fields are HTML, card sides come from the note type's templates
/// (or, for cloze note types, from the cloze deletions). Pure functions; the package reader
/// (server) hands in what it read from the collection.
public enum AnkiNotes {
    /// A note type: its kind, field names in order, and card templates by ordinal.
    public struct NoteType: Sendable {
        public enum Kind: Sendable, Hashable {
            case normal, cloze
        }

        public var name: String
        public var kind: Kind
        public var fields: [String]
        /// Question and answer formats, by the card's ordinal (`cards.ord`).
        public var templates: [Int: (question: String, answer: String)]

        public init(name: String, kind: Kind, fields: [String], templates: [Int: (question: String, answer: String)]) {
            self.name = name
            self.kind = kind
            self.fields = fields
            self.templates = templates
        }
    }

    /// The sides of one card of a note, as text, and the media files its HTML names.
    public struct Sides: Sendable, Hashable {
        public var question: String
        public var answer: String
        /// What the front's `{{hint:Field}}` shows on request: the card's hint.
        public var hint: String? = nil
        public var media: Set<String>
        /// For a card of a cloze note: the note's text with its gaps (as text) and its extra notes,
        /// so the card can be imported as one of our cloze cards (`CardKind.cloze`).
        public var cloze: (text: String, extra: String)? = nil

        public static func == (a: Sides, b: Sides) -> Bool {
            a.question == b.question && a.answer == b.answer && a.hint == b.hint && a.media == b.media
                && a.cloze?.text == b.cloze?.text && a.cloze?.extra == b.cloze?.extra
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(question)
            hasher.combine(answer)
            hasher.combine(cloze?.text)
        }
    }

    /// The card with ordinal `ord` of a note with `fields` (raw HTML, in the note type's order).
    /// With `images`, each `<img>` stays in the texts as a placeholder (`pieces`, `cardText`).
    public static func sides(
        of type: NoteType, fields: [String], ord: Int, tags: [String], deck: String, images: Bool = false
    ) -> Sides {
        func html(_ source: String) -> (text: String, media: Set<String>) { Self.html(source, images: images) }
        var named: [String: String] = [:]
        for (index, name) in type.fields.enumerated() { named[name] = index < fields.count ? fields[index] : "" }
        named["Tags"] = tags.joined(separator: " ")
        named["Deck"] = deck
        named["Subdeck"] = deck.components(separatedBy: "::").last ?? deck
        named["Type"] = type.name
        switch type.kind {
        case .cloze:
            let text = fields.first ?? ""
            let extra = type.fields.count > 1 && fields.count > 1 ? fields[1] : ""
            let number = ord + 1
            let question = html(Cloze.side(of: text, asking: number, revealed: false, bold: false))
            let answers = Cloze.gaps(in: text).filter { $0.number == number }.map(\.answer)
            var answer = answers.map { html($0).text }.joined(separator: ", ")
            let extraText = html(extra)
            if !extraText.text.isEmpty { answer += "\n\n" + extraText.text }
            return Sides(
                question: question.text, answer: answer,
                media: question.media.union(extraText.media).union(answers.flatMap { html($0).media }),
                cloze: (html(text).text, extraText.text))
        case .normal:
            let template = type.templates[ord] ?? type.templates.values.first ?? ("", "")
            var hints: [String] = []
            let front = Template.render(template.question, fields: named, frontSide: "", hints: &hints)
            var ignored: [String] = []
            let back = Template.render(template.answer, fields: named, frontSide: front, hints: &ignored)
            let question = html(front)
            // The back usually repeats the front first ({{FrontSide}}<hr id=answer>…): keep what follows.
            var answerHTML = back
            if let marker = back.range(of: "<hr id=answer>", options: [.caseInsensitive])
                ?? back.range(of: "<hr id=\"answer\">", options: [.caseInsensitive])
            {
                answerHTML = String(back[marker.upperBound...])
            } else if back.hasPrefix(front) {
                answerHTML = String(back.dropFirst(front.count))
            }
            let answer = html(answerHTML)
            let hint = hints.map { html($0).text }.filter { !$0.isEmpty }.joined(separator: "\n")
            return Sides(
                question: question.text, answer: answer.text, hint: hint.isEmpty ? nil : hint,
                media: question.media.union(answer.media))
        }
    }

    // MARK: HTML

    /// Visible text of an HTML field: tags removed (scripts and styles with their content), line
    /// breaks for `<br>`, `<div>`, `<p>` and `<li>`, entities decoded, `[sound:…]` removed. The
    /// media it names (`<img src>`, `[sound:…]`) are returned beside it. With `images`, an `<img>`
    /// leaves a placeholder with its source and description in the text (`pieces`).
    public static func html(_ html: String, images: Bool = false) -> (text: String, media: Set<String>) {
        var text = ""
        var media = Set<String>()
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                let tag = html[html.index(after: index)..<close]
                let name = tag.prefix { $0.isLetter || $0.isNumber || $0 == "/" }.lowercased()
                if name == "script" || name == "style",
                    let end = html.range(of: "</\(name)", options: .caseInsensitive, range: close..<html.endIndex)
                {
                    index = html[end.upperBound...].firstIndex(of: ">").map { html.index(after: $0) } ?? html.endIndex
                    continue
                }
                if ["br", "br/", "/div", "/p", "/li", "/tr", "/h1", "/h2", "/h3", "hr"].contains(name) {
                    text.append("\n")
                }
                if name == "img", let source = attribute("src", in: String(tag)) {
                    media.insert(source)
                    if images {
                        let description = attribute("alt", in: String(tag)).map { decodingEntities($0) } ?? ""
                        text += placeholder(source: decodingEntities(source), description: description)
                    }
                }
                index = html.index(after: close)
            } else if character == "&", let semicolon = html[index...].prefix(12).firstIndex(of: ";"),
                let decoded = entity(String(html[html.index(after: index)..<semicolon]))
            {
                text += decoded.filter { !placeholderMarks.contains($0) }
                index = html.index(after: semicolon)
            } else if character == "[", html[index...].hasPrefix("[sound:"),
                let close = html[index...].firstIndex(of: "]")
            {
                media.insert(String(html[html.index(index, offsetBy: 7)..<close]))
                index = html.index(after: close)
            } else {
                if !placeholderMarks.contains(character) { text.append(character) }
                index = html.index(after: index)
            }
        }
        // Spaces and tabs collapse; line breaks stay (at most one empty line in a row).
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\u{00A0}" }).joined(separator: " ")
        }
        var kept: [String] = []
        for line in lines where !(line.isEmpty && (kept.last?.isEmpty ?? true)) { kept.append(line) }
        while kept.last?.isEmpty == true { kept.removeLast() }
        return (kept.joined(separator: "\n"), media)
    }

    private static func attribute(_ name: String, in tag: String) -> String? {
        // The attribute's name stands after a space (`data-src=` or `alt=` inside a value are no match).
        var found: Range<String.Index>?
        var from = tag.startIndex
        while let range = tag.range(of: name + "=", options: .caseInsensitive, range: from..<tag.endIndex) {
            if range.lowerBound == tag.startIndex || tag[tag.index(before: range.lowerBound)].isWhitespace {
                found = range
                break
            }
            from = range.upperBound
        }
        guard let range = found else { return nil }
        var rest = tag[range.upperBound...]
        if let quote = rest.first, quote == "\"" || quote == "'" {
            rest = rest.dropFirst()
            return rest.firstIndex(of: quote).map { String(rest[..<$0]) }
        }
        return String(rest.prefix { !$0.isWhitespace && $0 != "/" })
    }

    /// `text` with its character references decoded (an attribute's value).
    static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";"),
                let decoded = entity(String(text[text.index(after: index)..<semicolon]))
            {
                out += decoded
                index = text.index(after: semicolon)
            } else {
                out.append(text[index])
                index = text.index(after: index)
            }
        }
        return out
    }

    private static let entities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ndash": "–", "mdash": "—",
        "hellip": "…", "laquo": "«", "raquo": "»", "bdquo": "„", "ldquo": "“", "rdquo": "”", "lsquo": "‘",
        "rsquo": "’", "shy": "", "auml": "ä", "ouml": "ö", "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü",
        "szlig": "ß", "euro": "€", "middot": "·", "times": "×", "deg": "°", "micro": "µ",
    ]

    private static func entity(_ name: String) -> String? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
        }
        if name.hasPrefix("#") { return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) } }
        return entities[name]
    }

    // MARK: Images

    /// What `html(_:images: true)` leaves for an `<img>`: its source (entities decoded) and its
    /// description, percent-encoded between private-use characters, so the white-space rules leave
    /// them alone and no text forges one (the three characters are dropped from a field's text).
    static let placeholderMarks: Set<Character> = ["\u{E000}", "\u{E001}", "\u{E002}"]

    static func placeholder(source: String, description: String) -> String {
        func encoded(_ text: String) -> String {
            text.filter { !placeholderMarks.contains($0) }.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
                ?? ""
        }
        return "\u{E000}" + encoded(source) + "\u{E001}" + encoded(description) + "\u{E002}"
    }

    /// A text made with `images` in pieces: text, and the images where the `<img>`s stood.
    public enum Piece: Sendable, Hashable {
        case text(String)
        case image(source: String, description: String)
    }

    /// The pieces of a text made with `html(_:images: true)`.
    public static func pieces(_ text: String) -> [Piece] {
        guard text.contains("\u{E000}") else { return text.isEmpty ? [] : [.text(text)] }
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "\u{E000}"),
            let close = rest[open...].firstIndex(of: "\u{E002}")
        {
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            let inner = rest[rest.index(after: open)..<close]
            let parts = inner.split(separator: "\u{E001}", omittingEmptySubsequences: false)
            let source = parts.first.flatMap { String($0).removingPercentEncoding } ?? ""
            let description = parts.dropFirst().first.flatMap { String($0).removingPercentEncoding } ?? ""
            pieces.append(.image(source: source, description: description))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }

    /// The image sources a text made with `images` names, in order.
    public static func imageSources(_ text: String) -> [String] {
        pieces(text).compactMap { if case .image(let source, _) = $0 { source } else { nil } }
    }

    /// A text made with `images` as a card's text. `rich`: Markdown (`RichText`), the text escaped
    /// so it shows literally and each image whose source `imageId` knows as
    /// `![description](image:<id>)`; else plain text. An image without an id becomes its
    /// description.
    public static func cardText(_ text: String, rich: Bool, imageId: (String) -> String?) -> String {
        guard text.contains("\u{E000}") else { return rich ? RichText.escaped(text) : text }
        if !rich {
            return pieces(text).map { piece in
                switch piece {
                case .text(let text): text
                case .image(_, let description): description
                }
            }.joined()
        }
        // Escaped as a whole (a placeholder holds no marker character), so line starts are seen.
        return pieces(RichText.escaped(text)).map { piece in
            switch piece {
            case .text(let text): return text
            case .image(let source, let description):
                guard let id = imageId(source) else { return RichText.escaped(description) }
                return RichText.imageMarkdown(id: id, description: description)
            }
        }.joined()
    }

    // MARK: Templates

    /// Anki's card templates: `{{Field}}`, `{{filter:Field}}` (the field's text for `text:`,
    /// nothing for `type:`; a `hint:` field goes to `hints`), `{{#Field}}…{{/Field}}` and
    /// `{{^Field}}…{{/Field}}` sections, `{{FrontSide}}`.
    public enum Template {
        public static func render(
            _ format: String, fields: [String: String], frontSide: String, hints: inout [String]
        ) -> String {
            var output = ""
            var rest = Substring(format)
            while let open = rest.range(of: "{{") {
                output += rest[..<open.lowerBound]
                guard let close = rest.range(of: "}}", range: open.upperBound..<rest.endIndex) else {
                    rest = rest[open.lowerBound...]
                    break
                }
                let tag = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
                rest = rest[close.upperBound...]
                if let first = tag.first, first == "#" || first == "^" {
                    let name = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces)
                    let end = "{{/\(name)}}"
                    let body: Substring
                    if let endRange = rest.range(of: end) {
                        body = rest[..<endRange.lowerBound]
                        rest = rest[endRange.upperBound...]
                    } else {
                        body = rest
                        rest = ""
                    }
                    let field = html(fields[name] ?? "")
                    let filled = !field.text.isEmpty || !field.media.isEmpty
                    if filled == (first == "#") {
                        output += render(String(body), fields: fields, frontSide: frontSide, hints: &hints)
                    }
                } else if tag == "FrontSide" {
                    output += frontSide
                } else if tag.hasPrefix("/") || tag.hasPrefix("!") {
                    continue
                } else {
                    let parts = tag.split(separator: ":")
                    let name = String(parts.last ?? "").trimmingCharacters(in: .whitespaces)
                    let filters = parts.dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
                    if filters.contains("type") || filters.contains("cloze") { continue }
                    if filters.contains("hint") {
                        hints.append(fields[name] ?? "")
                        continue
                    }
                    output += fields[name] ?? ""
                }
            }
            output += rest
            return output
        }
    }

    // MARK: Protocol buffers

    /// The fields of a protocol buffer message: field number → values (varints as `UInt64`,
    /// length-delimited as bytes). Enough to read Anki's `config` blobs and media map.
    public static func protobufFields(_ bytes: [UInt8]) -> [Int: [ProtobufValue]]? {
        var fields: [Int: [ProtobufValue]] = [:]
        var index = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count, shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        while index < bytes.count {
            guard let key = varint() else { return nil }
            let field = Int(key >> 3)
            switch key & 7 {
            case 0:
                guard let value = varint() else { return nil }
                fields[field, default: []].append(.varint(value))
            case 1:
                guard index + 8 <= bytes.count else { return nil }
                index += 8
            case 2:
                guard let length = varint(), length <= UInt64(bytes.count - index) else { return nil }
                fields[field, default: []].append(.bytes(Array(bytes[index..<(index + Int(length))])))
                index += Int(length)
            case 5:
                guard index + 4 <= bytes.count else { return nil }
                index += 4
            default: return nil
            }
        }
        return fields
    }

    public enum ProtobufValue: Sendable, Hashable {
        case varint(UInt64)
        case bytes([UInt8])

        public var int: Int? {
            if case .varint(let value) = self { return Int(truncatingIfNeeded: value) } else { return nil }
        }
        public var string: String? {
            if case .bytes(let bytes) = self { return String(decoding: bytes, as: UTF8.self) } else { return nil }
        }
        public var data: [UInt8]? { if case .bytes(let bytes) = self { return bytes } else { return nil } }
    }
}

import Foundation

/// Repairs text as PDF tools and OCR deliver it: running headers and footers, page numbers,
/// words hyphenated across line breaks, ligatures and odd spaces.
public enum TextCleaner {
    /// Cleans every page and repairs words split across a page break.
    public static func clean(pages: [SourcePage]) -> [SourcePage] {
        var result = removeRunningLines(pages: pages.map { SourcePage(number: $0.number, text: normalize($0.text)) })
        // A word split at the end of a page continues on the next one: move its tail up.
        if result.count > 1 {
            for index in 0..<(result.count - 1) {
                var lines = result[index].text.components(separatedBy: "\n")
                var next = result[index + 1].text.components(separatedBy: "\n")
                guard let last = lines.lastIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
                    let first = next.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
                else { continue }
                if let joined = joinHyphenated(lines[last], next[first]) {
                    lines[last] = joined.head
                    next[first] = joined.tail
                    result[index].text = lines.joined(separator: "\n")
                    result[index + 1].text = next.joined(separator: "\n")
                }
            }
        }
        return result.map { SourcePage(number: $0.number, text: dehyphenate($0.text)) }
    }

    /// Unifies line breaks and spaces, removes soft hyphens and resolves typographic ligatures.
    public static func normalize(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r": continue
            case "\u{00AD}", "\u{200B}", "\u{FEFF}": continue
            case "\u{000C}": output.append("\n")
            case "\t", "\u{00A0}", "\u{2007}", "\u{202F}", "\u{2009}": output.append(" ")
            case "\u{FB00}": output.append("ff")
            case "\u{FB01}": output.append("fi")
            case "\u{FB02}": output.append("fl")
            case "\u{FB03}": output.append("ffi")
            case "\u{FB04}": output.append("ffl")
            case "\u{2010}", "\u{2011}": output.append("-")
            default:
                if scalar.properties.generalCategory == .control && scalar != "\n" { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        // Markdown emphasis and code marks carry no content ("**Prozess** ist …").
        return output.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "__", with: "")
            .replacingOccurrences(of: "`", with: "")
    }

    /// Joins words split by a hyphen at a line end ("Spei-\nchers" → "Speichers") and keeps real
    /// compounds ("Scheduling-\nVerfahren" → "Scheduling-Verfahren", "Ein- und Ausgabe").
    public static func dehyphenate(_ text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        var index = 0
        while index < lines.count - 1 {
            if let joined = joinHyphenated(lines[index], lines[index + 1]) {
                lines[index] = joined.head
                // An emptied line must not read as a paragraph break later.
                if joined.tail.isEmpty {
                    lines.remove(at: index + 1)
                } else {
                    lines[index + 1] = joined.tail
                }
            }
            index += 1
        }
        return lines.joined(separator: "\n")
    }

    private static let keepHyphenBefore: Set<String> = [
        "und", "oder", "bzw", "bzw.", "sowie", "bis", "als", "and", "or", "to", "nor",
    ]

    /// When `line` ends in a hyphenated word fragment, moves the first word of `next` up.
    /// Returns nil when there is nothing to join.
    static func joinHyphenated(_ line: String, _ next: String) -> (head: String, tail: String)? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix("-"), trimmed.count >= 3 else { return nil }
        let beforeHyphen = trimmed.dropLast()
        guard let previous = beforeHyphen.last, previous.isLetter else { return nil }
        // A lone dash ("Wert -") is punctuation, not a split word.
        if beforeHyphen.hasSuffix(" ") { return nil }
        let nextTrimmed = next.trimmingCharacters(in: .whitespaces)
        guard let firstCharacter = nextTrimmed.first, firstCharacter.isLetter else { return nil }
        let firstWordEnd = nextTrimmed.firstIndex(where: { $0 == " " }) ?? nextTrimmed.endIndex
        let firstWord = String(nextTrimmed[..<firstWordEnd])
        let bareWord = firstWord.trimmingCharacters(in: .punctuationCharacters).lowercased()
        if keepHyphenBefore.contains(bareWord) { return nil }
        let rest = String(nextTrimmed[firstWordEnd...]).trimmingCharacters(in: .whitespaces)
        let head: String
        if firstCharacter.isLowercase {
            head = String(beforeHyphen) + firstWord
        } else {
            head = trimmed + firstWord
        }
        return (head, rest)
    }

    /// Removes running headers and footers (lines that repeat near the top or bottom of most
    /// pages, with page numbers allowed to differ) and lines that are only a page number.
    public static func removeRunningLines(pages: [SourcePage]) -> [SourcePage] {
        let zone = 3
        var counts: [String: Int] = [:]
        let split = pages.map { $0.text.components(separatedBy: "\n") }
        for lines in split {
            var seen = Set<String>()
            for index in zoneIndices(lines, zone: zone) {
                let signature = Self.signature(lines[index])
                if !signature.isEmpty, seen.insert(signature).inserted { counts[signature, default: 0] += 1 }
            }
        }
        let threshold = max(2, Int((Double(pages.count) * 0.5).rounded(.up)))
        let running = Set(counts.filter { pages.count >= 2 && $0.value >= threshold }.keys)
        return zip(pages, split).map { page, lines in
            var keep = lines
            for index in zoneIndices(lines, zone: zone).sorted(by: >) {
                let line = lines[index]
                if running.contains(signature(line)) || isPageNumber(line) { keep.remove(at: index) }
            }
            return SourcePage(number: page.number, text: keep.joined(separator: "\n"))
        }
    }

    /// Indices of the first and last `zone` non-empty lines.
    private static func zoneIndices(_ lines: [String], zone: Int) -> [Int] {
        let nonEmpty = lines.indices.filter { !lines[$0].trimmingCharacters(in: .whitespaces).isEmpty }
        // Short pages have no room for more than one header and one footer line.
        let zone = min(zone, max(1, nonEmpty.count / 4))
        return Array(Set(nonEmpty.prefix(zone) + nonEmpty.suffix(zone)))
    }

    /// Lower-cased line with digits folded, so "Seite 3 von 9" and "Seite 4 von 9" match.
    private static func signature(_ line: String) -> String {
        var result = ""
        var lastWasSpace = false
        for character in line.lowercased() {
            if character.isWhitespace {
                if !lastWasSpace && !result.isEmpty { result.append(" ") }
                lastWasSpace = true
                continue
            }
            lastWasSpace = false
            result.append(character.isNumber ? "#" : character)
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// Whether a line is nothing but a page number ("12", "– 12 –", "Seite 3 von 9", "Page 3 of 9", "3/9").
    public static func isPageNumber(_ line: String) -> Bool {
        let words = line.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "–" || $0 == "—" })
        guard !words.isEmpty, words.count <= 4 else { return false }
        var sawNumber = false
        for word in words {
            if word.allSatisfy({ $0.isNumber || $0 == "/" }) {
                sawNumber = true
            } else if !["seite", "page", "s.", "p.", "von", "of"].contains(String(word)) {
                return false
            }
        }
        return sawNumber
    }
}

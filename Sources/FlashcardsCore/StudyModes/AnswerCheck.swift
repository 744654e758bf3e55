import Foundation

/// The comparison behind the Write mode: what the learner typed against the card's answer,
/// tolerant of case, surrounding and repeated whitespace, punctuation and (optionally) diacritics,
/// with a character diff to show and the rating it maps to.
public enum AnswerCheck {
    /// How close the typed answer came.
    public enum Verdict: String, Sendable, Hashable, Codable {
        /// The same answer once case, whitespace, punctuation (and diacritics) are set aside.
        case correct
        /// A few characters off: a typo, a missing letter (never for a number).
        case close
        /// Something else.
        case wrong

        /// The FSRS rating it counts as: correct → Good, close → Hard, wrong → Again.
        public var rating: FSRSRating {
            switch self {
            case .correct: .good
            case .close: .hard
            case .wrong: .again
            }
        }

        /// The same rating in `scheduler`'s terms (ladder: Einfach, Mittel, Schwer).
        public func rating(in scheduler: SchedulerKind) -> StudyRating {
            scheduler == .fsrs ? .fsrs(rating) : .ladder(StudyRating.fsrs(rating).ladder)
        }
    }

    /// A run of characters of the diff.
    public struct Segment: Sendable, Hashable, Codable {
        /// What the run is.
        public enum Kind: String, Sendable, Hashable, Codable {
            /// In both (compared as the check compares: case and diacritics aside).
            case same
            /// Typed, but not in the answer.
            case extra
            /// In the answer, but not typed.
            case missing
        }

        /// What the run is.
        public var kind: Kind
        /// Its characters, as typed (`same`, `extra`) or as in the answer (`missing`).
        public var text: String

        /// Creates the segment.
        public init(kind: Kind, text: String) {
            self.kind = kind
            self.text = text
        }
    }

    /// The outcome of a check.
    public struct Result: Sendable, Hashable {
        /// How close it came.
        public var verdict: Verdict
        /// Characters to insert, delete or change to get from the typed to the expected answer
        /// (both normalized); nil when they differ too much to count.
        public var distance: Int?
        /// The typed answer against the expected one, character by character.
        public var diff: [Segment]
    }

    /// Characters of normalized text compared at most; longer answers are compared up to here
    /// (the diff still shows everything, coarsely).
    public static let comparedLength = 2_000

    /// Checks `typed` against `expected`. `ignoringDiacritics` also treats "é" as "e" and "ä" as "a"
    /// (a learner without the keyboard for them); "ß" always equals "ss".
    public static func check(_ typed: String, against expected: String, ignoringDiacritics: Bool = false) -> Result {
        let a = normalized(typed, ignoringDiacritics: ignoringDiacritics)
        let b = normalized(expected, ignoringDiacritics: ignoringDiacritics)
        let diff = self.diff(typed, expected, ignoringDiacritics: ignoringDiacritics)
        // Spacing between words and signs is not part of an answer ("a+b", "a + b").
        if !b.isEmpty, a == b || a.filter({ $0 != " " }) == b.filter({ $0 != " " }) {
            return Result(verdict: .correct, distance: 0, diff: diff)
        }
        let (comparedA, comparedB) = (Array(a.prefix(comparedLength)), Array(b.prefix(comparedLength)))
        // Up to one edit in five characters, at least one.
        let allowed = max(1, comparedB.count / 5)
        let distance = editDistance(comparedA, comparedB, limit: allowed)
        let close =
            !a.isEmpty && b.count >= 2 && AnswerKind(of: expected) != .numeric && distance.map { $0 <= allowed } == true
        return Result(verdict: close ? .close : .wrong, distance: distance, diff: diff)
    }

    /// The text as the check compares it: lowercased ("ß" as "ss"), punctuation and symbols
    /// removed, whitespace runs as one space, trimmed; with `ignoringDiacritics` without combining
    /// marks. Letters, digits and emoji stay.
    public static func normalized(_ text: String, ignoringDiacritics: Bool = false) -> String {
        var result = ""
        var pendingSpace = false
        for character in fold(text, ignoringDiacritics: ignoringDiacritics) {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            guard keeps(character) else { continue }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        return result
    }

    /// Lowercased, "ß" as "ss", and without combining marks when diacritics are ignored.
    private static func fold(_ text: String, ignoringDiacritics: Bool) -> String {
        let lowered = text.lowercased().replacingOccurrences(of: "ß", with: "ss")
        guard ignoringDiacritics else { return lowered }
        let scalars = lowered.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
            $0.properties.generalCategory != .nonspacingMark
        }
        return String(String.UnicodeScalarView(scalars)).precomposedStringWithCanonicalMapping
    }

    /// One character as the diff compares it (`fold`); ASCII without Foundation's string calls,
    /// which made a 20,000-character diff slow.
    private static func key(_ character: Character, ignoringDiacritics: Bool) -> String {
        if let ascii = character.asciiValue {
            return String(UnicodeScalar((65...90).contains(ascii) ? ascii + 32 : ascii))
        }
        return fold(String(character), ignoringDiacritics: ignoringDiacritics)
    }

    /// Whether a character counts: letters, digits, emoji; not punctuation or other symbols.
    private static func keeps(_ character: Character) -> Bool {
        if character.isLetter || character.isNumber { return true }
        if character.isPunctuation { return false }
        // Emoji and other pictographs are content ("🧬"); math and currency signs are content too
        // ("5 €", "a + b").
        return character.unicodeScalars.contains { $0.properties.isEmojiPresentation }
            || character.isMathSymbol || character.isCurrencySymbol
    }

    /// The edit distance (insertions, deletions, substitutions) of `a` and `b` if it is at most
    /// `limit`, else nil: a band of width `2 * limit + 1` around the diagonal is enough.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int? {
        if abs(a.count - b.count) > limit { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let infinity = limit + 1
        var previous = [Int](repeating: infinity, count: b.count + 1)
        for j in 0...min(b.count, limit) { previous[j] = j }
        var current = previous
        for i in 1...a.count {
            let low = max(1, i - limit)
            let high = min(b.count, i + limit)
            for j in 0...b.count { current[j] = infinity }
            if i <= limit { current[0] = i }
            if low <= high {
                for j in low...high {
                    let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1, infinity)
                }
            }
            if current[max(0, low - 1)...high].min() ?? infinity >= infinity { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// The most edits the diff follows; beyond that the two texts are shown as replaced whole.
    static let diffEditLimit = 400

    /// The typed text against the expected one: the shortest edit script (Myers' algorithm) over
    /// characters, compared case-insensitively (and without diacritics when asked).
    public static func diff(_ typed: String, _ expected: String, ignoringDiacritics: Bool = false) -> [Segment] {
        let a = Array(typed)
        let b = Array(expected)
        let keyA = a.map { key($0, ignoringDiacritics: ignoringDiacritics) }
        let keyB = b.map { key($0, ignoringDiacritics: ignoringDiacritics) }
        guard let script = editScript(keyA, keyB, limit: diffEditLimit) else {
            return merged([Segment(kind: .extra, text: typed), Segment(kind: .missing, text: expected)])
        }
        var segments: [Segment] = []
        var (i, j) = (0, 0)
        for step in script {
            switch step {
            case .same:
                segments.append(Segment(kind: .same, text: String(a[i])))
                i += 1
                j += 1
            case .delete:
                segments.append(Segment(kind: .extra, text: String(a[i])))
                i += 1
            case .insert:
                segments.append(Segment(kind: .missing, text: String(b[j])))
                j += 1
            }
        }
        return merged(segments)
    }

    private enum Step { case same, delete, insert }

    /// Myers' O((N + M) D) shortest edit script from `a` to `b`; nil when it needs more than
    /// `limit` edits.
    private static func editScript(_ a: [String], _ b: [String], limit: Int) -> [Step]? {
        let (n, m) = (a.count, b.count)
        let maximum = min(n + m, limit)
        let offset = maximum + 1
        var v = [Int](repeating: 0, count: 2 * maximum + 3)
        var trace: [[Int]] = []
        for d in 0...maximum {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n, y >= m { return backtrack(trace: trace, n: n, m: m, offset: offset) }
            }
        }
        return nil
    }

    /// Walks the recorded rounds back from the end: `trace[d]` holds the furthest x of every
    /// diagonal before round `d`.
    private static func backtrack(trace: [[Int]], n: Int, m: Int, offset: Int) -> [Step] {
        var steps: [Step] = []
        var (x, y) = (n, m)
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1
            let previousX = v[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                steps.append(.same)
                x -= 1
                y -= 1
            }
            if d > 0 { steps.append(x == previousX ? .insert : .delete) }
            (x, y) = (previousX, previousY)
        }
        return steps.reversed()
    }

    /// Adjacent runs of one kind as one; empty runs dropped.
    private static func merged(_ segments: [Segment]) -> [Segment] {
        var result: [Segment] = []
        for segment in segments where !segment.text.isEmpty {
            if let last = result.last, last.kind == segment.kind {
                result[result.count - 1].text += segment.text
            } else {
                result.append(segment)
            }
        }
        return result
    }
}

extension Character {
    fileprivate var isMathSymbol: Bool { unicodeScalars.allSatisfy { $0.properties.generalCategory == .mathSymbol } }
    fileprivate var isCurrencySymbol: Bool {
        unicodeScalars.allSatisfy { $0.properties.generalCategory == .currencySymbol }
    }
}

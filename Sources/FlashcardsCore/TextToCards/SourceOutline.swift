import Foundation

/// A document as the draft review shows it beside the drafts: sections (from one heading to the
/// next), their blocks and sentences, each marked with the drafts made from it, so that what the
/// generator left out is visible.
public struct SourceOutline: Sendable, Hashable {
    /// One sentence of a block (a heading or a bullet item is one sentence).
    public struct Sentence: Sendable, Hashable {
        /// The sentence as the rules read it.
        public var text: String
        /// Indexes into the draft list given to `marked(with:)` of the drafts made from it.
        public var drafts: [Int] = []
    }

    /// A heading, a paragraph or a bullet item.
    public struct Block: Sendable, Hashable {
        /// What the block is.
        public var kind: TextBlock.Kind
        /// The page it starts on.
        public var page: Int
        /// Its sentences, in order.
        public var sentences: [Sentence]
        /// Whether a draft came from any of its sentences.
        public var covered: Bool { sentences.contains { !$0.drafts.isEmpty } }
    }

    /// The text under one heading (or before the first).
    public struct Section: Sendable, Hashable {
        /// The heading; nil for the text before the first one.
        public var title: String?
        /// The heading's blocks and the text under it.
        public var blocks: [Block]
        /// Whether a draft came from any of its blocks.
        public var covered: Bool { blocks.contains(where: \.covered) }
        /// Words of running text (headings left out): a section of a title line alone has none.
        public var contentWords: Int {
            blocks.filter { $0.kind != .heading }.flatMap(\.sentences)
                .reduce(0) { $0 + $1.text.split(separator: " ").count }
        }
        /// How the summary names it: its title, or the first words of its text.
        public var label: String {
            if let title { return title }
            let words = blocks.flatMap(\.sentences).first?.text.split(separator: " ") ?? []
            return words.prefix(6).joined(separator: " ") + (words.count > 6 ? " …" : "")
        }
    }

    /// The sections in reading order.
    public var sections: [Section]

    /// The outline of pages passed through `TextCleaner.clean(pages:)`: the same blocks and
    /// sentences the rules read. A run of headings opens one section, named by the last of them
    /// (a title line above a chapter heading), or by the first when nothing but headings follows
    /// (a short line under "Literatur" reads as a heading too).
    public init(cleanedPages: [SourcePage]) {
        var sections: [Section] = []
        var current: [Block] = []
        func close() {
            guard !current.isEmpty else { return }
            let headings = current.prefix { $0.kind == .heading }.compactMap(\.sentences.first?.text)
            let title = headings.count == current.count ? headings.first : headings.last
            sections.append(Section(title: title, blocks: current))
            current = []
        }
        for block in TextStructure.blocks(of: cleanedPages) {
            let sentences: [String] =
                block.kind == .paragraph ? TextStructure.sentences(of: block.text) : [block.text]
            if block.kind == .heading && !current.allSatisfy({ $0.kind == .heading }) { close() }
            current.append(Block(kind: block.kind, page: block.page, sentences: sentences.map { Sentence(text: $0) }))
        }
        close()
        self.sections = sections
    }

    /// The outline with each sentence marked by the drafts whose source (`DraftCard.source`: a
    /// sentence, a heading with its bullets, a glossary line, or a model's short quote) holds it or
    /// lies in it. Comparison ignores case, spacing and bullet marks.
    public func marked(with sources: [String?]) -> SourceOutline {
        let pieces: [(draft: Int, text: String)] = sources.enumerated().flatMap { index, source -> [(Int, String)] in
            guard let source else { return [] }
            return Self.pieces(of: source).map { (index, $0) }
        }
        var outline = self
        // Every sentence by its normalized text: the rules' sources are sentences, lines and headings
        // as written, found at once; only the other pieces (a part of a sentence, a passage over
        // several) are compared with every sentence. (Comparing all with all took 1.5 s for 100 pages.)
        var places: [String: [(Int, Int, Int)]] = [:]
        for (s, section) in sections.enumerated() {
            for (b, block) in section.blocks.enumerated() {
                for (t, sentence) in block.sentences.enumerated() {
                    let text = Self.normalized(sentence.text)
                    if !text.isEmpty { places[text, default: []].append((s, b, t)) }
                }
            }
        }
        func mark(_ draft: Int, at place: (Int, Int, Int)) {
            let (s, b, t) = place
            if !outline.sections[s].blocks[b].sentences[t].drafts.contains(draft) {
                outline.sections[s].blocks[b].sentences[t].drafts.append(draft)
            }
        }
        for piece in pieces {
            if let found = places[piece.text] {
                for place in found { mark(piece.draft, at: place) }
                continue
            }
            for (text, found) in places {
                // Short texts (a heading, a label) only match a whole piece.
                if (text.count >= 12 && piece.text.contains(text))
                    || (piece.text.count >= 12 && text.contains(piece.text))
                {
                    for place in found { mark(piece.draft, at: place) }
                }
            }
        }
        for s in outline.sections.indices {
            for b in outline.sections[s].blocks.indices {
                for t in outline.sections[s].blocks[b].sentences.indices {
                    outline.sections[s].blocks[b].sentences[t].drafts.sort()
                }
            }
        }
        outline.markLooseQuotes(sources)
        return outline
    }

    /// A model quotes loosely (a word changed, a case ending): a source no sentence matched marks
    /// the sentence that holds most of its words, when that is at least 60 % of them.
    private mutating func markLooseQuotes(_ sources: [String?]) {
        let matched = Set(sections.flatMap(\.blocks).flatMap(\.sentences).flatMap(\.drafts))
        for (draft, source) in sources.enumerated() where !matched.contains(draft) {
            guard let source else { continue }
            let quoted = Self.words(source)
            guard quoted.count >= 3 else { continue }
            var best: (share: Double, at: (Int, Int, Int))?
            for (s, section) in sections.enumerated() {
                for (b, block) in section.blocks.enumerated() {
                    for (t, sentence) in block.sentences.enumerated() {
                        let share = Double(quoted.intersection(Self.words(sentence.text)).count) / Double(quoted.count)
                        if share > (best?.share ?? 0) { best = (share, (s, b, t)) }
                    }
                }
            }
            guard let best, best.share >= 0.6 else { continue }
            sections[best.at.0].blocks[best.at.1].sentences[best.at.2].drafts.append(draft)
        }
    }

    /// The words of three letters or more, lower-cased.
    static func words(_ text: String) -> Set<String> {
        Set(
            text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init).filter {
                $0.count >= 3
            })
    }

    /// Sections with running text of at least `minimumWords` words from which no draft came, in order.
    public func sectionsWithoutDrafts(minimumWords: Int = 8) -> [Section] {
        sections.filter { !$0.covered && $0.contentWords >= minimumWords }
    }

    /// A draft source split into what can be compared with one sentence: its lines without bullet
    /// marks, and each line's sentences.
    static func pieces(of source: String) -> [String] {
        var pieces: [String] = []
        for line in source.split(separator: "\n") {
            var text = line.trimmingCharacters(in: .whitespaces)
            if let item = TextStructure.bulletText(text) { text = item }
            let whole = normalized(text)
            guard !whole.isEmpty else { continue }
            pieces.append(whole)
            let parts = TextStructure.sentences(of: text).map(normalized)
            if parts.count > 1 { pieces += parts }
        }
        return pieces
    }

    /// Lower-cased, with single spaces and without surrounding quotes or spaces.
    static func normalized(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            .trimmingCharacters(in: CharacterSet(charactersIn: "\"„“”'‚‘’ "))
    }
}

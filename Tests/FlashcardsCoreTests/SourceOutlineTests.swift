import Testing

@testable import FlashcardsCore

@Suite("Text to cards: the source beside the drafts")
struct SourceOutlineTests {
    static let notes = """
        VWL I – Mikroökonomik, Vorlesung 4

        # 1. Nachfrage

        Die Nachfrage ist die Menge eines Gutes, die Haushalte zu einem Preis kaufen wollen. Sie sinkt meist, wenn der Preis steigt.

        # 2. Elastizität

        Wie stark reagiert die Menge? Bei großen Reaktionen spricht man von elastischer Nachfrage, bei kleinen von unelastischer.

        # 3. Literatur
        Mankiw, Kapitel 5
        """

    @Test("sections run from heading to heading; a title line joins the first chapter's section")
    func sections() {
        let outline = SourceOutline(cleanedPages: TextCleaner.clean(pages: [SourcePage(number: 1, text: Self.notes)]))
        #expect(outline.sections.map(\.title) == ["1. Nachfrage", "2. Elastizität", "3. Literatur"])
        #expect(outline.sections[0].blocks.map(\.kind) == [.heading, .heading, .paragraph])
        #expect(outline.sections[0].blocks[2].sentences.count == 2)
        #expect(outline.sections[2].contentWords < 8)
    }

    @Test("sentences are marked by the drafts made from them; uncovered sections are named")
    func marks() throws {
        let pages = TextCleaner.clean(pages: [SourcePage(number: 1, text: Self.notes)])
        let outline = SourceOutline(cleanedPages: pages)
        let sources: [String?] = [
            "Die Nachfrage ist die Menge eines Gutes, die Haushalte zu einem Preis kaufen wollen.",
            nil,
            // A model's short quote lies inside the sentence; case and spacing differ.
            "sie  sinkt meist",
        ]
        let marked = outline.marked(with: sources)
        let demand = marked.sections[0].blocks[2].sentences
        #expect(demand[0].drafts == [0])
        #expect(demand[1].drafts == [2])
        #expect(marked.sections[0].covered && !marked.sections[1].covered)
        // "Literatur" has too little text to be reported.
        #expect(marked.sectionsWithoutDrafts().map(\.label) == ["2. Elastizität"])
        // A heading with its bullets marks the heading and each item.
        let list = SourceOutline(
            cleanedPages: [SourcePage(number: 1, text: "Arten\n- Kauf\n- Miete\n\nSonst nichts hier zu sehen.")]
        ).marked(with: ["Arten\n• Kauf\n• Miete"])
        #expect(list.sections[0].blocks.prefix(3).allSatisfy { $0.covered })
        #expect(!list.sections[0].blocks[3].covered)
        // A short heading matches only a whole piece, not a word of another sentence.
        let word = SourceOutline(cleanedPages: [SourcePage(number: 1, text: "Nachfrage\n\nDie Nachfrage steigt.")])
            .marked(with: ["Die Nachfrage steigt."])
        #expect(!word.sections[0].blocks[0].covered && word.sections[0].blocks[1].covered)
        // A loose quote marks the sentence holding most of its words; too few in common mark nothing.
        let loose = outline.marked(with: ["Haushalte wollen die Menge eines Gutes zu einem Preis kaufen", "Preis Gut"])
        #expect(loose.sections[0].blocks[2].sentences[0].drafts == [0])
        #expect(loose.sections.flatMap(\.blocks).flatMap(\.sentences).allSatisfy { !$0.drafts.contains(1) })
        // Text before the first heading is named by its first words.
        let untitled = SourceOutline(
            cleanedPages: [SourcePage(number: 1, text: "Ohne Überschrift beginnt dieser Text mit einem langen Satz.")])
        #expect(untitled.sectionsWithoutDrafts().map(\.label) == ["Ohne Überschrift beginnt dieser Text mit …"])
    }

    @Test("a sentence that OCR split with an empty line stays one sentence")
    func ocrSplit() {
        let text = "Die Osmose ist die Diffusion von Wasser durch eine\n\nhalbdurchlässige Membran.\n\nNeuer Absatz."
        let blocks = TextStructure.blocks(of: [SourcePage(number: 1, text: text)])
        #expect(
            blocks.map(\.text) == [
                "Die Osmose ist die Diffusion von Wasser durch eine halbdurchlässige Membran.", "Neuer Absatz.",
            ])
        let cards = TextToCards.makeCards(text: text)
        #expect(cards.contains { $0.question.contains("Osmose") && $0.answer.contains("halbdurchlässige Membran") })
        // A finished sentence, or a capital after the gap, still ends the paragraph.
        let apart = TextStructure.blocks(of: [SourcePage(number: 1, text: "Ein Satz ohne Punkt\n\nZweiter Absatz.")])
        #expect(apart.count == 2)
    }

    @Test("a chosen passage gets the rules' best card, a question before a cloze; none when there is none")
    func suggestion() throws {
        let definition = try #require(
            TextToCards.suggestion(for: "Die Osmose ist die Diffusion von Wasser durch eine halbdurchlässige Membran."))
        #expect(definition.kind == .definition)
        #expect(definition.answer.contains("Diffusion von Wasser"))
        let english = try #require(
            TextToCards.suggestion(
                for: "Innate immunity is the body's first, unspecific line of defence.", language: .en)
        )
        #expect(english.question.hasSuffix("?") && english.answer.contains("unspecific"))
        #expect(TextToCards.suggestion(for: "Hallo") == nil)
    }
}

import Testing

@testable import FlashcardsCore

@Suite("Text to cards: cleaning PDF text")
struct TextToCardsCleaningTests {
    @Test("words hyphenated across a line break are joined, compounds keep their hyphen")
    func dehyphenation() {
        #expect(
            TextCleaner.dehyphenate("Inhalt des Spei-\nchers wird gelesen.") == "Inhalt des Speichers\nwird gelesen.")
        #expect(
            TextCleaner.dehyphenate("drei Arten von Scheduling-\nVerfahren: a, b")
                == "drei Arten von Scheduling-Verfahren:\na, b")
        #expect(TextCleaner.dehyphenate("Ein-\nund Ausgabe") == "Ein-\nund Ausgabe")
        #expect(TextCleaner.dehyphenate("A value -\nnot a word") == "A value -\nnot a word")
        // The moved word leaves no empty line behind that would split the paragraph.
        #expect(TextCleaner.dehyphenate("die Ausfüh-\nrung.\nNeu") == "die Ausführung.\nNeu")
    }

    @Test("running headers, footers and page numbers are removed from every page")
    func runningLines() {
        let pages = (1...3).map { number in
            SourcePage(
                number: number,
                text:
                    "Vorlesung Betriebssysteme · WS 2026/27\n\nInhalt \(number) mit Text.\nMehr Text.\n\nSeite \(number) von 3\n"
            )
        }
        let cleaned = TextCleaner.clean(pages: pages)
        for (index, page) in cleaned.enumerated() {
            #expect(!page.text.contains("Vorlesung Betriebssysteme"))
            #expect(!page.text.contains("Seite"))
            #expect(page.text.contains("Inhalt \(index + 1) mit Text."))
        }
    }

    @Test("a single page keeps its lines but loses a bare page number")
    func singlePage() {
        let cleaned = TextCleaner.clean(pages: [SourcePage(number: 1, text: "Titel\nEin Satz.\n– 7 –")])
        #expect(cleaned[0].text == "Titel\nEin Satz.")
        #expect(
            TextCleaner.isPageNumber("Page 3 of 10") && TextCleaner.isPageNumber("12")
                && !TextCleaner.isPageNumber("12 Affen"))
    }

    @Test("a word split across a page break is joined on the earlier page")
    func acrossPages() {
        let pages = [
            SourcePage(number: 1, text: "Der Inhalt des Haupt-"),
            SourcePage(number: 2, text: "speichers ist flüchtig."),
        ]
        let cleaned = TextCleaner.clean(pages: pages)
        #expect(cleaned[0].text == "Der Inhalt des Hauptspeichers")
        #expect(cleaned[1].text == "ist flüchtig.")
    }

    @Test("soft hyphens, ligatures and odd spaces are normalised")
    func normalisation() {
        #expect(TextCleaner.normalize("Ef\u{FB01}zienz\u{00AD}klasse\u{00A0}A") == "Effizienzklasse A")
        #expect(TextCleaner.normalize("**Ein Prozess** ist `ps`") == "Ein Prozess ist ps")
    }

    @Test("sentences are split, abbreviations and initials are not sentence ends")
    func sentences() {
        let text = "Edsger W. Dijkstra stellte sie z. B. 1965 vor. Das ist wichtig. Dies gilt u. a. für Threads."
        #expect(
            TextStructure.sentences(of: text) == [
                "Edsger W. Dijkstra stellte sie z. B. 1965 vor.", "Das ist wichtig.", "Dies gilt u. a. für Threads.",
            ])
    }

    @Test("headings, bullets and paragraphs are told apart")
    func blocks() {
        let text = """
            Speicherverwaltung
            Der virtuelle Speicher ist eine Abstraktion, die jedem Prozess einen eigenen
            Adressraum gibt, der größer sein kann als der Hauptspeicher.
            Zu den Zuständen gehören:
            • bereit
            • laufend
            """
        let blocks = TextStructure.blocks(of: [SourcePage(number: 4, text: text)])
        #expect(blocks.map(\.kind) == [.heading, .paragraph, .bullet, .bullet])
        #expect(blocks[1].text.hasSuffix("als der Hauptspeicher. Zu den Zuständen gehören:"))
        #expect(blocks.allSatisfy { $0.page == 4 })
    }
}

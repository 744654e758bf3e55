import Testing

@testable import FlashcardsCore

@Suite("Card import: the rules every imported card meets")
struct CardImportTests {
    private func table(_ text: String, header: Bool? = nil) throws -> DelimitedText.Table {
        try DelimitedText.table(Array(text.utf8), header: header)
    }

    @Test("rows become cards with trimmed texts, optional hints and tags split once each")
    func cards() throws {
        let reading = CardImport.read(
            try table("Frage,Antwort,Hinweis,Tags\n  Hund , dog ,, \"a b;a,c\"\nKatze,cat,Tier,\n"))
        #expect(reading.problems.isEmpty && reading.rejected == 0)
        #expect(
            reading.cards == [
                CardImport.Card(question: "Hund", answer: "dog", hint: nil, tags: ["a", "b", "c"]),
                CardImport.Card(question: "Katze", answer: "cat", hint: "Tier", tags: []),
            ])
    }

    @Test("every broken row is counted, the first ones listed with their line and field")
    func problems() throws {
        let long = String(repeating: "x", count: TextLimits.hint + 1)
        let text = "a,b\n,b\nc\nd,e,\(long)\nf,\"g\0\"\nok,fine\n"
        let reading = CardImport.read(try table(text, header: false), problemLimit: 3)
        #expect(reading.cards.map(\.question) == ["a", "ok"])
        #expect(reading.rejected == 4)
        #expect(reading.problems.map(\.code) == ["front_empty", "missing_column", "hint_too_long"])
        #expect(reading.problems.map(\.line) == [2, 3, 4])
        #expect(reading.problems[0].germanMessage == "Zeile 2: Die Vorderseite ist leer.")
        #expect(reading.problems[2].germanMessage == "Zeile 4: Der Hinweis ist länger als 2000 Zeichen.")
    }

    @Test("a mapping must name two different existing columns; a file needs at least one card")
    func fileProblems() throws {
        let two = try table("a,b\n")
        #expect(CardImport.read(two, mapping: .init(front: 1, back: 1)).problems.map(\.code) == ["bad_mapping"])
        #expect(CardImport.read(two, mapping: .init(front: 0, back: 2)).problems.map(\.code) == ["bad_mapping"])
        #expect(
            CardImport.read(two, mapping: .init(front: 0, back: 1, hint: 1)).problems.map(\.code) == ["bad_mapping"])
        #expect(CardImport.read(two, mapping: .init(front: 1, back: 0)).cards == [.init(question: "b", answer: "a")])
        let empty = CardImport.read(try table("Frage;Antwort\n"))
        #expect(empty.problems.map(\.germanMessage) == ["Die Datei enthält keine Karten."])
    }

    @Test("the header choice can be forced either way")
    func headerChoice() throws {
        #expect(try table("Frage,Antwort\nx,y\n", header: false).rows.count == 2)
        let forced = try table("eins,zwei\nx,y\n", header: true)
        #expect(forced.header == ["eins", "zwei"] && forced.rows == [["x", "y"]] && forced.lines == [2])
    }

    @Test("German thousands separators")
    func numbers() {
        #expect(
            [0, 999, 1_000, 200_000, 1_234_567, -4_500].map(germanNumber) == [
                "0", "999", "1.000", "200.000", "1.234.567", "-4.500",
            ])
    }
}

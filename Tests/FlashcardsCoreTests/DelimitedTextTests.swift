import Foundation
import Testing

@testable import FlashcardsCore

@Suite("Delimited text: CSV, TSV and Quizlet exports")
struct DelimitedTextTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("Quizlet's export: term TAB definition, one per line, no header")
    func quizlet() throws {
        let table = try DelimitedText.table(bytes("Hund\tdog\nKatze\tcat\nMaus\tmouse, small\n"))
        #expect(table.separator == "\t" && table.header == nil && table.encoding == .utf8)
        #expect(table.rows == [["Hund", "dog"], ["Katze", "cat"], ["Maus", "mouse, small"]])
        #expect(table.mapping == DelimitedText.Mapping(front: 0, back: 1))
    }

    @Test("a spreadsheet's CSV with a header, quotes, doubled quotes and a line break in a field")
    func quotedCSV() throws {
        let text =
            "Question,Answer,Hint,Tags\r\n\"Was ist \"\"ATP\"\"?\",\"Energieträger,\r\nin Zellen\",,bio\r\nZelle,Grundeinheit,,\r\n"
        let table = try DelimitedText.table(bytes(text))
        #expect(table.separator == ",")
        #expect(table.header == ["Question", "Answer", "Hint", "Tags"])
        #expect(table.mapping == DelimitedText.Mapping(front: 0, back: 1, hint: 2, tags: 3))
        #expect(
            table.rows == [
                ["Was ist \"ATP\"?", "Energieträger,\nin Zellen", "", "bio"], ["Zelle", "Grundeinheit", "", ""],
            ])
    }

    @Test("German Excel: semicolons, a byte order mark, a German header in another order")
    func germanExcel() throws {
        let table = try DelimitedText.table(
            [0xEF, 0xBB, 0xBF] + bytes("Antwort;Frage\nBerlin;Hauptstadt?\nParis; Hauptstadt von Frankreich? \n"))
        #expect(table.separator == ";" && table.encoding == .utf8WithBOM)
        #expect(table.mapping == DelimitedText.Mapping(front: 1, back: 0))
        #expect(table.rows == [["Berlin", "Hauptstadt?"], ["Paris", "Hauptstadt von Frankreich?"]])
    }

    @Test("bytes that are not UTF-8 are read as Windows-1252")
    func windows1252() throws {
        // "Mädchen;girl €5" in Windows-1252: ä = E4, € = 80.
        let raw: [UInt8] = [0x4D, 0xE4, 0x64, 0x63, 0x68, 0x65, 0x6E, 0x3B, 0x67, 0x69, 0x72, 0x6C, 0x20, 0x80, 0x35]
        let table = try DelimitedText.table(raw)
        #expect(table.encoding == .windows1252)
        #expect(table.rows == [["Mädchen", "girl €5"]])
    }

    @Test("a given separator wins; empty lines are skipped; CR line ends work")
    func givenSeparator() throws {
        let table = try DelimitedText.table(bytes("a|b\r\rc|d\r"), separator: "|")
        #expect(table.rows == [["a", "b"], ["c", "d"]])
    }

    @Test("an unterminated quote names the line where its row starts; text after a quote is refused")
    func errors() {
        #expect(throws: DelimitedText.ParseError(line: 2, reason: .unterminatedQuote)) {
            try DelimitedText.rows("a,b\n\"c,d\ne,f\n", separator: ",")
        }
        #expect(throws: DelimitedText.ParseError(line: 1, reason: .textAfterQuote)) {
            try DelimitedText.rows("\"a\"b,c\n", separator: ",")
        }
    }

    @Test(
        "separator detection prefers the one that splits rows consistently",
        arguments: [
            ("a,b\nc,d\n", ","), ("a;b\nc;d,e\n", ";"), ("Hund\tdog, cat\nKatze\tcat\n", "\t"), ("nur Text\n", ","),
        ] as [(String, Character)])
    func detection(text: String, expected: Character) {
        #expect(DelimitedText.detectSeparator(text) == expected)
    }

    @Test("written text quotes what needs it and reads back unchanged, with each separator")
    func roundTrip() throws {
        let rows = [
            ["Frage", "Antwort"], ["Was ist \"ATP\"?", "Energieträger,\nin Zellen"], [" Leerzeichen ", "a;b\tc"],
            ["", "nur Rückseite"],
        ]
        for separator: Character in ["\t", ";", ","] {
            let text = DelimitedText.text(rows, separator: separator)
            #expect(try DelimitedText.rows(text, separator: separator) == rows)
        }
        #expect(DelimitedText.text([["a", "b c"], ["x\"y", "z"]]) == "a,b c\r\n\"x\"\"y\",z\r\n")
        let excel = DelimitedText.text([["Frage", "Antwort"], ["Hund", "dog"]], separator: ";", byteOrderMark: true)
        let table = try DelimitedText.table(Array(excel.utf8))
        #expect(table.encoding == .utf8WithBOM && table.separator == ";" && table.rows == [["Hund", "dog"]])
    }
}

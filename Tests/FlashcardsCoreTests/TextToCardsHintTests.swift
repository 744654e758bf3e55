import Testing

@testable import FlashcardsCore

@Suite("Text to cards: offline hints")
struct TextToCardsHintTests {
    static let answers = [
        "Prozess", "Mitochondrien", "1965", "A", "42", "TCP", "Round Robin", "Ein Programm in Ausführung",
        "bereit, laufend, blockiert, beendet", "The square root of the variance",
        "Eine Zählvariable mit den atomaren Operationen P und V, die den Zugang zu gemeinsam genutzten Betriebsmitteln regelt",
        "Ja", "no", "O(n log n)", "Speicher Speicher Speicher", "Daten-Bank", "Über", "ß", "x y",
        "last-in, first-out", "Die Zelle", "virtuelle Speicher",
    ]

    @Test("a hint never contains the answer, at any strength, in both languages")
    func neverLeaks() {
        for answer in Self.answers {
            for strength in HintStrength.allCases {
                for language in DocumentLanguage.allCases {
                    let hint = OfflineHints.hint(answer: answer, language: language, strength: strength)
                    #expect(!OfflineHints.leaks(hint: hint, answer: answer), "\(answer) → \(hint)")
                    #expect(!hint.lowercased().contains(" \(answer.lowercased()) ") || answer.count <= 1)
                    // No label in the text: clients show their own.
                    #expect(!hint.hasPrefix("Hinweis") && !hint.hasPrefix("Hint"), "\(hint)")
                }
            }
        }
    }

    @Test("hints are graded: first letters, length, a cloze of the key word")
    func graded() {
        #expect(
            OfflineHints.hint(answer: "Mitochondrien", language: .de, strength: .gentle)
                == "Ein Wort mit 13 Buchstaben.")
        #expect(
            OfflineHints.hint(answer: "Mitochondrien", language: .de, strength: .medium)
                == "Ein Wort mit 13 Buchstaben, beginnt mit „Mi…“.")
        #expect(OfflineHints.hint(answer: "Round Robin", language: .en) == "2 words, starts with “R… R…”.")
        #expect(OfflineHints.hint(answer: "1965", language: .de) == "Eine Zahl mit 4 Ziffern, beginnt mit „1…“.")
        let strong = OfflineHints.hint(
            answer: "Ein Programm in Ausführung mit eigenem Adressraum", language: .de, strength: .strong)
        #expect(strong == "„Ein Programm in A" + String(repeating: "_", count: 9) + " mit eigenem …“")
    }

    @Test("graded hints go from gentle to strong and none leaks")
    func gradedList() {
        let answer = "Ein Programm in Ausführung mit eigenem Adressraum"
        let hints = OfflineHints.gradedHints(answer: answer, language: .de)
        #expect(hints.count == 3)
        #expect(hints.first == "7 Wörter.")
        #expect(hints.allSatisfy { !OfflineHints.leaks(hint: $0, answer: answer) })
    }

    @Test("the leak check sees whole answers and all content words")
    func leakCheck() {
        #expect(OfflineHints.leaks(hint: "Hinweis: Die Antwort ist Mitochondrien.", answer: "Mitochondrien"))
        #expect(
            OfflineHints.leaks(
                hint: "Hint: it is about the variance's square root", answer: "The square root of the variance"))
        #expect(!OfflineHints.leaks(hint: "Hinweis: Denk an Kraftwerke der Zelle.", answer: "Mitochondrien"))
        #expect(!OfflineHints.leaks(hint: "Hinweis: beginnt mit Mi", answer: "Mitochondrien"))
    }
}

import Testing

@testable import FlashcardsCore

@Suite("Text to cards: rules")
struct TextToCardsRulesTests {
    func cards(_ text: String, clozes: Bool = false) -> [DraftCard] {
        TextToCards.makeCards(text: text, options: TextToCardsOptions(makesClozes: clozes, makesFacts: clozes))
    }

    func pairs(_ text: String) -> [[String]] {
        cards(text).map { [$0.question, $0.answer] }
    }

    @Test("German definitions: ist, sind, bezeichnet, versteht man unter, bezeichnet man als")
    func germanDefinitions() {
        #expect(
            pairs("Ein Prozess ist ein Programm in Ausführung.") == [
                ["Was ist ein Prozess?", "Ein Programm in Ausführung"]
            ])
        #expect(
            pairs("Ribosomen sind Komplexe aus RNA und Proteinen.") == [
                ["Was sind Ribosomen?", "Komplexe aus RNA und Proteinen"]
            ])
        #expect(
            pairs("Ein Deadlock bezeichnet eine Situation, in der Prozesse zyklisch warten.")
                == [["Was bezeichnet ein Deadlock?", "Eine Situation, in der Prozesse zyklisch warten"]])
        #expect(
            pairs("Unter Diffusion versteht man die Ausbreitung von Teilchen.")
                == [["Was versteht man unter Diffusion?", "Die Ausbreitung von Teilchen"]])
        #expect(
            pairs("Als Round Robin bezeichnet man ein Verfahren mit festen Zeitscheiben.")
                == [["Was bezeichnet man als Round Robin?", "Ein Verfahren mit festen Zeitscheiben"]])
        #expect(
            pairs("Ein kritischer Abschnitt ist ein Programmteil mit gemeinsamen Daten.")
                == [["Was ist ein kritischer Abschnitt?", "Ein Programmteil mit gemeinsamen Daten"]])
        #expect(
            pairs("Die Anfechtung wird als rückwirkende Beseitigung einer Erklärung bezeichnet.")
                == [["Was ist die Anfechtung?", "Rückwirkende Beseitigung einer Erklärung"]])
        #expect(
            pairs("Man nennt das Recht, von einem anderen ein Tun zu verlangen, einen Anspruch.")
                == [["Was ist ein Anspruch?", "Das Recht, von einem anderen ein Tun zu verlangen"]])
    }

    @Test("English definitions: is, are, means, refers to, occurs when")
    func englishDefinitions() {
        #expect(
            pairs("A protocol is a set of rules for exchanging messages.")
                == [["What is a protocol?", "A set of rules for exchanging messages"]])
        #expect(
            pairs("Latency refers to the time a packet needs to travel.")
                == [["What does latency refer to?", "The time a packet needs to travel"]])
        #expect(
            pairs("Atomicity means that a transaction is executed completely or not at all.")
                == [["What does atomicity mean?", "A transaction is executed completely or not at all"]])
        #expect(
            pairs("A deadlock occurs when two transactions wait for each other.")
                == [["When does a deadlock occur?", "When two transactions wait for each other"]])
        #expect(
            pairs("The remnant of a collapsed star is known as a black hole; nothing escapes.")
                == [["What is a black hole?", "The remnant of a collapsed star"]])
    }

    @Test("sentences that only look like definitions are left alone")
    func falsePositives() {
        #expect(cards("Es ist wichtig, regelmäßig zu lernen. Das Ergebnis ist gut. Dies ist ein Beispiel.").isEmpty)
        #expect(
            cards(
                "It is sensitive to extreme values. This is a good example of a test. IPv4 addresses are 32 bits long."
            ).isEmpty)
        #expect(cards("Die Semaphore ist im Jahr 1965 vorgestellt worden.").isEmpty)
    }

    @Test("Begriff: Erklärung lines and glossary layouts")
    func glossary() {
        #expect(
            pairs(
                "Geldpolitik: Maßnahmen einer Zentralbank zur Steuerung der Zinsen.\nFiskalpolitik: Einsatz staatlicher Ausgaben."
            )
                == [
                    ["Was bedeutet „Geldpolitik“?", "Maßnahmen einer Zentralbank zur Steuerung der Zinsen"],
                    ["Was bedeutet „Fiskalpolitik“?", "Einsatz staatlicher Ausgaben"],
                ])
        // pdftotext writes a two-column glossary as term line, blank line, explanation.
        let glossary =
            "Glossary\nPacket\n\na small unit of data sent over a network.\n\nFirewall\n\na system that filters traffic.\n"
        #expect(
            pairs(glossary) == [
                ["What does “Packet” mean?", "A small unit of data sent over a network"],
                ["What does “Firewall” mean?", "A system that filters traffic"],
            ])
        // Labels are not terms.
        #expect(cards("Beispiel: Ein Drucker wartet auf den Scanner.").isEmpty)
    }

    @Test("headings and introducing sentences with bullet lists")
    func lists() {
        #expect(
            pairs("Zu den Zuständen eines Prozesses gehören:\n- bereit\n- laufend\n- blockiert")
                == [["Was gehört zu den Zuständen eines Prozesses?", "bereit, laufend, blockiert"]])
        #expect(
            pairs("# Vorteile von Paging\n\n- keine externe Fragmentierung\n- einfache Verwaltung")
                == [
                    [
                        "Welche Punkte gehören zu „Vorteile von Paging“?",
                        "keine externe Fragmentierung, einfache Verwaltung",
                    ]
                ])
        #expect(
            pairs("The ACID properties of a transaction are:\n- atomicity\n- consistency\n- isolation\n- durability")
                == [
                    ["What are the ACID properties of a transaction?", "atomicity, consistency, isolation, durability"]
                ])
    }

    @Test("enumerations in running text")
    func enumerations() {
        #expect(
            pairs("Man unterscheidet vier Marktformen: Polypol, Oligopol, Monopol und Monopson.")
                == [["Welche vier Marktformen unterscheidet man?", "Polypol, Oligopol, Monopol und Monopson"]])
        #expect(
            pairs("There are three types of transmission: unicast, broadcast and multicast.")
                == [["What three types of transmission are there?", "Unicast, broadcast and multicast"]])
        #expect(
            pairs("Die Zellatmung umfasst drei Abschnitte: Glykolyse, Citratzyklus und Atmungskette.")
                == [["Welche drei Abschnitte umfasst die Zellatmung?", "Glykolyse, Citratzyklus und Atmungskette"]])
    }

    @Test("cloze cards of key terms and key facts")
    func clozes() {
        let text = """
            Ein Prozess ist ein Programm in Ausführung. Jeder Prozess besitzt einen Kontrollblock mit seinem Zustand.
            Hermann Ebbinghaus veröffentlichte seine Untersuchungen zum Vergessen im Jahr 1885.
            """
        let made = cards(text, clozes: true)
        #expect(
            made.contains {
                $0.kind == .cloze && $0.answer == "Prozess"
                    && $0.question == "Ergänze die Lücke: Jeder _____ besitzt einen Kontrollblock mit seinem Zustand."
            })
        #expect(made.contains { $0.kind == .fact && $0.answer == "1885" && $0.question.hasSuffix("im Jahr _____.") })
        for card in made { #expect(CardQuality.isWellFormed(card), "\(card)") }
    }

    @Test("duplicates and near-duplicates are removed; questions the stack has are marked or dropped")
    func deduplication() {
        let text = "Ein Prozess ist ein Programm in Ausführung. Ein Prozess ist ein Programm, das ausgeführt wird."
        #expect(cards(text).count == 1)
        let existing = TextToCards.makeCards(
            text: "Ein Prozess ist ein Programm in Ausführung. Ein Thread ist ein leichter Ausführungsstrang.",
            options: TextToCardsOptions(makesClozes: false, existingQuestions: ["Was ist ein  Prozess ?"]))
        #expect(existing.map(\.question) == ["Was ist ein Prozess?", "Was ist ein Thread?"])
        #expect(existing.map(\.duplicateOf) == ["Was ist ein  Prozess ?", nil])
        let dropped = CardDeduplicator.deduplicate(
            existing, existingQuestions: ["Was ist ein Prozess?"], existing: .drop)
        #expect(dropped.map(\.question) == ["Was ist ein Thread?"])
        // Drafts made before (an earlier page group) are not made again.
        let later = CardDeduplicator.deduplicate(existing, after: [existing[1]])
        #expect(later.map(\.question) == ["Was ist ein Prozess?"])
        #expect(CardDeduplicator.sameQuestion("What is a protocol?", "what is the protocol"))
    }

    @Test("past-tense definitions need an article; an apposition after the term is skipped")
    func pastTenseAndApposition() {
        #expect(
            pairs("Ein Lehen war ein Stück Land, das ein Herr einem Vasallen überließ.")
                == [["Was war ein Lehen?", "Ein Stück Land, das ein Herr einem Vasallen überließ"]])
        #expect(pairs("Der Kaiser war 1520 in Aachen gekrönt worden und regierte lange.").isEmpty)
        #expect(
            pairs("Galileo Galilei, geboren 1564 in Pisa, war ein Astronom und Mathematiker am Hof in Florenz.")
                .first?.first == "Wer war Galileo Galilei?")
        let english = TextToCards.makeCards(
            text: "The Hanseatic League was a commercial alliance of merchant guilds and market towns.",
            options: TextToCardsOptions(makesClozes: false, makesFacts: false, language: .en))
        #expect(english.first?.question == "What was the Hanseatic League?")
        let passive = TextToCards.makeCards(
            text: "The treaty was signed in the small town after three weeks of talks.",
            options: TextToCardsOptions(makesClozes: false, makesFacts: false, language: .en))
        #expect(!passive.contains { $0.kind == .definition })
        // "Als" never starts a subject: no "Wozu dienen Als Ausgangsstoffe?".
        #expect(pairs("Als Ausgangsstoffe dienen Kohlenstoffdioxid und Wasser aus der Umgebung.").isEmpty)
    }

    @Test("a date written out is one gap in a number cloze; a second number means no cloze")
    func dateClozes() {
        let made = TextToCards.makeCards(
            text: "Der Westfälische Frieden wurde am 24. Oktober 1648 in Münster und Osnabrück unterzeichnet.",
            options: TextToCardsOptions(makesClozes: false, makesFacts: true, language: .de))
        #expect(made.contains { $0.answer == "24. Oktober 1648" && $0.question.contains("am _____ in Münster") })
        #expect(
            FactPatterns.numberUnits("The war lasted from 1914–1918 in Europe".split(separator: " ").map(String.init))
                .count == 1)
        #expect(
            FactPatterns.numberUnits("It ended on November 11, 1918.".split(separator: " ").map(String.init)) == [3..<6]
        )
        #expect(FactPatterns.numberUnits("Im Mai 1949 und 1990".split(separator: " ").map(String.init)).count == 2)
        // Of several numbers, the one year is the gap; "he" leaves the gap without its subject.
        let facts = TextToCards.makeCards(
            text: "The Education Act of 1870 was passed for children aged five to twelve in England. "
                + "In 1872 he founded a small school for the children of miners in Wales.",
            options: TextToCardsOptions(makesClozes: false, makesFacts: true, language: .en))
        #expect(facts.map(\.answer) == ["1870"])
    }

    @Test("a sentence no rule used becomes a cloze of its most specific noun; not the lecture about itself")
    func nounClozes() {
        let made = TextToCards.makeCards(
            text: "Der Westfälische Frieden beendete den Dreißigjährigen Krieg in weiten Teilen Europas. "
                + "In dieser Stunde betrachten wir die Folgen für die Landwirtschaft im Reich.",
            options: TextToCardsOptions(makesClozes: true, makesFacts: false, language: .de))
        let clozes = made.filter { $0.kind == .cloze }
        #expect(clozes.map(\.answer) == ["Dreißigjährigen Krieg"])
        #expect(clozes.first?.question.contains("Frieden beendete den _____ in weiten") == true)
        #expect(clozes.first?.source?.hasPrefix("Der Westfälische Frieden") == true)
    }

    @Test("a draft keeps its source sentence and offers the same fact as a cloze")
    func sourceAndAlternative() throws {
        let sentence = "Das Mitochondrium ist das Kraftwerk der Zelle, in dem ATP gebildet wird."
        let made = cards(sentence + " Die Photosynthese findet in den Chloroplasten statt.")
        let definition = try #require(made.first { $0.kind == .definition })
        #expect(definition.source == sentence)
        let alternative = try #require(definition.alternative)
        #expect(alternative.kind == .cloze)
        #expect(alternative.answer == "Mitochondrium")
        #expect(alternative.question.contains("Das _____ ist das Kraftwerk der Zelle"))
        let place = try #require(made.first { $0.kind == .fact && $0.answer.contains("Chloroplasten") })
        #expect(place.source == "Die Photosynthese findet in den Chloroplasten statt.")
        #expect(place.alternative?.question.contains("Die Photosynthese findet") == true)
        #expect(place.alternative?.answer.lowercased().contains("chloroplasten") == true)
        // Of a definition and a cloze of the same fact, the second becomes the first's alternative.
        let pair = CardDeduplicator.deduplicate([
            DraftCard(question: "Was ist ein Prozess?", answer: "Ein Programm in Ausführung", kind: .definition),
            DraftCard(
                question: "Ergänze die Lücke: Ein _____ ist ein Programm in Ausführung.", answer: "Prozess",
                kind: .cloze),
        ])
        #expect(pair.count == 1)
        #expect(pair[0].alternative?.answer == "Prozess")
        for card in made { #expect(CardQuality.isWellFormed(card), "\(card)") }
    }

    @Test("source pages are recorded")
    func sourcePages() {
        let pages = [
            SourcePage(number: 3, text: "Ein Prozess ist ein Programm in Ausführung."),
            SourcePage(number: 4, text: "Ein Thread ist ein leichtgewichtiger Ausführungsstrang."),
        ]
        let made = TextToCards.makeCards(pages: pages, options: TextToCardsOptions(makesClozes: false))
        #expect(made.map(\.sourcePage) == [3, 4])
    }

    @Test("language detection per document")
    func language() {
        #expect(LanguageDetector.detect("Der Prozess ist ein Programm und wird vom System verwaltet.") == .de)
        #expect(LanguageDetector.detect("The process is a program that is managed by the system.") == .en)
        #expect(
            TextToCards.makeCards(text: "A stack is a data structure with last-in, first-out order.").first?.question
                == "What is a stack?")
    }

    @Test("the rules are deterministic")
    func deterministic() {
        let text =
            "Ein Prozess ist ein Programm in Ausführung. Jeder Prozess hat einen Zustand im Speicher des Systems."
        #expect(TextToCards.makeCards(text: text) == TextToCards.makeCards(text: text))
    }

    @Test("long answers are cut at a clause boundary or the card is dropped, never mid-word")
    func longAnswers() {
        let tail = (1...60).map { "Teil\($0)" }.joined(separator: " ")
        let made = cards("Ein Modul ist ein Baustein, \(tail), und mehr.")
        for card in made {
            #expect(card.answer.count <= CardText.maximumAnswerLength)
            #expect(CardQuality.isWellFormed(card))
        }
    }
}

@Suite("Text to cards: facts and one card per fact")
struct TextToCardsFactTests {
    func pairs(_ text: String, language: DocumentLanguage? = nil) -> [[String]] {
        TextToCards.makeCards(text: text, options: TextToCardsOptions(language: language)).map {
            [$0.question, $0.answer]
        }
    }

    @Test("a definition and where it happens, the pronoun resolved; no cloze of the definition sentence")
    func photosynthesis() {
        let text = """
            Die Photosynthese ist der Prozess, bei dem Pflanzen Lichtenergie in chemische Energie umwandeln. \
            Sie findet in den Chloroplasten statt. Dabei entstehen aus Kohlenstoffdioxid und Wasser Glucose \
            und Sauerstoff.
            """
        #expect(
            pairs(text) == [
                [
                    "Was ist die Photosynthese?",
                    "Der Prozess, bei dem Pflanzen Lichtenergie in chemische Energie umwandeln",
                ],
                ["Wo findet die Photosynthese statt?", "In den Chloroplasten"],
                ["Was entsteht bei der Photosynthese?", "Aus Kohlenstoffdioxid und Wasser Glucose und Sauerstoff"],
            ])
    }

    @Test("German facts: place, parts, purpose, cause, time, number")
    func germanFacts() {
        #expect(
            pairs("Bei Pflanzen findet die Photosynthese in den Chloroplasten statt, die in den Blättern liegen.")
                == [["Wo findet die Photosynthese statt?", "In den Chloroplasten"]])
        #expect(
            pairs("Ein Chloroplast besteht aus einer doppelten Hülle und den Thylakoiden.")
                == [["Woraus besteht ein Chloroplast?", "Einer doppelten Hülle und den Thylakoiden"]])
        #expect(
            pairs("Der Zellkern dient der Speicherung der Erbinformation.")
                == [["Wozu dient der Zellkern?", "Der Speicherung der Erbinformation"]])
        #expect(
            pairs("Die Inflation wurde durch den Druck von Geld verursacht.")
                == [["Wodurch wurde die Inflation verursacht?", "Den Druck von Geld"]])
        #expect(
            pairs("Im Jahr 1919 wurde die Weimarer Verfassung verabschiedet.")
                == [["Wann wurde die Weimarer Verfassung verabschiedet?", "Im Jahr 1919"]])
        #expect(
            pairs("Ein Erwachsener hat 206 Knochen.") == [["Wie viele Knochen hat ein Erwachsener?", "206"]])
        #expect(
            pairs("Im Januar 1923 besetzten Truppen das Ruhrgebiet, weil Deutschland im Rückstand war.")
                == [["Warum besetzten Truppen das Ruhrgebiet?", "Weil Deutschland im Rückstand war"]])
    }

    @Test("English facts: place, parts, use, cause, time, number")
    func englishFacts() {
        #expect(
            pairs("Glycolysis takes place in the cytoplasm of the cell.", language: .en)
                == [["Where does glycolysis take place?", "In the cytoplasm of the cell"]])
        #expect(
            pairs("An atom consists of a nucleus and electrons.", language: .en)
                == [["What does an atom consist of?", "A nucleus and electrons"]])
        #expect(
            pairs("The steam engine was used to pump water out of mines.", language: .en)
                == [["What was the steam engine used for?", "To pump water out of mines"]])
        #expect(
            pairs("The Great Fire of London was caused by a bakery fire.", language: .en)
                == [["What caused the Great Fire of London?", "A bakery fire"]])
        #expect(
            pairs("The University of Oxford was founded in 1096 by scholars.", language: .en)
                == [["When was the University of Oxford founded?", "In 1096"]])
        #expect(
            pairs("The Industrial Revolution began in 1760 in Britain.", language: .en)
                == [["When did the Industrial Revolution begin?", "In 1760"]])
        #expect(
            pairs("A hexagon has six sides.", language: .en) == [["How many sides does a hexagon have?", "Six"]])
    }

    @Test("a pronoun without a subject before it, or of the wrong gender, gives no card")
    func unresolvedPronoun() {
        #expect(pairs("Sie findet in den Chloroplasten statt.").isEmpty)
        #expect(pairs("Der Zellkern ist das Steuerzentrum der Zelle. Sie findet im Cytoplasma statt.").count == 1)
    }

    @Test("a definition and a cloze of the same sentence are one fact")
    func sameFact() {
        let definition = DraftCard(
            question: "Was ist die Photosynthese?", answer: "Der Prozess, bei dem Pflanzen Licht umwandeln",
            kind: .definition)
        let cloze = DraftCard(
            question: "Ergänze die Lücke: Die _____ ist der Prozess, bei dem Pflanzen Licht umwandeln.",
            answer: "Photosynthese", kind: .cloze)
        let other = DraftCard(
            question: "Wo findet die Photosynthese statt?", answer: "In den Chloroplasten", kind: .fact)
        #expect(CardDeduplicator.sameFact(definition, cloze))
        #expect(CardDeduplicator.sameFact(cloze, definition))
        #expect(!CardDeduplicator.sameFact(definition, other))
        var withAlternative = definition
        withAlternative.alternative = .init(question: cloze.question, answer: cloze.answer, kind: .cloze)
        #expect(CardDeduplicator.deduplicate([definition, cloze, other]) == [withAlternative, other])
        #expect(CardDeduplicator.repeatedFacts(in: [definition, cloze, other, cloze]) == 2)
    }
}

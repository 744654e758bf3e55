import Testing

@testable import FlashcardsCore

/// Drafts a student would have to throw away are not made (issue 37: precision before recall).
@Suite("Text to cards: no broken drafts")
struct TextToCardsPrecisionTests {
    func cards(_ text: String, _ language: DocumentLanguage = .de) -> [DraftCard] {
        TextToCards.makeCards(text: text, options: TextToCardsOptions(language: language))
    }

    @Test("a list label or a count is no term to define (defect class 3)")
    func labels() {
        let made = cards(
            """
            Leitungsspanne = Zahl der direkt unterstellten Mitarbeiter.

            Faustregel: mehr als ca. 7–10 direkt unterstellte Mitarbeiter überlasten die Instanz.

            Fünf Klassen: IgG, IgA, IgM, IgE, IgD.

            Ziele: kurze Durchlaufzeiten, hohe Auslastung, Termintreue.
            """)
        #expect(!made.contains { $0.question.contains("Faustregel") || $0.question.contains("Ziele") })
        #expect(!made.contains { $0.question.contains("Fünf Klassen") || $0.answer == "Fünf" })
        let english = cards("Classic case: Kitty Genovese, NYC 1964, in front of many witnesses.", .en)
        #expect(english.isEmpty, "\(english)")
    }

    @Test("list questions stand on their own; headings of glossary items ask nothing (defect class 8)")
    func listQuestions() {
        let made = cards(
            """
            Zwei Sichtweisen:
            - Aufbauorganisation: legt fest, wer wofür zuständig ist
            - Ablauforganisation: regelt, wie gearbeitet wird

            Es arbeitet mit zwei Armen:
            - angeborene Immunität
            - adaptive Immunität

            Polybios nannte das Ganze eine Mischverfassung aus drei Elementen:
            - Magistrate
            - Senat
            - Volksversammlungen
            """)
        let lists = made.filter { $0.kind == .list }
        #expect(
            lists.map(\.question) == ["Polybios nannte das Ganze eine Mischverfassung aus drei Elementen – welche?"])
        let english = cards(
            """
            ## 4. Metabolism
            - Phase I: oxidation, reduction, hydrolysis by liver enzymes
            - Phase II: conjugation, which makes the molecule water-soluble

            Obedience went down when:
            - the learner was in the same room
            - the experimenter gave orders by phone
            """, .en)
        // No "Which points belong to “4. Metabolism”?"; an open intro asks on.
        #expect(english.filter { $0.kind == .list }.map(\.question) == ["Obedience went down when …?"])
        // An item whose explanation lists properties is asked for them, under its heading.
        #expect(english.contains { $0.question == "Metabolism: What characterises “Phase I”?" })
        #expect(english.contains { $0.question == "What does “Phase II” mean?" })
        let asked = cards(
            "Why do people conform? Two reasons:\n- normative influence\n- informational influence\n", .en)
        #expect(asked.map(\.question) == ["Why do people conform?"])
    }

    @Test("a list's member is asked for what marks it, under what it is a member of")
    func members() {
        let made = cards(
            "Erste Verteidigungslinie sind die Barrieren:\n- Haut: mechanische Barriere, Säureschutzmantel\n"
                + "- Magensäure: pH 1–2, tötet die meisten verschluckten Keime ab\n")
        #expect(
            made.contains { $0.question == "Erste Verteidigungslinie sind die Barrieren: Was kennzeichnet „Haut“?" })
        #expect(
            made.contains {
                $0.question == "Erste Verteidigungslinie sind die Barrieren: Was kennzeichnet „Magensäure“?"
            })
        // Under a heading, properties are asked with it; a definition stays a definition.
        let english = cards(
            "## Attribution\n\nAttribution = how we explain the causes of behaviour.\n"
                + "- Internal (dispositional): personality, ability, effort\n"
                + "- Stelle: the smallest unit of an organisation, a person's area of tasks\n", .en)
        #expect(english.contains { $0.question == "Attribution: What characterises “Internal (dispositional)”?" })
        #expect(english.contains { $0.question == "What does “Attribution” mean?" })
        // An overview heading names no subject.
        let overview = cards("## Überblick\n\n- Angeborene Immunität: schnell, unspezifisch, kein Gedächtnis\n")
        #expect(overview.map(\.question) == ["Was kennzeichnet „Angeborene Immunität“?"])
    }

    @Test("how a term is, or what happens to it, is no definition; a plural noun is no verb")
    func notDefinitions() {
        let social = cards(
            "Handeln ist sozial, wenn es seinem gemeinten Sinn nach auf das Verhalten anderer bezogen ist.")
        #expect(!social.contains { $0.question.hasPrefix("Was ist Handeln") })
        let english = cards(
            "Myelin is formed by oligodendrocytes in the brain.\n\nA stronger stimulus doesn't give a bigger potential.",
            .en)
        #expect(!english.contains { $0.question.hasPrefix("What is myelin") || $0.question.contains("stimulu?") })
    }

    @Test("gaps in brackets, beside a pronoun, of a noun next to a number, of 0 or 1 are left out")
    func weakGaps() {
        let made = cards(
            """
            Jeder Geschäftsfall berührt mindestens zwei Konten (doppelte Buchführung im Unternehmen).
            Ohne ihn läge die mittlere Temperatur an der Erdoberfläche bei etwa minus achtzehn Grad.
            Aufbewahrungsfrist für Inventar und Bilanz: 10 Jahre nach dem Handelsgesetzbuch.
            """)
        #expect(!made.contains { ["Buchführung", "Erdoberfläche", "Inventar"].contains($0.answer) }, "\(made)")
        let english = cards("Repeat the division until the remainder is 0 in the last step.", .en)
        #expect(!english.contains { $0.answer == "0" })
    }

    @Test("an equation over a list asks what belongs to the term; a glossary answer is its first sentence")
    func equationsAndFirstSentences() {
        let made = cards(
            "Passiva = Mittelherkunft (woher kommt das Kapital?):\n- Eigenkapital\n- Fremdkapital\n\n"
                + "- Stratosphäre: bis ca. 50 km Höhe über dem Boden. Diese enthält die Ozonschicht.\n")
        #expect(made.contains { $0.question == "Was gehört zu „Passiva“?" })
        #expect(made.first { $0.question.contains("Stratosphäre") }?.answer == "Bis ca. 50 km Höhe über dem Boden")
    }

    @Test("a term with its citation: the term is defined, who proposed it and when is a card of its own")
    func citations() {
        let made = cards(
            "- Sector model (Hoyt, 1939): land uses grow in wedges along transport routes.\n"
                + "- New Urbanism (from the 1980s): walkable neighbourhoods, mixed use, public transport.\n", .en)
        #expect(made.contains { $0.question == "Who proposed “Sector model”, and when?" && $0.answer == "Hoyt, 1939" })
        #expect(made.contains { $0.question == "What does “Sector model” mean?" })
        #expect(!made.contains { $0.answer == "from the 1980s" })
        let german = cards("Bid-Rent-Theorie (Alonso, 1964): der Bodenpreis sinkt mit der Entfernung vom Zentrum.")
        #expect(german.contains { $0.question == "Von wem stammt „Bid-Rent-Theorie“, und wann?" })
    }

    @Test("a label of an aspect is asked under its heading; a cited study for what it showed")
    func labelQuestions() {
        let made = cards(
            "## Ablauforganisation\n\nZiele: kurze Durchlaufzeiten, hohe Auslastung, Termintreue.\n\n"
                + "## Bystander\n\nHauptgrund: Verantwortungsdiffusion in der Gruppe.")
        #expect(
            made.map(\.question) == ["Ablauforganisation: Was sind die Ziele?", "Bystander: Was ist der Hauptgrund?"])
        let english = cards(
            "## Bystander effect\n\nDarley & Latané (1968): the more bystanders are present, the less likely anyone helps.\n"
                + "Main reason: diffusion of responsibility.", .en)
        #expect(
            english.map(\.question) == [
                "What did Darley & Latané (1968) show?", "Bystander effect: What is the main reason?",
            ])
        // Under a course's title line an aspect has no subject to ask about.
        #expect(cards("PSY 120 – Week 5\n\nGoals: know the main findings, apply them.", .en).isEmpty)
    }

    @Test("a note's labels are not blanked; what leans on the sentence before gives no gap (classes 2 and 8)")
    func clozes() {
        let made = cards(
            """
            Die Republik begann mit der Vertreibung des letzten Königs Tarquinius Superbus im Jahr 509 v. Chr. durch den Adel.
            Danach war das Wort rex in Rom praktisch ein Schimpfwort für jeden Politiker.
            Ihr Ende setzt man meist 27 v. Chr. an, als Octavian den Ehrennamen Augustus erhält.
            Merke: Beide Prinzipien sollten verhindern, dass ein Einzelner zu mächtig wird.
            Merke: Die angeborene Abwehr reagiert beim zweiten Kontakt genauso wie beim ersten.
            """)
        #expect(!made.contains { $0.question.contains("Danach") || $0.question.contains("Ihr Ende") })
        #expect(!made.contains { $0.question.contains("Beide") })
        #expect(!made.contains { $0.question.contains("Merke") })
        #expect(!made.contains { $0.answer == "Kontakt" || $0.answer == "Prinzipien" })
        #expect(made.contains { $0.answer == "509" })
    }

    @Test("two German nouns in a row are no single gap (defect class 6); an adjective's name is")
    func germanRuns() {
        let made = cards(
            "Die Ablauforganisation legt fest, in welcher zeitlichen und räumlichen Reihenfolge Aufgaben erledigt werden."
        )
        #expect(!made.contains { $0.answer == "Reihenfolge Aufgaben" })
        let war = cards("Der Westfälische Frieden beendete den Dreißigjährigen Krieg in weiten Teilen Europas.")
        #expect(war.contains { $0.answer == "Dreißigjährigen Krieg" })
    }

    @Test("citation years and authors are no gaps; a subject is a noun, not a pronoun or an adverb")
    func citationsAndSubjects() {
        let made = cards(
            """
            Fundamental attribution error (Ross, 1977): when explaining other people's behaviour we overestimate dispositional causes.
            Darley & Latané (1968): the more bystanders are present, the less likely any one person is to help.
            It's weaker in collectivist cultures (Morris & Peng, 1994).
            Used in optical fibres and binocular prisms for signal transport.
            Heavily criticised on ethical grounds, the study changed the rules for later experiments.
            """, .en)
        #expect(!made.contains { ["1977", "1968", "1994", "Latané"].contains($0.answer) }, "\(made)")
        #expect(!made.contains { $0.question.hasPrefix("What does It") || $0.question.contains("used in") })
        #expect(!made.contains { $0.question.contains("heavily") })
    }

    @Test("an answer keeps to its term: a second term's explanation goes (class 7); symbols keep their case")
    func answers() {
        let made = cards(
            """
            - Real image: light rays actually converge there and it can be projected. Virtual image: rays only appear to come from it.
            - Converging lens: f > 0. Diverging (concave): f < 0.
            - Stomach acid: pH 1–2, kills most swallowed germs.
            """, .en)
        #expect(made.first { $0.question.contains("Real image") }?.answer.contains("Virtual") == false)
        // A sign alone is no answer the term's name would cue.
        #expect(!made.contains { $0.question.contains("Converging") })
        #expect(made.first { $0.question.contains("Stomach acid") }?.answer.hasPrefix("pH 1–2") == true)
        // A label on the next line starts its own card even without a full stop before it.
        let lines = cards(
            "Thin lens equation: 1/f = 1/d_o + 1/d_i\nMagnification: m = −d_i / d_o, enlarged when above one.", .en)
        #expect(lines.first { $0.question.contains("Thin lens") }?.answer == "1/f = 1/d_o + 1/d_i")
        #expect(lines.contains { $0.question == "What does “Magnification” mean?" })
        // A note's subject without its article gets it back; "lens" is no verb.
        let eye = cards("A converging lens focuses light.\n\nLens adjusts the focus via the ciliary muscle.", .en)
        #expect(eye.map(\.question) == ["What does the lens do?"])
        #expect(CardText.capitalizedFirst("a set of rules") == "A set of rules")
        #expect(CardText.capitalizedFirst("n₁ sin θ₁ = n₂ sin θ₂") == "n₁ sin θ₁ = n₂ sin θ₂")
        #expect(CardText.capitalizedFirst("mehr als sieben") == "Mehr als sieben")
    }

    @Test("asides, questions and intensifiers are no terms; a passive or a place is no definition (class 8)")
    func asides() {
        let german = cards("Einstieg: Warum überhaupt Lehen? Im Frankenreich fehlte Geld, also wurde Land vergeben.")
        #expect(!german.contains { $0.question.contains("Einstieg") }, "\(german)")
        let english = cards(
            """
            Recap: a find without a date is nearly useless. Big split is between relative dating and absolute dating.

            Very handy: the terminus post quem (TPQ). E.g. a coin minted in AD 200 in a floor layer dates the floor.

            Dates are given as BP ("before present", present = AD 1950).

            Don't forget kairos – the right moment.
            """, .en)
        #expect(
            !english.contains {
                $0.question.contains("Recap") || $0.question.contains("Very handy") || $0.question.contains("big split")
                    || $0.question.contains("E.g.") || $0.question.contains("Don't") || $0.question == "What are dates?"
            }, "\(english)")
    }

    @Test("a full stop inside brackets ends no sentence; a cut-open bracket is never an answer")
    func brackets() {
        let made = cards("- Drahtwiderstand: R = ρ · l / A (ρ = spez. Widerstand, l = Länge, A = Querschnitt)")
        #expect(
            made.map(\.answer).contains("R = ρ · l / A (ρ = spez. Widerstand, l = Länge, A = Querschnitt)"), "\(made)")
        #expect(TextStructure.sentences(of: "Er wirkt (vgl. Abb. 3) schnell. Dann folgt mehr.").count == 2)
        // A stray bracket that never closes does not swallow the text after it.
        #expect(TextStructure.sentences(of: "Ein Satz (ohne Ende. Noch einer. Und ein dritter.").count == 3)
        for card in cards(
            "Mill übernimmt das Nutzenprinzip (Utilitarianism, 1861), korrigiert Bentham aber an einer zentralen Stelle."
        ) {
            #expect(card.answer.filter { $0 == "(" }.count == card.answer.filter { $0 == ")" }.count, "\(card)")
        }
    }

    @Test("a gap's sentence that leans on the one before, or a fragment, gives no cloze (classes 2 and 4)")
    func leaningClozes() {
        let made = cards(
            """
            Das ist praktisch ein Kurzschluss – die Sicherung fliegt sofort heraus. Bei Bischöfen war genau das \
            heikel – darum ging es ja im Investiturstreit.
            """)
        #expect(!made.contains { $0.kind == .cloze }, "\(made)")
        let english = cards(
            "Developed by Willard Libby in the late 1940s; Nobel Prize in Chemistry 1960 for the method.", .en)
        #expect(!english.contains { $0.question.hasPrefix("Fill in the gap: Developed") }, "\(english)")
    }

    @Test("labels under a person or a criticism are asked as such, not as definitions (class 3)")
    func framedLabels() {
        let made = cards(
            """
            ## 1. Jeremy Bentham (1748–1832)
            - Hauptwerk: An Introduction to the Principles of Morals and Legislation (1789)
            - Maßstab: „das größte Glück der größten Zahl“

            5. Kritik
            - Messproblem: Glück verschiedener Menschen lässt sich kaum vergleichen oder addieren.
            - Rechte des Einzelnen: ein Chirurg könnte einen Besucher töten, um fünf zu retten. Das wirkt falsch.

            4. Entwicklung und Probleme
            - Felonie: schwerer Treuebruch, der Vasall verliert sein Lehen.
            - Erblichkeit: Lehen wurden immer öfter vererbt; Konrad II. sicherte 1037 die Erblichkeit zu.
            """)
        let questions = Dictionary(made.map { ($0.question, $0.answer) }, uniquingKeysWith: { first, _ in first })
        #expect(
            questions["Jeremy Bentham: Hauptwerk?"]
                == "An Introduction to the Principles of Morals and Legislation (1789)")
        #expect(questions["Kritik: Was besagt „Messproblem“?"] != nil, "\(made)")
        #expect(
            questions["Kritik: Was besagt „Rechte des Einzelnen“?"]
                == "Ein Chirurg könnte einen Besucher töten, um fünf zu retten")
        #expect(questions["Was bedeutet „Felonie“?"] == "Schwerer Treuebruch, der Vasall verliert sein Lehen")
        #expect(questions["Was bedeutet „Erblichkeit“?"] == "Lehen wurden immer öfter vererbt")
        #expect(!made.contains { $0.question.contains("„Hauptwerk“") || $0.question.contains("„Maßstab“") })
        let composers = cards(
            """
            ## Ludwig van Beethoven (1770–1827)
            - Spätwerk: die späten Streichquartette und die Neunte Sinfonie

            ## Die Jahre (1914–1918)
            - Kriegswirtschaft: Rationierung von Lebensmitteln und Rohstoffen
            """)
        #expect(composers.map(\.question).contains("Ludwig van Beethoven: Spätwerk?"), "\(composers)")
        #expect(!composers.contains { $0.question.hasPrefix("Die Jahre:") }, "\(composers)")
    }

    @Test("a numbered line above its own list or above prose is a heading")
    func numberedHeadings() {
        let blocks = TextStructure.blocks(
            of: [
                SourcePage(
                    number: 1,
                    text: """
                        Intro text here.

                        3. Vier Teilprinzipien
                        1. Folgenprinzip: Handlungen zählen nach Folgen.
                        2. Nutzenprinzip: Maßstab ist der Nutzen.

                        3. Action potential
                        All-or-none: once the threshold is reached, a full AP fires.

                        1. erster Schritt
                        2. zweiter Schritt
                        """)
            ])
        let headings = blocks.filter { $0.kind == .heading }.map(\.text)
        #expect(headings == ["Vier Teilprinzipien", "Action potential"], "\(blocks)")
    }
}

import Testing

@testable import FlashcardsCore

@Suite("Text to cards: questions from clause structure")
struct TextToCardsClauseTests {
    func facts(_ text: String, _ language: DocumentLanguage) -> [[String]] {
        TextToCards.makeCards(
            text: text, options: TextToCardsOptions(makesClozes: false, makesFacts: true, language: language)
        ).map { [$0.question, $0.answer] }
    }

    @Test("English causes, consequences and purposes are asked besides the sentence's other card")
    func englishCauses() {
        #expect(
            facts(
                "When sea otters disappeared from the coast, sea urchins multiplied and destroyed the kelp forests.",
                .en)
                == [
                    [
                        "What happened when sea otters disappeared from the coast?",
                        "Sea urchins multiplied and destroyed the kelp forests",
                    ]
                ])
        #expect(
            facts("Plants and algae are called producers because they build organic matter.", .en)
                == [["Why are plants and algae called producers?", "Because they build organic matter"]])
        // The "when" card and the "why" card of one sentence are two facts.
        let wall = facts("The Berlin Wall was built in August 1961 to stop East Germans from fleeing.", .en)
        #expect(wall.contains(["When was the Berlin Wall built?", "In August 1961"]))
        #expect(wall.contains(["Why was the Berlin Wall built?", "To stop East Germans from fleeing"]))
        // "because of" is a phrase, not a clause.
        #expect(
            !facts("Heat is energy that flows from one body to another because of a temperature gap.", .en).contains {
                $0[0].hasPrefix("Why") || $0[0].contains("reason")
            })
    }

    @Test("terms in relative clauses, appositions and 'This is …' after the sentence naming them")
    func englishTerms() {
        #expect(
            facts(
                "Typical techniques include constant folding, where an expression is replaced by its value, "
                    + "and dead code elimination, which removes code that can never run.", .en)
                == [
                    ["What happens in constant folding?", "An expression is replaced by its value"],
                    ["What does dead code elimination do?", "Removes code that can never run"],
                ])
        #expect(
            facts(
                "The modern law goes back to Donoghue v Stevenson, a case decided by the House of Lords in 1932.", .en
            )
            .contains(["What is Donoghue v Stevenson?", "A case decided by the House of Lords in 1932"]))
        let table = facts(
            "Throughout these phases the compiler maintains a symbol table. This is a data structure that stores "
                + "every identifier. It is usually implemented as a hash table, because lookups have to be fast.", .en)
        #expect(table.contains(["What is a symbol table?", "A data structure that stores every identifier"]))
        #expect(
            table.contains([
                "Why is the symbol table usually implemented as a hash table?", "Because lookups have to be fast",
            ])
        )
    }

    @Test("what a subject does, in English, when no other rule used the sentence; never of a non-subject")
    func englishPredicates() {
        #expect(
            facts("The parser then checks whether the tokens follow the grammar of the language.", .en)
                == [["What does the parser do?", "Checks whether the tokens follow the grammar of the language"]])
        #expect(
            facts("Decomposers such as fungi and bacteria break down dead material in the soil.", .en)
                == [["What do decomposers do?", "Break down dead material in the soil"]])
        #expect(
            facts("A compiler is usually divided into a front end and a back end.", .en)
                == [["Into what is a compiler divided?", "A front end and a back end"]])
        #expect(
            facts("Unlike criminal law, which punishes offenders, tort law aims to compensate the victim.", .en)
                == [["What does tort law aim to do?", "To compensate the victim"]])
        #expect(
            facts("The crisis ended when Khrushchev agreed to withdraw the missiles.", .en)
                == [["How did the crisis end?", "When Khrushchev agreed to withdraw the missiles"]])
        // A preposition, an adjective, a plural noun before an auxiliary, a relative pronoun: no subject.
        for sentence in [
            "Throughout these phases the compiler maintains the tables.",
            "Political scientists distinguish two main families of systems.",
            "The sack of Rome by imperial troops in 1527 is seen as the end.",
            "Which sounds count as phonemes differs from language to language.",
            "In this lecture we look at the main results of the war.",
        ] {
            #expect(!facts(sentence, .en).contains { $0[0].hasPrefix("What do") }, "\(sentence)")
        }
    }

    @Test("German causes, so-called terms, passives, places and what a subject does")
    func german() {
        #expect(
            facts("Da Luther sich weigerte zu widerrufen, wurde er 1521 vom Papst gebannt.", .de)
                == [["Warum wurde Luther 1521 vom Papst gebannt?", "Weil Luther sich weigerte zu widerrufen"]])
        #expect(
            facts("Dass sich die neuen Ideen so schnell verbreiteten, lag vor allem am Buchdruck.", .de)
                == [["Woran lag es, dass sich die neuen Ideen so schnell verbreiteten?", "Am Buchdruck"]])
        #expect(
            facts("Jeweils drei Basen, ein sogenanntes Codon, stehen für eine Aminosäure.", .de)
                == [["Was ist ein Codon?", "Jeweils drei Basen stehen für eine Aminosäure"]])
        #expect(
            facts("Das Grundgesetz trat 1949 in Kraft. Es wurde vom Parlamentarischen Rat in Bonn ausgearbeitet.", .de)
                .contains(["Von wem wurde das Grundgesetz in Bonn ausgearbeitet?", "Vom Parlamentarischen Rat"]))
        #expect(
            facts("Ein Router ist ein Gerät, das Pakete weiterleitet. Er arbeitet auf der Vermittlungsschicht.", .de)
                .contains(["Wo arbeitet der Router?", "Auf der Vermittlungsschicht"]))
        #expect(
            facts("Zuständig ist das Bundesverfassungsgericht, das seinen Sitz in Karlsruhe hat.", .de)
                == [["Wo hat das Bundesverfassungsgericht seinen Sitz?", "In Karlsruhe"]])
        #expect(
            facts("Der Parser prüft dann, ob die Tokenfolge der Grammatik folgt.", .de)
                == [["Was prüft der Parser?", "Ob die Tokenfolge der Grammatik folgt"]])
        #expect(
            facts("Eine IPv4-Adresse ist 32 Bit lang und wird als vier Dezimalzahlen geschrieben.", .de).first?.first
                == "Wie lang ist eine IPv4-Adresse?")
        // Sentence adverbs and pronouns are no subjects; a preposition is no verb.
        for sentence in [
            "Außerdem schützt die Ewigkeitsklausel die Grundsätze der Verfassung.",
            "Wer den Glauben seines Fürsten nicht annehmen wollte, musste auswandern.",
            "Handout für den Kurs Englisch im Wintersemester.",
            "Darunter liegt die weiche Asthenosphäre des Erdmantels.",
        ] {
            #expect(facts(sentence, .de).isEmpty, "\(sentence)")
        }
    }
}

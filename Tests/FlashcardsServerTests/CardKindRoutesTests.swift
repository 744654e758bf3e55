import FlashcardsAPI
import FlashcardsClient
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// Card kinds (issue 20) through `/api/v1` and the original API: made, shown, edited as notes,
/// asked in the quiz and in Write, kept by backups and copies.
@Suite("Card kinds: reversed, cloze, true/false, multiple choice, fill-in-the-blank")
struct CardKindRoutesTests {
    private static func invalidMessage(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch FlashcardsError.invalid(let error) {
            return error?.message ?? "(no message)"
        } catch {
            return "unexpected: \(error)"
        }
    }

    @Test(
        "a reversed pair and a cloze are notes of several cards; an edit changes them all",
        arguments: TestDatabase.available)
    func notes(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Erdkunde", color: "#2563EB")
                let pair = try await client.createCard(in: stack.id, question: "Hund", answer: "dog", kind: .reversed)
                #expect(pair.kind == .reversed && pair.variant == 0 && pair.noteId != nil)
                #expect(pair.shown == nil || pair.shown?.question == "Hund")
                var cards = try await client.cards(in: stack.id).items
                #expect(cards.count == 2)
                let back = try #require(cards.first { $0.variant == 1 })
                #expect(back.noteId == pair.noteId && back.shown?.question == "dog" && back.shown?.answer == "Hund")
                // Editing one side edits the pair.
                _ = try await client.updateCard(back.id, in: stack.id, answer: "Hündin")
                #expect(try await client.card(pair.id, in: stack.id).answer == "Hündin")

                let cloze = try await client.createCard(
                    in: stack.id, question: "{{c1::Paris}} liegt an der {{c2::Seine::Fluss}}.", answer: "",
                    kind: .cloze)
                #expect(cloze.variant == 1 && cloze.shown?.question == "[…] liegt an der Seine.")
                #expect(cloze.shown?.answer == "Paris liegt an der Seine." && cloze.shown?.expected == "Paris")
                cards = try await client.cards(in: stack.id).items.filter { $0.noteId == cloze.noteId }
                #expect(cards.compactMap(\.variant).sorted() == [1, 2])
                let second = try #require(cards.first { $0.variant == 2 })
                #expect(second.shown?.question == "Paris liegt an der [Fluss].")

                // Learn gap 1, then edit: gap 2 goes with its card, gap 3 comes as a new card,
                // gap 1 keeps its progress.
                let next = try await client.nextCard(in: stack.id)
                #expect(next.card?.kind != nil)
                _ = try await client.rate(cloze.id, in: stack.id, rating: .good)
                let edited = try await client.updateCard(
                    second.id, in: stack.id, question: "{{c1::Paris}} ist die Hauptstadt von {{c3::Frankreich}}.")
                #expect(edited.variant == 1 && edited.id == cloze.id && edited.reviewCount == 1)
                cards = try await client.cards(in: stack.id).items.filter { $0.noteId == cloze.noteId }
                #expect(cards.compactMap(\.variant).sorted() == [1, 3])
                #expect(cards.allSatisfy { $0.question.contains("Frankreich") })
                #expect(cards.first { $0.variant == 3 }?.shown?.question == "Paris ist die Hauptstadt von […].")
                #expect(cards.first { $0.variant == 3 }?.reviewCount == 0)
                // Editing the card whose own gap goes: the new gap's card has the new text, and
                // the answer is the note's first card.
                let third = try #require(cards.first { $0.variant == 3 })
                let moved = try await client.updateCard(
                    third.id, in: stack.id, question: "{{c1::Paris}} und {{c2::Lyon}} liegen in Frankreich.")
                #expect(moved.id == cloze.id && moved.reviewCount == 1)
                let after = try await client.cards(in: stack.id).items.filter { $0.noteId == cloze.noteId }
                #expect(after.compactMap(\.variant).sorted() == [1, 2])
                #expect(after.allSatisfy { $0.question == "{{c1::Paris}} und {{c2::Lyon}} liegen in Frankreich." })
                #expect(after.first { $0.variant == 2 }?.shown?.expected == "Lyon")
                _ = try await client.updateCard(
                    cloze.id, in: stack.id, question: "{{c1::Paris}} ist die Hauptstadt von {{c3::Frankreich}}.")
                cards = try await client.cards(in: stack.id).items.filter { $0.noteId == cloze.noteId }
                // A cloze needs a gap, and keeps every card when an edit is refused.
                let refused = await Self.invalidMessage {
                    _ = try await client.updateCard(cloze.id, in: stack.id, question: "ohne Lücke")
                }
                #expect(refused?.contains("Lücke") == true)
                #expect(try await client.cards(in: stack.id).items.filter { $0.noteId == cloze.noteId }.count == 2)

                // The original API shows the sides: the gap hidden on the front.
                let compat = try await client.compat.card(
                    stackId: stack.id.uuidString.lowercased(), cardId: cloze.id.uuidString.lowercased())
                #expect(compat.question == "[…] ist die Hauptstadt von Frankreich.")
                // Sent back unchanged (as the original app saves), the cloze stays a cloze.
                _ = try await client.compat.updateCard(
                    stackId: stack.id.uuidString.lowercased(), cardId: cloze.id.uuidString.lowercased(),
                    question: compat.question, answer: compat.answer)
                #expect(try await client.card(cloze.id, in: stack.id).kind == .cloze)
            }
        }
    }

    @Test("true/false and multiple choice in the quiz; a gap and a blank in Write", arguments: TestDatabase.available)
    func studyModes(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Biologie", color: "#059669")
                let statement = try await client.createCard(
                    in: stack.id, question: "Wale sind Fische.", answer: "false", kind: .trueFalse)
                #expect(statement.shown?.answer == "Falsch")
                var quiz = try await client.quiz(in: stack.id)
                #expect(quiz.card?.id == statement.id && quiz.choices == ["Wahr", "Falsch"] && quiz.correctIndex == 1)
                _ = try await client.rate(statement.id, in: stack.id, rating: .good, mode: .quiz)

                let choice = try await client.createCard(
                    in: stack.id, question: "Welches Organ pumpt Blut?", answer: "Herz",
                    kind: .multipleChoice, choices: ["Lunge", "Leber", "Niere", "Milz"])
                #expect(choice.choices == ["Lunge", "Leber", "Niere", "Milz"])
                quiz = try await client.quiz(in: stack.id)
                #expect(quiz.card?.id == choice.id && quiz.choices.count == 4)
                #expect(quiz.choices[quiz.correctIndex ?? 0] == "Herz")
                #expect(quiz.choices.allSatisfy { ["Herz", "Lunge", "Leber", "Niere", "Milz"].contains($0) })
                _ = try await client.rate(choice.id, in: stack.id, rating: .good, mode: .quiz)
                // Its choices change with an edit and are checked like at creation.
                let narrowed = try await client.updateCard(choice.id, in: stack.id, choices: ["Lunge"])
                #expect(narrowed.choices == ["Lunge"])
                #expect(
                    await Self.invalidMessage {
                        _ = try await client.updateCard(choice.id, in: stack.id, choices: ["herz"])
                    } != nil)

                let cloze = try await client.createCard(
                    in: stack.id, question: "Die {{c1::Mitochondrien}} sind die Kraftwerke der Zelle.", answer: "",
                    kind: .cloze)
                #expect(try await client.check("Mitochondrien", for: cloze.id, in: stack.id).verdict == .correct)
                let blank = try await client.createCard(
                    in: stack.id, question: "Pflanzen betreiben ___ mit Licht.", answer: "Photosynthese",
                    kind: .fillBlank)
                #expect(blank.shown?.answer == "Pflanzen betreiben Photosynthese mit Licht.")
                let typo = try await client.check("Fotosynthese", for: blank.id, in: stack.id)
                #expect(typo.verdict != .correct && typo.expected == "Photosynthese")
            }
        }
    }

    @Test("each kind refuses what it cannot be made of, with a message", arguments: TestDatabase.available)
    func refusals(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Fehler", color: "#2563EB")
                let attempts: [(CardKind, String, String, [String]?)] = [
                    (.cloze, "ohne Lücke", "", nil),
                    (.trueFalse, "Satz", "vielleicht", nil),
                    (.multipleChoice, "Frage", "a", nil),
                    (.multipleChoice, "Frage", "a", ["a"]),
                    (.fillBlank, "ohne Lücke", "x", nil),
                    (.basic, "Frage", "Antwort", ["c"]),
                    (.basic, "Frage", "", nil),
                ]
                for (kind, question, answer, choices) in attempts {
                    let message = await Self.invalidMessage {
                        _ = try await client.createCard(
                            in: stack.id, question: question, answer: answer, kind: kind, choices: choices)
                    }
                    #expect(message != nil && message?.hasPrefix("unexpected") == false, "\(kind) \(question)")
                }
                #expect(try await client.cards(in: stack.id).total == 0, "nothing half-written")
            }
        }
    }

    @Test("backups and copies keep the kinds; a copy's notes are its own", arguments: TestDatabase.available)
    func backupAndCopy(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            try await withRunningServer(app) { ada, url in
                try await ada.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await ada.createStack(name: "Gemischt", color: "#2563EB")
                let pair = try await ada.createCard(in: stack.id, question: "Katze", answer: "cat", kind: .reversed)
                _ = try await ada.createCard(
                    in: stack.id, question: "{{c1::a}} {{c2::b}}", answer: "Extra", kind: .cloze)
                _ = try await ada.createCard(
                    in: stack.id, question: "2 + 2?", answer: "4", kind: .multipleChoice, choices: ["3", "5"])
                func summary(_ cards: [CardDTO]) -> [String] {
                    cards.map { "\($0.kind?.rawValue ?? "-") \($0.variant ?? 0) \($0.choices ?? []) \($0.question)" }
                        .sorted()
                }
                let original = summary(try await ada.cards(in: stack.id).items)
                #expect(original.count == 5)

                let grace = FlashcardsClient(baseURL: url)
                try await grace.signup(name: "Grace", mail: "grace@example.org", password: "correct horse")
                _ = try await grace.restoreAccount(try await ada.backup())
                let restoredStack = try #require(try await grace.stacks().first)
                let restored = try await grace.cards(in: restoredStack.id).items
                #expect(summary(restored) == original)
                let restoredPair = restored.filter { $0.kind == .reversed }
                #expect(restoredPair.count == 2 && Set(restoredPair.map(\.noteId)).count == 1)
                #expect(restoredPair.first?.noteId != pair.noteId, "another account's notes get new ids")

                let link = try await ada.share(stack.id)
                let carol = FlashcardsClient(baseURL: url)
                try await carol.signup(name: "Carol", mail: "carol@example.org", password: "correct horse")
                let copy = try await carol.copySharedStack(token: link.token)
                let copied = try await carol.cards(in: copy.id).items
                #expect(summary(copied) == original)
                // Editing the copy's pair leaves Ada's alone.
                let copiedPair = try #require(copied.first { $0.kind == .reversed && $0.variant == 0 })
                _ = try await carol.updateCard(copiedPair.id, in: copy.id, answer: "Kater")
                #expect(try await ada.card(pair.id, in: stack.id).answer == "cat")
                #expect(
                    try await carol.cards(in: copy.id).items.filter { $0.kind == .reversed }.allSatisfy {
                        $0.answer == "Kater"
                    })
            }
        }
    }

    @Test("a draft with a blank becomes a fill-in-the-blank card", arguments: TestDatabase.available)
    func generatedBlank(db: TestDatabase) async throws {
        try await withApp(db, adjust: workers(1)) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Biologie", color: "#059669")
                let job = try await client.startGeneration(
                    in: stack.id,
                    GenerationRequestDTO(
                        text: "Das Mitochondrium ist das Kraftwerk der Zelle, in dem ATP gebildet wird.\n"
                            + "Das Ribosom ist der Ort, an dem Proteine aus Aminosäuren gebildet werden.\n"))
                _ = try await client.waitForJob(job.id)
                let drafts = try await client.drafts(in: stack.id)
                let definition = try #require(drafts.first { $0.alternative?.question.contains("___") == true })
                #expect(try definition.cardKind == .basic)
                // The learner switches to the cloze the generator offered, as the draft editor does.
                let alternative = try #require(definition.alternative)
                let switched = try await client.updateDraft(
                    definition.id, in: stack.id, question: alternative.question, answer: alternative.answer)
                #expect(try switched.cardKind == .fillBlank)
                _ = try await client.acceptDrafts(in: stack.id, ids: [definition.id])
                let card = try #require(try await client.cards(in: stack.id).items.first)
                #expect(card.kind == .fillBlank && card.answer == alternative.answer)
                #expect(card.shown?.answer.contains(alternative.answer) == true)
                #expect(try await client.check(alternative.answer, for: card.id, in: stack.id).verdict == .correct)
            }
        }
    }
}

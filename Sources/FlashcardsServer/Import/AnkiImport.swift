import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation

/// An Anki package as stacks of cards with their review history: one stack per deck with cards
/// (subdecks flattened, named by their path `Biologie::Zellen`), each card checked by the rules
/// of a typed one, its answers from `revlog` as FSRS ratings.
struct AnkiImport: Sendable {
    typealias Card = ImportWriter.Card
    typealias Deck = ImportWriter.Deck

    var decks: [Deck] = []
    var problems: [ImportProblem] = []
    var rejected = 0
    var notes = 0
    var reviews: Int { decks.reduce(0) { $0 + $1.cards.reduce(0) { $0 + $1.reviews.count } } }
    var cardCount: Int { decks.reduce(0) { $0 + $1.cards.count } }
    var mediaCount = 0

    init(_ package: AnkiPackage, problemLimit: Int = 20) {
        mediaCount = package.mediaCount
        notes = package.notes.count
        var reviewsByCard: [Int64: [AnkiPackage.Review]] = [:]
        for review in package.reviews { reviewsByCard[review.cardId, default: []].append(review) }
        var byDeck: [Int64: [Card]] = [:]
        var refusedNotes = Set<Int64>()
        func refuse(_ problem: ImportProblem, note: Int64) {
            guard refusedNotes.insert(note).inserted else { return }
            rejected += 1
            if problems.count < problemLimit { problems.append(problem) }
        }
        for card in package.cards {
            guard let note = package.notes[card.noteId] else { continue }
            guard let type = package.noteTypes[note.typeId] else {
                refuse(
                    ImportProblem(
                        .other(code: "unknown_note_type", message: "Der Notiztyp der Notiz fehlt im Paket."),
                        note: note.id), note: note.id)
                continue
            }
            let deck = package.decks[card.deckId] ?? "Anki"
            let sides = AnkiNotes.sides(of: type, fields: note.fields, ord: card.ord, tags: note.tags, deck: deck)
            do {
                let imported: CardImport.Card
                let gapNumbers = sides.cloze.map { Cloze.numbers(in: $0.text) } ?? []
                if let cloze = sides.cloze, gapNumbers.contains(card.ord + 1), gapNumbers.count <= Cloze.maximumGaps {
                    // A cloze note's cards stay one note of our cloze cards, each with its gap.
                    var made = try CardImport.card(
                        question: cloze.text, answer: cloze.extra, hint: sides.hint,
                        tags: note.tags.joined(separator: " "), note: note.id, kind: .cloze)
                    made.variant = card.ord + 1
                    made.noteId = "anki-\(note.id)"
                    imported = made
                } else {
                    imported = try CardImport.card(
                        question: sides.question, answer: sides.answer, hint: sides.hint,
                        tags: note.tags.joined(separator: " "), note: note.id)
                }
                byDeck[card.deckId, default: []].append(Card(card: imported, reviews: reviewsByCard[card.id] ?? []))
            } catch {
                refuse(error, note: note.id)
            }
        }
        decks = byDeck.map { Deck(name: package.decks[$0.key] ?? "Anki", cards: $0.value) }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        if cardCount == 0, problems.isEmpty { problems = [ImportProblem(.noCards)] }
        if cardCount > CardImport.maximumCards { problems = [ImportProblem(.tooManyCards)] }
    }

    /// The preview's summary of the decks.
    var deckDTOs: [ImportDeckDTO] {
        decks.map {
            ImportDeckDTO(name: $0.name, cards: $0.cards.count, reviews: $0.cards.reduce(0) { $0 + $1.reviews.count })
        }
    }
}

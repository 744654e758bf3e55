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
    /// The ids of the images the cards show (of those `images` offered).
    var imagesShown: Set<String> = []

    /// The cards of `package`. `images` maps media files to the ids of the images they became
    /// (`AnkiImages`): a card showing one is a rich card (`![description](image:<id>)` where the
    /// `<img>` was, its text escaped to show as it is); any other `<img>` becomes its description.
    init(_ package: AnkiPackage, problemLimit: Int = 20, images: [String: String] = [:]) {
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
            let sides = AnkiNotes.sides(
                of: type, fields: note.fields, ord: card.ord, tags: note.tags, deck: deck, images: true)
            do {
                var imported: CardImport.Card
                let gapNumbers = sides.cloze.map { Cloze.numbers(in: $0.text) } ?? []
                if let cloze = sides.cloze, gapNumbers.contains(card.ord + 1), gapNumbers.count <= Cloze.maximumGaps {
                    // A cloze note's cards stay one note of our cloze cards, each with its gap.
                    let texts = cardTexts([cloze.text, cloze.extra, sides.hint], package: package, images: images)
                    imported = try CardImport.card(
                        question: texts.texts[0] ?? "", answer: texts.texts[1] ?? "", hint: texts.texts[2],
                        tags: note.tags.joined(separator: " "), note: note.id, kind: .cloze)
                    imported.variant = card.ord + 1
                    imported.noteId = "anki-\(note.id)"
                    if texts.rich { imported.format = .markdown }
                } else {
                    let texts = cardTexts([sides.question, sides.answer, sides.hint], package: package, images: images)
                    imported = try CardImport.card(
                        question: texts.texts[0] ?? "", answer: texts.texts[1] ?? "", hint: texts.texts[2],
                        tags: note.tags.joined(separator: " "), note: note.id)
                    if texts.rich { imported.format = .markdown }
                }
                if imported.format == .markdown {
                    for text in [imported.question, imported.answer, imported.hint ?? ""] {
                        imagesShown.formUnion(RichText.imageIds(text))
                    }
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

    /// A card's texts with their image placeholders resolved: rich when one of them shows an
    /// image. A text that would be empty without its images shows `[Bild]`.
    private func cardTexts(_ texts: [String?], package: AnkiPackage, images: [String: String]) -> (
        texts: [String?], rich: Bool
    ) {
        func imageId(_ source: String) -> String? { package.mediaFile(for: source).flatMap { images[$0] } }
        let rich = texts.contains { text in
            guard let text else { return false }
            return AnkiNotes.imageSources(text).contains { imageId($0) != nil }
        }
        return (
            texts.map { text in
                text.map { text in
                    let converted = AnkiNotes.cardText(text, rich: rich, imageId: imageId)
                    let hadImage = !AnkiNotes.imageSources(text).isEmpty
                    guard hadImage, converted.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                        return converted
                    }
                    return rich ? RichText.escaped("[Bild]") : "[Bild]"
                }
            }, rich
        )
    }

    /// The preview's summary of the decks.
    var deckDTOs: [ImportDeckDTO] {
        decks.map {
            ImportDeckDTO(name: $0.name, cards: $0.cards.count, reviews: $0.cards.reduce(0) { $0 + $1.reviews.count })
        }
    }
}

import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Fluent
import Foundation
import NIOPosix
import Vapor

/// A stack as a file to take elsewhere.
enum ExportService {
    /// The header of a CSV export: names the importer reads back (`DelimitedText.mapping(header:)`).
    static let csvHeader = ["Vorderseite", "Rückseite", "Hinweis", "Schlagwörter"]

    /// The stack's cards in creation order: CSV with a header and a byte order mark (Excel reads
    /// UTF-8 only with one), or TSV without a header (Quizlet and Anki take the rows as they are).
    static func delimited(_ stack: StackModel, format: ExportFormat, store: any StudyStore) async throws -> Response {
        let rows = try await store.cardTexts(ofStack: stack.id!)
            .map { row in
                let sides = try row.sides
                return [sides.question, sides.answer, row.hint ?? "", row.tags ?? ""]
            }
        let csv = format == .csv
        let text =
            csv
            ? DelimitedText.text([csvHeader] + rows, separator: ",", byteOrderMark: true)
            : DelimitedText.text(rows, separator: "\t")
        let response = Response(status: .ok, body: .init(string: text))
        response.headers.contentType = HTTPMediaType(
            type: "text", subType: csv ? "csv" : "tab-separated-values", parameters: ["charset": "utf-8"])
        response.headers.replaceOrAdd(
            name: .contentDisposition, value: attachment(fileName: stack.name, extension: format.rawValue))
        return response
    }

    /// The stack as an Anki package: every card as a note with its scheduling state, and its counted
    /// reviews (undone ones left out) as Anki's review log.
    static func anki(
        _ stack: StackModel, scheduler: CardScheduler, store: any StudyStore, now: Date, threadPool: NIOThreadPool
    ) async throws -> Response {
        let db = store.db
        let cards = try await CardModel.query(on: db).filter(\.$stackId == stack.id!).sort(\.$id).all()
        let logs = Dictionary(
            grouping: try await ReviewLogModel.query(on: db).filter(\.$stackId == stack.id!).all(), by: \.cardId)
        let exported = try cards.map { card in
            var schedule = CardSchedule.new(createdAt: card.createdAt)
            var reviews: [AnkiPackageWriter.Review] = []
            let durations = Dictionary(uniqueKeysWithValues: (logs[card.id!] ?? []).map { ($0.id!, $0.durationMs) })
            for review in ReviewOrder.counted(try (logs[card.id!] ?? []).map { try $0.logged }) {
                let before = schedule
                scheduler.apply(review.rating, at: review.reviewedAt, to: &schedule, cardID: Int64(card.id!))
                func interval(_ state: CardSchedule, from time: Date) -> Int {
                    state.state == .review
                        ? max(1, Int((state.due.timeIntervalSince(time) / 86_400).rounded()))
                        : -max(1, Int(state.due.timeIntervalSince(time)))
                }
                let type =
                    switch before.state {
                    case .new, .learning: 0
                    case .review: 1
                    case .relearning: 2
                    }
                reviews.append(
                    AnkiPackageWriter.Review(
                        time: review.reviewedAt, ease: ankiEase(review.rating),
                        durationMs: (durations[review.id] ?? nil) ?? 0,
                        type: type, interval: interval(schedule, from: review.reviewedAt),
                        lastInterval: before.lastReviewedAt.map { interval(before, from: $0) } ?? 0))
            }
            // Each card goes out as a note of its sides (Anki's cloze and reversed note types are not
            // written).
            let sides = try card.sides
            return AnkiPackageWriter.Card(
                question: sides.question, answer: sides.answer, hint: card.hint,
                tags: (card.tags ?? "").split(separator: " ").map(String.init), createdAt: card.createdAt,
                schedule: try card.schedule, reviews: reviews, format: try card.cardFormat)
        }
        // The images the rich cards show go along as media files named `<id>.<ext>`.
        let ids = exported.filter { $0.format == .markdown }.flatMap { card in
            [card.question, card.answer, card.hint ?? ""].flatMap(RichText.imageIds)
        }
        var seen: Set<String> = []
        let images = try await store.images.owned(ids.filter { seen.insert($0).inserted }, by: stack.userId)
        var names: [String: String] = [:]
        var media: [AnkiPackageWriter.MediaFile] = []
        for image in images {
            guard let type = ImageType.allCases.first(where: { $0.mediaType == image.mediaType }) else { continue }
            let id = image.id.uuidString.lowercased()
            names[id] = AnkiPackageWriter.mediaName(id: id, type: type)
            media.append(AnkiPackageWriter.MediaFile(name: names[id]!, data: Data(buffer: image.data)))
        }
        let data = try await AnkiPackageWriter.package(
            deck: stack.name, cards: exported, now: now, threadPool: threadPool, media: media, mediaNames: names)
        let response = Response(status: .ok, body: .init(data: data))
        response.headers.contentType = HTTPMediaType(type: "application", subType: "octet-stream")
        response.headers.replaceOrAdd(
            name: .contentDisposition, value: attachment(fileName: stack.name, extension: "apkg"))
        return response
    }

    /// Anki's ease of a rating: FSRS's four map one to one; the ladder's "Schwer" is a lapse (1),
    /// "Mittel" good (3), "Einfach" easy (4).
    static func ankiEase(_ rating: StudyRating) -> Int {
        switch rating {
        case .fsrs(let rating): rating.rawValue
        case .ladder(.hard): 1
        case .ladder(.medium): 3
        case .ladder(.easy): 4
        }
    }

    /// `attachment` with an ASCII file name and the real one in RFC 5987 form.
    static func attachment(fileName name: String, extension ext: String) -> String {
        let ascii = String(
            name.unicodeScalars.map {
                $0.isASCII && $0.value >= 0x20 && !"\"\\/;".unicodeScalars.contains($0) ? Character($0) : "_"
            })
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = "\(name).\(ext)".addingPercentEncoding(withAllowedCharacters: allowed) ?? "export.\(ext)"
        return "attachment; filename=\"\(ascii).\(ext)\"; filename*=UTF-8''\(encoded)"
    }
}

extension CardTextRow {
    /// The card's sides: a file has no card kinds, so each card goes out as the learner sees it.
    fileprivate var sides: CardSides {
        get throws {
            CardSides(
                kind: try storedValue(CardKind.self, kind, column: "cards.kind"), variant: variant,
                question: question, answer: answer,
                format: try storedValue(CardFormat.self, format, column: "cards.format"))
        }
    }
}

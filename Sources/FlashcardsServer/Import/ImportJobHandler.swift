import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// Runs an import: reads the whole file and checks every card first, then writes the stack and
/// its cards in one transaction. A file that breaks a rule fails the job with the first problem
/// (its `result` is the `ImportProblemDTO`), and nothing is written.
struct ImportJobHandler: JobHandler {
    static let kind = "import"

    struct Payload: Codable, Sendable {
        var options: ImportOptionsDTO
        var fileName: String?
        var format: ImportService.Format
        /// A backup restored into the (empty) account, settings and progress included
        /// (`POST /api/v1/me/restore`); else its stacks are added as copies.
        var restore: Bool?
    }

    /// Queues the import of `upload` for `user`; a stack named in the options must be theirs.
    static func enqueue(
        _ upload: ImportService.Upload, user: UserModel, restore: Bool = false, context: ServiceContext
    ) async throws -> JobModel {
        if let stackId = upload.options.stackId {
            _ = try await StackService(context: context, user: user).find(stackId.uuidString)
        }
        return try await JobQueue(store: context.store, now: context.now).enqueue(
            kind: kind, userId: user.id!,
            payload: Payload(
                options: upload.options, fileName: upload.fileName, format: upload.format, restore: restore ? true : nil
            ),
            input: upload.data)
    }

    func run(_ job: JobContext) async throws -> String? {
        let payload = try job.payload(Payload.self)
        guard let data = try await job.input() else {
            throw JobFailure("Die Datei des Imports fehlt.", code: "import_file_missing")
        }
        try await job.report(JobProgressDTO(stage: "reading", message: "Datei wird gelesen …"))
        // Reading a file that breaks a rule fails the job with the problem; nothing is written.
        func reading<T>(_ read: () async throws -> T) async throws -> T {
            do {
                return try await read()
            } catch let problem as ImportProblem {
                throw JobFailure(problem.germanMessage, code: problem.code, detail: try Self.json(problem.dto))
            }
        }
        let result: ImportResultDTO
        switch payload.format {
        case .delimited:
            let deck = try await reading {
                let table = try ImportService.table(data, options: payload.options)
                let reading = CardImport.read(table, mapping: payload.options.columns, problemLimit: 1)
                if let problem = reading.problems.first { throw problem }
                let name = payload.options.stackName ?? ImportService.stackName(fromFile: payload.fileName)
                return ImportWriter.Deck(name: name, cards: reading.cards.map { .init(card: $0, reviews: []) })
            }
            result = try await write([deck], options: payload.options, media: 0, images: [], job: job)
        case .anki:
            let (anki, images) = try await reading {
                let package = try await ImportService.readAnki(data, application: job.application)
                let files = await AnkiImages.files(of: package)
                if !files.isEmpty {
                    // The cards are checked as if every image comes through before any is re-encoded
                    // (a file that fails only makes a text shorter).
                    let check = AnkiImport(package, problemLimit: 1, images: AnkiImages.previewIds(files))
                    if let problem = check.problems.first { throw problem }
                    try await job.report(
                        JobProgressDTO(
                            stage: "images", current: 0, total: files.count,
                            message: "\(germanNumber(files.count)) Bilder werden verarbeitet …"))
                }
                let stored = await AnkiImages.process(
                    files, userId: job.userId,
                    quotaLeft: try await ImageService.bytesLeft(of: job.userId, in: job.store.images),
                    uuid: job.application.serverEnvironment.uuid)
                let reading = AnkiImport(
                    package, problemLimit: 1, images: stored.mapValues { $0.id.uuidString.lowercased() })
                if let problem = reading.problems.first { throw problem }
                let shown = stored.values.filter { reading.imagesShown.contains($0.id.uuidString.lowercased()) }
                return (reading, shown.sorted { $0.id.uuidString < $1.id.uuidString })
            }
            result = try await write(
                anki.decks, options: payload.options, media: anki.mediaCount - images.count, images: images, job: job)
        case .backup:
            let document = try await reading {
                try await job.application.threadPool.runIfActive { () throws(ImportProblem) in
                    try BackupService.read(data)
                }
            }
            result = try await write(document, payload: payload, job: job)
        }
        return try Self.json(result)
    }

    /// Writes the decks (one new stack each; all into one stack when the options name one, new or
    /// existing), queues the hints of their cards, and reports what was done.
    private func write(
        _ decks: [ImportWriter.Deck], options: ImportOptionsDTO, media: Int, images: [ImageService.Stored],
        job: JobContext
    ) async throws -> ImportResultDTO {
        let total = decks.reduce(0) { $0 + $1.cards.count }
        let reviews = decks.reduce(0) { $0 + $1.cards.reduce(0) { $0 + $1.reviews.count } }
        try await job.report(
            JobProgressDTO(
                stage: "saving", current: 0, total: total,
                message: reviews == 0
                    ? "\(germanNumber(total)) Karten werden gespeichert …"
                    : "\(germanNumber(total)) Karten und \(germanNumber(reviews)) Wiederholungen werden gespeichert …"))
        let userId = job.userId
        let now = job.now()
        var target: StackModel?
        if let stackId = options.stackId {
            target = try await StackModel.query(on: job.db)
                .filter(\.$uniqueId == stackId).filter(\.$userId == userId).first()
            if target == nil { throw JobFailure("Der Stapel wurde inzwischen gelöscht.", code: "stack_not_found") }
        }
        let saved = try await ImportWriter.save(
            decks, target: target, name: options.stackName, userId: userId,
            uuid: job.application.serverEnvironment.uuid, now: now, on: job.db,
            store: job.application.studyStore(on: job.db), images: images)
        for entry in saved {
            try await HintJobs.enqueueMissing(stackId: entry.stack.id!, userId: userId, store: job.store, now: now)
        }
        try await job.report(
            JobProgressDTO(
                stage: "done", current: total, total: total, cardsCreated: total,
                message: "\(germanNumber(total)) Karten importiert."))
        return ImportResultDTO(
            stacks: saved.map {
                ImportedStackDTO(id: $0.stack.uniqueId, name: $0.stack.name, cards: $0.cards, created: $0.created)
            },
            cardsCreated: total, reviewsImported: reviews, mediaSkipped: media, imagesImported: images.count)
    }

    /// Restores a backup into the account, or adds its stacks as copies.
    private func write(_ document: BackupDocumentDTO, payload: Payload, job: JobContext) async throws
        -> ImportResultDTO
    {
        let cards = document.stacks.reduce(0) { $0 + $1.cards.count }
        let reviews = document.stacks.reduce(0) { $0 + $1.reviews.count }
        try await job.report(
            JobProgressDTO(
                stage: "saving", current: 0, total: cards,
                message:
                    "\(germanNumber(cards)) Karten und \(germanNumber(reviews)) Wiederholungen werden gespeichert …"))
        let store = job.application.studyStore(on: job.db)
        let uuid = job.application.serverEnvironment.uuid
        let now = job.now()
        let written =
            payload.restore == true
            ? try await BackupWriter.restore(document, userId: job.userId, store: store, uuid: uuid, now: now)
            : try await BackupWriter.importStacks(
                document, userId: job.userId, name: payload.options.stackName, store: store, uuid: uuid, now: now)
        try await job.report(
            JobProgressDTO(
                stage: "done", current: cards, total: cards, cardsCreated: cards,
                message: "\(germanNumber(cards)) Karten importiert."))
        return ImportResultDTO(
            stacks: written.stacks.map {
                ImportedStackDTO(id: $0.stack.uniqueId, name: $0.stack.name, cards: $0.cards, created: true)
            },
            cardsCreated: cards, reviewsImported: reviews, mediaSkipped: 0)
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try FlashcardsJSON.makeEncoder().encode(value), as: UTF8.self)
    }
}

/// Imported cards as rows of `cards`, written many rows at once by `ImportWriter` through
/// `BulkInsert` (an import of 100,000 cards would otherwise take 100,000 statements).
enum NewCardRows {
    static let columns = [
        "id", "unique_id", "stack_id", "user_id", "question", "answer", "hint", "hint_source", "search_text", "due_at",
        "level", "review_count", "created_at", "updated_at", "queue", "state", "step", "stability", "difficulty",
        "bookmarked", "tags", "first_reviewed_at", "last_reviewed_at", "format",
        "kind", "variant", "note_id", "choices",
    ]

    /// One card's values in `columns` order, with the id taken beforehand and its schedule.
    static func values(
        _ card: CardImport.Card, id: Int, stackId: Int, userId: UUID, uuid: UUID, schedule: CardSchedule, now: Date
    ) -> [StoredValue] {
        [
            .int(id), .uuid(uuid), .int(stackId), .uuid(userId), .text(card.question), .text(card.answer),
            card.hint.map(StoredValue.text) ?? .null, card.hint == nil ? .null : .text("user"),
            .text(CardModel.searchText(question: card.question, answer: card.answer, hint: card.hint)),
            .date(schedule.due), .int(schedule.level), .int(schedule.reviewCount), .date(now), .date(now),
            .int(schedule.queue.rawValue), .text(schedule.state.rawValue), schedule.step.map(StoredValue.int) ?? .null,
            schedule.stability.map(StoredValue.double) ?? .null, schedule.difficulty.map(StoredValue.double) ?? .null,
            .bool(false), card.tags.isEmpty ? .null : .text(card.tags.joined(separator: " ")),
            schedule.firstReviewedAt.map(StoredValue.date) ?? .null,
            schedule.lastReviewedAt.map(StoredValue.date) ?? .null, .text(card.format.rawValue),
            .text(card.kind.rawValue), .int(card.variant), card.noteId.map(StoredValue.text) ?? .null,
            choicesValue(card.choices),
        ]
    }

    /// A multiple-choice card's wrong options as stored (a JSON array); null for other cards.
    static func choicesValue(_ choices: [String]?) -> StoredValue {
        guard let choices, let data = try? JSONEncoder().encode(choices) else { return .null }
        return .text(String(decoding: data, as: UTF8.self))
    }
}

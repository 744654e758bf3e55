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
    }

    /// Queues the import of `upload` for `user`; a stack named in the options must be theirs.
    static func enqueue(_ upload: ImportService.Upload, user: UserModel, context: ServiceContext) async throws
        -> JobModel
    {
        if let stackId = upload.options.stackId {
            _ = try await StackService(context: context, user: user).find(stackId.uuidString)
        }
        return try await JobQueue(db: context.db, now: context.now).enqueue(
            kind: kind, userId: user.id!,
            payload: Payload(options: upload.options, fileName: upload.fileName, format: upload.format),
            input: upload.data)
    }

    func run(_ job: JobContext) async throws -> String? {
        let payload = try job.payload(Payload.self)
        guard let data = try await job.input() else {
            throw JobFailure("Die Datei des Imports fehlt.", code: "import_file_missing")
        }
        try await job.report(JobProgressDTO(stage: "reading", message: "Datei wird gelesen …"))
        if payload.format == .anki { return try await runAnki(data, payload: payload, job: job) }
        let cards: [CardImport.Card]
        do throws(ImportProblem) {
            let table = try ImportService.table(data, options: payload.options)
            let reading = CardImport.read(table, mapping: payload.options.columns, problemLimit: 1)
            if let problem = reading.problems.first { throw problem }
            cards = reading.cards
        } catch {
            throw JobFailure(error.germanMessage, code: error.code, detail: try Self.json(error.dto))
        }
        try await job.report(
            JobProgressDTO(
                stage: "saving", current: 0, total: cards.count,
                message: "\(germanNumber(cards.count)) Karten werden gespeichert …"))
        let stackName = payload.options.stackName ?? ImportService.stackName(fromFile: payload.fileName)
        let result = try await save(cards, into: payload.options.stackId, newName: stackName, job: job)
        try await job.report(
            JobProgressDTO(
                stage: "done", current: cards.count, total: cards.count, cardsCreated: cards.count,
                message: "\(germanNumber(cards.count)) Karten importiert."))
        return try Self.json(result)
    }

    /// An Anki package: its decks become stacks (or go into the stack the options name), its cards
    /// come with the schedule their review history gives, all in one transaction.
    private func runAnki(_ data: Data, payload: Payload, job: JobContext) async throws -> String? {
        let reading: AnkiImport
        do {
            reading = AnkiImport(try await ImportService.readAnki(data, application: job.application), problemLimit: 1)
            if let problem = reading.problems.first { throw problem }
        } catch let problem as ImportProblem {
            throw JobFailure(problem.germanMessage, code: problem.code, detail: try Self.json(problem.dto))
        }
        let total = reading.cardCount
        try await job.report(
            JobProgressDTO(
                stage: "saving", current: 0, total: total,
                message:
                    "\(germanNumber(total)) Karten und \(germanNumber(reading.reviews)) Wiederholungen werden gespeichert …"
            ))
        let environment = job.application.serverEnvironment
        let userId = job.userId
        let now = job.now()
        let options = payload.options
        var target: StackModel?
        if let stackId = options.stackId {
            guard
                let existing = try await StackModel.query(on: job.db)
                    .filter(\.$uniqueId == stackId).filter(\.$userId == userId).first()
            else { throw JobFailure("Der Stapel wurde inzwischen gelöscht.", code: "stack_not_found") }
            target = existing
        }
        let saved = try await AnkiImport.save(
            reading.decks, target: target, name: options.stackName, userId: userId, uuid: environment.uuid, now: now,
            on: job.db)
        for entry in saved {
            try await HintJobs.enqueueMissing(stackId: entry.stack.id!, userId: userId, db: job.db, now: now)
        }
        try await job.report(
            JobProgressDTO(
                stage: "done", current: total, total: total, cardsCreated: total,
                message: "\(germanNumber(total)) Karten importiert."))
        return try Self.json(
            ImportResultDTO(
                stacks: saved.map {
                    ImportedStackDTO(id: $0.stack.uniqueId, name: $0.stack.name, cards: $0.cards, created: $0.created)
                },
                cardsCreated: total, reviewsImported: reading.reviews, mediaSkipped: reading.mediaCount))
    }

    /// Writes the cards (and a new stack) in one transaction, then queues their hints.
    private func save(_ cards: [CardImport.Card], into stackId: UUID?, newName: String, job: JobContext) async throws
        -> ImportResultDTO
    {
        let environment = job.application.serverEnvironment
        let userId = job.userId
        let now = job.now()
        let stack = try await job.db.transaction { db -> StackModel in
            let stack: StackModel
            if let stackId {
                guard
                    let existing = try await StackModel.query(on: db)
                        .filter(\.$uniqueId == stackId).filter(\.$userId == userId).first()
                else { throw JobFailure("Der Stapel wurde inzwischen gelöscht.", code: "stack_not_found") }
                stack = existing
            } else {
                stack = try StackService.newStack(
                    uniqueId: environment.uuid(), userId: userId, name: newName,
                    color: ImportService.stackColors[Int(now.timeIntervalSince1970) % ImportService.stackColors.count],
                    settings: .init(scheduler: .fsrs), now: now)
                try await stack.create(on: db)
            }
            try await NewCardRows.insert(
                cards, stackId: stack.id!, userId: userId, uuid: environment.uuid, now: now, on: db)
            return stack
        }
        try await HintJobs.enqueueMissing(stackId: stack.id!, userId: userId, db: job.db, now: now)
        return ImportResultDTO(
            stacks: [
                ImportedStackDTO(id: stack.uniqueId, name: stack.name, cards: cards.count, created: stackId == nil)
            ],
            cardsCreated: cards.count)
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try FlashcardsJSON.makeEncoder().encode(value), as: UTF8.self)
    }
}

/// New cards written many rows per statement (an import of 100,000 cards would otherwise take
/// 100,000 statements). Each card is new and due now, as one typed in.
enum NewCardRows {
    /// Rows per statement: 20 values each, well inside SQLite's 32,766 bound parameters.
    static let batch = 1_000

    static let columns = [
        "unique_id", "stack_id", "user_id", "question", "answer", "hint", "hint_source", "search_text", "due_at",
        "level", "review_count", "created_at", "updated_at", "queue", "state", "step", "stability", "difficulty",
        "bookmarked", "tags", "first_reviewed_at", "last_reviewed_at",
    ]

    /// `columns` with the id first, for cards whose ids were taken beforehand.
    static let columnsWithId = ["id"] + columns

    /// One card's values in `columns` order (with `id` first when given), with its schedule.
    static func values(
        _ card: CardImport.Card, id: Int? = nil, stackId: Int, userId: UUID, uuid: UUID, schedule: CardSchedule,
        now: Date
    ) -> [StoredValue] {
        (id.map { [StoredValue.int($0)] } ?? []) + [
            .uuid(uuid), .int(stackId), .uuid(userId), .text(card.question), .text(card.answer),
            card.hint.map(StoredValue.text) ?? .null, card.hint == nil ? .null : .text("user"),
            .text(CardModel.searchText(question: card.question, answer: card.answer, hint: card.hint)),
            .date(schedule.due), .int(schedule.level), .int(schedule.reviewCount), .date(now), .date(now),
            .int(schedule.queue.rawValue), .text(schedule.state.rawValue), schedule.step.map(StoredValue.int) ?? .null,
            schedule.stability.map(StoredValue.double) ?? .null, schedule.difficulty.map(StoredValue.double) ?? .null,
            .bool(false), card.tags.isEmpty ? .null : .text(card.tags.joined(separator: " ")),
            schedule.firstReviewedAt.map(StoredValue.date) ?? .null,
            schedule.lastReviewedAt.map(StoredValue.date) ?? .null,
        ]
    }

    static func insert(
        _ cards: [CardImport.Card], stackId: Int, userId: UUID, uuid: () -> UUID, now: Date, on db: any Database
    ) async throws {
        let schedule = CardSchedule.new(createdAt: now)
        for start in stride(from: 0, to: cards.count, by: batch) {
            let rows = cards[start..<min(start + batch, cards.count)].map {
                values($0, stackId: stackId, userId: userId, uuid: uuid(), schedule: schedule, now: now)
            }
            try await BulkInsert.run(into: "cards", columns: columns, rows: rows, on: db)
        }
    }
}

import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import FluentPostgresDriver
import Foundation
import NIOCore
import SQLKit

/// Writes a checked backup document (`BackupService.read`): its stacks as new stacks of a learner
/// with cards and review log exactly as stored, and for a restore the account's settings and
/// progress too, all in one write transaction.
enum BackupWriter {
    /// What was written.
    struct Written: Sendable {
        let stacks: [(stack: StackModel, cards: Int, reviews: Int)]
        /// Whether the document's ids were kept (a restore onto a server that does not have them).
        let keptIds: Bool
    }

    /// Restores a whole account into `userId`'s account, which must have no stacks. The document's
    /// ids are kept when none of them is taken on this server (a restore after a loss, or onto a new
    /// server); otherwise every stack, card and review gets a new one.
    static func restore(
        _ document: BackupDocumentDTO, userId: UUID, store: any StudyStore, uuid: @escaping @Sendable () -> UUID,
        now: Date
    ) async throws -> Written {
        guard let account = document.account, document.scope == .account else {
            throw JobFailure(
                "Die Datei enthält nur Stapel, keine Sicherung eines Kontos. Stapel lassen sich importieren.",
                code: "not_an_account_backup")
        }
        let keep = try await idsFree(document, on: store.sql)
        return try await store.writeTransaction { transaction in
            let sql = transaction.sql
            let stacks =
                try await sql.raw("SELECT COUNT(*) AS n FROM stacks WHERE user_id = \(bind: userId)")
                .first(decoding: CountRow.self)?.n ?? 0
            guard stacks == 0 else {
                throw JobFailure(
                    "Eine Sicherung lässt sich nur in ein Konto ohne Stapel wiederherstellen.",
                    code: "account_not_empty")
            }
            try await writeAccount(account, userId: userId, on: sql)
            let written = try await writeStacks(
                document.stacks, images: document.images ?? [], userId: userId, keepIds: keep, renamed: nil,
                uuid: uuid, now: now, in: transaction)
            return Written(stacks: written, keptIds: keep)
        }
    }

    /// Adds the document's stacks to `userId`'s stacks as copies with new ids (`name` renames a
    /// single stack); the account part of an account backup is left out.
    static func importStacks(
        _ document: BackupDocumentDTO, userId: UUID, name: String?, store: any StudyStore,
        uuid: @escaping @Sendable () -> UUID, now: Date
    ) async throws -> Written {
        try await store.writeTransaction { transaction in
            let written = try await writeStacks(
                document.stacks, images: document.images ?? [], userId: userId, keepIds: false,
                renamed: document.stacks.count == 1 ? name : nil, uuid: uuid, now: now, in: transaction)
            return Written(stacks: written, keptIds: false)
        }
    }

    /// Whether no stack, card or review id of the document exists on this server.
    private static func idsFree(_ document: BackupDocumentDTO, on sql: any SQLDatabase) async throws -> Bool {
        let checks: [(table: String, column: String, ids: [UUID])] = [
            ("stacks", "unique_id", document.stacks.map(\.id)),
            ("cards", "unique_id", document.stacks.flatMap { $0.cards.map(\.id) }),
            ("review_logs", "id", document.stacks.flatMap { $0.reviews.map(\.id) }),
            ("card_images", "id", (document.images ?? []).map(\.id)),
        ]
        for check in checks {
            for start in stride(from: 0, to: check.ids.count, by: 10_000) {
                let slice = check.ids[start..<min(start + 10_000, check.ids.count)]
                let taken =
                    try await sql.raw(
                        "SELECT COUNT(*) AS n FROM \(ident: check.table) WHERE \(ident: check.column) IN (\(binds: Array(slice)))"
                    ).first(decoding: CountRow.self)?.n ?? 0
                if taken > 0 { return false }
            }
        }
        return true
    }

    /// The account's name, time zone, age, settings, fitted parameters, rest days, boxes and
    /// achievements, replacing what the (empty) account had.
    private static func writeAccount(_ account: BackupAccountDTO, userId: UUID, on sql: any SQLDatabase) async throws {
        try await sql.update("users").set("name", to: account.name).set("time_zone", to: account.timeZone)
            .set("created_at", to: account.createdAt)
            .where("id", .equal, userId).run()
        for table in ["learner_settings", "scheduler_parameters", "rest_days", "mystery_boxes", "achievements"] {
            try await sql.delete(from: table).where("user_id", .equal, userId).run()
        }
        if let settings = account.settings {
            try await sql.insert(into: "learner_settings")
                .columns(
                    "user_id", "language", "daily_goal", "focus_mode", "reminders_enabled", "reminder_time",
                    "leaderboard_opt_in", "theme", "onboarding_done", "purpose", "minutes_per_day", "interests",
                    "game_elements", "load_balancing", "easy_days"
                )
                .values(
                    SQLBind(userId), SQLBind(settings.language), SQLBind(settings.dailyGoal),
                    SQLBind(settings.focusMode), SQLBind(settings.remindersEnabled), SQLBind(settings.reminderTime),
                    SQLBind(settings.leaderboardOptIn), SQLBind(settings.theme), SQLBind(settings.onboardingDone),
                    SQLBind(settings.purpose), SQLBind(settings.minutesPerDay),
                    SQLBind(try SettingsService.interestsText(settings.interests)),
                    SQLBind(settings.gameElements ?? true), SQLBind(settings.loadBalancing ?? true),
                    SQLBind(LearnerSettingsModel.code(settings.easyDays ?? EasyDay.allNormal))
                ).run()
        }
        if let parameters = account.schedulerParameters {
            let row = SchedulerParametersModel(
                userId: userId, parameters: parameters.parameters, optimizedAt: parameters.optimizedAt,
                logLoss: parameters.logLoss, defaultLogLoss: parameters.defaultLogLoss, reviews: parameters.reviews)
            try await sql.insert(into: "scheduler_parameters")
                .columns("user_id", "parameters", "optimized_at", "log_loss", "default_log_loss", "reviews")
                .values(
                    SQLBind(userId), SQLBind(row.parameters), SQLBind(row.optimizedAt), SQLBind(row.logLoss),
                    SQLBind(row.defaultLogLoss), SQLBind(row.reviews)
                ).run()
        }
        for day in Set(account.restDays.compactMap(MotivationService.day(fromText:))).sorted() {
            try await sql.insert(into: "rest_days").columns("user_id", "day").values(SQLBind(userId), SQLBind(day))
                .run()
        }
        var boxDays = Set<Int>()
        for box in account.mysteryBoxes {
            guard let day = MotivationService.day(fromText: box.day), boxDays.insert(day).inserted else { continue }
            try await sql.insert(into: "mystery_boxes").columns("user_id", "day", "rarity", "xp", "theme", "opened_at")
                .values(
                    SQLBind(userId), SQLBind(day), SQLBind(box.rarity), SQLBind(box.xp), SQLBind(box.theme),
                    SQLBind(box.openedAt)
                ).run()
        }
        var kinds = Set<String>()
        for achievement in account.achievements where kinds.insert(achievement.kind).inserted {
            try await sql.insert(into: "achievements").columns("user_id", "kind", "earned_at")
                .values(SQLBind(userId), SQLBind(achievement.kind), SQLBind(achievement.earnedAt)).run()
        }
    }

    /// The document's images that its rich cards show, as images of `userId`'s (their ids kept, or
    /// new ones), and the ids to write into the card texts.
    private static func images(
        _ images: [BackupImageDTO], of stacks: [BackupStackDTO], userId: UUID, keepIds: Bool, uuid: () -> UUID
    ) -> (images: [StoredImage], renamed: [String: String]) {
        let shown = Set(
            stacks.flatMap(\.cards).filter { $0.format == .markdown }
                .flatMap { [$0.question, $0.answer, $0.hint ?? ""].flatMap(RichText.imageIds) })
        var stored: [StoredImage] = []
        var renamed: [String: String] = [:]
        for image in images {
            let id = image.id.uuidString.lowercased()
            // Checked by `BackupService.check`; an image no card shows is left out.
            guard shown.contains(id), let size = image.size?.size else { continue }
            let copy = StoredImage(
                id: keepIds ? image.id : uuid(), userId: userId, mediaType: image.mediaType, width: size.width,
                height: size.height, data: ByteBuffer(data: image.data))
            renamed[id] = copy.id.uuidString.lowercased()
            stored.append(copy)
        }
        return (stored, renamed)
    }

    /// The stacks with their cards and review log as stored, and the images their cards show; card
    /// rows and log rows go in many at once (`BulkInsert`). The day counts and progress figures are
    /// computed again from the log.
    private static func writeStacks(
        _ stacks: [BackupStackDTO], images sourceImages: [BackupImageDTO], userId: UUID, keepIds: Bool,
        renamed: String?, uuid: @escaping () -> UUID, now: Date, in transaction: any StudyTransaction
    ) async throws -> [(stack: StackModel, cards: Int, reviews: Int)] {
        let sql = transaction.sql
        let (images, renamedImages) = images(sourceImages, of: stacks, userId: userId, keepIds: keepIds, uuid: uuid)
        try await transaction.images.insert(images, now: now)
        var written: [(stack: StackModel, cards: Int, reviews: Int)] = []
        var firstReview: Date?
        for (index, source) in stacks.enumerated() {
            let stack: StackModel
            do {
                stack = try StackService.newStack(
                    uniqueId: keepIds ? source.id : uuid(), userId: userId, name: renamed ?? source.name,
                    color: source.color, lenientColor: true, hintsEnabled: source.hintsEnabled,
                    settings: .init(
                        scheduler: SchedulerKind(rawValue: source.scheduler), desiredRetention: source.desiredRetention,
                        learningSteps: StackSettings.steps(fromText: source.learningSteps),
                        relearningSteps: StackSettings.steps(fromText: source.relearningSteps),
                        newCardsPerDay: source.newCardsPerDay, reviewsPerDay: source.reviewsPerDay),
                    library: .init(
                        description: source.description, icon: source.icon.map { .set($0) } ?? .keep,
                        favorite: source.favorite),
                    now: now)
            } catch let error as AppError {
                throw JobFailure(
                    "Stapel \(index + 1) („\(source.name.prefix(40))“): \(error.body.message)", code: "backup_invalid")
            }
            stack.createdAt = source.createdAt
            stack.updatedAt = source.updatedAt
            stack.spreadDay = source.spreadDay
            stack.matchBestMs = source.matchBestMs
            try await stack.insert(on: sql)
            let stackId = stack.id!
            let firstId = try await transaction.takeCardIds(source.cards.count, taken: nil)
            var cardIds: [UUID: Int] = [:]
            var noteIds = NoteIds()
            var cardRows: [[StoredValue]] = []
            cardRows.reserveCapacity(source.cards.count)
            for (offset, card) in source.cards.enumerated() {
                let id = firstId + offset
                cardIds[card.id] = id
                // A rich card shows the images under their new ids (an id the document has no image
                // for stays: it shows nothing).
                func text(_ value: String) -> String {
                    let trimmed = TextCheck.trimmed(value)
                    return card.format == .markdown && !renamedImages.isEmpty
                        ? ImageService.replacingImages(trimmed, renamedImages) : trimmed
                }
                let question = text(card.question)
                let answer = text(card.answer)
                let hint = card.hint.map(text).flatMap { $0.isEmpty ? nil : $0 }
                func date(_ value: Date?) -> StoredValue { value.map(StoredValue.date) ?? .null }
                cardRows.append([
                    .int(id), .uuid(keepIds ? card.id : uuid()), .int(stackId), .uuid(userId), .text(question),
                    .text(answer), hint.map(StoredValue.text) ?? .null,
                    hint == nil ? .null : card.hintSource.map(StoredValue.text) ?? .null,
                    .text(CardModel.searchText(question: question, answer: answer, hint: hint)), .date(card.dueAt),
                    .int(card.level), .int(card.reviewCount), .date(card.createdAt), .date(card.updatedAt),
                    .int(card.queue), .text(card.state), card.step.map(StoredValue.int) ?? .null,
                    card.stability.map(StoredValue.double) ?? .null, card.difficulty.map(StoredValue.double) ?? .null,
                    .bool(card.bookmarked), card.tags.flatMap { $0.isEmpty ? nil : StoredValue.text($0) } ?? .null,
                    date(card.firstReviewedAt), date(card.lastReviewedAt), .text((card.format ?? .plain).rawValue),
                    .text((card.kind ?? .basic).rawValue), .int(card.variant ?? 0),
                    card.noteId.map { StoredValue.text(noteIds.id(for: $0, keep: keepIds, uuid: uuid)) } ?? .null,
                    NewCardRows.choicesValue(card.choices),
                ])
            }
            var reviewIds: [UUID: UUID] = [:]
            for review in source.reviews { reviewIds[review.id] = keepIds ? review.id : uuid() }
            let logRows = source.reviews.map { review in
                firstReview = min(firstReview ?? review.reviewedAt, review.reviewedAt)
                return ImportWriter.logRow(
                    id: reviewIds[review.id]!, userId: userId, cardId: cardIds[review.card]!, stackId: stackId,
                    reviewedAt: review.reviewedAt, rating: review.rating, scheduler: review.scheduler,
                    before: review.stateBefore, after: review.stateAfter, durationMs: review.durationMs,
                    kind: review.kind, undoes: review.undoes.flatMap { reviewIds[$0] }, elapsedDays: review.elapsedDays,
                    seq: review.seq, mode: review.mode, balancedDays: review.balancedDays)
            }
            try await BulkInsert.run(into: "cards", columns: NewCardRows.columns, rows: cardRows, on: sql)
            try await BulkInsert.run(into: "review_logs", columns: ImportWriter.logColumns, rows: logRows, on: sql)
            written.append((stack, source.cards.count, source.reviews.count))
        }
        if let firstReview {
            try await transaction.forgetDayCounts(stackIds: written.map { $0.stack.id! })
            try await transaction.logChanged(userId: userId, from: firstReview)
        }
        return written
    }
}

/// New note ids for the notes of written cards: one per note of the source, so a restored or copied
/// reversed pair or cloze stays one note, and never the source's own unless the ids are kept.
struct NoteIds {
    private var ids: [String: String] = [:]

    mutating func id(for source: String, keep: Bool, uuid: () -> UUID) -> String {
        if keep { return source }
        if let id = ids[source] { return id }
        let id = uuid().uuidString.lowercased()
        ids[source] = id
        return id
    }
}

import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Fluent
import Foundation
import Vapor

/// Backups (`docs/import.md`): an account or a stack as one versioned JSON document
/// (`BackupDocumentDTO`), read back exactly as stored, and written back in one transaction.
enum BackupService {
    /// The name of the document inside a zipped backup.
    static let zipEntryName = "backup.json"
    /// At most this many review log entries in one document (the upload limit comes first in
    /// practice: a million entries are about 400 MB of JSON).
    static let maximumReviews = 2_000_000
    /// The largest document a zipped backup may unpack to.
    static let maximumDocument = 512 * 1_024 * 1_024
    /// At most this many stacks in one document.
    static let maximumStacks = 5_000

    // MARK: Reading the database

    /// The caller's whole account: stacks with cards and history, settings, fitted parameters, rest
    /// days, mystery boxes and achievements.
    static func accountDocument(of user: UserModel, store: any StudyStore, now: Date) async throws
        -> BackupDocumentDTO
    {
        let userId = user.id!
        let db = store.db
        let stacks = try await StackModel.query(on: db).filter(\.$userId == userId).sort(\.$id).all()
        let settings = try await LearnerSettingsModel.find(userId, on: db)
        let parameters = try await SchedulerParametersModel.find(userId, on: db)
        let (restDays, boxes, achievements) = try await store.motivation(of: userId).backupRecords()
        let account = BackupAccountDTO(
            name: user.name, timeZone: user.timeZone, createdAt: user.createdAt,
            settings: settings.map {
                BackupSettingsDTO(
                    language: $0.language, dailyGoal: $0.dailyGoal, focusMode: $0.focusMode,
                    remindersEnabled: $0.remindersEnabled, reminderTime: $0.reminderTime,
                    leaderboardOptIn: $0.leaderboardOptIn, theme: $0.theme, onboardingDone: $0.onboardingDone,
                    purpose: $0.purpose, minutesPerDay: $0.minutesPerDay, interests: $0.interestList,
                    gameElements: $0.gameElements, loadBalancing: $0.loadBalancing, easyDays: $0.easyDays)
            },
            schedulerParameters: parameters.flatMap { row in
                row.weights.map {
                    BackupSchedulerParametersDTO(
                        parameters: $0, optimizedAt: row.optimizedAt, logLoss: row.logLoss,
                        defaultLogLoss: row.defaultLogLoss, reviews: row.reviews)
                }
            },
            restDays: restDays.map(MotivationService.dateText),
            mysteryBoxes: boxes.map {
                BackupMysteryBoxDTO(
                    day: MotivationService.dateText($0.day), rarity: $0.rarity, xp: $0.xp, theme: $0.theme,
                    openedAt: $0.opened_at)
            },
            achievements: achievements.map { BackupAchievementDTO(kind: $0.kind, earnedAt: $0.earned_at) })
        var stackDTOs: [BackupStackDTO] = []
        for stack in stacks { stackDTOs.append(try await stackDTO(stack, db: db)) }
        return BackupDocumentDTO(
            scope: .account, createdAt: now, account: account, stacks: stackDTOs,
            images: try await images(of: stackDTOs, ownerId: userId, in: store.images))
    }

    /// One stack with its cards and history.
    static func stackDocument(_ stack: StackModel, store: any StudyStore, now: Date) async throws
        -> BackupDocumentDTO
    {
        let stacks = [try await stackDTO(stack, db: store.db)]
        return BackupDocumentDTO(
            scope: .stacks, createdAt: now, account: nil, stacks: stacks,
            images: try await images(of: stacks, ownerId: stack.userId, in: store.images))
    }

    /// The images of `ownerId`'s the rich cards of `stacks` show, in the order they are first shown;
    /// nil for none.
    private static func images(of stacks: [BackupStackDTO], ownerId: UUID, in store: ImageStore) async throws
        -> [BackupImageDTO]?
    {
        var seen: Set<String> = []
        let ids = stacks.flatMap(\.cards).filter { $0.format == .markdown }
            .flatMap { [$0.question, $0.answer, $0.hint ?? ""].flatMap(RichText.imageIds) }
            .filter { seen.insert($0).inserted }
        let found = Dictionary(
            uniqueKeysWithValues: try await store.owned(ids, by: ownerId).map {
                ($0.id.uuidString.lowercased(), $0)
            })
        let images = ids.compactMap { id in
            found[id].map { BackupImageDTO(id: $0.id, mediaType: $0.mediaType, data: Data(buffer: $0.data)) }
        }
        return images.isEmpty ? nil : images
    }

    private static func stackDTO(_ stack: StackModel, db: any Database) async throws -> BackupStackDTO {
        let cards = try await CardModel.query(on: db).filter(\.$stackId == stack.id!).sort(\.$id).all()
        let uniqueIds = Dictionary(uniqueKeysWithValues: cards.map { ($0.id!, $0.uniqueId) })
        let logs = try await ReviewLogModel.query(on: db).filter(\.$stackId == stack.id!)
            .sort(\.$reviewedAt).sort(\.$seq).sort(\.$id).all()
        return BackupStackDTO(
            id: stack.uniqueId, name: stack.name, color: stack.color, description: stack.description,
            icon: stack.icon, favorite: stack.favorite, createdAt: stack.createdAt, updatedAt: stack.updatedAt,
            hintsEnabled: stack.hintsEnabled, scheduler: stack.scheduler, desiredRetention: stack.desiredRetention,
            learningSteps: stack.learningSteps, relearningSteps: stack.relearningSteps,
            newCardsPerDay: stack.newCardsPerDay, reviewsPerDay: stack.reviewsPerDay, spreadDay: stack.spreadDay,
            matchBestMs: stack.matchBestMs,
            cards: try cards.map { card in
                BackupCardDTO(
                    id: card.uniqueId, question: card.question, answer: card.answer, hint: card.hint,
                    hintSource: card.hintSource, tags: card.tags, bookmarked: card.bookmarked,
                    createdAt: card.createdAt, updatedAt: card.updatedAt, dueAt: card.dueAt, level: card.level,
                    reviewCount: card.reviewCount, queue: card.queue, state: card.state, step: card.step,
                    stability: card.stability, difficulty: card.difficulty, firstReviewedAt: card.firstReviewedAt,
                    lastReviewedAt: card.lastReviewedAt, format: try card.cardFormat,
                    kind: try card.cardKind == .basic ? nil : card.cardKind,
                    variant: card.variant == 0 ? nil : card.variant,
                    noteId: card.noteId, choices: card.choices)
            },
            reviews: logs.compactMap { log in
                // A log row always belongs to a card of its stack; a row whose card is gone has no
                // place in a restore.
                uniqueIds[log.cardId].map { card in
                    BackupReviewDTO(
                        id: log.id!, card: card, reviewedAt: log.reviewedAt, rating: log.rating,
                        scheduler: log.scheduler, stateBefore: log.stateBefore, stateAfter: log.stateAfter,
                        durationMs: log.durationMs, kind: log.kind, undoes: log.undoes, elapsedDays: log.elapsedDays,
                        seq: log.seq, mode: log.mode, balancedDays: log.balancedDays)
                }
            })
    }

    /// The document as a download: JSON, or a zip holding `backup.json` (a tenth of the size).
    static func response(_ document: BackupDocumentDTO, fileName: String, zipped: Bool) throws -> Response {
        let json = try FlashcardsJSON.makeEncoder().encode(document)
        let response: Response
        if zipped {
            response = Response(status: .ok, body: .init(data: ZipArchive.make([(zipEntryName, json)])))
            response.headers.contentType = .zip
        } else {
            response = Response(status: .ok, body: .init(data: json))
            response.headers.contentType = .json
        }
        response.headers.replaceOrAdd(
            name: .contentDisposition,
            value: ExportService.attachment(fileName: fileName, extension: zipped ? "zip" : "json"))
        return response
    }

    // MARK: Reading a document

    /// Whether an upload is a backup as JSON text: an object first (a zipped one holds
    /// `backup.json`, which `ImportService.format(of:)` looks for).
    static func looksLikeJSON(_ data: Data) -> Bool {
        let start = data.prefix(64).drop(while: { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) })
        return start.first == UInt8(ascii: "{")
    }

    /// Reads and checks a document (JSON or zipped); a problem names what is wrong.
    static func read(_ data: Data) throws(ImportProblem) -> BackupDocumentDTO {
        var json = data
        if ZipArchive.looksLikeZip(data) {
            let contents: Data?
            do {
                contents = try ZipArchive(data).contents(of: zipEntryName, limit: maximumDocument)
            } catch .tooLarge {
                throw problem(
                    "backup_too_large",
                    "Die Sicherung entpackt sich zu mehr als \(maximumDocument / 1_048_576) MB und wird nicht gelesen.")
            } catch {
                throw problem("not_a_backup", "Die Zip-Datei ist beschädigt oder enthält keine Sicherung.")
            }
            guard let contents else { throw problem("not_a_backup", notABackup) }
            json = contents
        }
        struct Head: Decodable {
            let format: String?
            let version: Int?
        }
        let decoder = FlashcardsJSON.makeDecoder()
        guard let head = try? decoder.decode(Head.self, from: json), head.format == BackupDocumentDTO.formatName else {
            throw problem("not_a_backup", notABackup)
        }
        guard let version = head.version, version >= 1 else { throw problem("not_a_backup", notABackup) }
        guard version <= BackupDocumentDTO.currentVersion else {
            throw problem(
                "backup_too_new",
                "Die Sicherung stammt aus einer neueren Version (\(version)); dieser Server liest bis Version \(BackupDocumentDTO.currentVersion)."
            )
        }
        let document: BackupDocumentDTO
        do {
            document = try decoder.decode(BackupDocumentDTO.self, from: json)
        } catch let error as DecodingError {
            throw problem(
                "backup_invalid", "Die Sicherung ist beschädigt. \(ErrorRenderingMiddleware.describe(error))")
        } catch {
            throw problem("backup_invalid", "Die Sicherung ist beschädigt.")
        }
        try check(document)
        return document
    }

    private static let notABackup =
        "Die Datei ist keine Sicherung von Smart Flashcards (es fehlt \"format\": \"smart-flashcards-backup\")."

    static func problem(_ code: String, _ message: String) -> ImportProblem {
        ImportProblem(.other(code: code, message: message))
    }

    /// The rules a document must keep before anything is written: the card rules of the card form,
    /// known states, schedulers, kinds and modes, finite numbers, ids unique within the document,
    /// reviews of the document's own cards, states as JSON objects, and sane sizes.
    static func check(_ document: BackupDocumentDTO) throws(ImportProblem) {
        guard document.stacks.count <= maximumStacks else {
            throw problem(
                "too_many_stacks", "Eine Sicherung darf höchstens \(germanNumber(maximumStacks)) Stapel enthalten.")
        }
        let cards = document.stacks.reduce(0) { $0 + $1.cards.count }
        guard cards <= CardImport.maximumCards else { throw ImportProblem(.tooManyCards) }
        guard document.stacks.reduce(0, { $0 + $1.reviews.count }) <= maximumReviews else {
            throw problem(
                "too_many_reviews",
                "Eine Sicherung darf höchstens \(germanNumber(maximumReviews)) Wiederholungen enthalten.")
        }
        if document.scope == .account, document.account == nil {
            throw problem("backup_invalid", "Die Sicherung eines Kontos enthält keine Kontodaten.")
        }
        if let account = document.account { try check(account) }
        try check(document.images ?? [])
        var stackIds = Set<UUID>()
        var cardIds = Set<UUID>()
        var reviewIds = Set<UUID>()
        let earliest = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01
        for (stackIndex, stack) in document.stacks.enumerated() {
            let place = "Stapel \(stackIndex + 1) („\(stack.name.prefix(40))“)"
            func fail(_ code: String, _ message: String) -> ImportProblem {
                problem(code, "\(place): \(message)")
            }
            guard stackIds.insert(stack.id).inserted else {
                throw fail("duplicate_id", "Die Kennung kommt zweimal vor.")
            }
            guard SchedulerKind(rawValue: stack.scheduler) != nil else {
                throw fail("backup_invalid", "Unbekannter Planer „\(stack.scheduler.prefix(20))“.")
            }
            var ownCards = Set<UUID>()
            for (cardIndex, card) in stack.cards.enumerated() {
                let cardPlace = "Karte \(cardIndex + 1)"
                for (field, value, limit, required) in [
                    (ImportProblem.Field.front, card.question, TextLimits.question, true),
                    (.back, card.answer, TextLimits.answer, card.kind != .cloze),
                    (.hint, card.hint ?? "", TextLimits.hint, false),
                    (.tags, card.tags ?? "", CardImport.maximumTagText, false),
                ] {
                    if case .failure(let reason) = TextCheck.checked(value, max: limit, required: required) {
                        let text = ImportProblem(.text(field, reason))
                        throw fail(text.code, "\(cardPlace): \(text.germanMessage)")
                    }
                }
                guard cardIds.insert(card.id).inserted else {
                    throw fail("duplicate_id", "\(cardPlace): Die Kennung kommt zweimal vor.")
                }
                let kind = card.kind ?? .basic
                if let problem = kind.problem(
                    question: TextCheck.trimmed(card.question), answer: TextCheck.trimmed(card.answer),
                    choices: card.choices)
                {
                    throw fail("backup_invalid", "\(cardPlace): \(problem)")
                }
                guard (card.variant ?? 0) >= 0, (card.noteId?.count ?? 0) <= 64,
                    kind.variants(question: card.question).contains(card.variant ?? 0)
                else {
                    throw fail("backup_invalid", "\(cardPlace): Die Kartenart ist ungültig.")
                }
                ownCards.insert(card.id)
                let numbers = [card.stability, card.difficulty].compactMap { $0 }
                guard CardState(rawValue: card.state) != nil, card.level >= 0, card.reviewCount >= 0,
                    (0...2).contains(card.queue), (card.step ?? 0) >= 0,
                    numbers.allSatisfy({ $0.isFinite && $0 >= 0 }),
                    card.hintSource.map({ ["user", "generated"].contains($0) }) ?? true
                else {
                    throw fail("backup_invalid", "\(cardPlace): Der Lernstand ist ungültig.")
                }
            }
            var ownReviews = Set<UUID>()
            for review in stack.reviews {
                guard reviewIds.insert(review.id).inserted else {
                    throw fail("duplicate_id", "Eine Wiederholung kommt zweimal vor.")
                }
                ownReviews.insert(review.id)
            }
            for (reviewIndex, review) in stack.reviews.enumerated() {
                let reviewPlace = "Wiederholung \(reviewIndex + 1)"
                guard ownCards.contains(review.card) else {
                    throw fail("backup_invalid", "\(reviewPlace) gehört zu keiner Karte des Stapels.")
                }
                guard SchedulerKind(rawValue: review.scheduler) != nil, ReviewLogKind(rawValue: review.kind) != nil,
                    StudyMode(rawValue: review.mode) != nil, (0...4).contains(review.rating), review.seq >= 1,
                    (review.durationMs ?? 0) >= 0, (review.elapsedDays ?? 0) >= 0, review.reviewedAt >= earliest,
                    (review.balancedDays ?? 1) >= 1,
                    review.undoes.map(ownReviews.contains) ?? true, isJSONObject(review.stateBefore),
                    isJSONObject(review.stateAfter)
                else {
                    throw fail("backup_invalid", "\(reviewPlace) ist ungültig.")
                }
            }
        }
    }

    /// The most images one document may bring.
    static let maximumImages = 20_000

    /// Images: unique ids, and bytes that are what their media type says (read by their first bytes
    /// and their header: a document is the learner's file), each within an upload's limits, all
    /// within a learner's quota.
    private static func check(_ images: [BackupImageDTO]) throws(ImportProblem) {
        guard images.count <= maximumImages else {
            throw problem(
                "too_many_images", "Eine Sicherung darf höchstens \(germanNumber(maximumImages)) Bilder enthalten.")
        }
        var ids = Set<UUID>()
        var bytes = 0
        for (index, image) in images.enumerated() {
            func fail(_ message: String) -> ImportProblem { problem("backup_invalid", "Bild \(index + 1): \(message)") }
            guard ids.insert(image.id).inserted else { throw fail("Die Kennung kommt zweimal vor.") }
            guard image.size != nil else { throw fail("Die Bilddaten passen nicht zu ihrem Typ oder sind beschädigt.") }
            bytes += image.data.count
        }
        guard bytes <= ImageService.quotaBytes else {
            throw problem(
                "too_many_images",
                "Die Bilder der Sicherung sind größer als \(ImageService.quotaBytes / 1_048_576) MB.")
        }
    }

    private static func check(_ account: BackupAccountDTO) throws(ImportProblem) {
        func fail(_ message: String) -> ImportProblem { problem("backup_invalid", "Konto: \(message)") }
        guard TimeZone(identifier: account.timeZone) != nil else { throw fail("Unbekannte Zeitzone.") }
        guard case .success = TextCheck.checked(account.name, max: TextLimits.userName, required: true) else {
            throw fail("Der Name ist ungültig.")
        }
        if let settings = account.settings {
            guard SettingsService.languages.contains(settings.language), (1...500).contains(settings.dailyGoal),
                ReminderTime(text: settings.reminderTime) != nil,
                settings.purpose.map(SettingsService.purposes.contains) ?? true,
                settings.minutesPerDay.map(SettingsService.minutesChoices.contains) ?? true,
                (try? SettingsService.interestsText(settings.interests)) != nil,
                (settings.theme?.count ?? 0) <= 40, settings.easyDays.map({ $0.count == 7 }) ?? true
            else { throw fail("Die Einstellungen sind ungültig.") }
        }
        if let parameters = account.schedulerParameters {
            // The FSRS-6 weights: 21 finite numbers, as the optimizer stores them.
            guard parameters.parameters.count == 21, parameters.parameters.allSatisfy(\.isFinite) else {
                throw fail("Die Planer-Parameter sind ungültig.")
            }
        }
        let days = account.restDays + account.mysteryBoxes.map(\.day)
        guard days.allSatisfy({ MotivationService.day(fromText: $0) != nil }),
            account.mysteryBoxes.allSatisfy({ MysteryBox.Rarity(rawValue: $0.rarity) != nil }),
            account.achievements.allSatisfy({ Achievements.Kind(rawValue: $0.kind) != nil })
        else { throw fail("Ruhetage, Überraschungsboxen oder Erfolge sind ungültig.") }
    }

    private static func isJSONObject(_ text: String) -> Bool {
        text.utf8.count <= 4_096
            && (try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any]
    }
}

extension BackupImageDTO {
    /// The image's type and size when its bytes are an image of the media type it names, within an
    /// upload's limits; nil otherwise.
    var size: (type: ImageType, size: PixelSize)? {
        guard !data.isEmpty, data.count <= CardImageProcessor.maximumBytes, let type = ImageType.sniff(data),
            type.mediaType == mediaType, let size = PixelSize.read(data, type: type),
            size.width * size.height <= CardImageProcessor.maximumPixels
        else { return nil }
        return (type, size)
    }
}

import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Fluent
import Foundation
import NIOCore
import SQLKit

/// Images on cards. An upload is checked by its content, re-encoded without metadata
/// (`CardImageProcessor`) and stored in `card_images`, owned by the uploader; a rich card shows it
/// as `![description](image:<id>)`. An image is served to its owner, to anyone holding an active
/// share link of a stack of the owner's that shows it, and to signed-in learners when a published
/// stack of the owner's shows it; to nobody else (404, as for an id that does not exist).
struct ImageService {
    let context: ServiceContext

    static let notFound = AppError.notFound("Dieses Bild gibt es nicht (mehr).", code: "image_not_found")
    /// What one learner may keep in images.
    static let quotaBytes = 500 * 1_024 * 1_024
    /// How long an image no card shows is kept (the card form uploads before the card is saved).
    static let orphanGrace: TimeInterval = 86_400

    /// An upload over the limit (the body's size is checked as it streams in, then the file's).
    static let tooLarge = AppError.uploadTooLarge(megabytes: CardImageProcessor.maximumBytes / (1_024 * 1_024))

    /// A stored image (a row of `card_images`, read by these column names).
    struct Stored: Sendable, Decodable {
        let id: UUID
        let userId: UUID
        let mediaType: String
        let width: Int
        let height: Int
        let data: ByteBuffer

        enum CodingKeys: String, CodingKey {
            case id, width, height, data
            case userId = "user_id"
            case mediaType = "media_type"
        }
    }

    /// Re-encodes and stores an upload of `user`'s; first drops the learner's images that no card
    /// has shown for a day.
    func upload(_ data: Data, for userId: UUID) async throws -> ImageDTO {
        let image: ProcessedImage
        do {
            image = try await CardImageProcessor.process(data)
        } catch {
            switch error {
            case .tooLarge: throw Self.tooLarge
            case .empty, .unreadable, .tooManyPixels: throw AppError.invalid(error.germanMessage, code: "image_invalid")
            case .unsupportedType: throw AppError.unsupportedMediaType(error.germanMessage)
            case .toolMissing, .timeout: throw AppError.unavailable(error.germanMessage, code: "image_processing")
            }
        }
        try await dropOrphans(of: userId)
        guard image.data.count <= (try await Self.bytesLeft(of: userId, on: context.store.sql)) else {
            throw AppError.refused(
                "Deine Bilder belegen schon \(Self.quotaBytes / (1_024 * 1_024)) MB. Lösche Karten mit Bildern, um Platz zu schaffen.",
                code: "image_quota")
        }
        let stored = Stored(
            id: context.uuid(), userId: userId, mediaType: image.type.mediaType, width: image.size.width,
            height: image.size.height, data: ByteBuffer(data: image.data))
        try await Self.insert([stored], now: context.now, on: context.store.sql)
        return stored.dto
    }

    /// The bytes of images the learner may still store.
    static func bytesLeft(of userId: UUID, on sql: any SQLDatabase) async throws -> Int {
        struct Used: Decodable { let used: Int }
        let used =
            try await sql.raw(
                "SELECT CAST(COALESCE(SUM(byte_count), 0) AS BIGINT) AS used FROM card_images WHERE user_id = \(bind: userId)"
            ).first(decoding: Used.self)?.used ?? 0
        return max(0, quotaBytes - used)
    }

    /// Writes image rows (an upload, or copies an import or a copied stack brings along).
    static func insert(_ images: [Stored], now: Date, on sql: any SQLDatabase) async throws {
        for image in images {
            try await sql.insert(into: "card_images")
                .columns("id", "user_id", "media_type", "width", "height", "byte_count", "data", "created_at")
                .values(
                    SQLBind(image.id), SQLBind(image.userId), SQLBind(image.mediaType), SQLBind(image.width),
                    SQLBind(image.height), SQLBind(image.data.readableBytes), SQLBind(image.data), SQLBind(now)
                ).run()
        }
    }

    /// The image with id `text`, if the caller may see it: `userId` the signed-in caller (nil for
    /// none), `shareToken` a share link's token sent along.
    func image(_ text: String?, userId: UUID?, shareToken: String?) async throws -> Stored {
        guard let text, let id = UUID(exactly: text) else { throw Self.notFound }
        guard
            let image = try await context.store.sql.raw(
                "SELECT id, user_id, media_type, width, height, data FROM card_images WHERE id = \(bind: id)"
            ).first(decoding: Stored.self)
        else { throw Self.notFound }
        if image.userId == userId { return image }
        let pattern = "%" + CatalogueService.likeEscaped("image:" + id.uuidString.lowercased()) + ")%"
        let shows: SQLQueryString =
            "(LOWER(c.question) LIKE \(bind: pattern) ESCAPE '\\' OR LOWER(c.answer) LIKE \(bind: pattern) ESCAPE '\\' OR LOWER(c.hint) LIKE \(bind: pattern) ESCAPE '\\')"
        if let shareToken {
            let stack = try await ShareService(context: context).stack(token: shareToken)
            if stack.userId == image.userId,
                try await context.store.sql.raw(
                    "SELECT 1 AS found FROM cards c WHERE c.stack_id = \(bind: stack.id!) AND \(shows) LIMIT 1"
                ).first() != nil
            {
                return image
            }
        }
        if userId != nil,
            try await context.store.sql.raw(
                """
                SELECT 1 AS found FROM catalogue_entries e JOIN cards c ON c.stack_id = e.stack_id
                WHERE e.user_id = \(bind: image.userId) AND e.hidden_at IS NULL AND \(shows) LIMIT 1
                """
            ).first() != nil
        {
            return image
        }
        throw Self.notFound
    }

    /// Refuses texts of a rich card that show an image `userId` does not own (400 `unknown_image`);
    /// images the texts before an edit (`keeping`) showed already are not looked at again.
    func checkOwned(_ texts: [String?], format: CardFormat, userId: UUID, keeping: [String?] = []) async throws {
        guard format == .markdown else { return }
        let kept = Set(keeping.compactMap { $0 }.flatMap(RichText.imageIds))
        let ids = Set(texts.compactMap { $0 }.flatMap(RichText.imageIds)).subtracting(kept)
            .compactMap(UUID.init(uuidString:))
        guard !ids.isEmpty else { return }
        struct Found: Decodable { let id: UUID }
        let found = try await context.store.sql.raw(
            "SELECT id FROM card_images WHERE user_id = \(bind: userId) AND id IN (\(binds: ids))"
        ).all(decoding: Found.self)
        guard found.count == ids.count else {
            throw AppError.invalid(
                "Ein Bild der Karte gibt es nicht (mehr). Füge es bitte neu ein.", code: "unknown_image")
        }
    }

    /// The copies a learner needs of the images `cards` show (images of `ownerId`'s), and the cards
    /// with each image id replaced by its copy's. Ids of images that are not the owner's stay as they
    /// are (they show nothing to anyone).
    static func copies(
        of cards: [CardImport.Card], ownerId: UUID, for userId: UUID, uuid: () -> UUID, on sql: any SQLDatabase
    ) async throws -> (cards: [CardImport.Card], images: [Stored]) {
        let ids = Set(
            cards.filter { $0.format == .markdown }.flatMap { card in
                [card.question, card.answer, card.hint ?? ""].flatMap(RichText.imageIds)
            })
        guard !ids.isEmpty else { return (cards, []) }
        let rows = try await owned(Array(ids), by: ownerId, on: sql)
        var renamed: [String: String] = [:]
        let images = rows.map { row in
            let copy = Stored(
                id: uuid(), userId: userId, mediaType: row.mediaType, width: row.width, height: row.height,
                data: row.data)
            renamed[row.id.uuidString.lowercased()] = copy.id.uuidString.lowercased()
            return copy
        }
        let rewritten = cards.map { card in
            guard card.format == .markdown else { return card }
            var card = card
            card.question = replacingImages(card.question, renamed)
            card.answer = replacingImages(card.answer, renamed)
            card.hint = card.hint.map { replacingImages($0, renamed) }
            return card
        }
        return (rewritten, images)
    }

    /// The images of `ownerId`'s among `ids` (lowercase UUID texts; others are left out).
    static func owned(_ ids: [String], by ownerId: UUID, on sql: any SQLDatabase) async throws -> [Stored] {
        let uuids = ids.compactMap(UUID.init(uuidString:))
        guard !uuids.isEmpty else { return [] }
        var stored: [Stored] = []
        // In chunks, within every database's bound-parameter limit.
        for start in stride(from: 0, to: uuids.count, by: 500) {
            let chunk = Array(uuids[start..<min(start + 500, uuids.count)])
            stored += try await sql.raw(
                """
                SELECT id, user_id, media_type, width, height, data FROM card_images
                WHERE user_id = \(bind: ownerId) AND id IN (\(binds: chunk))
                """
            ).all(decoding: Stored.self)
        }
        return stored
    }

    /// `text` with image ids replaced (in any case).
    static func replacingImages(_ text: String, _ renamed: [String: String]) -> String {
        RichText.imageIds(text).reduce(text) { text, id in
            guard let new = renamed[id] else { return text }
            return text.replacingOccurrences(of: "image:" + id, with: "image:" + new, options: .caseInsensitive)
        }
    }

    /// Deletes the learner's images that are a day old and shown by none of their cards.
    func dropOrphans(of userId: UUID) async throws {
        struct Candidate: Decodable { let id: UUID }
        let old = try await context.store.sql.raw(
            """
            SELECT id FROM card_images
            WHERE user_id = \(bind: userId) AND created_at < \(bind: context.now.addingTimeInterval(-Self.orphanGrace))
            """
        ).all(decoding: Candidate.self)
        guard !old.isEmpty else { return }
        struct Texts: Decodable {
            let question: String
            let answer: String
            let hint: String?
        }
        let marker = "%" + CatalogueService.likeEscaped("](image:") + "%"
        let texts = try await context.store.sql.raw(
            """
            SELECT question, answer, hint FROM cards WHERE user_id = \(bind: userId)
            AND (question LIKE \(bind: marker) ESCAPE '\\' OR answer LIKE \(bind: marker) ESCAPE '\\' OR hint LIKE \(bind: marker) ESCAPE '\\')
            """
        ).all(decoding: Texts.self)
        let shown = Set(texts.flatMap { [$0.question, $0.answer, $0.hint ?? ""].flatMap(RichText.imageIds) })
        let orphans = old.map(\.id).filter { !shown.contains($0.uuidString.lowercased()) }
        guard !orphans.isEmpty else { return }
        try await context.store.sql.delete(from: "card_images").where("user_id", .equal, SQLBind(userId))
            .where("id", .in, SQLBind.group(orphans)).run()
    }
}

extension ImageService.Stored {
    var dto: ImageDTO {
        ImageDTO(
            id: id, mediaType: mediaType, width: width, height: height, bytes: data.readableBytes,
            markdown: RichText.imageMarkdown(id: id.uuidString, description: ""))
    }
}

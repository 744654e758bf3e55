import FlashcardsCore
import Foundation
import NIOCore
import SQLKit

/// A stored card image (a row of `card_images`, read by these column names).
struct StoredImage: Sendable, Decodable {
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

/// The statements of card images (`ImageService`): `card_images`, and the cards and published
/// stacks that show an image. Both databases run them alike.
struct ImageStore {
    let sql: any SQLDatabase

    /// The bytes of the learner's images.
    func bytesUsed(by userId: UUID) async throws -> Int {
        struct Used: Decodable { let used: Int }
        return try await sql.raw(
            "SELECT CAST(COALESCE(SUM(byte_count), 0) AS BIGINT) AS used FROM card_images WHERE user_id = \(bind: userId)"
        ).first(decoding: Used.self)?.used ?? 0
    }

    /// Writes image rows (an upload, or copies an import or a copied stack brings along).
    func insert(_ images: [StoredImage], now: Date) async throws {
        for image in images {
            try await sql.insert(into: "card_images")
                .columns("id", "user_id", "media_type", "width", "height", "byte_count", "data", "created_at")
                .values(
                    SQLBind(image.id), SQLBind(image.userId), SQLBind(image.mediaType), SQLBind(image.width),
                    SQLBind(image.height), SQLBind(image.data.readableBytes), SQLBind(image.data), SQLBind(now)
                ).run()
        }
    }

    /// The image with this id.
    func image(_ id: UUID) async throws -> StoredImage? {
        try await sql.raw(
            "SELECT id, user_id, media_type, width, height, data FROM card_images WHERE id = \(bind: id)"
        ).first(decoding: StoredImage.self)
    }

    /// Whether a card of stack `stackId` shows image `id`.
    func shown(_ id: UUID, inStack stackId: Int) async throws -> Bool {
        try await sql.raw(
            "SELECT 1 AS found FROM cards c WHERE c.stack_id = \(bind: stackId) AND \(Self.shows(id)) LIMIT 1"
        ).first() != nil
    }

    /// Whether a card of a published (not hidden) stack of `ownerId`'s shows image `id`.
    func shownInPublished(_ id: UUID, of ownerId: UUID) async throws -> Bool {
        try await sql.raw(
            """
            SELECT 1 AS found FROM catalogue_entries e JOIN cards c ON c.stack_id = e.stack_id
            WHERE e.user_id = \(bind: ownerId) AND e.hidden_at IS NULL AND \(Self.shows(id)) LIMIT 1
            """
        ).first() != nil
    }

    /// A card `c` shows the image: one of its texts holds `image:<id>)` in any case.
    private static func shows(_ id: UUID) -> SQLQueryString {
        let pattern = "%" + LikePattern.escaped("image:" + id.uuidString.lowercased()) + ")%"
        return
            "(LOWER(c.question) LIKE \(bind: pattern) ESCAPE '\\' OR LOWER(c.answer) LIKE \(bind: pattern) ESCAPE '\\' OR LOWER(c.hint) LIKE \(bind: pattern) ESCAPE '\\')"
    }

    /// Those of `ids` that are images of `userId`'s.
    func ownedIds(_ ids: [UUID], by userId: UUID) async throws -> [UUID] {
        guard !ids.isEmpty else { return [] }
        struct Found: Decodable { let id: UUID }
        return try await sql.raw(
            "SELECT id FROM card_images WHERE user_id = \(bind: userId) AND id IN (\(binds: ids))"
        ).all(decoding: Found.self).map(\.id)
    }

    /// The images of `ownerId`'s among `ids` (lowercase UUID texts; others are left out).
    func owned(_ ids: [String], by ownerId: UUID) async throws -> [StoredImage] {
        let uuids = ids.compactMap(UUID.init(uuidString:))
        guard !uuids.isEmpty else { return [] }
        var stored: [StoredImage] = []
        // In chunks, within every database's bound-parameter limit.
        for start in stride(from: 0, to: uuids.count, by: 500) {
            let chunk = Array(uuids[start..<min(start + 500, uuids.count)])
            stored += try await sql.raw(
                """
                SELECT id, user_id, media_type, width, height, data FROM card_images
                WHERE user_id = \(bind: ownerId) AND id IN (\(binds: chunk))
                """
            ).all(decoding: StoredImage.self)
        }
        return stored
    }

    /// The ids of the learner's images stored before `moment`.
    func ids(of userId: UUID, storedBefore moment: Date) async throws -> [UUID] {
        struct Candidate: Decodable { let id: UUID }
        return try await sql.raw(
            "SELECT id FROM card_images WHERE user_id = \(bind: userId) AND created_at < \(bind: moment)"
        ).all(decoding: Candidate.self).map(\.id)
    }

    /// The texts of the learner's cards that show any image.
    func textsShowingImages(of userId: UUID) async throws -> [String] {
        struct Texts: Decodable {
            let question: String
            let answer: String
            let hint: String?
        }
        let marker = "%" + LikePattern.escaped("](image:") + "%"
        return try await sql.raw(
            """
            SELECT question, answer, hint FROM cards WHERE user_id = \(bind: userId)
            AND (question LIKE \(bind: marker) ESCAPE '\\' OR answer LIKE \(bind: marker) ESCAPE '\\' OR hint LIKE \(bind: marker) ESCAPE '\\')
            """
        ).all(decoding: Texts.self).flatMap { [$0.question, $0.answer, $0.hint ?? ""] }
    }

    /// Deletes these images of the learner's.
    func delete(_ ids: [UUID], of userId: UUID) async throws {
        guard !ids.isEmpty else { return }
        try await sql.delete(from: "card_images").where("user_id", .equal, SQLBind(userId))
            .where("id", .in, SQLBind.group(ids)).run()
    }
}

extension StudyStore {
    /// The card images' statements.
    var images: ImageStore { ImageStore(sql: sql) }
}

extension StudyTransaction {
    /// The card images' statements in this transaction.
    var images: ImageStore { ImageStore(sql: sql) }
}

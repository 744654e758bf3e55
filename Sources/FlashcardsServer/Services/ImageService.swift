import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Fluent
import Foundation
import NIOCore

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

    typealias Stored = StoredImage

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
        guard image.data.count <= (try await Self.bytesLeft(of: userId, in: context.store.images)) else {
            throw AppError.refused(
                "Deine Bilder belegen schon \(Self.quotaBytes / (1_024 * 1_024)) MB. Lösche Karten mit Bildern, um Platz zu schaffen.",
                code: "image_quota")
        }
        let stored = Stored(
            id: context.uuid(), userId: userId, mediaType: image.type.mediaType, width: image.size.width,
            height: image.size.height, data: ByteBuffer(data: image.data))
        try await context.store.images.insert([stored], now: context.now)
        return stored.dto
    }

    /// The bytes of images the learner may still store.
    static func bytesLeft(of userId: UUID, in images: ImageStore) async throws -> Int {
        max(0, quotaBytes - (try await images.bytesUsed(by: userId)))
    }

    /// The image with id `text`, if the caller may see it: `userId` the signed-in caller (nil for
    /// none), `shareToken` a share link's token sent along.
    func image(_ text: String?, userId: UUID?, shareToken: String?) async throws -> Stored {
        guard let text, let id = UUID(exactly: text) else { throw Self.notFound }
        let images = context.store.images
        guard let image = try await images.image(id) else { throw Self.notFound }
        if image.userId == userId { return image }
        if let shareToken {
            let stack = try await ShareService(context: context).stack(token: shareToken)
            if stack.userId == image.userId, try await images.shown(id, inStack: stack.id!) { return image }
        }
        if userId != nil, try await images.shownInPublished(id, of: image.userId) { return image }
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
        let found = try await context.store.images.ownedIds(ids, by: userId)
        guard found.count == ids.count else {
            throw AppError.invalid(
                "Ein Bild der Karte gibt es nicht (mehr). Füge es bitte neu ein.", code: "unknown_image")
        }
    }

    /// The copies a learner needs of the images `cards` show (images of `ownerId`'s), and the cards
    /// with each image id replaced by its copy's. Ids of images that are not the owner's stay as they
    /// are (they show nothing to anyone).
    static func copies(
        of cards: [CardImport.Card], ownerId: UUID, for userId: UUID, uuid: () -> UUID, in images: ImageStore
    ) async throws -> (cards: [CardImport.Card], images: [Stored]) {
        let ids = Set(
            cards.filter { $0.format == .markdown }.flatMap { card in
                [card.question, card.answer, card.hint ?? ""].flatMap(RichText.imageIds)
            })
        guard !ids.isEmpty else { return (cards, []) }
        let rows = try await images.owned(Array(ids), by: ownerId)
        var renamed: [String: String] = [:]
        let copies = rows.map { row in
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
        return (rewritten, copies)
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
        let images = context.store.images
        let old = try await images.ids(of: userId, storedBefore: context.now.addingTimeInterval(-Self.orphanGrace))
        guard !old.isEmpty else { return }
        let shown = Set(try await images.textsShowingImages(of: userId).flatMap(RichText.imageIds))
        try await images.delete(old.filter { !shown.contains($0.uuidString.lowercased()) }, of: userId)
    }
}

extension ImageService.Stored {
    var dto: ImageDTO {
        ImageDTO(
            id: id, mediaType: mediaType, width: width, height: height, bytes: data.readableBytes,
            markdown: RichText.imageMarkdown(id: id.uuidString, description: ""))
    }
}

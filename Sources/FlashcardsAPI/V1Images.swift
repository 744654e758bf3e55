import Foundation

/// A stored card image (`POST /api/v1/images`): re-encoded, without metadata, at most 1,600 pixels
/// on its longer side. A rich card shows it with `markdown` (a description may go between the
/// brackets).
public struct ImageDTO: Codable, Sendable, Hashable {
    /// The image's id; `GET /api/v1/images/{id}` serves it.
    @LowercaseUUID public var id: UUID
    /// `image/jpeg`, `image/png` or `image/webp`.
    public var mediaType: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Stored size in bytes.
    public var bytes: Int
    /// `![](image:<id>)`: what a card's Markdown writes to show it.
    public var markdown: String

    /// Creates the DTO.
    public init(id: UUID, mediaType: String, width: Int, height: Int, bytes: Int, markdown: String) {
        self.id = id
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.bytes = bytes
        self.markdown = markdown
    }
}

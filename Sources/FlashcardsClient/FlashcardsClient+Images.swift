import FlashcardsAPI
import Foundation

// Images on rich cards (`docs/rich-cards.md`).
extension FlashcardsClient {
    /// Stores a picture (JPEG, PNG, GIF or WebP, at most 10 MB; re-encoded by the server without
    /// metadata). A rich card shows it with the answer's `markdown`.
    public func uploadImage(_ data: Data, fileName: String = "image") async throws -> ImageDTO {
        try await transport.send(
            ImageDTO.self, Endpoint.V1.uploadImage,
            body: .multipart(file: data, fileField: "file", fileName: fileName, fields: [:]))
    }

    /// An image's bytes, if the caller may see it: their own, or one a stack shows that is shared
    /// with `shareToken` or published.
    public func image(_ id: UUID, shareToken: String? = nil) async throws -> Data {
        try await transport.send(
            Endpoint.V1.image, id.path, query: shareToken.map { [URLQueryItem(name: "share", value: $0)] } ?? [])
    }
}

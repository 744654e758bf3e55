import FlashcardsCore
import Fluent
import Foundation

/// The source of a generation as the rules read it, kept for the draft review's source view.
final class GenerationSourceModel: Model, @unchecked Sendable {
    static let schema = "generation_sources"

    @ID(custom: "job_id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userId: UUID
    @Field(key: "stack_id") var stackId: Int
    /// `pdf`, `image` or `text`.
    @Field(key: "origin") var origin: String
    /// `de` or `en`.
    @Field(key: "language") var language: String
    /// The cleaned pages, `[SourcePage]` as JSON.
    @Field(key: "pages") var pages: String
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(jobId: UUID, userId: UUID, stackId: Int, origin: String, language: String, pages: [SourcePage], now: Date)
        throws
    {
        id = jobId
        self.userId = userId
        self.stackId = stackId
        self.origin = origin
        self.language = language
        self.pages = String(decoding: try JSONEncoder().encode(pages), as: UTF8.self)
        createdAt = now
    }

    /// The stored pages; a row that does not decode is reported, never guessed.
    func sourcePages() throws -> [SourcePage] {
        try JSONDecoder().decode([SourcePage].self, from: Data(pages.utf8))
    }
}

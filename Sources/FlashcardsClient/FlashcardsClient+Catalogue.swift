import FlashcardsAPI
import Foundation

// The public catalogue (`docs/explore.md`).
extension FlashcardsClient {
    /// The stack's catalogue entry; `notFound` (`not_published`) when it is not published.
    public func publication(of stack: UUID) async throws -> PublicationDTO {
        try await transport.send(PublicationDTO.self, Endpoint.V1.publication, stack.path)
    }

    /// Publishes the stack, or changes its category and language.
    @discardableResult
    public func publish(_ stack: UUID, category: CatalogueCategory, language: CatalogueLanguage) async throws
        -> PublicationDTO
    {
        try await transport.send(
            PublicationDTO.self, Endpoint.V1.publish, stack.path,
            body: .json(PublishRequest(category: category, language: language)))
    }

    /// Takes the stack out of the catalogue.
    public func unpublish(_ stack: UUID) async throws {
        _ = try await transport.send(Endpoint.V1.unpublish, stack.path)
    }

    /// A page of the catalogue, searched (every word in name or description) and filtered.
    public func explore(
        search: String? = nil, category: CatalogueCategory? = nil, language: CatalogueLanguage? = nil, page: Int = 1,
        perPage: Int = 24
    ) async throws -> PageDTO<CatalogueEntryDTO> {
        var query = [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "perPage", value: "\(perPage)")]
        if let search { query.append(URLQueryItem(name: "q", value: search)) }
        if let category { query.append(URLQueryItem(name: "category", value: category.rawValue)) }
        if let language { query.append(URLQueryItem(name: "language", value: language.rawValue)) }
        return try await transport.send(PageDTO<CatalogueEntryDTO>.self, Endpoint.V1.explore, query: query)
    }

    /// One published stack with a page of its cards.
    public func catalogueEntry(_ entry: UUID, page: Int = 1, perPage: Int = 50) async throws -> CatalogueStackDTO {
        try await transport.send(
            CatalogueStackDTO.self, Endpoint.V1.exploreEntry, entry.path,
            query: [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "perPage", value: "\(perPage)")])
    }

    /// Copies a published stack into the caller's library, with new progress.
    public func copyFromCatalogue(_ entry: UUID) async throws -> StackDTO {
        try await transport.send(StackDTO.self, Endpoint.V1.copyExplored, entry.path)
    }

    /// Reports a published stack: hidden for the caller from now on, queued for the operator.
    public func report(_ entry: UUID, reason: CatalogueReportReason, note: String? = nil) async throws {
        _ = try await transport.send(
            Endpoint.V1.reportExplored, entry.path, body: .json(ReportRequest(reason: reason, note: note)))
    }
}

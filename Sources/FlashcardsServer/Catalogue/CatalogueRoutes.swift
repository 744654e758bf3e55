import FlashcardsAPI
import Vapor

/// `/api/v1/stacks/{id}/publication` (the owner's entry) and `/api/v1/explore` (the catalogue for
/// every signed-in learner, guests included).
struct CatalogueRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.publication, use: publication)
        authed.on(Endpoint.V1.publish, use: publish)
        authed.on(Endpoint.V1.unpublish, use: unpublish)
        authed.on(Endpoint.V1.explore, use: browse)
        authed.on(Endpoint.V1.exploreEntry, use: entry)
        authed.on(Endpoint.V1.copyExplored, use: copy)
        authed.on(Endpoint.V1.reportExplored, use: report)
    }

    private func catalogue(_ req: Request) throws -> CatalogueService {
        CatalogueService(context: ServiceContext(req), user: try req.user)
    }

    private func ownStack(_ req: Request) async throws -> (StackModel, CatalogueService) {
        let catalogue = try catalogue(req)
        let stack = try await StackService(context: catalogue.context, user: catalogue.user)
            .find(req.parameters.get("stackId"), preloaded: req.preloadedStack)
        return (stack, catalogue)
    }

    func publication(_ req: Request) async throws -> Response {
        let (stack, catalogue) = try await ownStack(req)
        guard let entry = try await catalogue.publication(of: stack) else {
            throw AppError.notFound("Dieser Stapel ist nicht veröffentlicht.", code: "not_published")
        }
        return try jsonResponse(entry)
    }

    func publish(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(PublishRequest.self)
        let (stack, catalogue) = try await ownStack(req)
        let (entry, created) = try await catalogue.publish(stack, body)
        return try jsonResponse(entry, status: created ? .created : .ok)
    }

    func unpublish(_ req: Request) async throws -> Response {
        let (stack, catalogue) = try await ownStack(req)
        try await catalogue.unpublish(stack)
        return Response(status: .noContent)
    }

    func browse(_ req: Request) async throws -> Response {
        let page = try req.intQuery("page", default: 1, range: 1...1_000_000)
        let perPage = try req.intQuery("perPage", default: 24, range: 1...100)
        let search = req.queryText("q")
        guard (search ?? "").unicodeScalars.count <= 200, !(search ?? "").unicodeScalars.contains("\0") else {
            throw AppError.validation("Der Suchbegriff darf höchstens 200 Zeichen lang sein und kein NUL enthalten.")
        }
        let category = try Self.choice(req, "category", CatalogueCategory.self, "Diese Kategorie gibt es nicht.")
        let language = try Self.choice(req, "language", CatalogueLanguage.self, "Diese Sprache gibt es nicht.")
        return try jsonResponse(
            try await catalogue(req).browse(
                search: search, category: category, language: language, page: page, perPage: perPage))
    }

    func entry(_ req: Request) async throws -> Response {
        let page = try req.intQuery("page", default: 1, range: 1...1_000_000)
        let perPage = try req.intQuery("perPage", default: 50, range: 1...200)
        return try jsonResponse(
            try await catalogue(req).entry(req.parameters.get("entryId"), page: page, perPage: perPage))
    }

    func copy(_ req: Request) async throws -> Response {
        let catalogue = try catalogue(req)
        let copy = try await catalogue.copy(req.parameters.get("entryId"))
        let summary = try await StackService(context: catalogue.context, user: catalogue.user).counted(copy)
        return try jsonResponse(summary.dto, status: .created)
    }

    func report(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(ReportRequest.self)
        try await catalogue(req).report(req.parameters.get("entryId"), body)
        return Response(status: .noContent)
    }

    /// A query value that must be one of `T`'s raw values (left out: nil).
    private static func choice<T: RawRepresentable<String>>(
        _ req: Request, _ name: String, _: T.Type, _ message: String
    )
        throws -> T?
    {
        guard let text = req.queryText(name), !text.isEmpty else { return nil }
        guard let value = T(rawValue: text) else { throw AppError.validation(message) }
        return value
    }
}

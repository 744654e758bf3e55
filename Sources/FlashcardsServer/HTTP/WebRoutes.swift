import Vapor

/// The web app: `/` is the landing page, and every `/app/…` path that is not a file is the app
/// shell, whose client-side router takes it from there. Browser routes never collide with API routes.
struct WebRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(use: landing)
        routes.get("app", use: shell)
        routes.get("app", "**", use: shell)
    }

    func landing(_ req: Request) async throws -> Response {
        try await file("index.html", req: req)
    }

    func shell(_ req: Request) async throws -> Response {
        try await file("app.html", req: req)
    }

    private func file(_ name: String, req: Request) async throws -> Response {
        let path = absolutePath(req.application.appConfiguration.publicDirectory) + "/" + name
        guard FileManager.default.fileExists(atPath: path) else { throw Abort(.notFound) }
        let response = try await req.fileio.asyncStreamFile(at: path)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
        return response
    }
}

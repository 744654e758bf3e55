import Vapor

/// The web app: `/` is the landing page, and every `/app/…` path that is not a file is the app
/// shell, whose client-side router takes it from there. Browser routes never collide with API routes.
struct WebRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(use: landing)
        routes.get("app", use: shell)
        routes.get("app", "**", use: shell)
        routes.get("assets", "vendor", "katex", "**", use: katex)
    }

    /// KaTeX's script, style sheet and fonts from the configured folder (Debian's `libjs-katex`):
    /// names of letters, digits, `-`, `_` and `.` only, no hidden files, and only the types KaTeX
    /// ships, so nothing else of the file system can be reached.
    func katex(_ req: Request) async throws -> Response {
        let parts = req.parameters.getCatchall()
        let allowedTypes: Set<String> = ["js", "mjs", "css", "woff2", "woff", "ttf"]
        guard !parts.isEmpty, parts.count <= 3,
            parts.allSatisfy({ part in
                !part.isEmpty && !part.hasPrefix(".")
                    && part.unicodeScalars.allSatisfy {
                        CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)
                    }
                    && part.unicodeScalars.allSatisfy(\.isASCII)
            }),
            let type = parts.last?.split(separator: ".").last, allowedTypes.contains(String(type))
        else { throw Abort(.notFound) }
        let path = absolutePath(req.application.appConfiguration.katexDirectory) + "/" + parts.joined(separator: "/")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw Abort(.notFound)
        }
        let response = try await req.fileio.asyncStreamFile(at: path)
        response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=86400")
        return response
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

import FlashcardsAPI
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// Holds the three places a path lives to one another: what the server routes, what
/// `Public/openapi.json` documents and what `Endpoint` declares for the server and the SDK.
@Suite("Routes, endpoints and the OpenAPI document")
struct OpenAPIPathsTests {
    @Test("the server routes exactly the operations openapi.json documents, each a declared Endpoint")
    func routedIsDocumented() async throws {
        try await withApp(.sqlite) { app in
            let routes = apiRoutes(of: app)
            let routed = Set(routes)
            #expect(routes.count == routed.count, "a route is registered twice: \(duplicates(routes))")
            let documented = try documentedOperations()

            let undocumented = routed.subtracting(documented).sorted()
            let unrouted = documented.subtracting(routed).sorted()
            #expect(undocumented.isEmpty, "routed but not in Public/openapi.json:\n\(lines(undocumented))")
            #expect(unrouted.isEmpty, "in Public/openapi.json but not routed:\n\(lines(unrouted))")

            let declared = Set(Endpoint.all.map(\.description))
            #expect(
                Endpoint.all.count == declared.count,
                "an endpoint is declared twice: \(duplicates(Endpoint.all.map(\.description)))")
            let declaredNotRouted = declared.subtracting(routed).sorted()
            let routedNotDeclared = routed.subtracting(declared).sorted()
            #expect(declaredNotRouted.isEmpty, "declared in Endpoint but not routed:\n\(lines(declaredNotRouted))")
            #expect(routedNotDeclared.isEmpty, "routed but not declared in Endpoint:\n\(lines(routedNotDeclared))")
        }
    }

    @Test("an endpoint is a template for the docs and fills in a path for the SDK")
    func paths() {
        #expect(Endpoint.V1.studyNext.template == "/api/v1/stacks/{stackId}/study/next")
        #expect(Endpoint.V1.studyNext.description == "GET /api/v1/stacks/{stackId}/study/next")
        #expect(Endpoint.V1.studyNext.path("abc") == "api/v1/stacks/abc/study/next")
        #expect(Endpoint.V1.undoReview.parameterNames == ["stackId", "cardId"])
        #expect(Endpoint.V1.undoReview.path("s", "c") == "api/v1/stacks/s/cards/c/undo")
        #expect(Endpoint.V1.health.path() == "api/v1/health")
        #expect(Endpoint.Compat.nextCard.template == "/stack/{stackId}/card/next")
        #expect(Endpoint.Compat.showCard.path("s", "c") == "stack/s/card/c")
        #expect(Endpoint.Compat.signup.path() == "signup")
        #expect(Endpoint.Compat.rate.method == .post)
    }
}

/// Every API route the app registered, as `METHOD /template` with `:name` written `{name}`.
/// The web app's routes are left out: `/` (landing page) and `/app` with everything below it (the
/// client-side app's shell, one catch-all) are pages for browsers, kept apart from the API by
/// design and not in the OpenAPI document. Static files are served by a middleware, not by routes.
/// Every other route, at the root or below `/api/v1`, counts.
private func apiRoutes(of app: Application) -> [String] {
    app.routes.all.compactMap { route -> String? in
        guard let first = route.path.first else { return nil }  // `/`
        // The web app's routes: its shell and the files it loads (KaTeX).
        if case .constant("app") = first { return nil }
        if case .constant("assets") = first { return nil }
        // The MCP endpoint speaks JSON-RPC, not REST: docs/mcp.md describes it, MCPTests check it.
        if case .constant("mcp") = first { return nil }
        // OAuth's own endpoints follow their RFCs (docs/mcp.md), OAuthTests check them.
        if case .constant(".well-known") = first { return nil }
        if case .constant("oauth") = first { return nil }
        // Prometheus' scrape target speaks its text format (docs/operations.md); OperationsTests check it.
        if case .constant("metrics") = first { return nil }
        let template = route.path.map { component -> String in
            switch component {
            case .constant(let text): text
            case .parameter(let name): "{\(name)}"
            case .anything: "*"
            case .catchall: "**"
            }
        }
        return "\(route.method.rawValue) /\(template.joined(separator: "/"))"
    }
}

/// Every operation of `Public/openapi.json`, as `METHOD /template`.
private func documentedOperations() throws -> Set<String> {
    let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Public/openapi.json"))
    let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let paths = try #require(document["paths"] as? [String: Any])
    // A path item also holds `parameters`, `summary`, … beside its operations.
    let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
    var operations: Set<String> = []
    for (path, item) in paths {
        let item = try #require(item as? [String: Any], "\(path)")
        for method in methods where item[method] != nil {
            operations.insert("\(method.uppercased()) \(path)")
        }
    }
    return operations
}

/// The repository, found from this file's path (`Tests/FlashcardsServerTests/…`).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func lines(_ items: [String]) -> String {
    items.map { "  \($0)" }.joined(separator: "\n")
}

private func duplicates(_ items: [String]) -> [String] {
    Dictionary(grouping: items, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
}

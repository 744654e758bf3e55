import FlashcardsAPI
import Vapor

// Routes are registered from FlashcardsAPI's `Endpoint` declarations, the same ones the SDK builds
// its requests from, so a path is spelled once. A route collection registers an endpoint on the
// builder of its family's base (`/api/v1` for `.v1`, the root for `.compat`).

extension Endpoint.Method {
    /// The method as Vapor names it.
    var vapor: HTTPMethod {
        switch self {
        case .get: .GET
        case .post: .POST
        case .put: .PUT
        case .patch: .PATCH
        case .delete: .DELETE
        }
    }
}

extension Endpoint {
    /// The path below the family's base as Vapor path components (`:name` segments become
    /// parameters, read by handlers with `req.parameters.get(name)`). Vapor's router prefers a
    /// constant over a parameter at the same position, so `card/next` wins over `card/:cardId`.
    var pathComponents: [PathComponent] {
        segments.map { segment in
            switch segment {
            case .constant(let text): .constant(text)
            case .parameter(let name): .parameter(name)
            }
        }
    }
}

extension RoutesBuilder {
    /// Registers `handler` for `endpoint`'s method and path, relative to this builder (which must
    /// sit at the endpoint's family base; the route test catches one that does not).
    @discardableResult
    func on<Output: AsyncResponseEncodable & VaporSendableMetatype>(
        _ endpoint: Endpoint,
        body: HTTPBodyStreamStrategy = .collect,
        use handler: @Sendable @escaping (Request) async throws -> Output
    ) -> Route {
        on(endpoint.method.vapor, endpoint.pathComponents, body: body, use: handler)
    }
}

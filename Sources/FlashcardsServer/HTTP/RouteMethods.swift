import NIOConcurrencyHelpers
import Vapor

/// Which methods the router has for a path, for the `Allow` header of a 405 (Vapor's router answers
/// 404 for a known path with another method). The routes are read once, on the first such request:
/// they are all registered before the server starts.
struct RouteMethods: Sendable {
    private let routes: [(method: HTTPMethod, path: [PathComponent])]

    init(routes: [Route]) {
        self.routes = routes.map { ($0.method, $0.path) }
    }

    /// The methods of every route whose path matches `path`'s segments (a parameter matches any one
    /// segment, a catch-all the rest), in a fixed order.
    func methods(for path: String) -> [HTTPMethod] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var found: [HTTPMethod] = []
        for route in routes where Self.matches(route.path, segments) && !found.contains(route.method) {
            found.append(route.method)
        }
        return found.sorted { $0.rawValue < $1.rawValue }
    }

    private static func matches(_ components: [PathComponent], _ segments: [String]) -> Bool {
        for (index, component) in components.enumerated() {
            switch component {
            case .catchall: return segments.count > index
            case .constant(let text): guard index < segments.count, segments[index] == text else { return false }
            case .parameter, .anything: guard index < segments.count, !segments[index].isEmpty else { return false }
            }
        }
        return components.count == segments.count
    }

    /// The methods for `request`'s path in its application.
    static func allowed(for request: Request) -> [HTTPMethod] {
        request.application.routeMethods.methods(for: request.url.path)
    }
}

extension Application {
    private struct RouteMethodsKey: StorageKey { typealias Value = RouteMethods }
    private static let lock = NIOLock()

    /// The router's methods per path, read from the registered routes on first use.
    var routeMethods: RouteMethods {
        Self.lock.withLock {
            if let known = storage[RouteMethodsKey.self] { return known }
            let made = RouteMethods(routes: routes.all)
            storage[RouteMethodsKey.self] = made
            return made
        }
    }
}

import Foundation
import Vapor

/// Serves the web app's files from the public folder. Only requests whose first path segment names
/// an entry of that folder reach the file system: Vapor's file middleware looks every path up on a
/// file-system thread pool, which made each API request wait for a thread hop and a `stat` first.
struct StaticFilesMiddleware: AsyncMiddleware {
    private let files: FileMiddleware
    private let entries: Set<String>

    init(publicDirectory: String) {
        files = FileMiddleware(publicDirectory: publicDirectory)
        entries = Set((try? FileManager.default.contentsOfDirectory(atPath: publicDirectory)) ?? [])
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.method == .GET || request.method == .HEAD,
            let first = request.url.path.split(separator: "/", maxSplits: 1).first,
            entries.contains(String(first))
        else { return try await next.respond(to: request) }
        return try await files.respond(to: request, chainingTo: next)
    }
}

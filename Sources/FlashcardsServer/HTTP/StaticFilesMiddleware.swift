import Foundation
import Vapor

/// Serves the web app's files from the public folder. Only requests whose first path segment names
/// an entry of that folder reach the file system: Vapor's file middleware looks every path up on a
/// file-system thread pool, which made each API request wait for a thread hop and a `stat` first.
/// `/sw.js` is served by `ServiceWorkerScript`, with a cache name made from the files it lists.
struct StaticFilesMiddleware: AsyncMiddleware {
    private let files: FileMiddleware
    private let entries: Set<String>
    private let serviceWorker: ServiceWorkerScript

    init(publicDirectory: String) {
        files = FileMiddleware(publicDirectory: publicDirectory)
        entries = Set((try? FileManager.default.contentsOfDirectory(atPath: publicDirectory)) ?? [])
        serviceWorker = ServiceWorkerScript(publicDirectory: publicDirectory)
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.method == .GET || request.method == .HEAD,
            let first = request.url.path.split(separator: "/", maxSplits: 1).first,
            entries.contains(String(first))
        else { return try await next.respond(to: request) }
        if request.url.path == "/sw.js", let script = serviceWorker.script() {
            var headers = HTTPHeaders()
            headers.contentType = HTTPMediaType(type: "text", subType: "javascript", parameters: ["charset": "utf-8"])
            headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
            return Response(status: .ok, headers: headers, body: .init(string: request.method == .HEAD ? "" : script))
        }
        return try await files.respond(to: request, chainingTo: next)
    }
}

/// The service worker with the name of its cache following the content of the files it keeps:
/// `const CACHE = '…'` becomes `fc-shell-` and the first 16 hex digits of a SHA-256 over `sw.js` and
/// every file of its `SHELL` list (`/` is `index.html`). A changed file gives a new name, so the
/// browser installs the worker again and fetches every file anew; no version is bumped by hand.
/// The hash is made again only when a listed file's size, modification time or inode changed.
final class ServiceWorkerScript: @unchecked Sendable {
    static let prefix = "fc-shell-"

    private let directory: String
    private let lock = NSLock()
    private var cached: (signature: [String], script: String)?

    init(publicDirectory: String) {
        directory = publicDirectory
    }

    /// The script as served; nil when the folder has no `sw.js`.
    func script() -> String? {
        guard let source = try? String(contentsOfFile: directory + "/sw.js", encoding: .utf8) else { return nil }
        let paths = ["/sw.js"] + Self.listedFiles(in: source).map { $0 == "/" ? "/index.html" : $0 }
        let manager = FileManager.default
        let signature = paths.map { path -> String in
            let attributes = try? manager.attributesOfItem(atPath: directory + path)
            let facts = [FileAttributeKey.size, .modificationDate, .systemFileNumber].map { key in
                attributes?[key].map { "\($0)" } ?? "-"
            }
            return ([path] + facts).joined(separator: " ")
        }
        if let cached = lock.withLock({ cached }), cached.signature == signature { return cached.script }
        var hasher = SHA256()
        for path in paths {
            hasher.update(data: Data(path.utf8))
            hasher.update(data: manager.contents(atPath: directory + path) ?? Data())
        }
        let digest = hasher.finalize().map { String(format: "%02x", $0) }.joined().prefix(16)
        let script = Self.named(source, Self.prefix + digest)
        lock.withLock { cached = (signature, script) }
        return script
    }

    /// The quoted paths of the `SHELL` array (`const SHELL = [ … ];`).
    static func listedFiles(in source: String) -> [String] {
        guard let start = source.range(of: "const SHELL = ["),
            let end = source.range(of: "];", range: start.upperBound..<source.endIndex)
        else { return [] }
        return source[start.upperBound..<end.lowerBound].split(separator: "'").enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// `source` with its `const CACHE = '…';` naming `name`.
    static func named(_ source: String, _ name: String) -> String {
        guard let start = source.range(of: "const CACHE = '"),
            let end = source.range(of: "'", range: start.upperBound..<source.endIndex)
        else { return source }
        return source.replacingCharacters(in: start.upperBound..<end.lowerBound, with: name)
    }
}

import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

@Suite("Web app serving")
struct WebShellTests {
    @Test("/ is the landing page, every /app path the app shell, with a strict CSP")
    func shell() async throws {
        try await withApp(.sqlite) { app in
            let landing = try String(contentsOfFile: publicDirectory + "/index.html", encoding: .utf8)
            let shell = try String(contentsOfFile: publicDirectory + "/app.html", encoding: .utf8)
            try await app.testing().test(.GET, "/") { res in
                #expect(res.status == .ok)
                #expect(res.body.string == landing)
                let csp = res.headers.first(name: "Content-Security-Policy") ?? ""
                #expect(csp.contains("default-src 'self'"))
                #expect(!csp.contains("unsafe-inline"))
                #expect(res.headers.first(name: "X-Content-Type-Options") == "nosniff")
            }
            for path in ["/app", "/app/login", "/app/stacks/1234/learn", "/app/deep/ly/nested?x=1"] {
                try await app.testing().test(.GET, path) { res in
                    #expect(res.status == .ok, "\(path)")
                    #expect(res.body.string == shell, "\(path)")
                }
            }
            // API routes are not swallowed by the shell.
            try await app.testing().test(.GET, "/api/v1/health") { res in
                #expect(res.status == .ok)
                #expect(res.body.string.contains("ok"))
            }
            try await app.testing().test(.GET, "/api/v1/openapi.json") { res in
                #expect(res.status == .ok)
                let document =
                    try JSONSerialization.jsonObject(with: Data(res.body.readableBytesView)) as? [String: Any]
                #expect((document?["openapi"] as? String)?.hasPrefix("3.1") == true)
            }
        }
    }

    @Test("KaTeX is served from its configured folder, and nothing else of the file system")
    func katex() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("katex-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("window.katex = {};".utf8).write(to: folder.appendingPathComponent("katex.min.js"))
        try Data("wOF2".utf8).write(to: folder.appendingPathComponent("fonts/KaTeX_Main-Regular.woff2"))
        try Data("secret".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try await withApp(
            .sqlite, adjust: { $0.katexDirectory = folder.path },
            { app in
                try await app.testing().test(.GET, "/assets/vendor/katex/katex.min.js") { res in
                    #expect(res.status == .ok)
                    #expect(res.body.string == "window.katex = {};")
                    #expect(res.headers.contentType?.subType == "javascript")
                    #expect(res.headers.first(name: "Content-Security-Policy")?.contains("default-src 'self'") == true)
                }
                try await app.testing().test(.GET, "/assets/vendor/katex/fonts/KaTeX_Main-Regular.woff2") { res in
                    #expect(res.status == .ok)
                }
                for path in [
                    "/assets/vendor/katex/notes.txt", "/assets/vendor/katex/../katex.min.js",
                    "/assets/vendor/katex/%2e%2e/%2e%2e/etc/passwd", "/assets/vendor/katex/fonts",
                    "/assets/vendor/katex/.hidden.js", "/assets/vendor/katex/missing.js",
                ] {
                    // 403 is the file middleware's answer to a path that climbs out of its folder.
                    try await app.testing().test(.GET, path) { res in
                        #expect([.notFound, .forbidden].contains(res.status), "\(path)")
                        #expect(!res.body.string.contains("secret") && !res.body.string.contains("root:"), "\(path)")
                    }
                }
            })
    }
}

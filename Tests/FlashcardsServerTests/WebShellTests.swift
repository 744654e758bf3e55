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
}

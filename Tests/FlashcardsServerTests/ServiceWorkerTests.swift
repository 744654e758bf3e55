import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

@Suite("The service worker's cache name follows its files")
struct ServiceWorkerTests {
    static func cacheName(_ script: String?) throws -> String {
        let script = try #require(script)
        let match = try #require(script.firstMatch(of: #/const CACHE = '(fc-shell-[0-9a-f]{16})';/#))
        return String(match.output.1)
    }

    @Test("a changed listed file (or sw.js) renames the cache; an unlisted one and an unchanged copy do not")
    func nameFollowsContent() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ text: String) throws {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let worker = "const CACHE = 'fc-shell';\nconst SHELL = [\n  '/', '/a.js',\n];\nself.x = 1;\n"
        try write("sw.js", worker)
        try write("index.html", "<p>hi</p>")
        try write("a.js", "export const a = 1;")
        try write("b.js", "export const b = 1;")
        #expect(ServiceWorkerScript.listedFiles(in: worker) == ["/", "/a.js"])

        let first = try Self.cacheName(ServiceWorkerScript(publicDirectory: directory.path).script())
        let script = ServiceWorkerScript(publicDirectory: directory.path)
        #expect(try Self.cacheName(script.script()) == first, "the same files, the same name")
        #expect(script.script() == worker.replacingOccurrences(of: "'fc-shell'", with: "'\(first)'"))

        try write("b.js", "export const b = 2;")
        #expect(try Self.cacheName(script.script()) == first, "b.js is not listed")
        try write("a.js", "export const a = 2;")
        let second = try Self.cacheName(script.script())
        #expect(second != first)
        try write("index.html", "<p>hello</p>")
        let third = try Self.cacheName(script.script())
        #expect(third != second, "/ is index.html")
        try write("sw.js", worker + "self.y = 2;\n")
        #expect(try Self.cacheName(script.script()) != third)
        #expect(ServiceWorkerScript(publicDirectory: directory.path + "/none").script() == nil)
    }

    @Test("/sw.js is served with the hashed name, not cached by the browser")
    func served() async throws {
        try await withApp(.sqlite) { app in
            let source = try String(contentsOfFile: publicDirectory + "/sw.js", encoding: .utf8)
            try await app.testing().test(.GET, "/sw.js") { res in
                #expect(res.status == .ok)
                #expect(res.headers.first(name: "Content-Type")?.hasPrefix("text/javascript") == true)
                #expect(res.headers.first(name: "Cache-Control") == "no-cache")
                let name = try Self.cacheName(res.body.string)
                #expect(
                    res.body.string
                        == source.replacingOccurrences(
                            of: "const CACHE = 'fc-shell';", with: "const CACHE = '\(name)';"))
            }
        }
    }
}

import FlashcardsAPI
import Fluent
import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import FlashcardsServer

/// What an operator watches: readiness beside liveness, `/metrics` for Prometheus behind its token,
/// request ids in responses and in JSON log lines (issue 38, "Operations").
@Suite("Operations: readiness, metrics, request ids, JSON logs")
struct OperationsTests {
    private static let token = "metrics-token-0123456789abcdef"
    private static func withMetrics(_ configuration: inout AppConfiguration) { configuration.metricsToken = token }

    @Test(
        "readiness is 200 on a migrated database and 503 with the reason while a migration is missing",
        arguments: TestDatabase.available)
    func readiness(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await app.testing().test(.GET, "api/v1/ready") { res in
                #expect(res.status == .ok)
                #expect((res.json as? [String: Any])?["status"] as? String == "ready")
            }
            // As while another instance migrates: the newest migration is not recorded yet.
            let sql = try #require(app.db as? any SQLDatabase)
            let newest = try #require(Migrations.all.last).name
            try await sql.raw("DELETE FROM _fluent_migrations WHERE name = \(bind: newest)").run()
            try await app.testing().test(.GET, "api/v1/ready") { res in
                #expect(res.status == .serviceUnavailable)
                let body = res.json as? [String: Any]
                #expect(body?["status"] as? String == "unavailable")
                #expect(body?["reason"] as? String == "migrations pending")
            }
            // Liveness does not depend on the database.
            try await app.testing().test(.GET, "api/v1/health") { res in #expect(res.status == .ok) }
        }
    }

    @Test("without a token /metrics does not exist; with one it needs the token")
    func metricsGuarded() async throws {
        try await withApp(.sqlite) { app in
            try await app.testing().test(.GET, "metrics", headers: bearerHeaders(Self.token)) { res in
                #expect(res.status == .notFound)
            }
        }
        try await withApp(.sqlite, adjust: Self.withMetrics) { app in
            for headers in [HTTPHeaders(), bearerHeaders("metrics-token-0123456789abcdeX"), bearerHeaders("x")] {
                try await app.testing().test(.GET, "metrics", headers: headers) { res in
                    #expect(res.status == .unauthorized)
                    #expect(!res.body.string.contains("http_requests_total"))
                }
            }
        }
    }

    @Test(
        "a scrape shows request latency per route, errors, the job queue and database waits",
        arguments: TestDatabase.available)
    func scrape(db: TestDatabase) async throws {
        try await withApp(db, adjust: Self.withMetrics) { app in
            let token = try await app.compatSignup()
            try await app.testing().test(.GET, "api/v1/stacks", headers: bearerHeaders(token)) { res in
                #expect(res.status == .ok)
            }
            try await app.testing().test(.GET, "api/v1/stacks/\(UUID())", headers: bearerHeaders(token)) { res in
                #expect(res.status == .notFound)
            }
            let user = try #require(try await UserModel.query(on: app.db).first())
            _ = try await JobQueue(store: app.studyStore(on: app.db), now: Date().addingTimeInterval(-90))
                .enqueue(kind: OptimizeJobHandler.kind, userId: user.id!, payload: ["x": 1])
            var text = ""
            try await app.testing().test(.GET, "metrics", headers: bearerHeaders(Self.token)) { res in
                #expect(res.status == .ok)
                #expect(res.headers.contentType?.description.hasPrefix("text/plain") == true)
                text = res.body.string
            }
            let lines = text.split(separator: "\n").map(String.init)
            func value(_ prefix: String) -> Double? {
                lines.first { $0.hasPrefix(prefix) }.flatMap { Double($0.split(separator: " ").last ?? "") }
            }
            // Per route pattern, never per id: a stack's id is a parameter.
            #expect(
                (value(#"http_requests_total{method="GET",path="/api/v1/stacks",status="200"}"#) ?? 0) >= 1, "\(text)")
            #expect(
                (value(#"http_requests_total{method="GET",path="/api/v1/stacks/:stackId",status="404"}"#) ?? 0) >= 1)
            #expect(!text.contains(user.id!.uuidString))
            #expect(
                lines.contains {
                    $0.hasPrefix(
                        #"http_request_duration_seconds_bucket{method="GET",path="/api/v1/stacks",status="200",le="0.005"}"#
                    )
                })
            // The queued job, 90 s old.
            #expect(value(#"flashcards_jobs{kind="optimize",status="queued"}"#) == 1)
            #expect(value(#"flashcards_jobs{kind="generation",status="queued"}"#) == 0)
            let age = try #require(value(#"flashcards_jobs_oldest_queued_seconds{kind="optimize"}"#))
            #expect(age >= 89 && age < 300)
            // The sign-up wrote: it waited for the database (the SQLite write gate, a pooled PostgreSQL connection).
            let database = db == .postgres ? "postgres" : "sqlite"
            #expect((value(#"flashcards_database_wait_seconds_count{database="\#(database)"}"#) ?? 0) >= 1, "\(text)")
        }
    }

    @Test("every response carries its request id; a proxy's id is kept, a malformed one replaced")
    func requestIDs() async throws {
        try await withApp(.sqlite) { app in
            var ids: [String] = []
            for _ in 0..<2 {
                try await app.testing().test(.GET, "api/v1/health") { res in
                    ids.append(res.headers.first(name: .xRequestId) ?? "")
                }
            }
            #expect(ids.allSatisfy { UUID(uuidString: $0) != nil } && ids[0] != ids[1], "\(ids)")
            var headers = HTTPHeaders()
            headers.add(name: .xRequestId, value: "nginx-4f2a.1_b")
            try await app.testing().test(.GET, "api/v1/stacks", headers: headers) { res in
                #expect(res.status == .unauthorized)
                #expect(res.headers.first(name: .xRequestId) == "nginx-4f2a.1_b")
            }
            for bad in ["a b", String(repeating: "x", count: 129), "<script>", "zeile\u{7F}"] {
                var headers = HTTPHeaders()
                headers.add(name: .xRequestId, value: bad)
                try await app.testing().test(.GET, "api/v1/health", headers: headers) { res in
                    let id = res.headers.first(name: .xRequestId) ?? ""
                    #expect(UUID(uuidString: id) != nil, "\(bad) → \(id)")
                }
            }
        }
    }

    @Test("JSON log lines: one object a line with time, level, message and the request id; metadata nested")
    func jsonLogs() throws {
        let lines = NIOLockedValueBox<[String]>([])
        var handler = JSONLogHandler(label: "flashcards.test") { line in lines.withLockedValue { $0.append(line) } }
        handler.logLevel = .info
        var logger = Logger(label: "flashcards.test") { _ in handler }
        logger[metadataKey: "request-id"] = "abc-123"
        logger.debug("not written")
        logger.info("Stapel \"Latein\"\nangelegt", metadata: ["stack": "42", "tags": ["a", "b"]])
        logger.error("kaputt")
        let written = lines.withLockedValue { $0 }
        #expect(written.count == 2)
        #expect(!written.contains { $0.contains("\n") })
        let first = try #require(try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: Any])
        #expect(first["level"] as? String == "info")
        #expect(first["message"] as? String == "Stapel \"Latein\"\nangelegt")
        #expect(first["request_id"] as? String == "abc-123")
        #expect(first["logger"] as? String == "flashcards.test")
        #expect((first["metadata"] as? [String: Any])?["stack"] as? String == "42")
        #expect((first["metadata"] as? [String: Any])?["tags"] as? [String] == ["a", "b"])
        let time = try #require(first["time"] as? String)
        #expect(try Date(time, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) <= Date())
        #expect(first["file"] == nil)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(written[1].utf8)) as? [String: Any])
        #expect(second["level"] as? String == "error")
        #expect((second["file"] as? String)?.contains("OperationsTests.swift") == true)
    }

    @Test("LOG_FORMAT and FLASHCARDS_METRICS_TOKEN are checked when the server starts")
    func configuration() throws {
        #expect(throws: ConfigurationError.self) { try AppConfiguration(values: ["LOG_FORMAT": "xml"]) }
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration(values: ["FLASHCARDS_METRICS_TOKEN": "short"])
        }
        let configured = try AppConfiguration(values: ["LOG_FORMAT": "json", "FLASHCARDS_METRICS_TOKEN": Self.token])
        #expect(configured.logFormat == "json" && configured.metricsToken == Self.token)
    }
}

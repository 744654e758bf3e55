import ArgumentParser
import AsyncHTTPClient
import FlashcardsAPI
import FlashcardsCore
import Foundation
import NIOCore
import NIOHTTP1

/// `flashcards-bench import`: a CSV of 100,000 rows (front, back, hint, tags; quotes, line breaks
/// and umlauts in some fields) through the real server started as its own process: the preview,
/// then the import job from upload to `succeeded`, polled every 20 ms. Target (issue 19): the
/// import under 5 s.
struct ImportBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Benchmark a CSV import of 100,000 rows through the server.")

    @ArgumentParser.Option(help: "Rows of the CSV file.")
    var rows: Int = 100_000

    @ArgumentParser.Option(help: "PostgreSQL URL; SQLite in a temporary folder when absent.")
    var databaseURL: String?

    func run() async throws {
        guard rows > 0 else { throw ValidationError("nothing to import") }
        let serverExecutable = try ServerBenchCommand.serverExecutable()
        let file = Self.csv(rows: rows)
        print(
            "Smart Flashcards import benchmark (\(databaseURL == nil ? "SQLite" : "PostgreSQL"), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores): CSV of \(rows) rows, "
                + String(format: "%.1f MB", Double(file.count) / 1_048_576))
        let environment = ServerBenchCommand.environment(name: "import", databaseURL: databaseURL)
        defer { ServerBenchCommand.removeDataDirectory(of: environment) }
        try await ServerBenchCommand.withServer(serverExecutable, environment: environment) { http, base, pid in
            try await drive(http, base: base, file: file, pid: pid)
        }
    }

    private func drive(_ http: HTTPClient, base: String, file: Data, pid: Int32) async throws {
        try await Self.drive(http, base: base, file: file, fileName: "bench.csv", cards: rows, pid: pid)
    }

    /// Signs up, previews `file`, imports it and prints the figures; the import must make `cards`.
    static func drive(_ http: HTTPClient, base: String, file: Data, fileName: String, cards rows: Int, pid: Int32)
        async throws
    {
        try await ServerBenchCommand.waitForHealth(http, base: base)
        let signup = try JSONEncoder().encode(
            SignupRequest(name: "Import", mail: "import@example.org", password: "benchmark-password"))
        let auth = try FlashcardsJSON.makeDecoder().decode(
            AuthResponse.self,
            from: try await ServerBenchCommand.call(http, .POST, base + "/api/v1/auth/signup", body: signup))
        let token = auth.token

        let previewStart = Date()
        let preview = try FlashcardsJSON.makeDecoder().decode(
            ImportPreviewDTO.self,
            from: try await upload(http, base + "/api/v1/imports/preview", file, fileName: fileName, token: token))
        let previewSeconds = Date().timeIntervalSince(previewStart)
        guard preview.cards == rows, preview.rejected == 0 else {
            throw ValidationError("the preview read \(preview.cards) cards and \(preview.rejected) problems")
        }

        let cpuBefore = ServerBenchCommand.cpuSeconds(of: pid)
        let start = Date()
        var job = try FlashcardsJSON.makeDecoder().decode(
            JobDTO.self, from: try await upload(http, base + "/api/v1/imports", file, fileName: fileName, token: token))
        let accepted = Date().timeIntervalSince(start)
        while !["succeeded", "failed", "cancelled"].contains(job.status) {
            try await Task.sleep(nanoseconds: 20_000_000)
            job = try FlashcardsJSON.makeDecoder().decode(
                JobDTO.self,
                from: try await ServerBenchCommand.call(
                    http, .GET, base + "/api/v1/jobs/\(job.id.uuidString.lowercased())", token: token))
        }
        let seconds = Date().timeIntervalSince(start)
        let cpu = ServerBenchCommand.cpuSeconds(of: pid) - cpuBefore
        guard job.status == "succeeded", let text = job.result else {
            throw ValidationError("the import \(job.status): \(job.error ?? "")")
        }
        let result = try FlashcardsJSON.makeDecoder().decode(ImportResultDTO.self, from: Data(text.utf8))
        guard result.cardsCreated == rows else { throw ValidationError("imported \(result.cardsCreated) cards") }
        print(String(format: "preview: %.2f s", previewSeconds))
        print(
            String(
                format: "import of %d cards (%d reviews): %.2f s from upload to done (upload answered in %.2f s, "
                    + "server CPU %.2f s), peak server memory %.0f MB",
                rows, result.reviewsImported, seconds, accepted, cpu, ServerBenchCommand.peakMemoryMB(of: pid)))
    }

    static func upload(_ http: HTTPClient, _ url: String, _ file: Data, fileName: String, token: String)
        async throws -> Data
    {
        let boundary = "bench-\(UUID().uuidString)"
        var body = ByteBuffer()
        body.writeString(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n")
        body.writeBytes(file)
        body.writeString("\r\n--\(boundary)--\r\n")
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        request.body = .bytes(body)
        let response = try await http.execute(request, timeout: .seconds(120))
        let buffer = try await response.body.collect(upTo: 64 * 1024 * 1024)
        guard response.status.code < 300 else {
            throw ValidationError("POST \(url) answered \(response.status.code): \(String(buffer: buffer))")
        }
        return Data(buffer.readableBytesView)
    }

    /// A spreadsheet's CSV: a header, then rows of varied length; every tenth field quoted with a
    /// comma, a doubled quote or a line break.
    static func csv(rows: Int) -> Data {
        var generator = SplitMix64(seed: 19)
        var table: [[String]] = [["Frage", "Antwort", "Hinweis", "Tags"]]
        table.reserveCapacity(rows + 1)
        let words = ["Zelle", "Mitochondrium", "Osmose", "Ribosom", "Enzym", "Membran", "Größe", "Übergang", "Säure"]
        for index in 0..<rows {
            let word = words[Int(generator.next() % UInt64(words.count))]
            var answer = "Die \(word) Nummer \(index) ist ein Begriff aus Kapitel \(index % 40) mit Erklärung."
            switch index % 10 {
            case 0: answer += " Außerdem: \"wichtig\", prüfungsrelevant."
            case 5: answer += "\nZweite Zeile der Antwort."
            default: break
            }
            table.append([
                "Was bedeutet \(word) \(index)?", answer, index % 3 == 0 ? "Kapitel \(index % 40)" : "",
                "bio kapitel\(index % 40)",
            ])
        }
        return Data(DelimitedText.text(table, separator: ",").utf8)
    }
}

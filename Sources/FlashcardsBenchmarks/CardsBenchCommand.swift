import ArgumentParser
import AsyncHTTPClient
import FlashcardsAPI
import FlashcardsCore
import Foundation
import NIOCore

/// `flashcards-bench cards`: paging through a stack of rich cards against a stack of the same
/// texts as plain cards, in one run through the real server started as its own process. Both stacks
/// are imported from the same CSV (texts with bold words, a formula and a list); the rich stack's
/// cards are then switched to `markdown`, so every page of it is rendered on the way out.
/// Target (issue 20): rich cards page as fast as plain ones.
struct CardsBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cards", abstract: "Benchmark paging through 10,000 rich cards against 10,000 plain ones.")

    @ArgumentParser.Option(help: "Cards in each stack.")
    var cards: Int = 10_000

    @ArgumentParser.Option(help: "Cards per page.")
    var perPage: Int = 50

    @ArgumentParser.Option(help: "Passes through all pages of each stack (alternating plain and rich).")
    var rounds: Int = 3

    @ArgumentParser.Option(help: "PostgreSQL URL; SQLite in a temporary folder when absent.")
    var databaseURL: String?

    func run() async throws {
        guard cards > 0, (1...200).contains(perPage), rounds > 0 else { throw ValidationError("nothing to page") }
        let serverExecutable = try ServerBenchCommand.serverExecutable()
        print(
            "Smart Flashcards paging benchmark (\(databaseURL == nil ? "SQLite" : "PostgreSQL"), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores): \(cards) plain and \(cards) rich cards, "
                + "\(perPage) a page, \(rounds) rounds")
        let environment = ServerBenchCommand.environment(name: "cards", databaseURL: databaseURL)
        defer { ServerBenchCommand.removeDataDirectory(of: environment) }
        try await ServerBenchCommand.withServer(serverExecutable, environment: environment) { http, base, pid in
            try await drive(http, base: base, pid: pid)
        }
    }

    private func drive(_ http: HTTPClient, base: String, pid: Int32) async throws {
        try await ServerBenchCommand.waitForHealth(http, base: base)
        let decoder = FlashcardsJSON.makeDecoder()
        let auth = try decoder.decode(
            AuthResponse.self,
            from: try await ServerBenchCommand.call(
                http, .POST, base + "/api/v1/auth/signup",
                body: try JSONEncoder().encode(
                    SignupRequest(name: "Paging", mail: "paging@example.org", password: "benchmark-password"))))
        let token = auth.token
        let file = Self.csv(rows: cards)
        for name in ["plain.csv", "rich.csv"] {
            let job = try decoder.decode(
                JobDTO.self,
                from: try await ImportBenchCommand.upload(
                    http, base + "/api/v1/imports", file, fileName: name, token: token))
            try await waitFor(job, http: http, base: base, token: token)
        }
        let stacks = try decoder.decode(
            [StackDTO].self, from: try await ServerBenchCommand.call(http, .GET, base + "/api/v1/stacks", token: token))
        guard let plain = stacks.first(where: { $0.name == "plain" }),
            let rich = stacks.first(where: { $0.name == "rich" }),
            plain.cardCount == cards, rich.cardCount == cards
        else { throw ValidationError("the imports made \(stacks.map { "\($0.name): \($0.cardCount)" })") }

        // Every card of the rich stack becomes a Markdown card, eight requests at a time.
        let richPath = base + "/api/v1/stacks/\(rich.id.uuidString.lowercased())"
        var ids: [UUID] = []
        for page in 1...((cards + 199) / 200) {
            let listed = try decoder.decode(
                PageDTO<CardDTO>.self,
                from: try await ServerBenchCommand.call(
                    http, .GET, richPath + "/cards?page=\(page)&perPage=200", token: token))
            ids += listed.items.map(\.id)
        }
        let body = try JSONEncoder().encode(UpdateCardRequest(format: .markdown))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, id) in ids.enumerated() {
                if index >= 8 { try await group.next() }
                group.addTask {
                    _ = try await ServerBenchCommand.call(
                        http, .PATCH, richPath + "/cards/\(id.uuidString.lowercased())", token: token, body: body)
                }
            }
            try await group.waitForAll()
        }

        // Page through both, alternating, so that both see the same machine.
        let pages = (cards + perPage - 1) / perPage
        var times: [String: [Double]] = ["plain": [], "rich": []]
        var cpu: [String: Double] = ["plain": 0, "rich": 0]
        var bytes: [String: Int] = ["plain": 0, "rich": 0]
        for round in 0..<rounds {
            for (name, stack) in [("plain", plain), ("rich", rich)] {
                let path = base + "/api/v1/stacks/\(stack.id.uuidString.lowercased())/cards?perPage=\(perPage)&page="
                let cpuBefore = ServerBenchCommand.cpuSeconds(of: pid)
                for page in 1...pages {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let data = try await ServerBenchCommand.call(http, .GET, path + "\(page)", token: token)
                    times[name]!.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
                    if round == 0 {
                        bytes[name]! += data.count
                        if page == 1, name == "rich" {
                            let first = try decoder.decode(PageDTO<CardDTO>.self, from: data)
                            guard first.items.allSatisfy({ $0.format == .markdown && $0.rendered != nil }) else {
                                throw ValidationError("the rich stack's cards are not rendered")
                            }
                        }
                    }
                }
                cpu[name]! += ServerBenchCommand.cpuSeconds(of: pid) - cpuBefore
            }
        }
        let requests = Double(pages * rounds)
        var p50s: [String: Double] = [:]
        for name in ["plain", "rich"] {
            let (p50, p99) = ServerBenchCommand.percentiles(times[name]!)
            p50s[name] = p50
            print(
                String(
                    format:
                        "%@: a page of %d cards p50 %.2f ms, p99 %.2f ms, server CPU %.2f ms a page, %.0f KB a page",
                    name, perPage, p50, p99, cpu[name]! * 1000 / requests,
                    Double(bytes[name]!) / Double(pages) / 1024))
        }
        print(
            String(
                format: "rich / plain: p50 %.2f×, server CPU %.2f×", p50s["rich"]! / p50s["plain"]!,
                cpu["rich"]! / cpu["plain"]!))
    }

    private func waitFor(_ job: JobDTO, http: HTTPClient, base: String, token: String) async throws {
        var job = job
        while !["succeeded", "failed", "cancelled"].contains(job.status) {
            try await Task.sleep(nanoseconds: 50_000_000)
            job = try FlashcardsJSON.makeDecoder().decode(
                JobDTO.self,
                from: try await ServerBenchCommand.call(
                    http, .GET, base + "/api/v1/jobs/\(job.id.uuidString.lowercased())", token: token))
        }
        guard job.status == "succeeded" else { throw ValidationError("an import \(job.status): \(job.error ?? "")") }
    }

    /// Card texts with the formatting a learner would write: a bold term, a formula, a list.
    static func csv(rows: Int) -> Data {
        var table: [[String]] = [["Frage", "Antwort"]]
        table.reserveCapacity(rows + 1)
        for index in 0..<rows {
            table.append([
                "Was beschreibt **Gleichung \(index)** in Kapitel \(index % 40)?",
                "Die Größe $x_{\(index)} = \\frac{a}{b} + \\sqrt{c}$ mit:\n- *a* der Anfang\n- *b* die Basis\n"
                    + "- `c` die Konstante \(index % 7)",
            ])
        }
        return Data(DelimitedText.text(table, separator: ",").utf8)
    }
}

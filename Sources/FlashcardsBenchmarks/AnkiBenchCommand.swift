import ArgumentParser
import FlashcardsCore
import FlashcardsServer
import Foundation
import NIOPosix

/// `flashcards-bench anki`: an Anki package of 50,000 notes with 500,000 answers in their review
/// history (written by the server's own package writer: schema 11, as Anki's legacy export) through
/// the real server: the preview, then the import job from upload to `succeeded`, each card's
/// schedule replayed from its history. Target (issue 19): under 30 s.
struct AnkiBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anki", abstract: "Benchmark the import of a large Anki package with its review history.")

    @ArgumentParser.Option(help: "Notes (one card each).")
    var notes: Int = 50_000

    @ArgumentParser.Option(help: "Answers in the review history, spread over the cards.")
    var reviews: Int = 500_000

    @ArgumentParser.Option(help: "PostgreSQL URL; SQLite in a temporary folder when absent.")
    var databaseURL: String?

    func run() async throws {
        guard notes > 0, reviews >= 0 else { throw ValidationError("nothing to import") }
        let serverExecutable = try ServerBenchCommand.serverExecutable()
        let start = Date()
        let file = try await Self.package(notes: notes, reviews: reviews)
        print(
            "Smart Flashcards Anki import benchmark (\(databaseURL == nil ? "SQLite" : "PostgreSQL"), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores): \(notes) notes, \(reviews) reviews, "
                + String(
                    format: "%.1f MB package (written in %.1f s)", Double(file.count) / 1_048_576,
                    Date().timeIntervalSince(start)))
        let environment = ServerBenchCommand.environment(name: "anki", databaseURL: databaseURL)
        defer { ServerBenchCommand.removeDataDirectory(of: environment) }
        try await ServerBenchCommand.withServer(serverExecutable, environment: environment) { http, base, pid in
            try await ImportBenchCommand.drive(
                http, base: base, file: file, fileName: "bench.apkg", cards: notes, pid: pid)
        }
        print("target: under 30 s")
    }

    /// A package of `notes` cards, each answered `reviews / notes` times (the first few one more)
    /// over the past two years: learning steps first, then reviews at growing intervals, with a
    /// lapse now and then.
    static func package(notes: Int, reviews: Int) async throws -> Data {
        var generator = SplitMix64(seed: 1_919)
        let now = Date()
        let cards = (0..<notes).map { index -> AnkiPackageWriter.Card in
            let count = reviews / notes + (index < reviews % notes ? 1 : 0)
            var time = now.addingTimeInterval(-Double(730 * 86_400) + Double(generator.next() % 86_400))
            var interval = 0
            var answers: [AnkiPackageWriter.Review] = []
            for step in 0..<count {
                let lapse = step > 2 && generator.next() % 10 == 0
                let ease = step == 0 ? 3 : (lapse ? 1 : (generator.next() % 5 == 0 ? 4 : 3))
                let type = step < 2 ? 0 : (answers.last?.ease == 1 ? 2 : 1)
                let next = lapse ? -600 : max(1, interval * 2 + 1)
                answers.append(
                    AnkiPackageWriter.Review(
                        time: time, ease: ease, durationMs: 3_000 + Int(generator.next() % 9_000), type: type,
                        interval: next, lastInterval: interval))
                interval = max(0, next)
                time = time.addingTimeInterval(Double(max(1, min(interval, 60))) * 86_400 / 4)
            }
            var schedule = CardSchedule.new(createdAt: now)
            if count > 0 {
                schedule.state = .review
                schedule.due = now.addingTimeInterval(Double(generator.next() % 30) * 86_400)
                schedule.lastReviewedAt = answers.last?.time
                schedule.reviewCount = count
            }
            return AnkiPackageWriter.Card(
                question: "Frage \(index): Was bedeutet Begriff \(index) in Kapitel \(index % 40)?",
                answer: "Antwort \(index): eine Erklärung mit Umlauten (ä, ö, ü) & <Zeichen>.", hint: nil,
                tags: ["kapitel\(index % 40)"], createdAt: now.addingTimeInterval(-730 * 86_400), schedule: schedule,
                reviews: answers)
        }
        return try await AnkiPackageWriter.package(deck: "Bench", cards: cards, now: now, threadPool: .singleton)
    }
}

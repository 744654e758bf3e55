import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Fills a database with one user owning one stack of `cardCount` cards, each with a review
/// history, by multi-row inserts (seeding 100,000 cards through HTTP would take far longer than
/// the benchmark itself). Due dates are spread over the past week and the next 60 days, so about
/// a tenth of the cards is due: a realistic, not a best-case, next-card query.
///
/// Every row is written as SQL with the literal column names of the server's migrations
/// (Sources/FlashcardsServer/Migrations), so the server's Fluent models stay inside the server; the
/// rows are those the server's own models would write for the same user and stack.
public enum BenchmarkSeeder {
    /// What was seeded.
    public struct Seeded: Sendable {
        /// The user's mail.
        public let mail: String
        /// The user's password.
        public let password: String
        /// The stack's id.
        public let stackId: UUID
    }

    /// Seeds the database of `app` (already configured and migrated). A `ladder` stack is what the
    /// original API makes; an `fsrs` stack gets cards in review with an FSRS memory state, FSRS
    /// ratings in their history and a daily review cap above the benchmark's load, so next-card
    /// runs its full path (allowance, three queue seeks, counts) on every request.
    /// `analyze: false` leaves the statistics to the caller (`analyze(_:)` once after many seeds).
    public static func seed(
        _ app: Application, cardCount: Int, scheduler: String = "ladder", reviewsPerCard: Int = 3, now: Date = Date(),
        analyze: Bool = true
    ) async throws -> Seeded {
        let fsrs = scheduler == "fsrs"
        // Both of the server's drivers (SQLite, PostgreSQL) are SQL databases.
        let sql = app.db as! any SQLDatabase
        let password = "benchmark-password"
        let mail = "bench-\(scheduler)-\(cardCount)-\(UUID().uuidString.prefix(8).lowercased())@example.org"

        let userId = try await insertUser(
            sql, name: "Benchmark \(cardCount)", mail: mail, passwordHash: try await app.password.async.hash(password),
            now: now)
        // FSRS stacks lift the daily review cap.
        var settings = StackSettings()
        if fsrs {
            settings.scheduler = .fsrs
            settings.reviewsPerDay = 99_999
        }
        let (stackId, stackUniqueId) = try await insertStack(
            sql, userId: userId, name: "Benchmark", settings: settings, now: now)

        var generator = SplitMix64(seed: UInt64(cardCount))
        try await insertCards(
            sql, stackId: stackId, userId: userId, count: cardCount, fsrs: fsrs, reviewsPerCard: reviewsPerCard,
            now: now,
            generator: &generator)
        // Reviews for every card, in batches, from the cards' numeric ids.
        let ids = try await sql.select().column("id").from("cards").where("stack_id", .equal, stackId).orderBy("id")
            .all().map { try $0.decode(column: "id", as: Int.self) }
        let state = #"{"due":"2026-01-01T00:00:00.000Z","level":1}"#
        for chunk in stride(from: 0, to: ids.count, by: 300) {
            var rows: [[any SQLExpression]] = []
            for id in ids[chunk..<min(chunk + 300, ids.count)] {
                for review in 0..<reviewsPerCard {
                    rows.append([
                        SQLBind(UUID()), SQLBind(userId), SQLBind(id), SQLBind(stackId),
                        SQLBind(now.addingTimeInterval(Double(-80 + review * 20) * 86_400)),
                        SQLBind(fsrs ? Int(generator.next() % 4) + 1 : Int(generator.next() % 3)), SQLBind(scheduler),
                        SQLBind(state), SQLBind(state),
                        SQLBind(Optional<Int>.none),
                    ])
                }
            }
            try await sql.insert(into: "review_logs")
                .columns(
                    "id", "user_id", "card_id", "stack_id", "reviewed_at", "rating", "scheduler", "state_before",
                    "state_after", "duration_ms"
                )
                .rows(rows)
                .run()
        }
        if analyze { try await Self.analyze(app) }
        return Seeded(mail: mail, password: password, stackId: stackUniqueId)
    }

    /// Fresh statistics for the seeded tables. On PostgreSQL a `VACUUM` as well: hundreds of
    /// thousands of rows inserted a moment ago would otherwise be vacuumed (and their hint bits
    /// written) by autovacuum while the first figures are taken, which a database that grew over
    /// months does not do (docs/benchmarks.md).
    public static func analyze(_ app: Application) async throws {
        let sql = app.db as! any SQLDatabase
        if sql.dialect.name == "sqlite" {
            try await sql.raw("ANALYZE").run()
        } else {
            try await sql.raw("VACUUM (ANALYZE) cards, review_logs").run()
        }
    }

    /// `total` cards of a stack, in batches: due dates spread over the past week and the next 60
    /// days, levels at random; FSRS cards in review with a memory state.
    static func insertCards(
        _ sql: any SQLDatabase, stackId: Int, userId: UUID, count total: Int, fsrs: Bool, reviewsPerCard: Int,
        now: Date, generator: inout SplitMix64
    ) async throws {
        let batch = 1_000
        var created = 0
        while created < total {
            let count = min(batch, total - created)
            var rows: [[any SQLExpression]] = []
            rows.reserveCapacity(count)
            for index in created..<(created + count) {
                let question = "Frage \(index): Was bezeichnet der Begriff Nummer \(index) in Kapitel \(index % 40)?"
                let answer = "Antwort \(index): eine kurze, vollständige Erklärung mit Umlauten (ä, ö, ü) und Zahlen."
                let due = now.addingTimeInterval(Double(generator.next() % (67 * 86_400)) - 7 * 86_400)
                let level = Int(generator.next() % 8)
                // In review for FSRS; for the ladder the state the memory-state migration derives.
                let inReview = fsrs || level >= 4
                rows.append([
                    SQLBind(UUID()), SQLBind(stackId), SQLBind(userId), SQLBind(question), SQLBind(answer),
                    SQLBind(Optional<String>.none),
                    SQLBind(searchText(question: question, answer: answer)),
                    SQLBind(due), SQLBind(level), SQLBind(reviewsPerCard),
                    SQLBind(now.addingTimeInterval(-90 * 86_400)), SQLBind(now.addingTimeInterval(-90 * 86_400)),
                    SQLBind(inReview ? 2 : 1), SQLBind(inReview ? "review" : "learning"),
                    SQLBind(fsrs ? Optional(1 + Double(generator.next() % 6_000) / 100) : nil),
                    SQLBind(fsrs ? Optional(2 + Double(generator.next() % 700) / 100) : nil),
                    SQLBind(now.addingTimeInterval(-80 * 86_400)),
                    SQLBind(now.addingTimeInterval(Double(-80 + (reviewsPerCard - 1) * 20) * 86_400)),
                ])
            }
            try await sql.insert(into: "cards")
                .columns(
                    "unique_id", "stack_id", "user_id", "question", "answer", "hint", "search_text", "due_at", "level",
                    "review_count", "created_at", "updated_at", "queue", "state", "stability", "difficulty",
                    "first_reviewed_at", "last_reviewed_at"
                )
                .rows(rows)
                .run()
            created += count
        }
    }

    /// A user, as an account the server creates: `mail_key` is the trimmed, lowercased mail,
    /// `token_version` starts at 0; the time zone is one where it is about noon now.
    static func insertUser(_ sql: any SQLDatabase, name: String, mail: String, passwordHash: String, now: Date)
        async throws -> UUID
    {
        let userId = UUID()
        try await sql.insert(into: "users")
            .columns(
                "id", "name", "mail", "mail_key", "password_hash", "time_zone", "token_version", "created_at"
            )
            .values(
                SQLBind(userId), SQLBind(name), SQLBind(mail),
                SQLBind(mail.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()),
                SQLBind(passwordHash), SQLBind(noonZone(at: now)), SQLBind(0), SQLBind(now)
            )
            .run()
        return userId
    }

    /// A stack, as the original API makes one (hints on, no day counts yet) with `settings`; its
    /// sequential id and its unique id.
    static func insertStack(
        _ sql: any SQLDatabase, userId: UUID, name: String, settings: StackSettings, now: Date
    ) async throws -> (id: Int, uniqueId: UUID) {
        let stackUniqueId = UUID()
        try await sql.insert(into: "stacks")
            .columns(
                "unique_id", "user_id", "name", "color", "created_at", "updated_at", "hints_enabled", "scheduler",
                "desired_retention", "learning_steps", "relearning_steps", "new_cards_per_day", "reviews_per_day",
                "spread_day", "reviewed_since", "reviewed_today", "fresh_today"
            )
            .values(
                SQLBind(stackUniqueId), SQLBind(userId), SQLBind(name), SQLBind("#059669"), SQLBind(now),
                SQLBind(now), SQLBind(true), SQLBind(settings.scheduler.rawValue),
                SQLBind(settings.desiredRetention), SQLBind(StackSettings.stepsText(settings.learningSteps)),
                SQLBind(StackSettings.stepsText(settings.relearningSteps)), SQLBind(settings.newCardsPerDay),
                SQLBind(settings.reviewsPerDay), SQLBind(Optional<Int>.none), SQLBind(Optional<Date>.none),
                SQLBind(0), SQLBind(0)
            )
            .run()
        // The stack's sequential id, which the database chose.
        let stackId = try await sql.select().column("id").from("stacks").where("unique_id", .equal, stackUniqueId)
            .first(decodingColumn: "id", as: Int.self)
        guard let stackId else { throw Abort(.internalServerError, reason: "the seeded stack was not found") }
        return (stackId, stackUniqueId)
    }

    /// A fixed-offset zone in which it is about noon at `now`, so the learner's day (which decides
    /// what is due) never ends during a run, whenever the benchmark is started.
    static func noonZone(at now: Date) -> String {
        let hour = Int(now.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) / 3_600)
        let offset = 12 - hour  // from UTC, -11 … +12
        // POSIX names: "Etc/GMT-5" is five hours ahead of UTC.
        return offset == 0 ? "Etc/GMT" : offset > 0 ? "Etc/GMT-\(offset)" : "Etc/GMT+\(-offset)"
    }

    /// What the server's card search looks in (`cards.search_text`): question, answer and hint,
    /// lowercased, one per line; the server's `CardModel.searchText` writes the same.
    static func searchText(question: String, answer: String, hint: String? = nil) -> String {
        [question, answer, hint ?? ""].joined(separator: "\n").lowercased()
    }
}

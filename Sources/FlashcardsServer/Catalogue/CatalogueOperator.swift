import Fluent
import Foundation
import SQLKit

/// The operator's side of the catalogue (`flashcards catalogue`): the reports waiting for a
/// verdict, hiding an entry for everyone, or dismissing its reports.
public struct CatalogueOperator: Sendable {
    /// A report waiting for the operator.
    public struct Report: Sendable, Equatable {
        public let entryId: UUID
        public let stackName: String
        public let author: String
        public let reason: String
        public let note: String?
        public let reportedAt: Date
    }

    let db: any Database

    /// The operator's view of `db`.
    public init(db: any Database) {
        self.db = db
    }

    private var sql: any SQLDatabase {
        get throws {
            guard let sql = db as? any SQLDatabase else { throw AppError.conflict("Not an SQL database.") }
            return sql
        }
    }

    /// Open reports of entries still shown, oldest first.
    public func reports() async throws -> [Report] {
        struct Row: Decodable {
            let entry_id: UUID
            let name: String
            let author: String
            let reason: String
            let note: String?
            let created_at: Date
        }
        return try await sql.raw(
            """
            SELECT r.entry_id, s.name, u.name AS author, r.reason, r.note, r.created_at
            FROM catalogue_reports r JOIN catalogue_entries e ON e.id = r.entry_id
            JOIN stacks s ON s.id = e.stack_id JOIN users u ON u.id = e.user_id
            WHERE r.resolved_at IS NULL AND e.hidden_at IS NULL ORDER BY r.created_at, r.entry_id
            """
        ).all(decoding: Row.self).map {
            Report(
                entryId: $0.entry_id, stackName: $0.name, author: $0.author, reason: $0.reason, note: $0.note,
                reportedAt: $0.created_at)
        }
    }

    /// Hides the entry for everyone and resolves its reports. False when there is no such entry.
    @discardableResult
    public func hide(_ entry: UUID, now: Date = Date()) async throws -> Bool {
        try await resolve(entry, hiding: true, now: now)
    }

    /// Keeps the entry shown and resolves its reports (the reporters still do not see it).
    @discardableResult
    public func dismiss(_ entry: UUID, now: Date = Date()) async throws -> Bool {
        try await resolve(entry, hiding: false, now: now)
    }

    private func resolve(_ entry: UUID, hiding: Bool, now: Date) async throws -> Bool {
        let sql = try sql
        struct Found: Decodable { let id: UUID }
        guard
            try await sql.raw("SELECT id FROM catalogue_entries WHERE id = \(bind: entry)").first(decoding: Found.self)
                != nil
        else { return false }
        if hiding {
            try await sql.update("catalogue_entries").set("hidden_at", to: SQLBind(now))
                .where("id", .equal, SQLBind(entry)).run()
        }
        try await sql.update("catalogue_reports").set("resolved_at", to: SQLBind(now))
            .where("entry_id", .equal, SQLBind(entry)).where("resolved_at", .is, SQLLiteral.null).run()
        return true
    }
}

import Foundation
import Vapor

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

    let catalogue: CatalogueStore

    /// The operator's view of the application's database.
    public init(application: Application) {
        self.catalogue = application.studyStore(on: application.db).catalogue
    }

    /// Open reports of entries still shown, oldest first.
    public func reports() async throws -> [Report] {
        try await catalogue.openReports().map {
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
        try await catalogue.resolve(entry, hiding: hiding, now: now)
    }
}

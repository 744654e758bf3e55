import ArgumentParser
import FlashcardsServer
import Foundation

/// `flashcards catalogue`: the operator's view of reported catalogue entries (docs/explore.md).
struct CatalogueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "Reported stacks in the public catalogue: list them, hide one for everyone, or dismiss its reports.",
        subcommands: [Reports.self, Hide.self, Dismiss.self], defaultSubcommand: Reports.self)

    struct Reports: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reports", abstract: "List open reports.")

        func run() async throws {
            let reports = try await withOperator { try await $0.reports() }
            if reports.isEmpty { print("No open reports.") }
            let format = ISO8601DateFormatter()
            for report in reports {
                print(
                    "\(report.entryId.uuidString.lowercased())  \(format.string(from: report.reportedAt))  \(report.reason)  "
                        + "\"\(report.stackName)\" by \(report.author)" + (report.note.map { ": \($0)" } ?? ""))
            }
        }
    }

    struct Hide: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hide", abstract: "Hide an entry for everyone and resolve its reports.")
        @Argument(help: "The entry's id (from `flashcards catalogue reports`).") var entry: String

        func run() async throws {
            let id = try entryId(entry)
            guard try await withOperator({ try await $0.hide(id) }) else {
                throw CleanExitError(message: "No catalogue entry has the id \(entry).")
            }
            print("Hidden: \(entry)")
        }
    }

    struct Dismiss: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dismiss", abstract: "Keep an entry shown and resolve its reports.")
        @Argument(help: "The entry's id (from `flashcards catalogue reports`).") var entry: String

        func run() async throws {
            let id = try entryId(entry)
            guard try await withOperator({ try await $0.dismiss(id) }) else {
                throw CleanExitError(message: "No catalogue entry has the id \(entry).")
            }
            print("Reports dismissed: \(entry)")
        }
    }
}

private func entryId(_ text: String) throws -> UUID {
    guard let id = UUID(uuidString: text) else { throw ValidationError("'\(text)' is not an entry id.") }
    return id
}

/// Runs `body` on the configured database (migrated, no HTTP server started).
private func withOperator<T: Sendable>(_ body: (CatalogueOperator) async throws -> T) async throws -> T {
    var configuration = try loadConfiguration()
    configuration.logLevel = "warning"
    configuration.jobWorkers = 0
    let app = try await makeApplication(configuration)
    do {
        let result = try await body(CatalogueOperator(application: app))
        try await app.asyncShutdown()
        return result
    } catch {
        try? await app.asyncShutdown()
        throw error
    }
}

import ArgumentParser
import FlashcardsAPI
import FlashcardsClient
import Foundation

/// `flashcards export`
struct ExportCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Export a stack as CSV (spreadsheets), TSV (Quizlet), an Anki package (apkg) or JSON (a backup with the history), or the whole account.",
        discussion: """
            --account writes a backup of the whole account (stacks, history, settings, progress) as JSON, or as a zip \
            with --format zip; restore it with: flashcards import FILE --restore.
            """)

    @OptionGroup var server: ServerOption
    @Argument(help: "The stack: name or id (none with --account).") var stack: String?
    @Option(help: "csv, tsv, apkg or json; with --account: json or zip.") var format: String?
    @Flag(help: "Back up the whole account instead of one stack.") var account = false
    @Option(name: .shortAndLong, help: "Write to this file (default: the stack's name and the format's extension).")
    var output: String?

    func execute(output lines: CommandOutput, environment: [String: String], input: @escaping () -> String?)
        async throws
    {
        if account {
            guard stack == nil else { throw ValidationError("--account exports every stack: name none.") }
            let zipped = (format ?? "json") == "zip"
            guard zipped || format == nil || format == "json" else {
                throw ValidationError("--format must be json or zip with --account.")
            }
            let client = try server.client(config: ClientConfig(environment: environment), environment: environment)
            let data = try await client.backup(zipped: zipped)
            let path = output ?? "smart-flashcards-backup.\(zipped ? "zip" : "json")"
            try write(data, to: path)
            lines.line("Wrote the account's backup to \(path).")
            return
        }
        guard let stack else { throw ValidationError("Name a stack, or use --account.") }
        let format = self.format ?? "csv"
        guard let format = ExportFormat(rawValue: format) else {
            throw ValidationError(
                "--format must be one of: \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let client = try server.client(config: ClientConfig(environment: environment), environment: environment)
        guard let found = try await findStack(stack, in: client) else {
            throw CleanExitError(message: "No stack \"\(stack)\" (see: flashcards stacks).")
        }
        let data = try await client.exportStack(found.id, format: format)
        let safeName = found.name.map { "/\\:".contains($0) ? "_" : $0 }
        let path = output ?? "\(String(safeName)).\(format.rawValue)"
        try write(data, to: path)
        if path != "-" { lines.line("Wrote \(found.cardCount) cards to \(path).") }
    }

    /// Writes `data` to `path`, or to standard output for `-`.
    private func write(_ data: Data, to path: String) throws {
        if path == "-" {
            FileHandle.standardOutput.write(data)
        } else {
            try data.write(to: URL(fileURLWithPath: path))
        }
    }
}

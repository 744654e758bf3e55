import ArgumentParser
import FlashcardsAPI
import FlashcardsClient
import Foundation

/// `flashcards import`
struct ImportCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import a CSV/TSV file (Quizlet, spreadsheets), an Anki package (.apkg) or a Smart Flashcards backup (.json) with its review history.",
        discussion: """
            All or nothing: a file with a bad line imports nothing and names the line. With --restore, a backup of a \
            whole account (flashcards export --account) is restored into this account, which must have no stacks.
            """)

    @OptionGroup var server: ServerOption
    @Argument(help: "The file to import.") var file: String
    @Option(help: "The stack (name or id): an existing one gets the cards, else a new one of that name is made.")
    var stack: String?
    @Option(help: "Column separator (one character; \"\\t\" for tab). Default: detected.") var separator: String?
    @Option(help: "Whether the first row is a header: yes, no or auto.") var header: String = "auto"
    @Flag(help: "Show what would be imported; import nothing.") var dryRun = false
    @Flag(help: "Restore an account backup: stacks, history, settings and progress (the account must have no stacks).")
    var restore = false

    func execute(output: CommandOutput, environment: [String: String], input: @escaping () -> String?) async throws {
        let client = try server.client(config: ClientConfig(environment: environment), environment: environment)
        let url = URL(fileURLWithPath: file)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CleanExitError(message: "Cannot read \(file).")
        }
        if restore {
            guard stack == nil, separator == nil, !dryRun else {
                throw ValidationError("--restore takes no --stack, --separator or --dry-run.")
            }
            let result = try await client.restoreAccount(data, fileName: url.lastPathComponent)
            output.line(
                "Restored \(result.stacks.count) stacks with \(result.cardsCreated) cards and \(result.reviewsImported) reviews."
            )
            return
        }
        var options = ImportOptionsDTO(separator: separator)
        switch header {
        case "yes": options.hasHeader = true
        case "no": options.hasHeader = false
        case "auto": break
        default: throw ValidationError("--header must be yes, no or auto.")
        }
        if let stack {
            if let existing = try await findStack(stack, in: client) {
                options.stackId = existing.id
            } else {
                options.stackName = stack
            }
        }
        let preview = try await client.previewImport(data, fileName: url.lastPathComponent, options: options)
        for problem in preview.problems { output.line(problem.message) }
        if preview.rejected > preview.problems.count {
            output.line("… and \(preview.rejected - preview.problems.count) more lines with problems.")
        }
        var target =
            options.stackId != nil
            ? "into \"\(stack ?? "")\"" : "as a new stack \"\(options.stackName ?? preview.suggestedStackName)\""
        if let decks = preview.decks, stack == nil {
            // An Anki package without --stack: one stack per deck.
            target = "as \(decks.count) new stacks (one per deck: \(decks.map(\.name).joined(separator: ", ")))"
        }
        if let reviews = preview.reviews, reviews > 0 {
            output.line("The review history (\(reviews) answers) comes along.")
        }
        if let images = preview.images, images > 0 {
            output.line("\(images) images come along (the cards showing them become rich cards).")
        }
        if let media = preview.media, media > (preview.images ?? 0) {
            output.line("\(media - (preview.images ?? 0)) other media files (sounds, …) are left out.")
        }
        if dryRun || preview.rejected > 0 {
            output.line("\(preview.cards) cards would be imported \(target); nothing was imported.")
            if preview.rejected > 0 {
                throw CleanExitError(message: "The file has \(preview.rejected) lines with problems.")
            }
            return
        }
        let result = try await client.importFile(data, fileName: url.lastPathComponent, options: options)
        for stack in result.stacks {
            output.line("Imported \(stack.cards) cards into \"\(stack.name)\" (\(stack.id.uuidString.lowercased())).")
        }
    }
}

import ArgumentParser

/// The `flashcards` command: runs the server and the tools around it.
public struct FlashcardsCommand: AsyncParsableCommand {
    /// The command's description and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "flashcards",
        abstract: "Smart Flashcards: spaced-repetition server and tools.",
        subcommands: [
            ServeCommand.self, MigrateCommand.self, FSRSCommand.self, GenerateCommand.self,
            BackupCommand.self, RestoreCommand.self, LoginCommand.self, LogoutCommand.self, StacksCommand.self,
            ImportCommand.self, ExportCommand.self, CatalogueCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    /// Creates the command.
    public init() {}
}

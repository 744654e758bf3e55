import ArgumentParser

/// The `flashcards-bench` command: benchmarks of the server that print their figures. Kept out of
/// the product targets, so the shipped `flashcards` carries no benchmark code.
public struct FlashcardsBenchCommand: AsyncParsableCommand {
    /// The command's description and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "flashcards-bench", abstract: "Smart Flashcards benchmarks (run a release build).",
        subcommands: [
            ServerBenchCommand.self, HomeBenchCommand.self, ImportBenchCommand.self, AnkiBenchCommand.self,
            CardsBenchCommand.self, ImagesBenchCommand.self,
        ])

    /// Creates the command.
    public init() {}
}

import ArgumentParser

/// `flashcards bench`: benchmarks that print their figures.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Benchmarks (run a release build).", subcommands: [ServerBenchCommand.self])
}

import ArgumentParser
import FlashcardsBenchmarks
import NIOCore
import NIOPosix

/// The benchmark executable's entry point.
@main
enum Entry {
    static func main() async {
        // As in `flashcards`: Swift concurrency on NIO's event loops, so the benchmark's client side
        // runs as it did inside `flashcards` (docs/benchmarks.md). Must come before any other
        // asynchronous work.
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        await EntryCommand.main()
    }
}

/// `AsyncMainProtocol` hands parsing and the asynchronous dispatch to ArgumentParser itself (see
/// Sources/flashcards/Entry.swift).
private struct EntryCommand: AsyncMainProtocol {
    typealias Command = FlashcardsBenchCommand
}

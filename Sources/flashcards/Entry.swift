import ArgumentParser
import FlashcardsCLI
import NIOCore
import NIOPosix

/// The executable's entry point.
@main
enum Entry {
    static func main() async {
        // Swift concurrency runs on NIO's event loops instead of its own thread pool, so an awaited
        // database call resumes without a hop between the two pools (fewer context switches per
        // request; measured in docs/benchmarks.md). Must come before any other asynchronous work.
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        await EntryCommand.main()
    }
}

/// `AsyncMainProtocol` hands parsing and the asynchronous dispatch to ArgumentParser itself; calling
/// `FlashcardsCommand.main()` directly resolves to the synchronous overload, which refuses
/// asynchronous commands.
private struct EntryCommand: AsyncMainProtocol {
    typealias Command = FlashcardsCommand
}

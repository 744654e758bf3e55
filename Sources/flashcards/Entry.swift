import ArgumentParser
import FlashcardsCLI

/// The executable's entry point. `AsyncMainProtocol` hands parsing and the asynchronous dispatch to
/// ArgumentParser itself; calling `FlashcardsCommand.main()` from here resolves to the synchronous
/// overload, which refuses asynchronous commands.
@main
struct Entry: AsyncMainProtocol {
    typealias Command = FlashcardsCommand
}

import ArgumentParser
import FlashcardsAPI
import FlashcardsClient
import Foundation

/// `flashcards stacks`
struct StacksCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "stacks", abstract: "List your stacks: cards, cards due, name and id.")

    @OptionGroup var server: ServerOption

    func execute(output: CommandOutput, environment: [String: String], input: @escaping () -> String?) async throws {
        let client = try server.client(config: ClientConfig(environment: environment), environment: environment)
        let stacks = try await client.stacks()
        guard !stacks.isEmpty else {
            output.line("No stacks yet.")
            return
        }
        output.line("CARDS    DUE  ID                                    NAME")
        for stack in stacks {
            let cards = String(stack.cardCount).leftPadded(to: 5)
            let due = String(stack.dueCount).leftPadded(to: 6)
            output.line("\(cards) \(due)  \(stack.id.uuidString.lowercased())  \(stack.name)")
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

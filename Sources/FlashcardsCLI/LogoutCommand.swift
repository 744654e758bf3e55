import ArgumentParser
import FlashcardsAPI
import FlashcardsClient
import Foundation

/// `flashcards logout`
struct LogoutCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Sign out: the server revokes the token and it is forgotten here.")

    @OptionGroup var server: ServerOption

    func execute(output: CommandOutput, environment: [String: String], input: @escaping () -> String?) async throws {
        let config = ClientConfig(environment: environment)
        if let client = try? server.client(config: config, environment: environment) {
            try? await client.signOut()
        }
        try config.remove()
        output.line("Signed out.")
    }
}

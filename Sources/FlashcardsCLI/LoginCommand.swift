import ArgumentParser
import FlashcardsAPI
import FlashcardsClient
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `flashcards login`
struct LoginCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in to a server and keep the token for the other commands.")

    @OptionGroup var server: ServerOption
    @Option(help: "The account's e-mail address.") var mail: String
    @Flag(help: "Read the password from standard input (else $FLASHCARDS_PASSWORD, else a prompt).")
    var passwordStdin = false

    func execute(output: CommandOutput, environment: [String: String], input: @escaping () -> String?) async throws {
        let config = ClientConfig(environment: environment)
        let client = try server.client(config: config, environment: environment, signedIn: false)
        let password: String
        if passwordStdin {
            password = input() ?? ""
        } else if let fromEnvironment = environment["FLASHCARDS_PASSWORD"] {
            password = fromEnvironment
        } else {
            password = Self.prompt("Password: ") ?? ""
        }
        let auth = try await client.login(mail: mail, password: password)
        try config.save(ClientSession(server: client.baseURL.absoluteString, token: auth.token))
        output.line("Signed in as \(auth.user.name) <\(auth.user.mail)> at \(client.baseURL.absoluteString).")
    }

    /// Reads a line with the terminal's echo off.
    static func prompt(_ text: String) -> String? {
        FileHandle.standardError.write(Data(text.utf8))
        var settings = termios()
        let terminal = tcgetattr(STDIN_FILENO, &settings) == 0
        if terminal {
            var silent = settings
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        }
        defer {
            if terminal {
                tcsetattr(STDIN_FILENO, TCSANOW, &settings)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        return readLine(strippingNewline: true)
    }
}

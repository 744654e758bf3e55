import ArgumentParser
import FlashcardsAPI
import FlashcardsClient
import Foundation

// `flashcards login | logout | stacks | import | export`: a client of any server over the SDK.
// The sign-in is kept in `credentials.json` (mode 0600) in `$FLASHCARDS_CONFIG_DIR`, else
// `$XDG_CONFIG_HOME/flashcards`, else `~/.config/flashcards`.

/// The server and token a client command uses.
struct ClientSession: Codable, Equatable {
    var server: String
    var token: String
}

/// Reads and writes the stored sign-in.
struct ClientConfig {
    let directory: URL

    /// The directory the environment names.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let dir = environment["FLASHCARDS_CONFIG_DIR"], !dir.isEmpty {
            directory = URL(fileURLWithPath: dir)
        } else if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            directory = URL(fileURLWithPath: xdg).appendingPathComponent("flashcards")
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            directory = URL(fileURLWithPath: home).appendingPathComponent(".config/flashcards")
        }
    }

    var file: URL { directory.appendingPathComponent("credentials.json") }

    func load() -> ClientSession? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(ClientSession.self, from: data)
    }

    func save(_ session: ClientSession) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try JSONEncoder().encode(session)
        // Created readable by the owner only, before the token is written into it.
        FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        try data.write(to: file)
    }

    func remove() throws {
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
    }
}

/// Where a command writes; tests collect the lines.
final class CommandOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String]?

    /// Prints to standard output.
    static var standard: CommandOutput { CommandOutput(collecting: false) }

    init(collecting: Bool) { collected = collecting ? [] : nil }

    func line(_ text: String) {
        lock.withLock {
            if collected != nil { collected!.append(text) } else { print(text) }
        }
    }

    var lines: [String] { lock.withLock { collected ?? [] } }
}

/// `--server`, shared by the client commands.
struct ServerOption: ParsableArguments {
    @Option(help: "Server URL (default: $FLASHCARDS_SERVER, the signed-in server, or http://127.0.0.1:3001).")
    var server: String?

    /// The server to talk to and a client with the stored token for it (or `$FLASHCARDS_TOKEN`).
    func client(config: ClientConfig, environment: [String: String], signedIn: Bool = true) throws
        -> FlashcardsClient
    {
        let stored = config.load()
        let address = server ?? environment["FLASHCARDS_SERVER"] ?? stored?.server ?? "http://127.0.0.1:3001"
        guard let url = URL(string: address), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("Not a server URL: \(address)")
        }
        let token = environment["FLASHCARDS_TOKEN"] ?? (stored?.server == address ? stored?.token : nil)
        if signedIn, token == nil {
            throw CleanExitError(
                message: "Not signed in to \(address). Run: flashcards login --server \(address) --mail …")
        }
        return FlashcardsClient(baseURL: url, token: token)
    }
}

/// A client command: `execute` does the work, `run` wires it to the process.
protocol ClientCommand: AsyncParsableCommand {
    func execute(output: CommandOutput, environment: [String: String], input: @escaping () -> String?) async throws
}

extension ClientCommand {
    func run() async throws {
        do {
            try await execute(output: .standard, environment: ProcessInfo.processInfo.environment) {
                readLine(strippingNewline: true)
            }
        } catch let error as FlashcardsError {
            throw CleanExitError(message: describe(error))
        }
    }
}

/// A failure shown as one line, exit status 1.
struct CleanExitError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// One line for an SDK error: the server's message when it sent one.
func describe(_ error: FlashcardsError) -> String {
    switch error {
    case .importRefused(let problem): return problem.message
    case .jobFailed(_, let message): return message ?? "The job failed."
    case .transport(let text): return "Cannot reach the server: \(text)"
    case .decoding(let text): return "Unexpected answer from the server: \(text)"
    case .unauthorized(let body) where body?.code == "user_not_found" || body?.code == "wrong_password":
        return "Wrong mail or password."
    case .unauthorized: return "Not signed in or the sign-in expired. Run: flashcards login"
    default: return error.response?.message ?? "\(error)"
    }
}

/// Finds a stack by id or exact name.
func findStack(_ reference: String, in client: FlashcardsClient) async throws -> StackDTO? {
    let stacks = try await client.stacks()
    if let id = UUID(uuidString: reference), let stack = stacks.first(where: { $0.id == id }) { return stack }
    let named = stacks.filter { $0.name == reference }
    guard named.count <= 1 else {
        throw CleanExitError(message: "Several stacks are named \"\(reference)\"; give the id (flashcards stacks).")
    }
    return named.first
}

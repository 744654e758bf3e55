import ArgumentParser
import FlashcardsAPI
import FlashcardsClient
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

/// `flashcards import`
struct ImportCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import a CSV/TSV file (Quizlet, spreadsheets), an Anki package (.apkg) or a Smart Flashcards backup (.json) with its review history.",
        discussion: """
            All or nothing: a file with a bad line imports nothing and names the line. With --restore, a backup of a \
            whole account (flashcards export --account) is restored into this account, which must have no stacks.
            """)

    @OptionGroup var server: ServerOption
    @Argument(help: "The file to import.") var file: String
    @Option(help: "The stack (name or id): an existing one gets the cards, else a new one of that name is made.")
    var stack: String?
    @Option(help: "Column separator (one character; \"\\t\" for tab). Default: detected.") var separator: String?
    @Option(help: "Whether the first row is a header: yes, no or auto.") var header: String = "auto"
    @Flag(help: "Show what would be imported; import nothing.") var dryRun = false
    @Flag(help: "Restore an account backup: stacks, history, settings and progress (the account must have no stacks).")
    var restore = false

    func execute(output: CommandOutput, environment: [String: String], input: @escaping () -> String?) async throws {
        let client = try server.client(config: ClientConfig(environment: environment), environment: environment)
        let url = URL(fileURLWithPath: file)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CleanExitError(message: "Cannot read \(file).")
        }
        if restore {
            guard stack == nil, separator == nil, !dryRun else {
                throw ValidationError("--restore takes no --stack, --separator or --dry-run.")
            }
            let result = try await client.restoreAccount(data, fileName: url.lastPathComponent)
            output.line(
                "Restored \(result.stacks.count) stacks with \(result.cardsCreated) cards and \(result.reviewsImported) reviews."
            )
            return
        }
        var options = ImportOptionsDTO(separator: separator)
        switch header {
        case "yes": options.hasHeader = true
        case "no": options.hasHeader = false
        case "auto": break
        default: throw ValidationError("--header must be yes, no or auto.")
        }
        if let stack {
            if let existing = try await findStack(stack, in: client) {
                options.stackId = existing.id
            } else {
                options.stackName = stack
            }
        }
        let preview = try await client.previewImport(data, fileName: url.lastPathComponent, options: options)
        for problem in preview.problems { output.line(problem.message) }
        if preview.rejected > preview.problems.count {
            output.line("… and \(preview.rejected - preview.problems.count) more lines with problems.")
        }
        var target =
            options.stackId != nil
            ? "into \"\(stack ?? "")\"" : "as a new stack \"\(options.stackName ?? preview.suggestedStackName)\""
        if let decks = preview.decks, stack == nil {
            // An Anki package without --stack: one stack per deck.
            target = "as \(decks.count) new stacks (one per deck: \(decks.map(\.name).joined(separator: ", ")))"
        }
        if let reviews = preview.reviews, reviews > 0 {
            output.line("The review history (\(reviews) answers) comes along.")
        }
        if let images = preview.images, images > 0 {
            output.line("\(images) images come along (the cards showing them become rich cards).")
        }
        if let media = preview.media, media > (preview.images ?? 0) {
            output.line("\(media - (preview.images ?? 0)) other media files (sounds, …) are left out.")
        }
        if dryRun || preview.rejected > 0 {
            output.line("\(preview.cards) cards would be imported \(target); nothing was imported.")
            if preview.rejected > 0 {
                throw CleanExitError(message: "The file has \(preview.rejected) lines with problems.")
            }
            return
        }
        let result = try await client.importFile(data, fileName: url.lastPathComponent, options: options)
        for stack in result.stacks {
            output.line("Imported \(stack.cards) cards into \"\(stack.name)\" (\(stack.id.uuidString.lowercased())).")
        }
    }
}

/// `flashcards export`
struct ExportCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Export a stack as CSV (spreadsheets), TSV (Quizlet), an Anki package (apkg) or JSON (a backup with the history), or the whole account.",
        discussion: """
            --account writes a backup of the whole account (stacks, history, settings, progress) as JSON, or as a zip \
            with --format zip; restore it with: flashcards import FILE --restore.
            """)

    @OptionGroup var server: ServerOption
    @Argument(help: "The stack: name or id (none with --account).") var stack: String?
    @Option(help: "csv, tsv, apkg or json; with --account: json or zip.") var format: String?
    @Flag(help: "Back up the whole account instead of one stack.") var account = false
    @Option(name: .shortAndLong, help: "Write to this file (default: the stack's name and the format's extension).")
    var output: String?

    func execute(output lines: CommandOutput, environment: [String: String], input: @escaping () -> String?)
        async throws
    {
        if account {
            guard stack == nil else { throw ValidationError("--account exports every stack: name none.") }
            let zipped = (format ?? "json") == "zip"
            guard zipped || format == nil || format == "json" else {
                throw ValidationError("--format must be json or zip with --account.")
            }
            let client = try server.client(config: ClientConfig(environment: environment), environment: environment)
            let data = try await client.backup(zipped: zipped)
            let path = output ?? "smart-flashcards-backup.\(zipped ? "zip" : "json")"
            try write(data, to: path)
            lines.line("Wrote the account's backup to \(path).")
            return
        }
        guard let stack else { throw ValidationError("Name a stack, or use --account.") }
        let format = self.format ?? "csv"
        guard let format = ExportFormat(rawValue: format) else {
            throw ValidationError(
                "--format must be one of: \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let client = try server.client(config: ClientConfig(environment: environment), environment: environment)
        guard let found = try await findStack(stack, in: client) else {
            throw CleanExitError(message: "No stack \"\(stack)\" (see: flashcards stacks).")
        }
        let data = try await client.exportStack(found.id, format: format)
        let safeName = found.name.map { "/\\:".contains($0) ? "_" : $0 }
        let path = output ?? "\(String(safeName)).\(format.rawValue)"
        try write(data, to: path)
        if path != "-" { lines.line("Wrote \(found.cardCount) cards to \(path).") }
    }

    /// Writes `data` to `path`, or to standard output for `-`.
    private func write(_ data: Data, to path: String) throws {
        if path == "-" {
            FileHandle.standardOutput.write(data)
        } else {
            try data.write(to: URL(fileURLWithPath: path))
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

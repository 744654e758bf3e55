import FlashcardsClient
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real server for the tests of the SDK (`FlashcardsClientTests`) and of the app core
/// (`FlashcardsAppCoreTests`): `flashcards serve` as its own process, built by the same
/// `swift build --build-tests`, on a free loopback port with a fresh SQLite data folder. These
/// tests see the server only through HTTP, as an app does.
///
/// The binary is `$FLASHCARDS_BIN`, else `flashcards` next to the test runner, else
/// `.build/debug/flashcards` of this checkout.
public final class TestServer: @unchecked Sendable {
    /// The server's address, `http://127.0.0.1:<port>`.
    public let url: URL
    /// Its data folder (removed by `with`).
    public let dataDirectory: URL
    private let environment: [String: String]
    private let lock = NSLock()
    private var process: Process?

    /// A server that is not started yet; `environment` adds to (or overrides) the test defaults:
    /// no job workers, no starter catalogue, no reminders, cheap password hashes.
    public init(environment extra: [String: String] = [:]) throws {
        let port = try Self.freePort()
        url = URL(string: "http://127.0.0.1:\(port)")!
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flashcards-test-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment.filter { key, _ in
            !["DATABASE_URL", "DATABASE_SCHEMA", "FLASHCARDS_JWT_SECRET"].contains(key)
                && !key.hasPrefix("FLASHCARDS_LLM_") && !key.hasPrefix("FLASHCARDS_SMTP_")
        }
        environment.merge(
            [
                "FLASHCARDS_DATA_DIR": dataDirectory.path, "PORT": "\(port)", "HOST": "127.0.0.1",
                "FLASHCARDS_PUBLIC_DIR": Self.root.appendingPathComponent("Public").path,
                "FLASHCARDS_BCRYPT_COST": "4", "FLASHCARDS_JOB_WORKERS": "0", "FLASHCARDS_STARTER_CATALOGUE": "0",
                "FLASHCARDS_REMINDER_INTERVAL_SECONDS": "0", "FLASHCARDS_SIGNUPS_PER_HOUR": "100000",
                "LOG_LEVEL": "warning",
            ],
            uniquingKeysWith: { $1 })
        environment.merge(extra, uniquingKeysWith: { $1 })
        self.environment = environment
    }

    /// Starts a server, hands it to `body`, and always stops it and removes its data.
    public static func with(
        environment: [String: String] = [:], _ body: (TestServer) async throws -> Void
    ) async throws {
        let server = try TestServer(environment: environment)
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: server.dataDirectory)
        }
        try await server.start()
        try await body(server)
    }

    /// A new SDK client for this server.
    public func client(token: String? = nil) -> FlashcardsClient { FlashcardsClient(baseURL: url, token: token) }

    /// Starts the process (again, after `stop`, on the same data) and waits until it answers.
    public func start() async throws {
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = ["serve"]
        process.environment = environment
        // The data folder is the working directory, so that no stray .env file is read.
        process.currentDirectoryURL = dataDirectory
        let log = dataDirectory.appendingPathComponent("server.log")
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        lock.withLock { self.process = process }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            guard process.isRunning else { break }
            if (try? await client().health()) != nil { return }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        stop()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw TestServerError(message: "the server did not answer within 60 s:\n\(text.suffix(4_000))")
    }

    /// Stops the process (SIGINT, as a service manager would) and waits for it.
    public func stop() {
        guard
            let process = lock.withLock({ () -> Process? in
                defer { self.process = nil }
                return self.process
            })
        else { return }
        if process.isRunning { process.interrupt() }
        process.waitUntilExit()
    }

    /// The checkout's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func binary() throws -> URL {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["FLASHCARDS_BIN"], !path.isEmpty {
            candidates.append(URL(fileURLWithPath: path))
        }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(runner.deletingLastPathComponent().appendingPathComponent("flashcards"))
        // On macOS the runner sits inside the .xctest bundle.
        candidates.append(
            runner.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("flashcards"))
        candidates.append(root.appendingPathComponent(".build/debug/flashcards"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestServerError(
                message: "no flashcards binary (build it with swift build, or set FLASHCARDS_BIN): \(candidates)")
        }
        return found
    }

    /// A loopback port nobody listens on now.
    static func freePort() throws -> Int {
        #if os(Linux)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestServerError(message: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
        }
        guard bound == 0 else { throw TestServerError(message: "bind() failed") }
        var length = size
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw TestServerError(message: "getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// The server could not be started.
public struct TestServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Limits for one external tool run.
public struct ProcessLimits: Sendable, Hashable {
    /// Wall-clock time after which the tool is killed.
    public var timeoutSeconds: Double
    /// Address-space limit (bytes) applied with `prlimit` where available.
    public var memoryBytes: UInt64
    /// The most bytes read from standard output; more kills the tool (zip-bomb-like input).
    public var maximumOutputBytes: Int

    /// Creates limits.
    public init(timeoutSeconds: Double = 60, memoryBytes: UInt64 = 1 << 30, maximumOutputBytes: Int = 50_000_000) {
        self.timeoutSeconds = timeoutSeconds
        self.memoryBytes = memoryBytes
        self.maximumOutputBytes = maximumOutputBytes
    }
}

/// What a finished tool run produced.
struct ProcessOutput: Sendable {
    var standardOutput: Data
    var standardError: String
    var exitCode: Int32
}

/// Runs command-line tools as subprocesses with a time limit, a memory limit, an output cap and
/// cooperative cancellation. Arguments are passed as an array (no shell), so nothing a user sends
/// is ever interpreted as a command or a path.
enum ProcessRunner {
    /// The absolute path of `tool` on the search path, or nil.
    static func locate(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin"]
        for directory in directories {
            let candidate = directory + "/" + tool
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `tool` and returns its output. Throws `.toolMissing`, `.timeout`, `.toolFailed` (output
    /// too large) or `CancellationError`. A non-zero exit status is returned, not thrown.
    static func run(
        tool: String, package: String, arguments: [String], limits: ProcessLimits,
        environment: [String: String] = [:]
    ) async throws -> ProcessOutput {
        guard let toolPath = locate(tool) else { throw GenerationError.toolMissing(tool: tool, package: package) }
        try Task.checkCancellation()
        let process = Process()
        if let prlimit = locate("prlimit") {
            process.executableURL = URL(fileURLWithPath: prlimit)
            process.arguments = ["--as=\(limits.memoryBytes)", "--core=0", "--", toolPath] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: toolPath)
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["LC_ALL"] = "C.UTF-8"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice

        let state = RunState(limit: limits.maximumOutputBytes)
        let readers = DispatchGroup()
        try process.run()
        let pid = process.processIdentifier
        state.setPID(pid)

        // Blocking reads and waits get their own threads: on Linux, Dispatch's global queues are as
        // wide as the CPU count, so blocking them starves every other tool run (and timers).
        readers.enter()
        Thread.detachNewThread {
            let handle = stdout.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                if !state.appendOutput(chunk) { state.kill(reason: .overflow) }
            }
            readers.leave()
        }
        readers.enter()
        Thread.detachNewThread {
            let handle = stderr.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                state.appendError(chunk)
            }
            readers.leave()
        }
        // A strict timer on its own queue: asyncAfter on the global queue fired up to a second late,
        // and a Task timer starves when the cooperative pool is busy with CPU-bound work.
        let timer = DispatchSource.makeTimerSource(flags: .strict, queue: DispatchQueue(label: "flashcards.tool-timer"))
        timer.schedule(deadline: .now() + limits.timeoutSeconds, leeway: .milliseconds(20))
        timer.setEventHandler { state.kill(reason: .timeout) }
        timer.resume()
        defer { timer.cancel() }

        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    process.waitUntilExit()
                    readers.wait()
                    state.markFinished()
                    continuation.resume()
                }
            }
        } onCancel: {
            state.kill(reason: .cancelled)
        }

        switch state.killReason {
        case .cancelled?: throw CancellationError()
        case .timeout?: throw GenerationError.timeout(tool: tool, seconds: Int(limits.timeoutSeconds.rounded()))
        case .overflow?: throw GenerationError.toolFailed(tool: tool, detail: "output larger than allowed")
        case nil: break
        }
        return ProcessOutput(
            standardOutput: state.output, standardError: state.errorText, exitCode: process.terminationStatus)
    }
}

/// Shared state of one run, touched by reader threads, the timer and the waiter.
private final class RunState: @unchecked Sendable {
    enum KillReason { case timeout, overflow, cancelled }

    private let lock = NSLock()
    private var pid: Int32 = 0
    private var finished = false
    private(set) var killReasonStorage: KillReason? = nil
    private var outputStorage = Data()
    private var errorStorage = Data()
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    var killReason: KillReason? { lock.withLock { killReasonStorage } }
    var output: Data { lock.withLock { outputStorage } }
    var errorText: String { lock.withLock { String(decoding: errorStorage, as: UTF8.self) } }

    func setPID(_ value: Int32) { lock.withLock { pid = value } }
    func markFinished() { lock.withLock { finished = true } }

    /// Appends output; false once the cap is exceeded.
    func appendOutput(_ data: Data) -> Bool {
        lock.withLock {
            guard outputStorage.count + data.count <= limit else { return false }
            outputStorage.append(data)
            return true
        }
    }

    func appendError(_ data: Data) {
        lock.withLock {
            if errorStorage.count < 65_536 { errorStorage.append(data.prefix(65_536 - errorStorage.count)) }
        }
    }

    /// Kills the process once (SIGKILL: the tools hold no state worth a graceful stop).
    func kill(reason: KillReason) {
        lock.withLock {
            guard !finished, killReasonStorage == nil, pid > 0 else { return }
            killReasonStorage = reason
            sendKill(pid)
        }
    }
}

/// A private temporary directory, always removed afterwards. Files inside get generated names;
/// the user's file name is never used as a path.
public enum TemporaryWorkspace {
    /// Runs `body` with a new private directory and removes it afterwards.
    public static func with<T: Sendable>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flashcards-gen-\(UUID().uuidString.lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        do {
            let result = try await body(directory)
            try? FileManager.default.removeItem(at: directory)
            return result
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }
}

/// SIGKILL to one process id (never a process group or a name).
private func sendKill(_ pid: Int32) {
    #if canImport(Glibc)
        _ = Glibc.kill(pid, SIGKILL)
    #elseif canImport(Darwin)
        _ = Darwin.kill(pid, SIGKILL)
    #endif
}

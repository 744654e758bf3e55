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
        let executable: String
        let commandLine: [String]
        if let prlimit = locate("prlimit") {
            executable = prlimit
            commandLine = ["--as=\(limits.memoryBytes)", "--core=0", "--", toolPath] + arguments
        } else {
            executable = toolPath
            commandLine = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["LC_ALL"] = "C.UTF-8"
        for (key, value) in environment { env[key] = value }

        let state = RunState(limit: limits.maximumOutputBytes)
        let readers = DispatchGroup()
        let process = try SpawnedProcess(executable: executable, arguments: commandLine, environment: env)
        state.setPID(process.pid)
        let stdout = FileHandle(fileDescriptor: process.standardOutput, closeOnDealloc: true)
        let stderr = FileHandle(fileDescriptor: process.standardError, closeOnDealloc: true)

        // Blocking reads and waits get their own threads: on Linux, Dispatch's global queues are as
        // wide as the CPU count, so blocking them starves every other tool run (and timers).
        readers.enter()
        Thread.detachNewThread {
            while true {
                let chunk = stdout.availableData
                if chunk.isEmpty { break }
                if !state.appendOutput(chunk) { state.kill(reason: .overflow) }
            }
            readers.leave()
        }
        readers.enter()
        Thread.detachNewThread {
            while true {
                let chunk = stderr.availableData
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
                    let status = process.waitForExit()
                    readers.wait()
                    state.markFinished(status: status)
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
        return ProcessOutput(standardOutput: state.output, standardError: state.errorText, exitCode: state.exitCode)
    }
}

/// Shared state of one run, touched by reader threads, the timer and the waiter.
private final class RunState: @unchecked Sendable {
    enum KillReason { case timeout, overflow, cancelled }

    private let lock = NSLock()
    private var pid: Int32 = 0
    private var finished = false
    private var exitStatus: Int32 = 0
    private(set) var killReasonStorage: KillReason? = nil
    private var outputStorage = Data()
    private var errorStorage = Data()
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    var killReason: KillReason? { lock.withLock { killReasonStorage } }
    var output: Data { lock.withLock { outputStorage } }
    var errorText: String { lock.withLock { String(decoding: errorStorage, as: UTF8.self) } }

    func setPID(_ value: Int32) { lock.withLock { pid = value } }
    /// The tool's exit code, or the number of the signal that ended it.
    var exitCode: Int32 { lock.withLock { exitStatus } }

    func markFinished(status: Int32) {
        lock.withLock {
            finished = true
            exitStatus = status
        }
    }

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

/// A child process started with `posix_spawn`, its standard input `/dev/null` and its standard
/// output and error read through pipes. Not Foundation's `Process`: its `run()` on Linux copies
/// whole `dirent` names while listing `/proc/self/fd` and reads past glibc's buffer
/// (swift-corelibs-foundation #5472); with many descriptors open it crashed the test process.
private struct SpawnedProcess {
    let pid: pid_t
    /// The read ends of the child's standard output and error (close-on-exec).
    let standardOutput: Int32
    let standardError: Int32

    init(executable: String, arguments: [String], environment: [String: String]) throws {
        var output: [Int32] = [-1, -1]
        var error: [Int32] = [-1, -1]
        guard Self.closeOnExecPipe(&output) == 0 else { throw Self.failure("pipe", errno) }
        guard Self.closeOnExecPipe(&error) == 0 else {
            let code = errno
            close(output[0])
            close(output[1])
            throw Self.failure("pipe", code)
        }
        var actions = LibC.emptyActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, error[1], 2)
        // Nothing else of the server (connections, database files) reaches the tool.
        _ = LibC.closeFrom?(&actions, 3)
        var attributes = LibC.emptyAttributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The tool starts with no blocked signals and SIGPIPE at its default.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &pipeSignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(output[1])
        close(error[1])
        guard status == 0 else {
            close(output[0])
            close(error[0])
            throw Self.failure("posix_spawn", status)
        }
        self.pid = pid
        self.standardOutput = output[0]
        self.standardError = error[0]
    }

    /// Waits for the child (blocking: call it on a thread of its own) and returns its exit code,
    /// or the number of the signal that ended it.
    func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    /// A pipe whose ends close on exec, made atomically where the C library can (`pipe2`).
    private static func closeOnExecPipe(_ fds: inout [Int32]) -> Int32 {
        if let pipe2 = LibC.pipe2 { return pipe2(&fds, O_CLOEXEC) }
        guard pipe(&fds) == 0 else { return -1 }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return 0
    }

    private static func failure(_ call: String, _ code: Int32) -> GenerationError {
        GenerationError.toolFailed(tool: call, detail: String(cString: strerror(code)))
    }
}

/// C library calls Swift's module for the C library leaves out (they need `_GNU_SOURCE`), looked up
/// by name; nil where the library has none.
private enum LibC {
    #if canImport(Glibc)
        typealias SpawnActions = posix_spawn_file_actions_t
        static func emptyActions() -> SpawnActions { SpawnActions() }
        static func emptyAttributes() -> posix_spawnattr_t { posix_spawnattr_t() }
    #else
        // Darwin's spawn types are opaque pointers, set by their `init` calls.
        typealias SpawnActions = posix_spawn_file_actions_t?
        static func emptyActions() -> SpawnActions { nil }
        static func emptyAttributes() -> posix_spawnattr_t? { nil }
    #endif
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<SpawnActions>?, Int32) -> Int32

    static let pipe2: Pipe2? = symbol("pipe2")
    /// glibc 2.34 and later.
    static let closeFrom: CloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<T>(_ name: String) -> T? {
        guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(pointer, to: T.self)
    }
}

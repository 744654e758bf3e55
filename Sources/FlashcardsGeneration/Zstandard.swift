import Foundation

/// Zstandard decompression with the `zstd` tool (Debian package `zstd`), as PDF text comes from
/// poppler: Anki's current packages compress their collection and media with it.
public enum Zstandard {
    /// The bytes of the zstd frames in `data`, at most `limit` bytes (more throws
    /// `GenerationError.toolFailed`); broken input throws `toolFailed` too.
    public static func decompress(_ data: Data, limit: Int, timeoutSeconds: Double = 120) async throws -> Data {
        try await TemporaryWorkspace.with { directory in
            let input = directory.appendingPathComponent("input.zst")
            try data.write(to: input)
            let output = try await ProcessRunner.run(
                tool: "zstd", package: "zstd", arguments: ["-d", "-c", "-q", "--no-progress", input.path],
                limits: ProcessLimits(timeoutSeconds: timeoutSeconds, maximumOutputBytes: limit))
            guard output.exitCode == 0 else {
                throw GenerationError.toolFailed(tool: "zstd", detail: output.standardError)
            }
            return output.standardOutput
        }
    }

    /// Whether `data` starts with a zstd frame.
    public static func isCompressed(_ data: Data) -> Bool { data.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) }
}

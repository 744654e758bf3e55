import ArgumentParser
import AsyncHTTPClient
import FlashcardsAPI
import FlashcardsCore
import Foundation
import NIOCore

/// `flashcards-bench images`: uploads of card images of about 10 MB through the real server started
/// as its own process: a 12-megapixel phone photo (JPEG) and a photo saved as PNG, each uploaded
/// `--uploads` times, one after another; the time from sending to the stored image's answer.
/// Target (issue 20): an image upload of 10 MB is processed in under 2 s.
struct ImagesBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "images", abstract: "Benchmark uploading 10 MB card images (JPEG and PNG).")

    @ArgumentParser.Option(help: "Uploads of each picture.")
    var uploads: Int = 10

    @ArgumentParser.Option(help: "PostgreSQL URL; SQLite in a temporary folder when absent.")
    var databaseURL: String?

    func run() async throws {
        guard uploads > 0 else { throw ValidationError("nothing to upload") }
        let serverExecutable = try ServerBenchCommand.serverExecutable()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fc-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pictures = [
            ("JPEG photo, 4000×3000", try Self.photo(in: folder, format: "jpg")),
            ("PNG photo, 1800×1800", try Self.photo(in: folder, format: "png")),
        ]
        print(
            "Smart Flashcards image upload benchmark (\(databaseURL == nil ? "SQLite" : "PostgreSQL"), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores): \(uploads) uploads of each picture")
        let environment = ServerBenchCommand.environment(name: "images", databaseURL: databaseURL)
        defer { ServerBenchCommand.removeDataDirectory(of: environment) }
        try await ServerBenchCommand.withServer(serverExecutable, environment: environment) { http, base, pid in
            try await ServerBenchCommand.waitForHealth(http, base: base)
            let decoder = FlashcardsJSON.makeDecoder()
            let token = try decoder.decode(
                AuthResponse.self,
                from: try await ServerBenchCommand.call(
                    http, .POST, base + "/api/v1/auth/signup",
                    body: try JSONEncoder().encode(
                        SignupRequest(name: "Bilder", mail: "images@example.org", password: "benchmark-password")))
            ).token
            for (name, data) in pictures {
                var seconds: [Double] = []
                var stored: ImageDTO?
                for _ in 0..<uploads {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let answer = try await ImportBenchCommand.upload(
                        http, base + "/api/v1/images", data, fileName: "picture", token: token)
                    seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                    stored = try decoder.decode(ImageDTO.self, from: answer)
                }
                let (p50, _) = ServerBenchCommand.percentiles(seconds)
                let worst = seconds.max() ?? 0
                let verdict = worst < 2 ? "target met" : "TARGET MISSED"
                print(
                    String(
                        format: "  %@ (%.2f MB): p50 %.2f s, max %.2f s (target < 2 s: %@) → stored %@ %d×%d, %d KB",
                        name, Double(data.count) / 1e6, p50, worst, verdict, stored?.mediaType ?? "?",
                        stored?.width ?? 0, stored?.height ?? 0, (stored?.bytes ?? 0) / 1_024))
            }
            print(String(format: "  server peak memory: %.0f MB", ServerBenchCommand.peakMemoryMB(of: pid)))
        }
    }

    /// A photo-like picture of about 10 MB (noise, so it does not compress): made with libvips'
    /// `vips`, the JPEG's quality stepped down until it is no larger than the upload limit.
    static func photo(in folder: URL, format: String) throws -> Data {
        let (width, height) = format == "jpg" ? (4_000, 3_000) : (1_800, 1_800)
        var bands: [String] = []
        for band in 0..<3 {
            let path = folder.appendingPathComponent("band\(band).v").path
            try vips(["gaussnoise", path, "\(width)", "\(height)", "--sigma", "30", "--mean", "128"])
            bands.append(path)
        }
        let joined = folder.appendingPathComponent("joined.v").path
        try vips(["bandjoin", bands.joined(separator: " "), joined])
        let limit = 10 * 1_024 * 1_024
        // Chroma subsampling stays on (a phone's choice; libvips turns it off from quality 90, which
        // doubles the size in one step), so the quality finds a size just under the limit.
        for quality in stride(from: 99, through: 70, by: -1) {
            let output = folder.appendingPathComponent("photo.\(format)")
            let options = format == "jpg" ? "[Q=\(quality),subsample_mode=on]" : ""
            try vips(["cast", joined, output.path + options, "uchar"])
            let data = try Data(contentsOf: output)
            if data.count <= limit && (data.count > limit * 8 / 10 || format != "jpg") { return data }
        }
        throw ValidationError("no \(format) picture of about 10 MB could be made")
    }

    private static func vips(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ValidationError("vips \(arguments.first ?? "") failed (apt-get install libvips-tools)")
        }
    }
}

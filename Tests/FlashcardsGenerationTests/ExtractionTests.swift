import FlashcardsCore
import Foundation
import Testing

@testable import FlashcardsGeneration

/// Fixtures live next to this file (made by scripts/corpus/make_corpus.py).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")
    static var corpus: URL { directory.appendingPathComponent("corpus") }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// Fails the calling test with install instructions when a tool is missing. Tests that need the
    /// tools must not silently pass: the project's test command installs them.
    static func requireTools(_ tools: [(String, String)], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        var allThere = true
        for (tool, package) in tools where ProcessRunner.locate(tool) == nil {
            Issue.record(
                "\(tool) is not installed: run `apt-get install -y \(package)` (the project's test command does this).",
                sourceLocation: sourceLocation)
            allThere = false
        }
        return allThere
    }

    static let poppler = [("pdfinfo", "poppler-utils"), ("pdftotext", "poppler-utils")]
    static let ocr = [
        ("tesseract", "tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng"), ("pdftoppm", "poppler-utils"),
    ]
}

@Suite("Content sniffing")
struct ContentSnifferTests {
    @Test("types come from the bytes, not from a name")
    func sniffing() throws {
        #expect(try ContentSniffer.sniff(Fixtures.data("blank.pdf")) == .pdf)
        #expect(try ContentSniffer.sniff(Fixtures.data("notes.png")) == .png)
        #expect(try ContentSniffer.sniff(Fixtures.data("notes.jpg")) == .jpeg)
        #expect(try ContentSniffer.sniff(Data("# Titel\n\nEin Prozess ist ein Programm.".utf8)) == .text)
        #expect(throws: GenerationError.emptyFile) { try ContentSniffer.sniff(Data()) }
        #expect(throws: GenerationError.emptyFile) { try ContentSniffer.sniff(Data("  \n\n ".utf8)) }
        // A ZIP (e.g. .docx) and random binary are refused.
        #expect(throws: GenerationError.unsupportedType) {
            try ContentSniffer.sniff(Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00]))
        }
        #expect(throws: GenerationError.unsupportedType) {
            try ContentSniffer.sniff(Data([0xC3, 0x28, 0xFF, 0xFE, 0x00]))
        }
    }

    @Test("every error has a German and an English message")
    func messages() {
        let errors: [GenerationError] = [
            .toolMissing(tool: "pdftotext", package: "poppler-utils"), .encryptedPDF, .noTextFound(ocrAttempted: false),
            .noTextFound(ocrAttempted: true), .emptyFile, .fileTooLarge(limitBytes: 10_000_000),
            .tooManyPages(pages: 900, limit: 500), .timeout(tool: "pdftotext", seconds: 60), .unsupportedType,
            .brokenPDF,
            .toolFailed(tool: "tesseract", detail: "x"), .topicNeedsModel, .invalidTopic,
            .modelUnavailable(detail: "x"),
            .modelOutputInvalid, .nothingGenerated,
        ]
        for error in errors {
            #expect(!error.germanMessage.isEmpty && !error.englishMessage.isEmpty && !error.code.isEmpty)
            #expect(error.germanMessage != error.englishMessage)
        }
        #expect(
            GenerationError.toolMissing(tool: "pdftotext", package: "poppler-utils").germanMessage
                .contains("pdftotext ist auf dem Server nicht installiert"))
        #expect(GenerationError.encryptedPDF.isUserError && !GenerationError.timeout(tool: "x", seconds: 1).isUserError)
    }
}

@Suite("Subprocesses")
struct ProcessRunnerTests {
    @Test("a missing tool is reported by name and package")
    func missingTool() async {
        await #expect(throws: GenerationError.toolMissing(tool: "no-such-tool-xyz", package: "no-such-package")) {
            _ = try await ProcessRunner.run(
                tool: "no-such-tool-xyz", package: "no-such-package", arguments: [], limits: ProcessLimits())
        }
    }

    @Test("a tool that runs too long is killed at the time limit")
    func timeout() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: GenerationError.timeout(tool: "sleep", seconds: 1)) {
            _ = try await ProcessRunner.run(
                tool: "sleep", package: "coreutils", arguments: ["30"], limits: ProcessLimits(timeoutSeconds: 0.6))
        }
        // Far below the 30 s the tool wanted (the bound is generous for a loaded machine).
        #expect(clock.now - start < .seconds(15))
    }

    @Test("output beyond the cap stops the tool")
    func outputCap() async throws {
        await #expect(throws: GenerationError.self) {
            _ = try await ProcessRunner.run(
                tool: "yes", package: "coreutils", arguments: [],
                limits: ProcessLimits(timeoutSeconds: 10, maximumOutputBytes: 100_000))
        }
    }

    @Test("the memory limit applies to the tool")
    func memoryLimit() async throws {
        // `prlimit` applies the address-space limit; python cannot allocate 400 MB under a 200 MB limit.
        guard ProcessRunner.locate("prlimit") != nil, ProcessRunner.locate("python3") != nil else {
            Issue.record("prlimit (util-linux) and python3 are needed for this test")
            return
        }
        let output = try await ProcessRunner.run(
            tool: "python3", package: "python3",
            arguments: ["-c", "x = bytearray(400 * 1024 * 1024); print('allocated')"],
            limits: ProcessLimits(timeoutSeconds: 20, memoryBytes: 200 * 1024 * 1024))
        #expect(output.exitCode != 0)
        #expect(!String(decoding: output.standardOutput, as: UTF8.self).contains("allocated"))
    }

    @Test("the tool gets its arguments as they are, the environment, no input and none of our descriptors")
    func spawnedTool() async throws {
        // 600 descriptors of our own open (as a busy server has): none of them reaches the tool, and
        // starting it never reads past the descriptor list (Foundation's Process did, and crashed).
        // Left inheritable on purpose: only the runner keeps them from the tool.
        let files = (0..<600).map { _ in open("/dev/null", O_RDONLY) }
        defer { for fd in files { close(fd) } }
        let script =
            "import os, sys; print(sys.argv[1]); print(os.environ['PROBE']); "
            + "print(len(sys.stdin.read())); print(sorted(int(f) for f in os.listdir('/proc/self/fd')))"
        let output = try await ProcessRunner.run(
            tool: "python3", package: "python3", arguments: ["-c", script, "a b; $(rm -rf x) 'c'"],
            limits: ProcessLimits(timeoutSeconds: 20), environment: ["PROBE": "ü=1"])
        let lines = String(decoding: output.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(output.exitCode == 0, "\(output.standardError)")
        #expect(lines.prefix(3) == ["a b; $(rm -rf x) 'c'", "ü=1", "0"])
        // 0–2, and the descriptor listing the directory.
        #expect(lines.last.map { $0.hasPrefix("[0, 1, 2") && $0.count <= 12 } == true, "\(lines.last ?? "")")
        let failing = try await ProcessRunner.run(
            tool: "python3", package: "python3",
            arguments: ["-c", "import sys; sys.stderr.write('kaputt'); sys.exit(3)"],
            limits: ProcessLimits(timeoutSeconds: 20))
        #expect(failing.exitCode == 3 && failing.standardError == "kaputt")
    }

    @Test("cancellation kills the tool")
    func cancellation() async throws {
        let task = Task {
            try await ProcessRunner.run(
                tool: "sleep", package: "coreutils", arguments: ["30"], limits: ProcessLimits(timeoutSeconds: 60))
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.now - start < .seconds(15))
    }

    @Test("temporary workspaces are removed, also after errors")
    func workspaceCleanup() async throws {
        final class Box: @unchecked Sendable { var url: URL? }
        let box = Box()
        _ = try? await TemporaryWorkspace.with { directory -> Int in
            box.url = directory
            try Data("x".utf8).write(to: directory.appendingPathComponent("input.pdf"))
            throw GenerationError.brokenPDF
        }
        let url = try #require(box.url)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(url.lastPathComponent.hasPrefix("flashcards-gen-"))
    }
}

@Suite("PDF and OCR extraction")
struct ExtractionTests {
    @Test("a lecture PDF yields its pages with page numbers and progress")
    func lecturePDF() async throws {
        guard Fixtures.requireTools(Fixtures.poppler) else { return }
        let progress = ProgressRecorder()
        var options = ExtractionOptions()
        options.pagesPerBatch = 1
        let document = try await TextExtractor(options: options).extract(
            Fixtures.data("corpus/de_betriebssysteme.pdf")
        ) { progress.record($0) }
        #expect(document.contentType == .pdf && !document.usedOCR)
        #expect(document.pages.map(\.number) == [1, 2, 3])
        #expect(document.pages[0].text.contains("Ein Prozess ist ein Programm"))
        #expect(document.pages[2].text.contains("Glossar"))
        #expect(
            progress.events == [
                .pagesRead(done: 1, total: 3), .pagesRead(done: 2, total: 3), .pagesRead(done: 3, total: 3),
            ])
        #expect(GenerationProgress.pagesRead(done: 12, total: 80).germanText == "Seite 12 von 80 gelesen")
    }

    @Test("cleaning removes the running header and footer and joins hyphenated words")
    func cleaningRealPDF() async throws {
        guard Fixtures.requireTools(Fixtures.poppler) else { return }
        var options = ExtractionOptions()
        options.pagesPerBatch = 2
        let document = try await TextExtractor(options: options).extract(Fixtures.data("corpus/en_networks.pdf"))
        let raw = document.text
        #expect(raw.contains("CS 220 Computer Networks"))
        let cleaned = TextCleaner.clean(pages: document.pages).map(\.text).joined(separator: "\n")
        #expect(!cleaned.contains("CS 220 Computer Networks"))
        #expect(!cleaned.contains("Page 1 of 2"))
        #expect(!CardQuality.hasBrokenWord(cleaned.replacingOccurrences(of: "\n", with: " ")))
    }

    @Test("an encrypted PDF is refused with a clear error")
    func encrypted() async throws {
        guard Fixtures.requireTools(Fixtures.poppler) else { return }
        await #expect(throws: GenerationError.encryptedPDF) {
            try await TextExtractor().extract(Fixtures.data("encrypted.pdf"))
        }
    }

    @Test("a broken PDF is refused with a clear error")
    func broken() async throws {
        guard Fixtures.requireTools(Fixtures.poppler) else { return }
        await #expect(throws: GenerationError.brokenPDF) {
            try await TextExtractor().extract(Fixtures.data("broken.pdf"))
        }
        // Cut in half: still not a readable PDF.
        let half = try Fixtures.data("corpus/en_algorithms.pdf").prefix(900)
        await #expect(throws: GenerationError.self) { try await TextExtractor().extract(Data(half)) }
    }

    @Test("an empty upload is refused")
    func empty() async throws {
        await #expect(throws: GenerationError.emptyFile) { try await TextExtractor().extract(Data()) }
    }

    @Test("uploads over the size limit are refused before any tool runs")
    func tooLarge() async throws {
        var options = ExtractionOptions()
        options.maximumBytes = 1_000
        await #expect(throws: GenerationError.fileTooLarge(limitBytes: 1_000)) {
            try await TextExtractor(options: options).extract(Fixtures.data("blank.pdf"))
        }
    }

    @Test("a PDF with a huge page count is refused from pdfinfo, before extraction")
    func hugePageCount() async throws {
        guard Fixtures.requireTools(Fixtures.poppler) else { return }
        let pdf = MinimalPDFWriter.document(pages: Array(repeating: ["x"], count: 2_000))
        let progress = ProgressRecorder()
        await #expect(throws: GenerationError.tooManyPages(pages: 2_000, limit: 500)) {
            try await TextExtractor().extract(pdf) { progress.record($0) }
        }
        // Refused from the page count alone: not a single page was read.
        #expect(progress.events.isEmpty)
    }

    @Test("a scanned PDF without OCR says there is no text")
    func scanWithoutOCR() async throws {
        guard Fixtures.requireTools(Fixtures.poppler) else { return }
        var options = ExtractionOptions()
        options.ocrEnabled = false
        await #expect(throws: GenerationError.noTextFound(ocrAttempted: false)) {
            try await TextExtractor(options: options).extract(Fixtures.data("scanned.pdf"))
        }
        await #expect(throws: GenerationError.noTextFound(ocrAttempted: false)) {
            try await TextExtractor(options: options).extract(Fixtures.data("notes.png"))
        }
    }

    @Test("a blank PDF has no text even with OCR")
    func blankWithOCR() async throws {
        guard Fixtures.requireTools(Fixtures.poppler + Fixtures.ocr) else { return }
        await #expect(throws: GenerationError.noTextFound(ocrAttempted: true)) {
            try await TextExtractor().extract(Fixtures.data("blank.pdf"))
        }
    }

    @Test("a scanned PDF is read with OCR, German umlauts included")
    func scanWithOCR() async throws {
        guard Fixtures.requireTools(Fixtures.poppler + Fixtures.ocr) else { return }
        let progress = ProgressRecorder()
        let document = try await TextExtractor().extract(Fixtures.data("scanned.pdf")) { progress.record($0) }
        #expect(document.usedOCR)
        #expect(document.text.contains("Photosynthese"))
        #expect(document.text.contains("Größere Blätter"))
        #expect(progress.events.contains(.pagesRecognized(done: 1, total: 1)))
    }

    @Test("photos of notes (PNG and JPEG) are read with OCR and give cards")
    func photos() async throws {
        guard Fixtures.requireTools(Fixtures.ocr) else { return }
        for name in ["notes.png", "notes.jpg"] {
            let result = try await GenerationPipeline().run(data: Fixtures.data(name))
            #expect(result.language == .de)
            #expect(result.cards.contains { $0.question == "Was ist die Photosynthese?" }, "\(name): \(result.cards)")
            #expect(result.cards.contains { $0.answer.contains("Chlorophyll") || $0.question.contains("Chlorophyll") })
        }
    }

    @Test("pasted Markdown goes through the same pipeline")
    func markdown() async throws {
        let text = "# Netze\n\nEin Router ist ein Gerät, das Pakete zwischen Netzen weiterleitet.\n"
        let result = try await GenerationPipeline().run(data: Data(text.utf8))
        #expect(result.cards.first?.question == "Was ist ein Router?")
        #expect(result.cards.first?.answer == "Ein Gerät, das Pakete zwischen Netzen weiterleitet")
    }

    @Test("the event stream ends with the drafts")
    func eventStream() async throws {
        let text = "Ein Router ist ein Gerät, das Pakete zwischen Netzen weiterleitet."
        var sawFinished = false
        var sawProgress = false
        for try await event in GenerationPipeline().events(data: Data(text.utf8)) {
            switch event {
            case .progress: sawProgress = true
            case .finished(let result):
                sawFinished = true
                #expect(!result.cards.isEmpty)
            }
        }
        #expect(sawFinished && sawProgress)
    }

    @Test("nothing to learn gives a clear error")
    func nothingGenerated() async throws {
        await #expect(throws: GenerationError.nothingGenerated) {
            try await GenerationPipeline().run(data: Data("hallo".utf8))
        }
    }
}

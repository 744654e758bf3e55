import FlashcardsCore
import Foundation

/// Limits and switches for text extraction.
public struct ExtractionOptions: Sendable, Hashable {
    /// The largest accepted upload in bytes (the original allowed 10 MB).
    public var maximumBytes: Int
    /// The most PDF pages read.
    public var maximumPages: Int
    /// Whether scanned PDFs and images go through OCR.
    public var ocrEnabled: Bool
    /// The most pages of a scanned PDF that are recognised.
    public var maximumOCRPages: Int
    /// Tesseract languages.
    public var ocrLanguages: String
    /// Pages per `pdftotext` run; progress is reported after each run.
    public var pagesPerBatch: Int
    /// Limits for `pdfinfo`/`pdftotext`/`pdftoppm`.
    public var pdfLimits: ProcessLimits
    /// Limits for `tesseract` (per page).
    public var ocrLimits: ProcessLimits

    /// Creates options; the defaults suit uploads of lecture scripts.
    public init(
        maximumBytes: Int = 10_000_000, maximumPages: Int = 500, ocrEnabled: Bool = true, maximumOCRPages: Int = 30,
        ocrLanguages: String = "deu+eng", pagesPerBatch: Int = 10,
        pdfLimits: ProcessLimits = ProcessLimits(timeoutSeconds: 60, memoryBytes: 1 << 30),
        ocrLimits: ProcessLimits = ProcessLimits(timeoutSeconds: 90, memoryBytes: 2 << 30)
    ) {
        self.maximumBytes = maximumBytes
        self.maximumPages = maximumPages
        self.ocrEnabled = ocrEnabled
        self.maximumOCRPages = maximumOCRPages
        self.ocrLanguages = ocrLanguages
        self.pagesPerBatch = pagesPerBatch
        self.pdfLimits = pdfLimits
        self.ocrLimits = ocrLimits
    }
}

/// The text of an upload, page by page.
public struct ExtractedDocument: Sendable, Hashable {
    /// What the upload was.
    public var contentType: ContentType
    /// The pages with text (raw tool output; the card rules clean it).
    public var pages: [SourcePage]
    /// Whether text recognition produced the text.
    public var usedOCR: Bool

    /// Creates a document.
    public init(contentType: ContentType, pages: [SourcePage], usedOCR: Bool) {
        self.contentType = contentType
        self.pages = pages
        self.usedOCR = usedOCR
    }

    /// All text, pages separated by blank lines.
    public var text: String { pages.map(\.text).joined(separator: "\n\n") }
}

/// Extracts text from PDFs (poppler), images (tesseract) and plain text.
public struct TextExtractor: Sendable {
    /// The limits in force.
    public var options: ExtractionOptions

    /// Creates an extractor.
    public init(options: ExtractionOptions = .init()) {
        self.options = options
    }

    /// Sniffs the content and extracts its text, reporting pages read.
    public func extract(_ data: Data, progress: ProgressHandler = { _ in }) async throws -> ExtractedDocument {
        guard data.count <= options.maximumBytes else {
            throw GenerationError.fileTooLarge(limitBytes: options.maximumBytes)
        }
        let type = try ContentSniffer.sniff(data)
        switch type {
        case .text:
            var text = String(decoding: data, as: UTF8.self)
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            // Form feeds separate pages in text exported from PDFs; keep them as pages.
            let parts = text.components(separatedBy: "\u{0C}")
            let pages = parts.enumerated().map { SourcePage(number: $0.offset + 1, text: $0.element) }
                .filter { !$0.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            guard !pages.isEmpty else { throw GenerationError.emptyFile }
            // Pasted text is no page: only text with page breaks reports pages read.
            if parts.count > 1 { progress(.pagesRead(done: parts.count, total: parts.count)) }
            return ExtractedDocument(contentType: .text, pages: pages, usedOCR: false)
        case .png, .jpeg:
            guard options.ocrEnabled else { throw GenerationError.noTextFound(ocrAttempted: false) }
            return try await TemporaryWorkspace.with { directory in
                let input = directory.appendingPathComponent(type == .png ? "input.png" : "input.jpg")
                try data.write(to: input)
                let text = try await recognize(imageAt: input)
                progress(.pagesRecognized(done: 1, total: 1))
                guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    throw GenerationError.noTextFound(ocrAttempted: true)
                }
                return ExtractedDocument(contentType: type, pages: [SourcePage(number: 1, text: text)], usedOCR: true)
            }
        case .pdf:
            return try await TemporaryWorkspace.with { directory in
                let input = directory.appendingPathComponent("input.pdf")
                try data.write(to: input)
                return try await extractPDF(at: input, workspace: directory, progress: progress)
            }
        }
    }

    /// Page count and encryption of a PDF, from `pdfinfo`.
    func pdfInfo(at file: URL) async throws -> (pages: Int, encrypted: Bool) {
        let output = try await ProcessRunner.run(
            tool: "pdfinfo", package: "poppler-utils", arguments: [file.path], limits: options.pdfLimits)
        let text = String(decoding: output.standardOutput, as: UTF8.self)
        if output.exitCode != 0 {
            if output.standardError.contains("Incorrect password") || output.standardError.contains("password") {
                throw GenerationError.encryptedPDF
            }
            throw GenerationError.brokenPDF
        }
        var pages = 0
        var encrypted = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Pages:") {
                pages = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
            } else if line.hasPrefix("Encrypted:") {
                encrypted = line.dropFirst(10).trimmingCharacters(in: .whitespaces).hasPrefix("yes")
            }
        }
        return (pages, encrypted)
    }

    private func extractPDF(at input: URL, workspace: URL, progress: ProgressHandler) async throws -> ExtractedDocument
    {
        let info = try await pdfInfo(at: input)
        guard info.pages > 0 else { throw GenerationError.brokenPDF }
        guard info.pages <= options.maximumPages else {
            throw GenerationError.tooManyPages(pages: info.pages, limit: options.maximumPages)
        }
        var pages: [SourcePage] = []
        var first = 1
        while first <= info.pages {
            try Task.checkCancellation()
            let last = min(info.pages, first + options.pagesPerBatch - 1)
            let output = try await ProcessRunner.run(
                tool: "pdftotext", package: "poppler-utils",
                arguments: ["-enc", "UTF-8", "-f", String(first), "-l", String(last), input.path, "-"],
                limits: options.pdfLimits)
            if output.exitCode != 0 {
                if output.standardError.contains("password") { throw GenerationError.encryptedPDF }
                throw GenerationError.brokenPDF
            }
            if output.standardError.contains("Copying of text from this document is not allowed") {
                throw GenerationError.encryptedPDF
            }
            // pdftotext ends every page with a form feed.
            let texts = String(decoding: output.standardOutput, as: UTF8.self).components(separatedBy: "\u{0C}")
            for offset in 0...(last - first) {
                let text = offset < texts.count ? texts[offset] : ""
                pages.append(SourcePage(number: first + offset, text: text))
            }
            progress(.pagesRead(done: last, total: info.pages))
            first = last + 1
        }
        let withText = pages.filter { !$0.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        if !withText.isEmpty {
            return ExtractedDocument(contentType: .pdf, pages: withText, usedOCR: false)
        }
        // A scan: no text layer at all.
        guard options.ocrEnabled else { throw GenerationError.noTextFound(ocrAttempted: false) }
        guard info.pages <= options.maximumOCRPages else {
            throw GenerationError.tooManyPages(pages: info.pages, limit: options.maximumOCRPages)
        }
        var recognized: [SourcePage] = []
        for number in 1...info.pages {
            try Task.checkCancellation()
            let root = workspace.appendingPathComponent("page-\(number)")
            let render = try await ProcessRunner.run(
                tool: "pdftoppm", package: "poppler-utils",
                arguments: [
                    "-r", "200", "-gray", "-png", "-singlefile", "-f", String(number), "-l", String(number),
                    input.path, root.path,
                ],
                limits: options.pdfLimits)
            guard render.exitCode == 0 else { throw GenerationError.brokenPDF }
            let image = root.appendingPathExtension("png")
            let text = try await recognize(imageAt: image)
            try? FileManager.default.removeItem(at: image)
            if !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                recognized.append(SourcePage(number: number, text: text))
            }
            progress(.pagesRecognized(done: number, total: info.pages))
        }
        guard !recognized.isEmpty else { throw GenerationError.noTextFound(ocrAttempted: true) }
        return ExtractedDocument(contentType: .pdf, pages: recognized, usedOCR: true)
    }

    /// Text of one image via tesseract (stdout).
    func recognize(imageAt file: URL) async throws -> String {
        let output = try await ProcessRunner.run(
            tool: "tesseract", package: "tesseract-ocr",
            arguments: [file.path, "stdout", "-l", options.ocrLanguages],
            limits: options.ocrLimits,
            // One thread per page: the machine is shared and OpenMP would oversubscribe it.
            environment: ["OMP_THREAD_LIMIT": "1"])
        if output.exitCode != 0 {
            if output.standardError.contains("Failed loading language")
                || output.standardError.contains("Error opening data file")
            {
                let missing = options.ocrLanguages.split(separator: "+").map { "tesseract-ocr-\($0)" }.joined(
                    separator: ", ")
                throw GenerationError.toolMissing(
                    tool: "Tesseract-Sprachdaten (\(options.ocrLanguages))", package: missing)
            }
            throw GenerationError.toolFailed(tool: "tesseract", detail: String(output.standardError.prefix(300)))
        }
        return String(decoding: output.standardOutput, as: UTF8.self)
    }
}

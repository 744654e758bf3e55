import FlashcardsAPI
import FlashcardsCore
import Fluent
import Foundation
import Vapor

/// Imports for both the preview and the job: reading an upload, its options and its format.
/// Nothing here writes; `ImportJobHandler` does, in one transaction.
enum ImportService {
    /// The largest file an import takes: 100 MB (an Anki collection with years of reviews).
    static let maximumUpload = 100 * 1_024 * 1_024

    /// The colours new stacks take in turn (the web app's presets).
    static let stackColors = ["#2563EB", "#059669", "#7C3AED", "#DB2777", "#EA580C", "#0891B2"]

    /// What an uploaded file is.
    enum Format: String, Codable, Sendable {
        case delimited = "csv"
        case anki = "apkg"
        /// A Smart Flashcards backup (`BackupDocumentDTO`), as JSON or zipped.
        case backup = "json"
    }

    /// An upload with its options, read from the multipart form (`file`, `options`).
    struct Upload {
        let data: Data
        let fileName: String?
        let options: ImportOptionsDTO
        let format: Format
    }

    /// Reads and checks the form: the options must decode, the separator be one character, and
    /// the file be one that can be imported (415 otherwise); with `backupOnly`, a backup.
    static func readUpload(_ req: Request, backupOnly: Bool = false) async throws -> Upload {
        let form = try await MultipartForm.read(req, maximumFile: maximumUpload)
        var options = ImportOptionsDTO()
        if let text = form.text("options"), !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            options = try Request.decodeJSON(ImportOptionsDTO.self, from: ByteBuffer(string: text))
        }
        _ = try separator(of: options)
        if let name = options.stackName {
            options.stackName = try Validate.text(name, field: "Der Name des Stapels", max: TextLimits.stackName)
        }
        let notABackup = AppError.unsupportedMediaType(
            "Die Datei ist keine Sicherung von Smart Flashcards (.json oder .zip aus „Sicherung herunterladen“).")
        let format: Format
        do {
            format = try self.format(of: form.file)
        } catch  where backupOnly {
            throw notABackup
        }
        if backupOnly, format != .backup { throw notABackup }
        if format == .backup, options.stackId != nil {
            throw AppError.validation(
                "Eine Sicherung bringt ihre Stapel mit: Sie lässt sich nicht in einen bestehenden Stapel importieren.")
        }
        return Upload(data: form.file, fileName: form.fileName, options: options, format: format)
    }

    /// The separator the options name, if any (one character; `\t` for tab).
    static func separator(of options: ImportOptionsDTO) throws -> Character? {
        guard let text = options.separator, !text.isEmpty else { return nil }
        let separator = text == "\\t" ? "\t" : text
        guard separator.count == 1, let character = separator.first, character != "\"", !character.isNewline else {
            throw AppError.validation("Das Trennzeichen muss genau ein Zeichen sein (kein Anführungszeichen).")
        }
        return character
    }

    /// The format by the file's content: a zip holding `backup.json` is a backup and any other zip
    /// must be an Anki package (the zip is opened once to tell); JSON text is a backup; other text
    /// that is no binary file reads as CSV/TSV.
    static func format(of data: Data) throws -> Format {
        if ZipArchive.looksLikeZip(data) { return try zipFormat(data) }
        if BackupService.looksLikeJSON(data) { return .backup }
        // Text has no NUL bytes (UTF-16 files aside, which spreadsheets do not write by default).
        guard !data.prefix(8_192).contains(0) else {
            throw AppError.unsupportedMediaType(
                "Diese Datei kann nicht importiert werden. Erlaubt sind CSV- und TSV-Dateien (auch aus Quizlet), Anki-Pakete (.apkg) und Sicherungen von Smart Flashcards (.json)."
            )
        }
        return .delimited
    }

    /// A zipped backup, or an Anki package. A zip that is neither is refused at once (415), as is
    /// one with a name that could leave its folder (400); reading the collection is left to the
    /// preview and the job.
    private static func zipFormat(_ data: Data) throws -> Format {
        let zip: ZipArchive
        do {
            zip = try ZipArchive(data)
        } catch .unsafeName(let name) {
            throw AppError.validation(AnkiPackage.problem(.unsafeName(name)).germanMessage)
        } catch {
            throw AppError.unsupportedMediaType(AnkiPackage.problem(error).germanMessage)
        }
        if zip.entry(BackupService.zipEntryName) != nil { return .backup }
        guard AnkiPackage.collectionNames.contains(where: { zip.entry($0) != nil }) else {
            throw AppError.unsupportedMediaType(
                "Die Zip-Datei ist kein Anki-Paket: Es fehlt die Sammlung (collection.anki2, .anki21 oder .anki21b).")
        }
        return .anki
    }

    /// A stack name from a file name: without its extension and path, at most the longest name.
    static func stackName(fromFile name: String?) -> String {
        let base = (name ?? "").split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let stem = base.contains(".") ? String(base[..<base.lastIndex(of: ".")!]) : base
        let cleaned = stem.replacingOccurrences(of: "_", with: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        return cleaned.isEmpty ? "Import" : String(cleaned.prefix(TextLimits.stackName))
    }

    /// The table of a CSV/TSV upload, read as the options say.
    static func table(_ data: Data, options: ImportOptionsDTO) throws(ImportProblem) -> DelimitedText.Table {
        do {
            return try DelimitedText.table(
                Array(data), separator: try? separator(of: options), header: options.hasHeader)
        } catch {
            throw ImportProblem(error)
        }
    }

    /// What the upload would import; parsing runs off the event loop.
    static func preview(_ upload: Upload, application: Application) async throws -> ImportPreviewDTO {
        let name = upload.options.stackName ?? stackName(fromFile: upload.fileName)
        switch upload.format {
        case .anki: return try await ankiPreview(upload, name: name, application: application)
        case .backup: return try await backupPreview(upload, name: name, application: application)
        case .delimited: break
        }
        return try await application.threadPool.runIfActive {
            let table: DelimitedText.Table
            do throws(ImportProblem) {
                table = try self.table(upload.data, options: upload.options)
            } catch {
                return refused(upload, error, name: name)
            }
            let mapping = upload.options.columns ?? table.mapping
            let reading = CardImport.read(table, mapping: mapping)
            return ImportPreviewDTO(
                format: upload.format.rawValue, encoding: table.encoding.rawValue, separator: String(table.separator),
                hasHeader: table.header != nil, header: table.header, columns: mapping, columnCount: table.columns,
                rows: Array(table.rows.prefix(20)), cards: reading.cards.count, rejected: reading.rejected,
                problems: reading.problems.map(\.dto), suggestedStackName: name)
        }
    }

    /// An Anki package's decks, cards, notes, history and media.
    private static func ankiPreview(_ upload: Upload, name: String, application: Application) async throws
        -> ImportPreviewDTO
    {
        let reading: AnkiImport
        let images: [AnkiImages.File]
        do {
            let package = try await readAnki(upload.data, application: application)
            images = await AnkiImages.files(of: package)
            // As the cards would be if every image comes through (the job re-encodes them).
            reading = AnkiImport(package, images: AnkiImages.previewIds(images))
        } catch let problem as ImportProblem {
            return refused(upload, problem, name: name)
        }
        // Rows are plain text: a rich card's images show as their descriptions (or "[Bild]").
        let rows = reading.decks.lazy.flatMap(\.cards).prefix(20).map { item in
            let sides = item.card.sides
            return [item.card.format.plainText(sides.question), item.card.format.plainText(sides.answer)]
        }
        return ImportPreviewDTO(
            format: upload.format.rawValue, encoding: nil, separator: nil, hasHeader: false, header: nil, columns: nil,
            columnCount: 2, rows: Array(rows), cards: reading.cardCount, rejected: reading.rejected,
            problems: reading.problems.map(\.dto), suggestedStackName: name, decks: reading.deckDTOs,
            notes: reading.notes, reviews: reading.reviews, media: reading.mediaCount, images: images.count)
    }

    /// A backup's stacks with their cards and history.
    private static func backupPreview(_ upload: Upload, name: String, application: Application) async throws
        -> ImportPreviewDTO
    {
        try await application.threadPool.runIfActive {
            let document: BackupDocumentDTO
            do throws(ImportProblem) {
                document = try BackupService.read(upload.data)
            } catch {
                return refused(upload, error, name: name)
            }
            let cards = document.stacks.reduce(0) { $0 + $1.cards.count }
            let reviews = document.stacks.reduce(0) { $0 + $1.reviews.count }
            let rows = document.stacks.lazy.flatMap(\.cards).prefix(20).map { [$0.question, $0.answer] }
            return ImportPreviewDTO(
                format: upload.format.rawValue, encoding: nil, separator: nil, hasHeader: false, header: nil,
                columns: nil, columnCount: 2, rows: Array(rows), cards: cards, rejected: 0, problems: [],
                suggestedStackName: document.stacks.count == 1 ? document.stacks[0].name : name,
                decks: document.stacks.map {
                    ImportDeckDTO(name: $0.name, cards: $0.cards.count, reviews: $0.reviews.count)
                },
                notes: nil, reviews: reviews, media: nil)
        }
    }

    /// The preview of a file that cannot be read at all: no rows, no cards, the one problem.
    private static func refused(_ upload: Upload, _ problem: ImportProblem, name: String) -> ImportPreviewDTO {
        ImportPreviewDTO(
            format: upload.format.rawValue, encoding: nil, separator: nil, hasHeader: false, header: nil, columns: nil,
            columnCount: 0, rows: [], cards: 0, rejected: 1, problems: [problem.dto], suggestedStackName: name)
    }

    /// Reads an Anki package with the application's thread pool.
    static func readAnki(_ data: Data, application: Application) async throws -> AnkiPackage {
        try await AnkiPackage.read(
            data, threadPool: application.threadPool, eventLoop: application.eventLoopGroup.any())
    }
}

extension ImportProblem {
    /// The wire form.
    var dto: ImportProblemDTO {
        ImportProblemDTO(code: code, line: line, note: note, field: field?.rawValue, message: germanMessage)
    }
}

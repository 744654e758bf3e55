import FlashcardsCore
import FlashcardsGeneration
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLiteNIO

/// An Anki package (`.apkg`) read into plain values: the legacy `collection.anki2` and
/// `collection.anki21` (schema 11, note types and decks as JSON in `col`) and the current
/// `collection.anki21b` (zstd, schema 18, note types, fields, templates and decks in tables with
/// protobuf blobs). See `Tests/FlashcardsServerTests/Fixtures/anki/README.md` for the formats.
struct AnkiPackage: Sendable {
    struct Note: Sendable {
        let id: Int64
        let typeId: Int64
        let fields: [String]
        let tags: [String]
    }

    struct Card: Sendable {
        let id: Int64
        let noteId: Int64
        let deckId: Int64
        let ord: Int
    }

    /// One answer of the review log (`revlog`).
    struct Review: Sendable {
        let cardId: Int64
        let time: Date
        let ease: Int
        let durationMs: Int
    }

    var decks: [Int64: String] = [:]
    var noteTypes: [Int64: AnkiNotes.NoteType] = [:]
    var notes: [Int64: Note] = [:]
    var cards: [Card] = []
    var reviews: [Review] = []
    /// Media files in the package: each file's name (NFC) → its zip entry.
    var mediaFiles: [String: String] = [:]
    /// The package's zip, which the media files are read from.
    var zip: ZipArchive?
    /// Media files in the package.
    var mediaCount: Int { mediaFiles.count }

    /// The collection's entry names, newest format first (new packages hold a dummy
    /// `collection.anki2`, "please update", beside the real one).
    static let collectionNames = ["collection.anki21b", "collection.anki21", "collection.anki2"]

    /// The largest collection a package may unpack to.
    static let maximumCollection = 512 * 1_024 * 1_024

    /// Reads `data`; a file that is no usable package throws the problem to report.
    static func read(_ data: Data, threadPool: NIOThreadPool, eventLoop: any EventLoop) async throws -> AnkiPackage {
        let zip: ZipArchive
        do {
            zip = try ZipArchive(data)
        } catch {
            throw problem(error)
        }
        // New packages hold a dummy `collection.anki2` ("please update") beside the real one.
        let collection: Data
        do {
            if let entry = zip.entry("collection.anki21b") {
                let packed = try zip.contents(of: entry, limit: maximumCollection)
                collection = try await unpackZstd(packed, name: entry.name)
            } else if let entry = zip.entry("collection.anki21") ?? zip.entry("collection.anki2") {
                collection = try zip.contents(of: entry, limit: maximumCollection)
            } else {
                throw ImportProblem(
                    .other(code: "not_a_package", message: "Die Datei ist kein Anki-Paket (keine Sammlung darin)."))
            }
        } catch let error as ZipArchive.Failure {
            throw problem(error)
        }
        var package = try await TemporaryWorkspace.with { directory in
            let path = directory.appendingPathComponent("collection.sqlite").path
            try collection.write(to: URL(fileURLWithPath: path))
            return try await threadPool.runIfActive {
                do {
                    let connection = try InlineSQLiteConnection(path: path, synchronous: "OFF")
                    defer { connection.close() }
                    try connection.defineCaseInsensitiveCollation("unicase")
                    return try read(connection)
                } catch let problem as ImportProblem {
                    throw problem
                } catch {
                    throw corrupt
                }
            }
        }
        package.mediaFiles = try await mediaFiles(zip)
        package.zip = zip
        return package
    }

    private static let corrupt = ImportProblem(
        .other(
            code: "corrupt_collection",
            message: "Die Sammlung im Anki-Paket ist beschädigt und kann nicht gelesen werden."))

    private static func unpackZstd(_ data: Data, name: String) async throws -> Data {
        do {
            return try await Zstandard.decompress(data, limit: maximumCollection)
        } catch GenerationError.toolMissing {
            throw ImportProblem(
                .other(
                    code: "zstd_missing",
                    message: "Dieses Anki-Paket ist mit zstd gepackt, das auf dem Server fehlt (Paket zstd)."))
        } catch GenerationError.toolFailed(_, let detail) where detail.contains("larger than allowed") {
            throw problem(.tooLarge(name))
        } catch is GenerationError {
            throw corrupt
        }
    }

    static func problem(_ failure: ZipArchive.Failure) -> ImportProblem {
        switch failure {
        case .notAZip, .corrupt:
            ImportProblem(.other(code: "not_a_package", message: "Die Datei ist kein gültiges Anki-Paket (.apkg)."))
        case .unsupported:
            ImportProblem(
                .other(
                    code: "unsupported_package",
                    message: "Das Paket nutzt eine Zip-Variante, die nicht unterstützt wird (verschlüsselt oder Zip64)."
                ))
        case .unsafeName(let name):
            ImportProblem(
                .other(code: "unsafe_path", message: "Das Paket enthält einen unzulässigen Dateinamen: \(name)"))
        case .tooLarge:
            ImportProblem(
                .other(
                    code: "package_too_large",
                    message:
                        "Das Paket entpackt sich zu mehr als \(maximumCollection / 1_048_576) MB und wird nicht gelesen."
                ))
        }
    }

    // MARK: The collection

    private static func read(_ db: InlineSQLiteConnection) throws -> AnkiPackage {
        func rows(_ sql: String, _ binds: [SQLiteData] = [], _ body: (InlineRow) throws -> Void) throws {
            _ = try db.run(sql, binds, body)
        }
        func integer(_ row: InlineRow, _ column: String) -> Int? { row.stored(column)?.integer }
        func text(_ row: InlineRow, _ column: String) -> String? { row.stored(column)?.string }
        func bytes(_ row: InlineRow, _ column: String) -> [UInt8] {
            row.stored(column)?.blob.map { Array($0.readableBytesView) } ?? []
        }
        var package = AnkiPackage()
        var version: Int?
        var models = "{}"
        var decks = "{}"
        try rows("SELECT ver, models, decks FROM col LIMIT 1") { row in
            version = integer(row, "ver")
            models = text(row, "models") ?? "{}"
            decks = text(row, "decks") ?? "{}"
        }
        guard let version else { throw corrupt }
        if version >= 18 {
            try rows("SELECT id, name FROM decks") { row in
                guard let id = integer(row, "id"), let name = text(row, "name") else { return }
                package.decks[Int64(id)] = name.replacingOccurrences(of: "\u{1F}", with: "::")
            }
            var types: [(id: Int, name: String, kind: Int)] = []
            try rows("SELECT id, name, config FROM notetypes") { row in
                guard let id = integer(row, "id"), let name = text(row, "name") else { return }
                types.append((id, name, AnkiNotes.protobufFields(bytes(row, "config"))?[1]?.first?.int ?? 0))
            }
            for type in types {
                var fields: [String] = []
                try rows("SELECT name FROM fields WHERE ntid = ? ORDER BY ord", [.integer(type.id)]) { row in
                    fields.append(text(row, "name") ?? "")
                }
                var templates: [Int: (question: String, answer: String)] = [:]
                try rows("SELECT ord, config FROM templates WHERE ntid = ? ORDER BY ord", [.integer(type.id)]) { row in
                    guard let ord = integer(row, "ord"), let parsed = AnkiNotes.protobufFields(bytes(row, "config"))
                    else { return }
                    templates[ord] = (parsed[1]?.first?.string ?? "", parsed[2]?.first?.string ?? "")
                }
                package.noteTypes[Int64(type.id)] = AnkiNotes.NoteType(
                    name: type.name, kind: type.kind == 1 ? .cloze : .normal, fields: fields, templates: templates)
            }
        } else {
            let decoder = JSONDecoder()
            struct LegacyDeck: Decodable { let name: String }
            struct LegacyType: Decodable {
                struct Field: Decodable {
                    let name: String
                    let ord: Int?
                }
                struct Template: Decodable {
                    let ord: Int?
                    let qfmt: String
                    let afmt: String
                }
                let name: String
                let type: Int?
                let flds: [Field]
                let tmpls: [Template]
            }
            for (id, deck) in try decoder.decode([String: LegacyDeck].self, from: Data(decks.utf8)) {
                if let id = Int64(id) { package.decks[id] = deck.name }
            }
            for (id, type) in try decoder.decode([String: LegacyType].self, from: Data(models.utf8)) {
                guard let id = Int64(id) else { continue }
                var templates: [Int: (question: String, answer: String)] = [:]
                for (index, template) in type.tmpls.enumerated() {
                    templates[template.ord ?? index] = (template.qfmt, template.afmt)
                }
                package.noteTypes[id] = AnkiNotes.NoteType(
                    name: type.name, kind: type.type == 1 ? .cloze : .normal,
                    fields: type.flds.enumerated().sorted {
                        ($0.element.ord ?? $0.offset) < ($1.element.ord ?? $1.offset)
                    }
                    .map(\.element.name),
                    templates: templates)
            }
        }
        try rows("SELECT id, mid, tags, flds FROM notes") { row in
            guard let id = integer(row, "id"), let type = integer(row, "mid") else { return }
            package.notes[Int64(id)] = Note(
                id: Int64(id), typeId: Int64(type),
                fields: (text(row, "flds") ?? "").components(separatedBy: "\u{1F}"),
                tags: (text(row, "tags") ?? "").split(separator: " ").map(String.init))
        }
        try rows("SELECT id, nid, did, ord FROM cards ORDER BY nid, ord") { row in
            guard let id = integer(row, "id"), let note = integer(row, "nid"), let deck = integer(row, "did"),
                let ord = integer(row, "ord")
            else { return }
            package.cards.append(Card(id: Int64(id), noteId: Int64(note), deckId: Int64(deck), ord: ord))
        }
        // Answers that schedule: ease 1–4 of learning, review, relearning and filtered reviews (not
        // the manual reschedulings, types 4 and 5, which have ease 0).
        try rows(
            "SELECT id, cid, ease, time FROM revlog WHERE ease BETWEEN 1 AND 4 AND type BETWEEN 0 AND 3 ORDER BY id"
        ) { row in
            guard let id = integer(row, "id"), let card = integer(row, "cid"), let ease = integer(row, "ease") else {
                return
            }
            package.reviews.append(
                Review(
                    cardId: Int64(card), time: Date(timeIntervalSince1970: Double(id) / 1_000), ease: ease,
                    durationMs: max(0, integer(row, "time") ?? 0)))
        }
        return package
    }

    // MARK: Media

    /// The media files the package's map names, with their zip entries: in the legacy map (JSON
    /// `{"0": "a.jpg"}`) the key is the entry; in the current one (zstd protobuf `MediaEntries`)
    /// file *i* is entry "*i*" (or its `legacy_zip_filename`, field 255). A name that could leave a
    /// folder refuses the package, as Anki does.
    private static func mediaFiles(_ zip: ZipArchive) async throws -> [String: String] {
        guard let entry = zip.entry("media") else { return [:] }
        var map: Data
        do {
            map = try zip.contents(of: entry, limit: 64 * 1_024 * 1_024)
        } catch {
            throw problem(error)
        }
        var files: [(name: String, entry: String)] = []
        if Zstandard.isCompressed(map) {
            map = try await unpackZstd(map, name: "media")
            let entries = AnkiNotes.protobufFields(Array(map))?[1] ?? []
            for (index, entry) in entries.enumerated() {
                guard let fields = entry.data.flatMap(AnkiNotes.protobufFields), let name = fields[1]?.first?.string
                else { continue }
                files.append((name, fields[255]?.first?.int.map(String.init) ?? String(index)))
            }
        } else {
            let json = (try? JSONDecoder().decode([String: String].self, from: map)) ?? [:]
            files = json.map { ($0.value, $0.key) }
        }
        if let unsafe = files.first(where: { !ZipArchive.isSafe($0.name) || $0.name.contains("/") }) {
            throw problem(.unsafeName(unsafe.name))
        }
        var byName: [String: String] = [:]
        for file in files { byName[file.name.precomposedStringWithCanonicalMapping] = file.entry }
        return byName
    }

    /// The media file an `<img src>` (its character references decoded) names, if the package
    /// holds it: the source as written, or URL-decoded (some tools write `a%20b.jpg`).
    func mediaFile(for source: String) -> String? {
        let name = source.precomposedStringWithCanonicalMapping
        if mediaFiles[name] != nil { return name }
        if let decoded = source.removingPercentEncoding?.precomposedStringWithCanonicalMapping,
            mediaFiles[decoded] != nil
        {
            return decoded
        }
        return nil
    }

    /// The bytes of media file `name` (unpacked when the package is zstd's), or nil when it is
    /// missing, larger than `limit` or broken.
    func mediaData(_ name: String, limit: Int) async -> Data? {
        guard let zip, let entryName = mediaFiles[name], let entry = zip.entry(entryName),
            var data = try? zip.contents(of: entry, limit: limit + 1_024)
        else { return nil }
        if Zstandard.isCompressed(data) {
            guard let unpacked = try? await Zstandard.decompress(data, limit: limit, timeoutSeconds: 20) else {
                return nil
            }
            data = unpacked
        }
        return data.count <= limit ? data : nil
    }
}

import Foundation

// Import and export (`docs/import.md`). A file is sent as multipart/form-data: the file in `file`,
// these options as JSON text in `options`. The preview reads it and writes nothing; the import
// queues a job (`kind` `import`) whose result is an `ImportResultDTO`, or, when the file breaks a
// rule, a failure whose `result` is the `ImportProblemDTO` saying where.

/// Which columns of a CSV/TSV file hold what (0-based): `front`, `back`, optional `hint` and `tags`.
public typealias ImportColumnsDTO = DelimitedText.Mapping

/// How to read and where to put an imported file; every field may be left out.
public struct ImportOptionsDTO: Codable, Sendable, Hashable {
    /// Add the cards to this stack of the caller's; else a new stack is made.
    public var stackId: UUID?
    /// The new stack's name; the file's name (or the Anki deck's) when absent.
    public var stackName: String?
    /// CSV/TSV: the separator, one character (`"\t"` for tab); detected when absent.
    public var separator: String?
    /// CSV/TSV: whether the first row names the columns; detected when absent.
    public var hasHeader: Bool?
    /// CSV/TSV: the columns; from the header, else front, back, hint, tags in that order.
    public var columns: ImportColumnsDTO?

    /// Creates the options.
    public init(
        stackId: UUID? = nil, stackName: String? = nil, separator: String? = nil, hasHeader: Bool? = nil,
        columns: ImportColumnsDTO? = nil
    ) {
        self.stackId = stackId
        self.stackName = stackName
        self.separator = separator
        self.hasHeader = hasHeader
        self.columns = columns
    }
}

/// Where and why a file cannot be imported.
public struct ImportProblemDTO: Codable, Sendable, Hashable {
    /// Stable: `front_empty`, `back_too_long`, `missing_column`, `unterminated_quote`, `no_cards`, …
    public var code: String
    /// The line of a CSV/TSV file (1-based).
    @Nullable public var line: Int?
    /// The Anki note id.
    @Nullable public var note: Int64?
    /// The card field concerned: `front`, `back`, `hint` or `tags`.
    @Nullable public var field: String?
    /// German, e.g. "Zeile 12: Die Rückseite ist leer."
    public var message: String

    /// Creates the problem.
    public init(code: String, line: Int? = nil, note: Int64? = nil, field: String? = nil, message: String) {
        self.code = code
        self.line = line
        self.note = note
        self.field = field
        self.message = message
    }
}

/// A deck of an Anki package: it becomes a stack of this name.
public struct ImportDeckDTO: Codable, Sendable, Hashable {
    /// The deck's full name, subdecks as `Biologie::Zellen`.
    public var name: String
    public var cards: Int
    /// Answers in its review history.
    public var reviews: Int

    /// Creates the entry.
    public init(name: String, cards: Int, reviews: Int) {
        self.name = name
        self.cards = cards
        self.reviews = reviews
    }
}

/// `POST /api/v1/imports/preview`: what the file holds and how it was read.
public struct ImportPreviewDTO: Codable, Sendable, Hashable {
    /// `csv` (CSV and TSV) or `apkg` (an Anki package).
    public var format: String
    /// `utf-8`, `utf-8-bom` or `windows-1252`.
    @Nullable public var encoding: String?
    /// The separator used (`"\t"` for tab).
    @Nullable public var separator: String?
    /// Whether the first row was read as a header.
    public var hasHeader: Bool
    /// The header row, when there is one.
    @Nullable public var header: [String]?
    /// The columns used.
    @Nullable public var columns: ImportColumnsDTO?
    /// The most fields a row has.
    public var columnCount: Int
    /// The first rows as read (at most 20).
    public var rows: [[String]]
    /// Cards the file would make.
    public var cards: Int
    /// Rows that break a rule; an import of this file would be refused while there are any.
    public var rejected: Int
    /// The first problems (at most 20).
    public var problems: [ImportProblemDTO]
    /// A name for a new stack (from the file's name).
    public var suggestedStackName: String
    /// Anki: the decks with cards (each becomes a stack unless `stackId` or `stackName` is given).
    @Nullable public var decks: [ImportDeckDTO]?
    /// Anki: notes in the package.
    @Nullable public var notes: Int?
    /// Anki: answers in the review history that come along.
    @Nullable public var reviews: Int?
    /// Anki: media files in the package.
    @Nullable public var media: Int?
    /// Anki: image files the cards show (JPEG, PNG, GIF or WebP, at most 500); they come along as
    /// images of rich cards.
    @Nullable public var images: Int?

    /// Creates the preview.
    public init(
        format: String, encoding: String?, separator: String?, hasHeader: Bool, header: [String]?,
        columns: ImportColumnsDTO?, columnCount: Int, rows: [[String]], cards: Int, rejected: Int,
        problems: [ImportProblemDTO], suggestedStackName: String, decks: [ImportDeckDTO]? = nil, notes: Int? = nil,
        reviews: Int? = nil, media: Int? = nil, images: Int? = nil
    ) {
        self.images = images
        self.decks = decks
        self.notes = notes
        self.reviews = reviews
        self.media = media
        self.format = format
        self.encoding = encoding
        self.separator = separator
        self.hasHeader = hasHeader
        self.header = header
        self.columns = columns
        self.columnCount = columnCount
        self.rows = rows
        self.cards = cards
        self.rejected = rejected
        self.problems = problems
        self.suggestedStackName = suggestedStackName
    }
}

/// A stack an import filled.
public struct ImportedStackDTO: Codable, Sendable, Hashable {
    @LowercaseUUID public var id: UUID
    public var name: String
    /// Cards added to it.
    public var cards: Int
    /// Whether the import made it (or added to an existing one).
    public var created: Bool

    /// Creates the entry.
    public init(id: UUID, name: String, cards: Int, created: Bool) {
        self.id = id
        self.name = name
        self.cards = cards
        self.created = created
    }
}

/// The result of an import job (the job's `result`).
public struct ImportResultDTO: Codable, Sendable, Hashable {
    public var stacks: [ImportedStackDTO]
    public var cardsCreated: Int
    /// Answers of the review history imported (Anki).
    public var reviewsImported: Int
    /// Media files left out (Anki: sounds, files no card shows, images that could not be read).
    public var mediaSkipped: Int
    /// Images the cards show, stored as the learner's (Anki; backups).
    public var imagesImported: Int

    /// Creates the result.
    public init(
        stacks: [ImportedStackDTO], cardsCreated: Int, reviewsImported: Int = 0, mediaSkipped: Int = 0,
        imagesImported: Int = 0
    ) {
        self.imagesImported = imagesImported
        self.stacks = stacks
        self.cardsCreated = cardsCreated
        self.reviewsImported = reviewsImported
        self.mediaSkipped = mediaSkipped
    }
}

/// `GET /api/v1/stacks/{id}/export?format=…`.
public enum ExportFormat: String, Codable, Sendable, Hashable, CaseIterable {
    /// Comma-separated, UTF-8 with a byte order mark (what Excel needs), a header row.
    case csv
    /// Tab-separated, UTF-8, no header row (Quizlet and Anki take the rows as they are).
    case tsv
    /// An Anki package (legacy `collection.anki21`): notes, cards with their scheduling state, and
    /// the review history.
    case apkg
    /// A Smart Flashcards backup of the stack (`BackupDocumentDTO`): cards with their schedules and
    /// the whole review log, imported back as a copy.
    case json
}

extension ImportResultDTO {
    /// Reads a result; one from a server before images (no `imagesImported`) has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            stacks: try container.decode([ImportedStackDTO].self, forKey: .stacks),
            cardsCreated: try container.decode(Int.self, forKey: .cardsCreated),
            reviewsImported: try container.decode(Int.self, forKey: .reviewsImported),
            mediaSkipped: try container.decode(Int.self, forKey: .mediaSkipped),
            imagesImported: try container.decodeIfPresent(Int.self, forKey: .imagesImported) ?? 0)
    }
}

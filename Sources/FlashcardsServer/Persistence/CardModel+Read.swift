import FlashcardsCore
import FluentPostgresDriver
import Foundation
import SQLKit
import SQLiteNIO

extension CardModel {
    /// The columns `read` reads.
    static let columns = [
        "id", "unique_id", "stack_id", "user_id", "question", "answer", "hint", "search_text", "due_at", "level",
        "review_count", "created_at", "updated_at", "hint_source", "queue", "state", "step", "stability",
        "difficulty", "first_reviewed_at", "last_reviewed_at", "bookmarked", "format",
        "kind", "variant", "note_id", "choices",
    ]

    /// The card in a row with the `columns` of `cards`, read column by column: on the learning path
    /// Fluent's reflective model output cost more than the statement. Every field of the result
    /// counts as set, so it is for reading and `StudyTransaction.saveSchedule`; a Fluent `save` would
    /// write every column.
    static func read(_ row: any SQLRow) throws -> CardModel { try read(ColumnReader(row)) }

    /// `read(_:)` through a `ColumnReader` (a PostgreSQL row as the driver delivered it: the
    /// learning path's named statements).
    static func read(_ row: ColumnReader) throws -> CardModel {
        let card = CardModel()
        card.id = try row.value("id", as: Int.self)
        card.uniqueId = try row.uuid("unique_id")
        card.stackId = try row.value("stack_id", as: Int.self)
        card.userId = try row.uuid("user_id")
        card.question = try row.value("question", as: String.self)
        card.answer = try row.value("answer", as: String.self)
        card.hint = try row.optional("hint", as: String.self)
        card.searchText = try row.value("search_text", as: String.self)
        card.dueAt = try row.value("due_at", as: Date.self)
        card.level = try row.value("level", as: Int.self)
        card.reviewCount = try row.value("review_count", as: Int.self)
        card.createdAt = try row.value("created_at", as: Date.self)
        card.updatedAt = try row.value("updated_at", as: Date.self)
        card.hintSource = try row.optional("hint_source", as: String.self)
        card.queue = try row.value("queue", as: Int.self)
        card.state = try row.value("state", as: String.self)
        card.step = try row.optional("step", as: Int.self)
        card.stability = try row.optional("stability", as: Double.self)
        card.difficulty = try row.optional("difficulty", as: Double.self)
        card.firstReviewedAt = try row.optional("first_reviewed_at", as: Date.self)
        card.lastReviewedAt = try row.optional("last_reviewed_at", as: Date.self)
        card.bookmarked = try row.value("bookmarked", as: Bool.self)
        card.format = try row.value("format", as: String.self)
        card.kind = try row.value("kind", as: String.self)
        card.variant = try row.value("variant", as: Int.self)
        card.noteId = try row.optional("note_id", as: String.self)
        card.choicesJSON = try row.optional("choices", as: String.self)
        card.$id.exists = true
        return card
    }

}

/// Typed reads of a row's columns. On the inline SQLite connections a stored value is converted as
/// the driver converts it, without the generic decoder around that, which took about a quarter of
/// reading a card (docs/benchmarks.md; the rest is Fluent's model and its property wrappers). A
/// PostgreSQL row the driver delivered is decoded by its binary types (`PostgresDecodable`): through
/// SQLKit's row, every value went through `Decodable`, about 6 % of the server's CPU on the
/// learning path. Anything else (another storage class, other SQLKit rows) goes through
/// `decode(column:as:)`.
struct ColumnReader {
    typealias Value = SQLiteDataConvertible & Decodable & PostgresDecodable

    private enum Source {
        /// A SQLKit row; `inline` when it comes from an inline SQLite connection.
        case sql(any SQLRow, inline: InlineRow?)
        case postgres(PostgresRandomAccessRow)
    }

    private let source: Source

    init(_ row: any SQLRow) { source = .sql(row, inline: row as? InlineRow) }

    init(_ row: PostgresRow) { source = .postgres(PostgresRandomAccessRow(row)) }

    /// `column` as the driver converts it (`SQLiteDataConvertible`, which its decoder uses too).
    func value<T: Value>(_ column: String, as type: T.Type) throws -> T {
        switch source {
        case .postgres(let row):
            return try row[column].decode(T.self)
        case .sql(let row, let inline):
            if let stored = inline?.stored(column), let value = T(sqliteData: stored) { return value }
            return try row.decode(column: column, as: T.self)
        }
    }

    func optional<T: Value>(_ column: String, as type: T.Type) throws -> T? {
        switch source {
        case .postgres(let row):
            let cell = row[column]
            return cell.bytes == nil ? nil : try cell.decode(T.self)
        case .sql(let row, let inline):
            guard let stored = inline?.stored(column) else { return try row.decode(column: column, as: T?.self) }
            if case .null = stored { return nil }
            return try value(column, as: T.self)
        }
    }

    func uuid(_ column: String) throws -> UUID {
        switch source {
        case .postgres(let row):
            return try row[column].decode(UUID.self)
        case .sql(let row, let inline):
            if case .text(let text)? = inline?.stored(column), let value = UUID(uuidString: text) { return value }
            return try row.decode(column: column, as: UUID.self)
        }
    }
}

import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import SQLiteNIO

/// A card with its schedule. Stacks have exactly one owner, so the schedule lives on the card;
/// `userId` is kept on the row so every lookup can be scoped to the caller in one indexed query.
final class CardModel: Model, @unchecked Sendable {
    static let schema = "cards"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "unique_id") var uniqueId: UUID
    @Field(key: "stack_id") var stackId: Int
    @Field(key: "user_id") var userId: UUID
    @Field(key: "question") var question: String
    @Field(key: "answer") var answer: String
    @OptionalField(key: "hint") var hint: String?
    /// Lowercased question, answer and hint, for case-insensitive search that behaves the same on
    /// SQLite (whose LOWER() knows only ASCII) and PostgreSQL.
    @Field(key: "search_text") var searchText: String
    @Field(key: "due_at") var dueAt: Date
    @Field(key: "level") var level: Int
    @Field(key: "review_count") var reviewCount: Int
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    /// Who wrote the hint: `user`, `generated`, or nil for no hint. Generated hints are remade when
    /// the question or answer changes; a user's hint is never overwritten.
    @OptionalField(key: "hint_source") var hintSource: String?
    /// 0 new, 1 learning or relearning, 2 review: leads the index that lets next-card honour the
    /// daily limits with one seek per queue.
    @Field(key: "queue") var queue: Int
    /// `new`, `learning`, `review` or `relearning`.
    @Field(key: "state") var state: String
    /// FSRS (re)learning step; nil in review.
    @OptionalField(key: "step") var step: Int?
    /// FSRS stability in days.
    @OptionalField(key: "stability") var stability: Double?
    /// FSRS difficulty.
    @OptionalField(key: "difficulty") var difficulty: Double?
    /// The first review that counts; the daily new-card limit counts cards first reviewed today.
    @OptionalField(key: "first_reviewed_at") var firstReviewedAt: Date?
    /// The last review that counts.
    @OptionalField(key: "last_reviewed_at") var lastReviewedAt: Date?

    init() {}

    init(
        uniqueId: UUID, stackId: Int, userId: UUID, question: String, answer: String, hint: String?, now: Date
    ) {
        self.uniqueId = uniqueId
        self.stackId = stackId
        self.userId = userId
        self.question = question
        self.answer = answer
        self.hint = hint
        self.searchText = CardModel.searchText(question: question, answer: answer, hint: hint)
        let state = LadderState.new(createdAt: now)
        self.dueAt = state.due
        self.level = state.level
        self.reviewCount = 0
        self.queue = 0
        self.state = "new"
        self.createdAt = now
        self.updatedAt = now
    }

    /// Recomputes ``searchText`` after an edit.
    func refreshSearchText() {
        searchText = CardModel.searchText(question: question, answer: answer, hint: hint)
    }

    static func searchText(question: String, answer: String, hint: String?) -> String {
        [question, answer, hint ?? ""].joined(separator: "\n").lowercased()
    }

    var ladderState: LadderState {
        get { LadderState(due: dueAt, level: level) }
        set {
            dueAt = newValue.due
            level = newValue.level
        }
    }
}

extension CardModel {
    /// The columns `read` reads.
    static let columns = [
        "id", "unique_id", "stack_id", "user_id", "question", "answer", "hint", "search_text", "due_at", "level",
        "review_count", "created_at", "updated_at", "hint_source", "queue", "state", "step", "stability",
        "difficulty", "first_reviewed_at", "last_reviewed_at",
    ]

    /// The card in a row with the `columns` of `cards`, read column by column: on the learning path
    /// Fluent's reflective model output cost more than the statement. Every field of the result
    /// counts as set, so it is for reading and `saveSchedule`; a Fluent `save` would write every column.
    static func read(_ row: any SQLRow) throws -> CardModel {
        let row = ColumnReader(row)
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
        card.$id.exists = true
        return card
    }

    /// Writes the card's schedule (what a replay sets) in one statement.
    func saveSchedule(on sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            UPDATE cards SET due_at = \(bind: dueAt), level = \(bind: level), review_count = \(bind: reviewCount),
            queue = \(bind: queue), state = \(bind: state), step = \(bind: step), stability = \(bind: stability),
            difficulty = \(bind: difficulty), first_reviewed_at = \(bind: firstReviewedAt),
            last_reviewed_at = \(bind: lastReviewedAt) WHERE id = \(key: id!)
            """
        ).run()
    }
}

/// Typed reads of a row's columns. On the inline SQLite connections a stored value is converted as
/// the driver converts it, without the generic decoder around that: reading a card took 21–39 µs with it and
/// takes 16–21 µs so (timed in the server, same row; the rest is Fluent's model and its property
/// wrappers). Anything else (PostgreSQL rows, another storage class) goes through
/// `decode(column:as:)` as before.
private struct ColumnReader {
    let row: any SQLRow
    let inline: InlineRow?

    init(_ row: any SQLRow) {
        self.row = row
        self.inline = row as? InlineRow
    }

    /// `column` as the driver converts it (`SQLiteDataConvertible`, which its decoder uses too).
    func value<T: SQLiteDataConvertible & Decodable>(_ column: String, as type: T.Type) throws -> T {
        if let stored = inline?.stored(column), let value = T(sqliteData: stored) { return value }
        return try row.decode(column: column, as: T.self)
    }

    func optional<T: SQLiteDataConvertible & Decodable>(_ column: String, as type: T.Type) throws -> T? {
        guard let stored = inline?.stored(column) else { return try row.decode(column: column, as: T?.self) }
        if case .null = stored { return nil }
        return try value(column, as: T.self)
    }

    func uuid(_ column: String) throws -> UUID {
        if case .text(let text)? = inline?.stored(column), let value = UUID(uuidString: text) { return value }
        return try row.decode(column: column, as: UUID.self)
    }
}

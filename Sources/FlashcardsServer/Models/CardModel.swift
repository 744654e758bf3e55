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
        card.id = try row.int("id")
        card.uniqueId = try row.uuid("unique_id")
        card.stackId = try row.int("stack_id")
        card.userId = try row.uuid("user_id")
        card.question = try row.string("question")
        card.answer = try row.string("answer")
        card.hint = try row.optionalString("hint")
        card.searchText = try row.string("search_text")
        card.dueAt = try row.date("due_at")
        card.level = try row.int("level")
        card.reviewCount = try row.int("review_count")
        card.createdAt = try row.date("created_at")
        card.updatedAt = try row.date("updated_at")
        card.hintSource = try row.optionalString("hint_source")
        card.queue = try row.int("queue")
        card.state = try row.string("state")
        card.step = try row.optionalInt("step")
        card.stability = try row.optionalDouble("stability")
        card.difficulty = try row.optionalDouble("difficulty")
        card.firstReviewedAt = try row.optionalDate("first_reviewed_at")
        card.lastReviewedAt = try row.optionalDate("last_reviewed_at")
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

/// Typed reads of a row's columns. On the inline SQLite connections a value stored as the type
/// wanted is taken as it is, without the generic decoder: reading a card took 22–33 µs with it and
/// takes 16–19 µs so (timed in the server, same row; the rest is Fluent's model and its property
/// wrappers). Anything else (PostgreSQL rows, another storage class) goes through
/// `decode(column:as:)` as before.
private struct ColumnReader {
    let row: any SQLRow
    let inline: InlineRow?

    init(_ row: any SQLRow) {
        self.row = row
        self.inline = row as? InlineRow
    }

    func int(_ column: String) throws -> Int {
        if case .integer(let value)? = inline?.stored(column) { return value }
        return try row.decode(column: column, as: Int.self)
    }

    func optionalInt(_ column: String) throws -> Int? {
        switch inline?.stored(column) {
        case .integer(let value)?: value
        case .null?: nil
        default: try row.decode(column: column, as: Int?.self)
        }
    }

    func optionalDouble(_ column: String) throws -> Double? {
        switch inline?.stored(column) {
        case .float(let value)?: value
        case .null?: nil
        default: try row.decode(column: column, as: Double?.self)
        }
    }

    func string(_ column: String) throws -> String {
        if case .text(let value)? = inline?.stored(column) { return value }
        return try row.decode(column: column, as: String.self)
    }

    func optionalString(_ column: String) throws -> String? {
        switch inline?.stored(column) {
        case .text(let value)?: value
        case .null?: nil
        default: try row.decode(column: column, as: String?.self)
        }
    }

    func uuid(_ column: String) throws -> UUID {
        if case .text(let text)? = inline?.stored(column), let value = UUID(uuidString: text) { return value }
        return try row.decode(column: column, as: UUID.self)
    }

    /// As the driver converts a stored real (to the microsecond).
    func date(_ column: String) throws -> Date {
        if let stored = inline?.stored(column), case .float = stored, let value = Date(sqliteData: stored) {
            return value
        }
        return try row.decode(column: column, as: Date.self)
    }

    func optionalDate(_ column: String) throws -> Date? {
        switch inline?.stored(column) {
        case .null?: nil
        case .float?: try date(column)
        default: try row.decode(column: column, as: Date?.self)
        }
    }
}

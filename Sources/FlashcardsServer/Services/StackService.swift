import FlashcardsCore
import Fluent
import Foundation
import SQLKit

/// Stacks of the calling user. A stack of someone else is indistinguishable from a missing one.
struct StackService {
    let context: ServiceContext
    let user: UserModel

    private var userId: UUID { user.id! }

    /// The user's stacks in creation order.
    func list() async throws -> [StackModel] {
        try await StackModel.query(on: context.db).filter(\.$userId == userId).sort(\.$id).all()
    }

    /// The stack with this path id, if it is the caller's.
    func find(_ uniqueId: String?) async throws -> StackModel {
        let id = try Validate.uuid(uniqueId, notFound: .stackNotFound)
        if let stack = context.preloadedStack, stack.uniqueId == id, stack.userId == userId { return stack }
        // Plain SQL: every stack route starts here, and Fluent's query building cost more than the seek.
        guard
            let row = try await context.sql.raw(
                "SELECT * FROM stacks WHERE unique_id = \(key: id) AND user_id = \(key: userId)"
            ).first()
        else { throw AppError.stackNotFound }
        let stack = StackModel()
        try stack.read(from: PrefixedOutput(row: row, prefix: ""))
        return stack
    }

    /// Creates a stack. `lenientColor` keeps the original API's acceptance of any colour text.
    /// Hints are on unless `hintsEnabled` is false.
    func create(name: String, color: String, lenientColor: Bool = false, hintsEnabled: Bool? = nil) async throws
        -> StackModel
    {
        let stack = StackModel(
            uniqueId: context.uuid(), userId: userId,
            name: try Validate.text(name, field: "Der Name", max: TextLimits.stackName),
            color: try Validate.color(color, lenient: lenientColor), now: context.now)
        if let hintsEnabled { stack.hintsEnabled = hintsEnabled }
        try await stack.create(on: context.db)
        return stack
    }

    /// Renames and/or recolours a stack, and switches its hints. Switching hints on queues one hint
    /// job for the stack when any of its cards lacks a hint (the job fills all of them); switching
    /// them off keeps the stored hints, so they are back at once when switched on again.
    func update(_ stack: StackModel, name: String?, color: String?, hintsEnabled: Bool? = nil) async throws
        -> StackModel
    {
        if let name { stack.name = try Validate.text(name, field: "Der Name", max: TextLimits.stackName) }
        if let color { stack.color = try Validate.color(color) }
        let hintsSwitchedOn = hintsEnabled == true && !stack.hintsEnabled
        if let hintsEnabled { stack.hintsEnabled = hintsEnabled }
        stack.updatedAt = context.now
        try await stack.save(on: context.db)
        if hintsSwitchedOn {
            try await HintJobs.enqueueIfAnyMissing(stack: stack, db: context.db, now: context.now)
        }
        return stack
    }

    /// Deletes a stack with its cards and their reviews (database cascades).
    func delete(_ stack: StackModel) async throws {
        try await stack.delete(on: context.db)
    }

    /// Card and due counts per stack, in one grouped query.
    func counts(for stacks: [StackModel], cutoff: Date) async throws -> [Int: (cards: Int, due: Int)] {
        guard !stacks.isEmpty else { return [:] }
        struct Row: Decodable {
            let stack_id: Int
            let cards: Int
            let due: Int
        }
        let sql = context.db as! any SQLDatabase
        let rows = try await sql.select()
            .column("stack_id")
            .column(SQLQueryString("COUNT(*)"), as: "cards")
            .column(SQLQueryString("SUM(CASE WHEN due_at < \(bind: cutoff) THEN 1 ELSE 0 END)"), as: "due")
            .from("cards")
            .where("stack_id", .in, stacks.map { $0.id! })
            .groupBy("stack_id")
            .all(decoding: Row.self)
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.stack_id, ($0.cards, $0.due)) })
    }
}

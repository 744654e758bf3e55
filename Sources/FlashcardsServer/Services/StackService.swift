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
        guard let stack = try await context.store.stack(uniqueId: id, of: userId) else { throw AppError.stackNotFound }
        return stack
    }

    /// Creates a stack. `lenientColor` keeps the original API's acceptance of any colour text.
    /// Hints are on unless `hintsEnabled` is false.
    func create(
        name: String, color: String, lenientColor: Bool = false, hintsEnabled: Bool? = nil,
        settings change: StackSettings.Change = .init()
    ) async throws -> StackModel {
        // The settings are validated before anything is written.
        let settings = try Self.validated(StackSettings(), applying: change)
        let stack = StackModel(
            uniqueId: context.uuid(), userId: userId,
            name: try Validate.text(name, field: "Der Name", max: TextLimits.stackName),
            color: try Validate.color(color, lenient: lenientColor), now: context.now)
        if let hintsEnabled { stack.hintsEnabled = hintsEnabled }
        stack.settings = settings
        try await stack.create(on: context.db)
        return stack
    }

    /// Renames and/or recolours a stack, switches its hints and changes its scheduler settings.
    /// Switching hints on queues one hint job for the stack when any of its cards lacks a hint (the
    /// job fills all of them); switching them off keeps the stored hints, so they are back at once
    /// when switched on again. A new scheduler makes every card the replay of its history under it,
    /// in the same transaction. Every value is validated before anything is written.
    func update(
        _ stack: StackModel, name: String?, color: String?, hintsEnabled: Bool? = nil,
        settings change: StackSettings.Change = .init()
    ) async throws -> StackModel {
        let before = stack.settings
        let settings = try Self.validated(before, applying: change)
        if let name { stack.name = try Validate.text(name, field: "Der Name", max: TextLimits.stackName) }
        if let color { stack.color = try Validate.color(color) }
        let hintsSwitchedOn = hintsEnabled == true && !stack.hintsEnabled
        if let hintsEnabled { stack.hintsEnabled = hintsEnabled }
        stack.updatedAt = context.now
        if settings == before {
            try await stack.save(on: context.db)
        } else {
            stack.settings = settings
            // A new scheduler or daily cap changes how the backlog is spread: spread again on the
            // next request.
            if settings.scheduler != before.scheduler || settings.reviewsPerDay != before.reviewsPerDay {
                stack.spreadDay = nil
            }
            try await ReviewService(context: context, user: user)
                .saveSettings(of: stack, recomputing: settings.scheduler != before.scheduler)
        }
        if hintsSwitchedOn {
            try await HintJobs.enqueueIfAnyMissing(stack: stack, db: context.db, now: context.now)
        }
        return stack
    }

    /// `settings` with `change` applied; an invalid value is a 400 naming it.
    private static func validated(_ settings: StackSettings, applying change: StackSettings.Change) throws
        -> StackSettings
    {
        do {
            return try settings.applying(change)
        } catch {
            throw AppError.validation(error.message)
        }
    }

    /// Records a finished match game on `stack` (practice: the schedule stays); the faster time is
    /// kept. Returns the best time and whether this game set it.
    func recordMatch(_ stack: StackModel, milliseconds: Int) async throws -> (bestMs: Int, newBest: Bool) {
        guard (500...3_600_000).contains(milliseconds) else {
            throw AppError.validation("milliseconds muss zwischen 500 und 3600000 liegen.")
        }
        let stackId = stack.id!
        let result = try await context.store.writeTransaction {
            try await $0.recordMatch(stackId: stackId, milliseconds: milliseconds)
        }
        stack.matchBestMs = result.bestMs
        return result
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
        let rows = try await context.store.sql.select()
            .column("stack_id")
            .column(SQLQueryString("COUNT(*)"), as: "cards")
            .column(SQLQueryString("SUM(CASE WHEN due_at < \(bind: cutoff) THEN 1 ELSE 0 END)"), as: "due")
            .from("cards")
            .where("stack_id", .in, stacks.map { $0.id! })
            .groupBy("stack_id")
            .all(decoding: Row.self)
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.stack_id, ($0.cards, $0.due)) })
    }

    /// A stack with its card count and due count.
    struct Summary {
        let stack: StackModel
        let cardCount: Int
        let dueCount: Int
    }

    /// The user's stacks with their counts. FSRS stacks count what study/next would offer today
    /// (daily limits applied, 04:00 rollover); both kinds up to `QueueOrder.dueCountLimit`, as
    /// study/next does.
    func listCounted() async throws -> [Summary] {
        try await counted(try await list())
    }

    /// `stack` with its counts.
    func counted(_ stack: StackModel) async throws -> Summary {
        try await counted([stack])[0]
    }

    private func counted(_ stacks: [StackModel]) async throws -> [Summary] {
        // The ladder's cut-off: the end of the user's day (midnight).
        let cutoff = StudyDay.dueCutoff(now: context.now, timeZone: user.zone)
        let counts = try await counts(for: stacks, cutoff: cutoff)
        var result: [Summary] = []
        for stack in stacks {
            let count = counts[stack.id!] ?? (cards: 0, due: 0)
            let due =
                stack.schedulerKind == .fsrs
                ? try await StudyService(context: context, user: user, stack: stack).dueCount()
                : min(count.due, QueueOrder.dueCountLimit)
            result.append(Summary(stack: stack, cardCount: count.cards, dueCount: due))
        }
        return result
    }
}

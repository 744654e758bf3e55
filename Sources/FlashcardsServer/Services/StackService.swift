import FlashcardsAPI
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
        try await context.store.stacks(of: userId)
    }

    /// The stack with this path id, if it is the caller's. `preloaded` is the stack of the path read
    /// with the account (`RequireUserMiddleware`), which spares the lookup when it is this one.
    func find(_ uniqueId: String?, preloaded: StackModel? = nil) async throws -> StackModel {
        let id = try Validate.uuid(uniqueId, notFound: .stackNotFound)
        if let stack = preloaded, stack.uniqueId == id, stack.userId == userId { return stack }
        guard let stack = try await context.store.stack(uniqueId: id, of: userId) else { throw AppError.stackNotFound }
        return stack
    }

    /// Creates a stack. `lenientColor` keeps the original API's acceptance of any colour text.
    /// Hints are on unless `hintsEnabled` is false.
    func create(
        name: String, color: String, lenientColor: Bool = false, hintsEnabled: Bool? = nil,
        settings change: StackSettings.Change = .init(), library: LibraryChange = .init()
    ) async throws -> StackModel {
        let stack = try Self.newStack(
            uniqueId: context.uuid(), userId: userId, name: name, color: color, lenientColor: lenientColor,
            hintsEnabled: hintsEnabled, settings: change, library: library, now: context.now)
        try await stack.create(on: context.db)
        return stack
    }

    /// A new stack, every value validated, not yet saved (an import saves it in its transaction).
    static func newStack(
        uniqueId: UUID, userId: UUID, name: String, color: String, lenientColor: Bool = false,
        hintsEnabled: Bool? = nil, settings change: StackSettings.Change = .init(), library: LibraryChange = .init(),
        now: Date
    ) throws -> StackModel {
        let settings = try validated(StackSettings(), applying: change)
        let stack = StackModel(
            uniqueId: uniqueId, userId: userId,
            name: try Validate.text(name, field: "Der Name", max: TextLimits.stackName),
            color: try Validate.color(color, lenient: lenientColor), now: now)
        try library.apply(to: stack)
        if let hintsEnabled { stack.hintsEnabled = hintsEnabled }
        stack.settings = settings
        return stack
    }

    /// Renames and/or recolours a stack, switches its hints and changes its scheduler settings.
    /// Switching hints on queues one hint job for the stack when any of its cards lacks a hint (the
    /// job fills all of them); switching them off keeps the stored hints, so they are back at once
    /// when switched on again. A new scheduler makes every card the replay of its history under it,
    /// in the same transaction. Every value is validated before anything is written.
    func update(
        _ stack: StackModel, name: String?, color: String?, hintsEnabled: Bool? = nil,
        settings change: StackSettings.Change = .init(), library: LibraryChange = .init(),
        parameters: PreloadedParameters? = nil
    ) async throws -> StackModel {
        let before = stack.settings
        let settings = try Self.validated(before, applying: change)
        try library.apply(to: stack)
        if let name { stack.name = try Validate.text(name, field: "Der Name", max: TextLimits.stackName) }
        if let color { stack.color = try Validate.color(color) }
        let hintsSwitchedOn = hintsEnabled == true && !stack.hintsEnabled
        if let hintsEnabled { stack.hintsEnabled = hintsEnabled }
        stack.updatedAt = context.now
        if settings == before {
            try await stack.save(on: context.db)
        } else {
            stack.settings = settings
            // A new scheduler or daily cap changes how the backlog is spread: the cards moved are put
            // back and spread again on the next request.
            let respread = settings.scheduler != before.scheduler || settings.reviewsPerDay != before.reviewsPerDay
            if respread { stack.spreadDay = nil }
            try await ReviewService(context: context, user: user)
                .saveSettings(
                    of: stack, recomputing: settings.scheduler != before.scheduler, undoingSpread: respread,
                    parameters: parameters)
        }
        if hintsSwitchedOn {
            try await HintJobs.enqueueIfAnyMissing(stack: stack, store: context.store, now: context.now)
        }
        if name != nil || library.description != nil {
            try await CatalogueService.refreshSearchText(of: stack, in: context.store.catalogue)
        }
        return stack
    }

    /// What the library shows of a stack: description, icon and favourite mark.
    struct LibraryChange {
        var description: String?
        var icon: Patch<String> = .keep
        var favorite: Bool?

        /// Validates and applies the change (nothing is applied when a value is invalid).
        func apply(to stack: StackModel) throws {
            let description = try description.map {
                try Validate.optionalText($0, field: "Die Beschreibung", max: TextLimits.stackDescription)
            }
            if case .set(let icon) = icon, StackIcon(rawValue: icon) == nil {
                throw AppError.validation(
                    "Das Symbol muss eines von \(StackIcon.allCases.map(\.rawValue).joined(separator: ", ")) sein.")
            }
            if let description { stack.description = description }
            stack.icon = icon.applied(to: stack.icon)
            if let favorite { stack.favorite = favorite }
        }
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
        // Its reviews leave the progress of their days: the cache is rebuilt from its first review
        // on (marked first, so a failed delete costs a rebuild at most, never a stale figure).
        if let first = try await cardFigures(for: [stack])[stack.id!]?.firstStudiedAt {
            try await context.store.logChanged(userId: userId, from: first)
        }
        try await stack.delete(on: context.db)
    }

    typealias CardFigures = StackCardFigures

    /// The figures of each stack from its cards (`StudyStore.cardFigures`: two statements that read
    /// indexes only).
    func cardFigures(for stacks: [StackModel]) async throws -> [Int: CardFigures] {
        let ladderCutoff = StudyDay.dueCutoff(
            now: context.now, timeZone: user.zone, dayStartHour: SchedulerKind.ladder.dayStartHour)
        let fsrsCutoff = StudyDay.dueCutoff(
            now: context.now, timeZone: user.zone, dayStartHour: SchedulerKind.fsrs.dayStartHour)
        return try await context.store.cardFigures(
            stackIds: stacks.map { $0.id! }, ladderCutoff: ladderCutoff, fsrsCutoff: fsrsCutoff)
    }

    /// Today's review counts of the FSRS stacks: kept on the stack row when it was rated today,
    /// else counted for all the others in one statement.
    private func dayCounts(of stacks: [StackModel]) async throws -> [Int: StackDayCounts.Counts] {
        let clock = FSRSDayCounting.rollover(hourOfDay: SchedulerKind.fsrs.dayStartHour, timeZone: user.zone)
        let dayStart = clock.startOfDay(clock.dayNumber(of: context.now))
        var counts: [Int: StackDayCounts.Counts] = [:]
        var missing: [Int] = []
        for stack in stacks where try stack.schedulerKind == .fsrs {
            if let kept = StackDayCounts.kept(by: stack, from: dayStart) {
                counts[stack.id!] = kept
            } else {
                missing.append(stack.id!)
            }
        }
        for (id, count) in try await context.store.dayCounts(stackIds: missing, since: dayStart) {
            counts[id] = count
        }
        return counts
    }

    /// A stack with its card count and due count.
    struct Summary {
        let stack: StackModel
        let cardCount: Int
        let dueCount: Int
        var inReview = 0
        var lastStudiedAt: Date?
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

    /// The counts of `stacks`: a ladder stack's due cards, an FSRS stack's due cards within
    /// today's allowance (`QueueOrder.dueCount`), from the batched figures.
    func counted(_ stacks: [StackModel], figures known: [Int: CardFigures]? = nil) async throws -> [Summary] {
        let figures: [Int: CardFigures]
        if let known { figures = known } else { figures = try await cardFigures(for: stacks) }
        let dayCounts = try await dayCounts(of: stacks)
        return try stacks.map { stack in
            let figure = figures[stack.id!] ?? CardFigures()
            let due: Int
            if try stack.schedulerKind == .fsrs {
                let counts = dayCounts[stack.id!]
                let allowance = DailyAllowance(
                    settings: stack.settings, reviewed: counts?.reviewed ?? 0, fresh: counts?.fresh ?? 0)
                due = QueueOrder.dueCount(
                    learning: figure.fsrsDue[.learning] ?? 0, reviews: figure.fsrsDue[.review] ?? 0,
                    new: figure.fsrsDue[.new] ?? 0, allowance: allowance)
            } else {
                due = min(figure.ladderDue, QueueOrder.dueCountLimit)
            }
            return Summary(
                stack: stack, cardCount: figure.cards, dueCount: due, inReview: figure.inReview,
                lastStudiedAt: figure.lastStudiedAt)
        }
    }
}

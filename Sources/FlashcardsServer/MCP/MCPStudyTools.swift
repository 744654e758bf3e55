import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Fluent
import Foundation
import Vapor

/// The study tools: due cards, rating, statistics and the workload forecast.
struct MCPStudyTools {
    let toolbox: MCPToolbox

    private var arguments: MCPArguments { toolbox.arguments }

    private func study() async throws -> StudyService {
        StudyService(context: toolbox.service(), user: toolbox.user, stack: try await toolbox.stack())
    }

    /// The card the session shows next (with its buttons), then other due cards by due time.
    func dueCards() async throws -> MCPToolOutput {
        let study = try await study()
        let limit = try arguments.int("limit", default: 10, range: 1...50)
        let state = try await study.state(daysAhead: 0)
        guard let first = state.card else {
            return MCPToolOutput(
                result: [
                    "due_count": .integer(state.dueCount), "cards": [],
                    "next_due_at": state.nextDueAt.map { .string(MCPView.date($0)) } ?? .null,
                ])
        }
        let stack = study.stack
        let cutoff = try StudyService.cutoff(for: toolbox.user, stack: stack, now: study.context.now, daysAhead: 0)
        let others = try await CardModel.query(on: study.context.db).filter(\.$stackId == stack.id!)
            .filter(\.$dueAt <= cutoff).filter(\.$id != first.id!).sort(\.$dueAt).limit(limit - 1).all()
        var firstView = try MCPView.card(first.dto(stack: stack, hintVisible: state.hintsVisible))
        if case .object(var members) = firstView {
            members.append(
                .init(
                    "ratings",
                    .array(
                        state.options.map { option in
                            [
                                "rating": .string(option.rating.wireKey.rawValue), "label": .string(option.label),
                                "next_in": .string(option.text),
                            ]
                        })))
            firstView = .object(members)
        }
        let cards = [firstView] + (try others.map { try MCPView.card($0.dto(stack: stack)) })
        return MCPToolOutput(
            result: ["due_count": .integer(state.dueCount), "cards": .array(cards)], counts: ["cards": cards.count])
    }

    func rate() async throws -> MCPToolOutput {
        let study = try await study()
        guard let cardId = UUID(uuidString: try arguments.id("card_id")),
            let key = try arguments.optionalChoice("rating", of: RatingKey.allCases)
        else { throw MCPToolFailure("The argument 'rating' is required.") }
        let rated = try await study.rate(
            cardId: cardId, key: key, reviewId: nil, durationMs: nil, mode: .flashcards, daysAhead: 0)
        await OptimizeTrigger.note(
            1, of: try toolbox.user.requireID(), context: study.context, logger: toolbox.request.logger)
        return MCPToolOutput(
            result: [
                "card": try MCPView.card(rated.card.dto(stack: study.stack)),
                "due_count": .integer(rated.next.dueCount),
            ], counts: ["reviews": 1])
    }

    func statistics() async throws -> MCPToolOutput {
        let scope: StatsService.Scope = arguments.has("stack_id") ? .stack(try await toolbox.stack()) : .user
        let stats = try await StatsService(context: toolbox.service(), user: toolbox.user).stats(scope)
        let week = stats.reviewsPerDay.suffix(7)
        let month = stats.reviewsPerDay.suffix(30)
        let weeks = stats.retentionPerWeek.suffix(4)
        let reviewed = weeks.reduce(0) { $0 + $1.reviews }
        let recalled = weeks.reduce(0) { $0 + $1.recalled }
        return MCPToolOutput(result: [
            "reviews_today": .integer(stats.reviewsPerDay.last?.count ?? 0),
            "reviews_last_7_days": .integer(week.reduce(0) { $0 + $1.count }),
            "reviews_last_30_days": .integer(month.reduce(0) { $0 + $1.count }),
            "days_studied_last_30": .integer(month.filter { $0.count > 0 }.count),
            "true_retention_last_4_weeks": reviewed > 0 ? .number(Double(recalled) / Double(reviewed)) : .null,
            "cards_by_state": [
                "new": .integer(stats.cardsByState.new), "learning": .integer(stats.cardsByState.learning),
                "review": .integer(stats.cardsByState.review), "relearning": .integer(stats.cardsByState.relearning),
            ],
            "due_next_7_days": .array(
                stats.forecast.prefix(7).map { ["date": .string($0.date), "cards": .integer($0.count)] }),
        ])
    }

    func workload() async throws -> MCPToolOutput {
        let scope: WorkloadService.Scope = arguments.has("stack_id") ? .stack(try await toolbox.stack()) : .user
        let days = try arguments.int("days", default: 30, range: 1...365)
        let forecast = try await WorkloadService(context: toolbox.service(), user: toolbox.user)
            .workload(scope, days: days)
        return MCPToolOutput(result: [
            "cards": .integer(forecast.cards),
            "average_reviews_per_day": .number((forecast.averageReviews * 10).rounded() / 10),
            "average_minutes_per_day": .number((forecast.averageMinutes * 10).rounded() / 10),
            "days": .array(
                forecast.days.map { day in
                    [
                        "date": .string(day.date), "reviews": .integer(day.reviews),
                        "new_cards": .integer(day.newCards), "minutes": .number((day.minutes * 10).rounded() / 10),
                    ]
                }),
        ])
    }
}

/// The draft tools: the server's generator on pasted text, and its drafts.
struct MCPDraftTools {
    let toolbox: MCPToolbox

    /// How long `generate_drafts` waits for its job before answering that it is still running.
    static let wait: Duration = .seconds(45)

    private func generation() async throws -> GenerationService {
        GenerationService(context: toolbox.service(), stack: try await toolbox.stack())
    }

    func generate() async throws -> MCPToolOutput {
        let generation = try await generation()
        let job = try await generation.start(
            request: GenerationRequestDTO(
                text: try toolbox.arguments.string("text"),
                customInstructions: try toolbox.arguments.optionalString("instructions")))
        let jobId = try job.requireID()
        let userId = try toolbox.user.requireID()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.wait)
        while true {
            let current = try await JobQueue(store: generation.context.store, now: Date())
                .find(jobId.uuidString, userId: userId)
            switch try current.jobStatus {
            case .succeeded:
                let drafts = try await generation.drafts(jobId: jobId)
                return MCPToolOutput(
                    result: [
                        "job_id": .string(jobId.uuidString.lowercased()), "drafts": .array(drafts.map(Self.view)),
                    ],
                    counts: ["drafts": drafts.count])
            case .failed, .cancelled:
                throw MCPToolFailure(current.error ?? "The generation failed.")
            case .queued, .running:
                guard clock.now < deadline else {
                    return MCPToolOutput(result: [
                        "job_id": .string(jobId.uuidString.lowercased()), "status": "running",
                        "message": "Still generating; call list_drafts in a minute.",
                    ])
                }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    func list() async throws -> MCPToolOutput {
        let drafts = try await generation().drafts(jobId: nil)
        return MCPToolOutput(result: ["drafts": .array(drafts.map(Self.view))], counts: ["drafts": drafts.count])
    }

    func accept() async throws -> MCPToolOutput {
        let generation = try await generation()
        let ids = try toolbox.arguments.optionalArray("draft_ids", limit: 500)?.map { item -> UUID in
            guard case .string(let text) = item, let id = UUID(uuidString: text) else {
                throw MCPToolFailure("draft_ids must be ids (UUIDs).")
            }
            return id
        }
        let accepted = try await generation.accept(ids: ids, jobId: nil)
        return MCPToolOutput(result: ["accepted": .integer(accepted)], counts: ["cards": accepted])
    }

    private static func view(_ draft: CardDraftModel) -> JSONValue {
        [
            "id": .string(draft.id!.uuidString.lowercased()), "kind": .string(draft.kind),
            "question": .string(draft.question), "answer": .string(draft.answer),
            "source": draft.sourceText.map { .string($0) } ?? .null,
            "page": draft.sourcePage.map { .integer($0) } ?? .null,
            // The kind of card accepting it makes, and a multiple-choice draft's wrong options.
            "card_kind": .string(draft.cardKind.rawValue),
            "choices": draft.choices.map { .array($0.map(JSONValue.string)) } ?? .null,
        ]
    }
}

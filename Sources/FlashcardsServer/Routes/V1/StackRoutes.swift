import FlashcardsAPI
import FlashcardsCore
import Vapor

/// `/api/v1/stacks*`: stacks, their cards and learning.
struct StackRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let stacks = routes.grouped(RequireUserMiddleware()).grouped("stacks")
        stacks.get(use: list)
        stacks.post(use: create)
        let stack = stacks.grouped(":stackId")
        stack.get(use: show)
        stack.patch(use: update)
        stack.delete(use: delete)

        let cards = stack.grouped("cards")
        cards.get(use: listCards)
        cards.post(use: createCard)
        cards.get(":cardId", use: showCard)
        cards.patch(":cardId", use: updateCard)
        cards.delete(":cardId", use: deleteCard)

        let study = stack.grouped("study")
        study.get("next", use: next)
        study.post("rate", use: rate)
    }

    // MARK: Stacks

    func list(_ req: Request) async throws -> Response {
        let service = StackService(context: ServiceContext(req), user: try req.user)
        let stacks = try await service.list()
        let counts = try await service.counts(for: stacks, cutoff: try studyCutoff(req, daysAhead: 0))
        var result: [StackDTO] = []
        for stack in stacks {
            let count = counts[stack.id!] ?? (cards: 0, due: 0)
            result.append(stack.dto(cardCount: count.cards, dueCount: try await dueCount(stack, count.due, req: req)))
        }
        return try jsonResponse(result)
    }

    /// FSRS stacks count what study/next would offer today (daily limits applied, 04:00 rollover);
    /// both kinds up to `StudyService.dueCountLimit`, as study/next does.
    private func dueCount(_ stack: StackModel, _ ladderDue: Int, req: Request) async throws -> Int {
        guard stack.scheduler == SchedulerKind.fsrs.rawValue else { return min(ladderDue, StudyService.dueCountLimit) }
        return try await StudyService(context: ServiceContext(req), user: try req.user, stack: stack).dueCount()
    }

    /// Stacks made through /api/v1 use FSRS unless the request names `ladder`.
    func create(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(CreateStackRequest.self)
        let user = try req.user
        // Validate the settings before anything is written.
        let draft = StackModel(uniqueId: UUID(), userId: try user.requireID(), name: "", color: "", now: req.now)
        _ = try StackSettings.apply(
            to: draft, scheduler: body.scheduler ?? SchedulerKind.fsrs.rawValue,
            desiredRetention: body.desiredRetention, learningSteps: body.learningSteps,
            relearningSteps: body.relearningSteps, newCardsPerDay: body.newCardsPerDay,
            reviewsPerDay: body.reviewsPerDay)
        let stack = try await StackService(context: ServiceContext(req), user: user)
            .create(name: body.name, color: body.color, hintsEnabled: body.hintsEnabled)
        stack.scheduler = draft.scheduler
        stack.desiredRetention = draft.desiredRetention
        stack.learningSteps = draft.learningSteps
        stack.relearningSteps = draft.relearningSteps
        stack.newCardsPerDay = draft.newCardsPerDay
        stack.reviewsPerDay = draft.reviewsPerDay
        try await stack.save(on: req.db)
        return try jsonResponse(stack.dto(cardCount: 0, dueCount: 0), status: .created)
    }

    func show(_ req: Request) async throws -> Response {
        let service = StackService(context: ServiceContext(req), user: try req.user)
        let stack = try await service.find(req.parameters.get("stackId"))
        return try jsonResponse(try await counted(stack, service: service, req: req))
    }

    func update(_ req: Request) async throws -> Response {
        let service = StackService(context: ServiceContext(req), user: try req.user)
        let stack = try await service.find(req.parameters.get("stackId"))
        let body = try req.decodeBody(UpdateStackRequest.self)
        // Validate the settings on a copy first, so a bad value changes nothing.
        let draft = StackModel(uniqueId: stack.uniqueId, userId: stack.userId, name: "", color: "", now: req.now)
        Self.copySettings(from: stack, to: draft)
        _ = try StackSettings.apply(
            to: draft, scheduler: body.scheduler, desiredRetention: body.desiredRetention,
            learningSteps: body.learningSteps, relearningSteps: body.relearningSteps,
            newCardsPerDay: body.newCardsPerDay, reviewsPerDay: body.reviewsPerDay)
        let updated = try await service.update(
            stack, name: body.name, color: body.color, hintsEnabled: body.hintsEnabled)
        let switched = draft.scheduler != updated.scheduler
        Self.copySettings(from: draft, to: updated)
        if switched {
            // Every card becomes the replay of its history under the new scheduler.
            updated.spreadDay = nil
            let reviews = ReviewService(context: ServiceContext(req), user: try req.user)
            try await req.db.writeTransaction { db in
                try await updated.save(on: db)
                try await reviews.recomputeStack(updated, on: db)
            }
        } else if updated.hasChanges {
            try await updated.save(on: req.db)
        }
        return try jsonResponse(try await counted(updated, service: service, req: req))
    }

    private static func copySettings(from source: StackModel, to target: StackModel) {
        target.scheduler = source.scheduler
        target.desiredRetention = source.desiredRetention
        target.learningSteps = source.learningSteps
        target.relearningSteps = source.relearningSteps
        target.newCardsPerDay = source.newCardsPerDay
        target.reviewsPerDay = source.reviewsPerDay
        target.spreadDay = source.spreadDay
    }

    func delete(_ req: Request) async throws -> Response {
        let service = StackService(context: ServiceContext(req), user: try req.user)
        try await service.delete(try await service.find(req.parameters.get("stackId")))
        return Response(status: .noContent)
    }

    private func counted(_ stack: StackModel, service: StackService, req: Request) async throws -> StackDTO {
        let count =
            try await service.counts(for: [stack], cutoff: try studyCutoff(req, daysAhead: 0))[stack.id!] ?? (
                cards: 0, due: 0
            )
        return stack.dto(cardCount: count.cards, dueCount: try await dueCount(stack, count.due, req: req))
    }

    private func studyCutoff(_ req: Request, daysAhead: Int) throws -> Date {
        StudyService.cutoff(for: try req.user, now: req.now, daysAhead: daysAhead)
    }

    // MARK: Cards

    private func stackAndCards(_ req: Request) async throws -> (StackModel, CardService) {
        let context = ServiceContext(req)
        let stack = try await StackService(context: context, user: try req.user).find(req.parameters.get("stackId"))
        return (stack, CardService(context: context, stack: stack))
    }

    func listCards(_ req: Request) async throws -> Response {
        let (stack, cards) = try await stackAndCards(req)
        let page = try req.intQuery("page", default: 1, range: 1...1_000_000)
        let perPage = try req.intQuery("perPage", default: 50, range: 1...200)
        let search = req.queryText("q")
        let result = try await cards.page(search: search, page: page, perPage: perPage)
        return try jsonResponse(
            PageDTO(items: result.cards.map { $0.dto(stack: stack) }, page: page, perPage: perPage, total: result.total)
        )
    }

    func createCard(_ req: Request) async throws -> Response {
        let (stack, cards) = try await stackAndCards(req)
        let body = try req.decodeBody(CreateCardRequest.self)
        let card = try await cards.create(question: body.question, answer: body.answer, hint: body.hint)
        return try jsonResponse(card.dto(stack: stack), status: .created)
    }

    func showCard(_ req: Request) async throws -> Response {
        let (stack, cards) = try await stackAndCards(req)
        return try jsonResponse(try await cards.find(req.parameters.get("cardId")).dto(stack: stack))
    }

    func updateCard(_ req: Request) async throws -> Response {
        let (stack, cards) = try await stackAndCards(req)
        let card = try await cards.find(req.parameters.get("cardId"))
        let body = try req.decodeBody(UpdateCardRequest.self)
        let updated = try await cards.update(card, question: body.question, answer: body.answer, hint: body.hint)
        return try jsonResponse(updated.dto(stack: stack))
    }

    func deleteCard(_ req: Request) async throws -> Response {
        let (_, cards) = try await stackAndCards(req)
        try await cards.delete(try await cards.find(req.parameters.get("cardId")))
        return Response(status: .noContent)
    }

    // MARK: Study

    private func study(_ req: Request) async throws -> StudyService {
        let context = ServiceContext(req)
        let user = try req.user
        let stack = try await StackService(context: context, user: user).find(req.parameters.get("stackId"))
        return StudyService(context: context, user: user, stack: stack)
    }

    func next(_ req: Request) async throws -> Response {
        let study = try await study(req)
        let daysAhead = try Validate.daysAhead(query: req.queryText("daysAhead"), name: "daysAhead")
        return StudyRendering.response(try await nextResponse(study, daysAhead: daysAhead))
    }

    func rate(_ req: Request) async throws -> Response {
        let study = try await study(req)
        let body = try req.decodeBody(RateRequest.self)
        let scheduling = try await study.scheduling()
        guard let rating = scheduling.rating(forKey: body.rating) else {
            throw AppError.validation("rating muss einer von \(scheduling.ratingKeysText) sein.")
        }
        let daysAhead = try Validate.daysAhead(body.daysAhead)
        let card = try await study.rate(
            cardId: body.cardId.uuidString, rating: rating, reviewId: body.reviewId, durationMs: body.durationMs,
            scheduling: scheduling)
        return StudyRendering.response(
            RateResponse(
                card: Self.studyDTO(card, stack: study.stack),
                next: try await nextResponse(study, daysAhead: daysAhead, scheduling: scheduling)))
    }

    /// A card as the study routes send it: without its hint while the stack's hints are off, so
    /// that no client shows one (the card routes still return it, for editing).
    private static func studyDTO(_ card: CardModel, stack: StackModel) -> CardDTO {
        var dto = card.dto(stack: stack)
        if !stack.hintsEnabled { dto.hint = nil }
        return dto
    }

    private func nextResponse(_ study: StudyService, daysAhead: Int, scheduling: StackScheduling? = nil) async throws
        -> StudyNextResponse
    {
        let resolved: StackScheduling
        if let scheduling { resolved = scheduling } else { resolved = try await study.scheduling() }
        let next = try await study.next(daysAhead: daysAhead, scheduling: resolved)
        var options: [StudyOptionDTO] = []
        if let card = next.card {
            options = study.options(for: card, scheduling: resolved).map(\.dto)
        }
        return StudyNextResponse(
            card: next.card.map { Self.studyDTO($0, stack: study.stack) }, options: options, dueCount: next.dueCount,
            nextDueAt: next.nextDueAt)
    }
}

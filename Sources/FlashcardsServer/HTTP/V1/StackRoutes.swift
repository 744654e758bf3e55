import FlashcardsAPI
import FlashcardsCore
import Vapor

/// `/api/v1/stacks*`: stacks, their cards and learning.
struct StackRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.V1.listStacks, use: list)
        authed.on(Endpoint.V1.createStack, use: create)
        authed.on(Endpoint.V1.showStack, use: show)
        authed.on(Endpoint.V1.updateStack, use: update)
        authed.on(Endpoint.V1.deleteStack, use: delete)

        authed.on(Endpoint.V1.listCards, use: listCards)
        authed.on(Endpoint.V1.createCard, use: createCard)
        authed.on(Endpoint.V1.showCard, use: showCard)
        authed.on(Endpoint.V1.updateCard, use: updateCard)
        authed.on(Endpoint.V1.deleteCard, use: deleteCard)
        authed.on(Endpoint.V1.renderText, use: render)
        authed.on(Endpoint.V1.bookmarkCard) { try await bookmark($0, true) }
        authed.on(Endpoint.V1.unbookmarkCard) { try await bookmark($0, false) }

        authed.on(Endpoint.V1.studyNext, use: next)
        authed.on(Endpoint.V1.studyRate, use: rate)
        authed.on(Endpoint.V1.studyQuiz, use: quiz)
        authed.on(Endpoint.V1.studyCheck, use: check)
        authed.on(Endpoint.V1.recordMatch, use: recordMatch)
    }

    // MARK: Stacks

    func list(_ req: Request) async throws -> Response {
        let summaries = try await StackService(context: ServiceContext(req), user: try req.user).listCounted()
        return try jsonResponse(summaries.map(\.dto))
    }

    /// Stacks made through /api/v1 use FSRS unless the request names `ladder`.
    func create(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(CreateStackRequest.self)
        let stack = try await StackService(context: ServiceContext(req), user: try req.user).create(
            name: body.name, color: body.color, hintsEnabled: body.hintsEnabled,
            settings: body.settingsChange(defaultScheduler: .fsrs),
            library: .init(
                description: body.description, icon: body.icon.map { .set($0) } ?? .keep, favorite: body.favorite))
        return try jsonResponse(stack.dto(cardCount: 0, dueCount: 0), status: .created)
    }

    func show(_ req: Request) async throws -> Response {
        let service = StackService(context: ServiceContext(req), user: try req.user)
        let stack = try await service.find(req.parameters.get("stackId"), preloaded: req.preloadedStack)
        return try jsonResponse(try await service.counted(stack).dto)
    }

    func update(_ req: Request) async throws -> Response {
        let service = StackService(context: ServiceContext(req), user: try req.user)
        let stack = try await service.find(req.parameters.get("stackId"), preloaded: req.preloadedStack)
        let body = try req.decodeBody(UpdateStackRequest.self)
        let updated = try await service.update(
            stack, name: body.name, color: body.color, hintsEnabled: body.hintsEnabled,
            settings: body.settingsChange,
            library: .init(description: body.description, icon: body.icon, favorite: body.favorite),
            parameters: req.preloadedParameters)
        return try jsonResponse(try await service.counted(updated).dto)
    }

    func delete(_ req: Request) async throws -> Response {
        let service = StackService(context: ServiceContext(req), user: try req.user)
        try await service.delete(try await service.find(req.parameters.get("stackId"), preloaded: req.preloadedStack))
        return Response(status: .noContent)
    }

    // MARK: Cards

    private func stackAndCards(_ req: Request) async throws -> (StackModel, CardService) {
        let context = ServiceContext(req)
        let stack = try await StackService(context: context, user: try req.user).find(
            req.parameters.get("stackId"), preloaded: req.preloadedStack)
        return (stack, CardService(context: context, stack: stack))
    }

    func listCards(_ req: Request) async throws -> Response {
        let (stack, cards) = try await stackAndCards(req)
        let page = try req.intQuery("page", default: 1, range: 1...1_000_000)
        let perPage = try req.intQuery("perPage", default: 50, range: 1...200)
        let search = req.queryText("q")
        let bookmarked: Bool?
        switch req.queryText("bookmarked") {
        case nil, "": bookmarked = nil
        case "true": bookmarked = true
        case "false": bookmarked = false
        default: throw AppError.validation("bookmarked muss true oder false sein.")
        }
        let result = try await cards.page(search: search, bookmarked: bookmarked, page: page, perPage: perPage)
        return try jsonResponse(
            PageDTO(
                items: try result.cards.map { try $0.dto(stack: stack) }, page: page, perPage: perPage,
                total: result.total)
        )
    }

    func createCard(_ req: Request) async throws -> Response {
        let (stack, cards) = try await stackAndCards(req)
        let body = try req.decodeBody(CreateCardRequest.self)
        let card = try await cards.create(
            question: body.question, answer: body.answer, hint: body.hint, createdAt: body.createdAt,
            format: body.format ?? .plain, kind: body.kind ?? .basic, choices: body.choices)
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
        let updated = try await cards.update(
            card, question: body.question, answer: body.answer, hint: body.hint, format: body.format,
            choices: body.choices)
        return try jsonResponse(updated.dto(stack: stack))
    }

    /// A rich text rendered as a card's would be, for the editor's preview.
    func render(_ req: Request) async throws -> Response {
        _ = try req.user
        let body = try req.decodeBody(RenderRequest.self)
        let text = try Validate.optionalText(body.text, field: "Der Text", max: TextLimits.answer)
        return try jsonResponse(RenderResponse(html: RichText.html(text), plainText: RichText.plainText(text)))
    }

    func bookmark(_ req: Request, _ bookmarked: Bool) async throws -> Response {
        let (stack, cards) = try await stackAndCards(req)
        let card = try await cards.setBookmark(try await cards.find(req.parameters.get("cardId")), bookmarked)
        return try jsonResponse(card.dto(stack: stack))
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
        let stack = try await StackService(context: context, user: user)
            .find(req.parameters.get("stackId"), preloaded: req.preloadedStack)
        return StudyService(context: context, user: user, stack: stack, parameters: req.preloadedParameters)
    }

    func next(_ req: Request) async throws -> Response {
        let study = try await study(req)
        let daysAhead = try Validate.daysAhead(query: req.queryText("daysAhead"), name: "daysAhead")
        return StudyRendering.response(
            try StudyNextResponse(try await study.state(daysAhead: daysAhead), stack: study.stack))
    }

    func quiz(_ req: Request) async throws -> Response {
        let study = try await study(req)
        let daysAhead = try Validate.daysAhead(query: req.queryText("daysAhead"), name: "daysAhead")
        let (state, question, rendered) = try await study.quiz(daysAhead: daysAhead)
        let scheduler = try study.stack.schedulerKind
        func key(_ right: Bool) -> RatingKey { QuizOptions.rating(correctOnFirstTry: right, in: scheduler).wireKey }
        return try jsonResponse(
            QuizResponse(
                card: try state.card.map { try $0.dto(stack: study.stack, hintVisible: state.hintsVisible) },
                choices: question?.options ?? [], correctIndex: question?.correctIndex,
                fewerChoices: question?.isShort ?? false, ratingIfRight: key(true), ratingIfWrong: key(false),
                dueCount: state.dueCount, nextDueAt: state.nextDueAt, renderedChoices: rendered))
    }

    func recordMatch(_ req: Request) async throws -> Response {
        let service = StackService(context: ServiceContext(req), user: try req.user)
        let stack = try await service.find(req.parameters.get("stackId"), preloaded: req.preloadedStack)
        let body = try req.decodeBody(MatchResultRequest.self)
        let result = try await service.recordMatch(stack, milliseconds: body.milliseconds)
        return try jsonResponse(MatchResultResponse(bestMs: result.bestMs, newBest: result.newBest))
    }

    func check(_ req: Request) async throws -> Response {
        let (stack, cards) = try await stackAndCards(req)
        let body = try req.decodeBody(CheckAnswerRequest.self)
        let card = try await cards.find(body.cardId.uuidString)
        // A rich card's answer is typed as its words, not its formatting; a cloze's is its gap.
        let expected = try card.sides.expected
        let result = try Validate.answerCheck(
            body.answer, against: expected, ignoringDiacritics: body.ignoreDiacritics)
        let scheduler = try stack.schedulerKind
        func key(_ verdict: AnswerCheck.Verdict) -> RatingKey { verdict.rating(in: scheduler).wireKey }
        return try jsonResponse(
            CheckAnswerResponse(
                verdict: result.verdict, expected: expected, diff: result.diff, rating: key(result.verdict),
                ratingIfRight: key(.correct)))
    }

    func rate(_ req: Request) async throws -> Response {
        let study = try await study(req)
        let body = try req.decodeBody(RateRequest.self)
        let daysAhead = try Validate.daysAhead(body.daysAhead)
        let rated = try await study.rate(
            cardId: body.cardId, key: body.rating, reviewId: body.reviewId,
            durationMs: body.durationMs, mode: body.mode ?? .flashcards, daysAhead: daysAhead)
        await OptimizeTrigger.note(1, of: try req.user.requireID(), context: study.context, logger: req.logger)
        return StudyRendering.response(
            RateResponse(
                card: try rated.card.dto(stack: study.stack, hintVisible: rated.next.hintsVisible),
                next: try StudyNextResponse(rated.next, stack: study.stack)))
    }
}

extension CreateStackRequest {
    /// The settings this request sets; the scheduler is `defaultScheduler` unless named.
    func settingsChange(defaultScheduler: SchedulerKind) -> StackSettings.Change {
        StackSettings.Change(
            scheduler: scheduler ?? defaultScheduler, desiredRetention: desiredRetention, learningSteps: learningSteps,
            relearningSteps: relearningSteps, newCardsPerDay: newCardsPerDay, reviewsPerDay: reviewsPerDay)
    }
}

extension UpdateStackRequest {
    /// The settings this request changes.
    var settingsChange: StackSettings.Change {
        StackSettings.Change(
            scheduler: scheduler, desiredRetention: desiredRetention, learningSteps: learningSteps,
            relearningSteps: relearningSteps, newCardsPerDay: newCardsPerDay, reviewsPerDay: reviewsPerDay)
    }
}

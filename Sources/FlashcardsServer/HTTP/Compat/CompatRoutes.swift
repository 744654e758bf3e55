import FlashcardsAPI
import FlashcardsCore
import Vapor

/// The original Smart Flashcards API at the root, for its existing web and iOS clients: a thin
/// adapter over the same services as `/api/v1`. Every success is a 200, as the clients expect.
struct CompatRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.on(Endpoint.Compat.signup, use: signup)
        routes.on(Endpoint.Compat.login, use: login)

        let authed = routes.grouped(RequireUserMiddleware())
        authed.on(Endpoint.Compat.createStack, use: createStack)
        authed.on(Endpoint.Compat.listStacks, use: listStacks)
        authed.on(Endpoint.Compat.showStack, use: showStack)
        authed.on(Endpoint.Compat.deleteStack, use: deleteStack)
        authed.on(Endpoint.Compat.createCard, use: createCard)
        // The constant "next" wins over the `:cardId` parameter in Vapor's router.
        authed.on(Endpoint.Compat.nextCard, use: nextCard)
        authed.on(Endpoint.Compat.showCard, use: showCard)
        authed.on(Endpoint.Compat.updateCard, use: updateCard)
        authed.on(Endpoint.Compat.deleteCard, use: deleteCard)
        authed.on(Endpoint.Compat.rate, use: rate)
    }

    // MARK: Accounts

    func signup(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(CompatSignup.self)
        let user = try await AccountService(context: ServiceContext(req)).signup(
            name: body.name, mail: body.mail, password: body.password, timeZone: nil)
        return try await loginResult(user, req: req)
    }

    func login(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(CompatLogin.self)
        let user = try await AccountService(context: ServiceContext(req)).login(
            mail: body.mail, password: body.password)
        return try await loginResult(user, req: req)
    }

    private func loginResult(_ user: UserModel, req: Request) async throws -> Response {
        let issued = try await req.application.tokens.issue(for: user, now: req.now)
        return try jsonResponse(CompatLoginResult(username: user.name, token: issued.token))
    }

    // MARK: Stacks

    func createStack(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(CompatStackContext.self)
        let stack = try await StackService(context: ServiceContext(req), user: try req.user)
            .create(name: body.name, color: body.color, lenientColor: true)
        return try jsonResponse(CompatRendering.emptyStack(stack))
    }

    func listStacks(_ req: Request) async throws -> Response {
        let user = try req.user
        let stacks = try await StackService(context: ServiceContext(req), user: user).list()
        return try await CompatRendering.response(stacks: stacks, on: req.studyStore.bulk)
    }

    func showStack(_ req: Request) async throws -> Response {
        let stack = try await StackService(context: ServiceContext(req), user: try req.user)
            .find(req.parameters.get("stackId"), preloaded: req.preloadedStack)
        return try await CompatRendering.response(stack: stack, on: req.studyStore.bulk)
    }

    func deleteStack(_ req: Request) async throws -> Response {
        let service = StackService(context: ServiceContext(req), user: try req.user)
        try await service.delete(try await service.find(req.parameters.get("stackId"), preloaded: req.preloadedStack))
        return try jsonResponse(true)
    }

    // MARK: Cards

    func createCard(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(CompatCardContext.self)
        let context = ServiceContext(req)
        let stack = try await StackService(context: context, user: try req.user).find(body.stackId)
        let card = try await CardService(context: context, stack: stack)
            .create(question: body.question, answer: body.answer, hint: nil)
        return try jsonResponse(card.compat())
    }

    private func cardService(_ req: Request) async throws -> CardService {
        let context = ServiceContext(req)
        let stack = try await StackService(context: context, user: try req.user).find(
            req.parameters.get("stackId"), preloaded: req.preloadedStack)
        return CardService(context: context, stack: stack)
    }

    func showCard(_ req: Request) async throws -> Response {
        let cards = try await cardService(req)
        return try jsonResponse(try await cards.find(req.parameters.get("cardId")).compat())
    }

    func updateCard(_ req: Request) async throws -> Response {
        let cards = try await cardService(req)
        let card = try await cards.find(req.parameters.get("cardId"))
        let body = try req.decodeBody(CompatCardContext.self)
        try rejectContradiction(body, stack: cards.stack, card: card)
        // The original clients show a rich card as plain text; what they send back is plain text,
        // so a rich card they change becomes a plain one (unchanged texts keep it rich). They see a
        // card of another kind as its sides: sent back unchanged, it stays as it is; changed, the
        // texts are checked for its kind (a cloze without a gap is refused).
        let format = try card.cardFormat
        let sides = try card.sides
        let changed =
            body.question != format.plainText(sides.question) || body.answer != format.plainText(sides.answer)
        let updated =
            changed
            ? try await cards.update(card, question: body.question, answer: body.answer, hint: nil, format: .plain)
            : card
        return try jsonResponse(updated.compat())
    }

    func deleteCard(_ req: Request) async throws -> Response {
        let cards = try await cardService(req)
        let card = try await cards.find(req.parameters.get("cardId"))
        // The Vue app sends no body, the iOS app a CardContext; the path decides either way.
        if req.hasBody {
            try rejectContradiction(try req.decodeBody(CompatCardContext.self), stack: cards.stack, card: card)
        }
        try await cards.delete(card)
        return Response(status: .ok)
    }

    /// The original used the body's ids and ignored the path; we use the path and refuse a body
    /// that names another stack or card.
    private func rejectContradiction(_ body: CompatCardContext, stack: StackModel, card: CardModel) throws {
        func differs(_ value: String?, _ id: UUID) -> Bool {
            guard let value, !value.isEmpty else { return false }
            return UUID(exactly: value) != id
        }
        if differs(body.stackId, stack.uniqueId) || differs(body.cardId, card.uniqueId) {
            throw AppError.invalid("Die Ids im Inhalt passen nicht zum Pfad.", code: "ids_contradict_path")
        }
    }

    // MARK: Learning

    func nextCard(_ req: Request) async throws -> Response {
        let context = ServiceContext(req)
        let user = try req.user
        let stack = try await StackService(context: context, user: user).find(
            req.parameters.get("stackId"), preloaded: req.preloadedStack)
        let daysAhead = try Validate.daysAhead(query: req.queryText("days-ahead"), name: "days-ahead")
        let state = try await StudyService(
            context: context, user: user, stack: stack, parameters: req.preloadedParameters
        ).state(daysAhead: daysAhead)
        // The iOS app ends the session only on 404.
        guard let card = state.card else { throw AppError.cardNotFound }
        // Ladder stacks: the original three options; FSRS stacks: four, with ids 11 … 14.
        return try jsonResponse(card.compat(options: state.options, hintVisible: state.hintsVisible))
    }

    func rate(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(CompatRating.self)
        guard let id = body.difficulty ?? body.difficultyId else {
            throw AppError.validation("difficulty fehlt.")
        }
        let context = ServiceContext(req)
        let user = try req.user
        let stack = try await StackService(context: context, user: user).find(body.stackId)
        let cardId = try Validate.uuid(body.cardId, notFound: .cardNotFound)
        try await StudyService(context: context, user: user, stack: stack).rate(cardId: cardId, compatId: id)
        await OptimizeTrigger.note(1, of: try user.requireID(), context: context, logger: req.logger)
        return Response(status: .ok)
    }
}

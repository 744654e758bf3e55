import FlashcardsAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Swift SDK for a Smart Flashcards server's primary API (`/api/v1`). Typed async calls,
/// typed errors (``FlashcardsError``); after `signup` or `login` the token is kept and sent with
/// every call. For the original API's routes use ``compat``.
///
/// ```swift
/// let client = FlashcardsClient(baseURL: URL(string: "http://localhost:3001")!)
/// try await client.login(mail: "ada@example.org", password: "correct horse")
/// let stacks = try await client.stacks()
/// ```
public struct FlashcardsClient: Sendable {
    let transport: Transport

    /// The compatibility client for the original API, sharing this client's server and token.
    public let compat: CompatClient

    /// A client for the server at `baseURL`, optionally with a token from an earlier session.
    /// Requests go through `session` on Apple platforms; on Linux through AsyncHTTPClient's shared
    /// client (FoundationNetworking's `URLSession` is not safe under concurrent requests there).
    public init(baseURL: URL, token: String? = nil, session: URLSession = .shared) {
        let box = TokenBox(token)
        self.transport = Transport(baseURL: baseURL, session: session, token: box, bearer: true)
        self.compat = CompatClient(transport: Transport(baseURL: baseURL, session: session, token: box, bearer: false))
    }

    /// The server this client talks to.
    public var baseURL: URL { transport.baseURL }

    /// The token sent with each call; store it in the Keychain to stay signed in.
    public var token: String? {
        get { transport.token.value }
        nonmutating set { transport.token.value = newValue }
    }

    /// Forgets the token.
    public func logout() { token = nil }

    /// `GET /api/v1/health`: returns when the server answers, throws otherwise.
    public func health() async throws {
        _ = try await transport.send(Endpoint.V1.health)
    }

    // MARK: Account

    /// Creates an account and signs in.
    @discardableResult
    public func signup(name: String, mail: String, password: String, timeZone: String? = nil) async throws
        -> AuthResponse
    {
        let response = try await transport.send(
            AuthResponse.self, Endpoint.V1.signup,
            body: .json(SignupRequest(name: name, mail: mail, password: password, timeZone: timeZone)))
        token = response.token
        return response
    }

    /// Signs in.
    @discardableResult
    public func login(mail: String, password: String) async throws -> AuthResponse {
        let response = try await transport.send(
            AuthResponse.self, Endpoint.V1.login, body: .json(LoginRequest(mail: mail, password: password)))
        token = response.token
        return response
    }

    /// The signed-in account.
    public func me() async throws -> UserDTO {
        try await transport.send(UserDTO.self, Endpoint.V1.me)
    }

    /// Changes name and/or time zone.
    public func updateMe(name: String? = nil, timeZone: String? = nil) async throws -> UserDTO {
        try await transport.send(
            UserDTO.self, Endpoint.V1.updateMe, body: .json(UpdateUserRequest(name: name, timeZone: timeZone)))
    }

    /// Changes the password; tokens issued before stop working, so sign in again afterwards.
    public func changePassword(current: String, new: String) async throws {
        try await sendPassword(ChangePasswordRequest(currentPassword: current, newPassword: new))
    }

    /// Sets the first password of an account a provider's sign-in made (`UserDTO.passwordSet`
    /// false), within 10 minutes of signing in; tokens issued before stop working, so sign in again
    /// afterwards.
    public func setPassword(_ new: String) async throws {
        try await sendPassword(ChangePasswordRequest(currentPassword: nil, newPassword: new))
    }

    private func sendPassword(_ request: ChangePasswordRequest) async throws {
        _ = try await transport.send(Endpoint.V1.changePassword, body: .json(request))
    }

    /// Deletes the account with all its stacks, cards and history, and forgets the token.
    public func deleteAccount(password: String?) async throws {
        _ = try await transport.send(Endpoint.V1.deleteMe, body: .json(DeleteAccountRequest(password: password)))
        logout()
    }

    // MARK: Password reset

    /// Whether the server can mail password reset links (it needs a mail server configured).
    public func passwordResetStatus() async throws -> PasswordResetStatus {
        try await transport.send(PasswordResetStatus.self, Endpoint.V1.passwordResetStatus)
    }

    /// Asks for a password reset link by mail (`language` `de` or `en`). The server answers the
    /// same whether or not the address has an account; too many requests are refused (429).
    public func requestPasswordReset(mail: String, language: String? = nil) async throws {
        _ = try await transport.send(
            Endpoint.V1.requestPasswordReset, body: .json(PasswordResetRequest(mail: mail, language: language)))
    }

    /// Sets a new password with the token of a mailed link and signs in; the link is spent and
    /// every token issued before stops working.
    @discardableResult
    public func confirmPasswordReset(token: String, newPassword: String) async throws -> AuthResponse {
        let response = try await transport.send(
            AuthResponse.self, Endpoint.V1.confirmPasswordReset,
            body: .json(PasswordResetConfirmation(token: token, newPassword: newPassword)))
        self.token = response.token
        return response
    }

    // MARK: Stacks

    /// All stacks with card and due counts, in creation order.
    public func stacks() async throws -> [StackDTO] {
        try await transport.send([StackDTO].self, Endpoint.V1.listStacks)
    }

    /// Creates a stack; `color` as `#RRGGBB`. It uses FSRS unless `scheduler` is `.ladder`; hints
    /// are on unless `hintsEnabled` is false.
    public func createStack(name: String, color: String, scheduler: SchedulerKind? = nil, hintsEnabled: Bool? = nil)
        async throws -> StackDTO
    {
        try await createStack(
            CreateStackRequest(name: name, color: color, scheduler: scheduler, hintsEnabled: hintsEnabled))
    }

    /// Creates a stack with scheduler settings.
    public func createStack(_ request: CreateStackRequest) async throws -> StackDTO {
        try await transport.send(StackDTO.self, Endpoint.V1.createStack, body: .json(request))
    }

    /// One stack.
    public func stack(_ id: UUID) async throws -> StackDTO {
        try await transport.send(StackDTO.self, Endpoint.V1.showStack, id.path)
    }

    /// Renames and/or recolours a stack, or switches its hints on or off (switching them on queues
    /// hints for the cards that have none).
    public func updateStack(_ id: UUID, name: String? = nil, color: String? = nil, hintsEnabled: Bool? = nil)
        async throws -> StackDTO
    {
        try await updateStack(id, UpdateStackRequest(name: name, color: color, hintsEnabled: hintsEnabled))
    }

    /// Changes a stack's name, colour, hints or scheduler settings; a new `scheduler` recomputes every
    /// card from its review history.
    public func updateStack(_ id: UUID, _ request: UpdateStackRequest) async throws -> StackDTO {
        try await transport.send(StackDTO.self, Endpoint.V1.updateStack, id.path, body: .json(request))
    }

    /// Deletes a stack with its cards.
    public func deleteStack(_ id: UUID) async throws {
        _ = try await transport.send(Endpoint.V1.deleteStack, id.path)
    }

    // MARK: Cards

    /// One page of a stack's cards, optionally filtered by text.
    public func cards(
        in stack: UUID, page: Int = 1, perPage: Int = 50, search: String? = nil, bookmarked: Bool? = nil
    ) async throws -> PageDTO<CardDTO> {
        var query = [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "perPage", value: "\(perPage)")]
        if let search { query.append(URLQueryItem(name: "q", value: search)) }
        if let bookmarked { query.append(URLQueryItem(name: "bookmarked", value: "\(bookmarked)")) }
        return try await transport.send(
            PageDTO<CardDTO>.self, Endpoint.V1.listCards, stack.path, query: query)
    }

    /// Creates a card, due at once.
    /// A `reversed` card is made as a pair and a `cloze` as one card per gap number; the result is
    /// the first of them.
    public func createCard(
        in stack: UUID, question: String, answer: String, hint: String? = nil, createdAt: Date? = nil,
        format: CardFormat? = nil, kind: CardKind? = nil, choices: [String]? = nil
    ) async throws -> CardDTO {
        try await transport.send(
            CardDTO.self, Endpoint.V1.createCard, stack.path,
            body: .json(
                CreateCardRequest(
                    question: question, answer: answer, hint: hint, createdAt: createdAt, format: format, kind: kind,
                    choices: choices)))
    }

    /// One card.
    public func card(_ id: UUID, in stack: UUID) async throws -> CardDTO {
        try await transport.send(CardDTO.self, Endpoint.V1.showCard, stack.path, id.path)
    }

    /// Changes a card; `hint: ""` removes its hint.
    /// Changes a card; `hint: ""` removes its hint. The texts of a reversed pair or a cloze change on
    /// every card of its note.
    public func updateCard(
        _ id: UUID, in stack: UUID, question: String? = nil, answer: String? = nil, hint: String? = nil,
        format: CardFormat? = nil, choices: [String]? = nil
    ) async throws -> CardDTO {
        try await transport.send(
            CardDTO.self, Endpoint.V1.updateCard, stack.path, id.path,
            body: .json(
                UpdateCardRequest(question: question, answer: answer, hint: hint, format: format, choices: choices)))
    }

    /// A rich text as the server renders a card's (`RenderResponse.html`) and as plain text.
    public func render(_ text: String) async throws -> RenderResponse {
        try await transport.send(RenderResponse.self, Endpoint.V1.renderText, body: .json(RenderRequest(text: text)))
    }

    /// Deletes a card.
    public func deleteCard(_ id: UUID, in stack: UUID) async throws {
        _ = try await transport.send(Endpoint.V1.deleteCard, stack.path, id.path)
    }

    // MARK: Learning

    /// The next due card with its rating options; `card` is nil when the session is done.
    public func nextCard(in stack: UUID, daysAhead: Int = 0) async throws -> StudyNextResponse {
        try await transport.send(
            StudyNextResponse.self, Endpoint.V1.studyNext, stack.path,
            query: [URLQueryItem(name: "daysAhead", value: "\(daysAhead)")])
    }

    /// Rates a card with one of the offered options' `rating` keys; the answer carries the next card.
    public func rate(
        _ card: UUID, in stack: UUID, rating: RatingKey, daysAhead: Int = 0, reviewId: UUID? = nil,
        durationMs: Int? = nil, mode: StudyMode = .flashcards
    ) async throws -> RateResponse {
        try await transport.send(
            RateResponse.self, Endpoint.V1.studyRate, stack.path,
            body: .json(
                RateRequest(
                    cardId: card, rating: rating, daysAhead: daysAhead, reviewId: reviewId, durationMs: durationMs,
                    mode: mode)))
    }

    /// The next due card as a multiple-choice question; rate the answer with `rate(…, mode: .quiz)`
    /// and the response's `ratingIfRight` or `ratingIfWrong`.
    public func quiz(in stack: UUID, daysAhead: Int = 0) async throws -> QuizResponse {
        try await transport.send(
            QuizResponse.self, Endpoint.V1.studyQuiz, stack.path,
            query: [URLQueryItem(name: "daysAhead", value: "\(daysAhead)")])
    }

    /// Records a finished match game (practice: the schedule stays); answers with the best time.
    public func recordMatch(in stack: UUID, milliseconds: Int) async throws -> MatchResultResponse {
        try await transport.send(
            MatchResultResponse.self, Endpoint.V1.recordMatch, stack.path,
            body: .json(MatchResultRequest(milliseconds: milliseconds)))
    }

    /// Bookmarks a card (`true`) or removes its bookmark; answers with the card.
    public func setBookmark(_ card: UUID, in stack: UUID, _ bookmarked: Bool) async throws -> CardDTO {
        try await transport.send(
            CardDTO.self, bookmarked ? Endpoint.V1.bookmarkCard : Endpoint.V1.unbookmarkCard, stack.path, card.path)
    }

    /// Checks a typed answer against the card's (Write mode); nothing is written. Rate with
    /// `rate(…, mode: .write)` and the response's `rating` (or `ratingIfRight`).
    public func check(_ answer: String, for card: UUID, in stack: UUID, ignoreDiacritics: Bool? = nil) async throws
        -> CheckAnswerResponse
    {
        try await transport.send(
            CheckAnswerResponse.self, Endpoint.V1.studyCheck, stack.path,
            body: .json(CheckAnswerRequest(cardId: card, answer: answer, ignoreDiacritics: ignoreDiacritics)))
    }

    /// Undoes the card's last review (the log keeps it, marked as undone); pass the same `undoId`
    /// when retrying so the undo happens once. With `reviewId` only that review is undone, and only
    /// while it is the card's last (409 `review_not_last` otherwise).
    public func undoLastReview(of card: UUID, in stack: UUID, undoId: UUID? = nil, reviewId: UUID? = nil)
        async throws -> UndoResponse
    {
        try await transport.send(
            UndoResponse.self, Endpoint.V1.undoReview, stack.path, card.path,
            body: .json(UndoRequest(id: undoId, reviewId: reviewId)))
    }

    // MARK: Offline reviews

    /// Uploads reviews made offline (any order, duplicates allowed; at most 1,000 per call).
    public func syncReviews(_ reviews: [SyncReviewDTO]) async throws -> SyncReviewsResponse {
        try await transport.send(
            SyncReviewsResponse.self, Endpoint.V1.syncReviews, body: .json(SyncReviewsRequest(reviews: reviews)))
    }

    // MARK: Scheduler parameters

    /// The FSRS parameters the user's FSRS stacks use (the defaults until optimized).
    public func schedulerParameters() async throws -> SchedulerParametersDTO {
        try await transport.send(SchedulerParametersDTO.self, Endpoint.V1.schedulerParameters)
    }

    /// Starts fitting the parameters to the user's review history; follow the job at `/api/v1/jobs/{id}`.
    public func optimizeScheduler() async throws -> JobDTO {
        try await transport.send(JobDTO.self, Endpoint.V1.optimizeScheduler)
    }

    /// Goes back to the default FSRS parameters.
    public func resetSchedulerParameters() async throws {
        _ = try await transport.send(Endpoint.V1.resetSchedulerParameters)
    }

    // MARK: Statistics

    /// Statistics of one stack.
    public func stats(of stack: UUID) async throws -> StatsDTO {
        try await transport.send(StatsDTO.self, Endpoint.V1.stackStats, stack.path)
    }

    /// Statistics over all of the user's stacks.
    public func stats() async throws -> StatsDTO {
        try await transport.send(StatsDTO.self, Endpoint.V1.userStats)
    }

    /// The predicted recall of each card of a stack now, one page at a time.
    public func retrievability(of stack: UUID, page: Int = 1, perPage: Int = 50) async throws
        -> PageDTO<CardRetrievabilityDTO>
    {
        try await transport.send(
            PageDTO<CardRetrievabilityDTO>.self, Endpoint.V1.stackRetrievability, stack.path,
            query: [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "perPage", value: "\(perPage)")])
    }

    /// The predicted recall of each of the user's cards now, one page at a time.
    public func retrievability(page: Int = 1, perPage: Int = 50) async throws -> PageDTO<CardRetrievabilityDTO> {
        try await transport.send(
            PageDTO<CardRetrievabilityDTO>.self, Endpoint.V1.userRetrievability,
            query: [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "perPage", value: "\(perPage)")])
    }
}

extension UUID {
    /// The lowercase form used in paths.
    var path: String { uuidString.lowercased() }
}

// MARK: Sharing

extension FlashcardsClient {
    /// The stack's read-only link; `notFound` (`share_not_found`) when it is not shared.
    public func shareLink(of stack: UUID) async throws -> ShareLinkDTO {
        try await transport.send(ShareLinkDTO.self, Endpoint.V1.shareLink, stack.path)
    }

    /// Shares the stack: its link (a new one, or the one it has).
    public func share(_ stack: UUID) async throws -> ShareLinkDTO {
        try await transport.send(ShareLinkDTO.self, Endpoint.V1.createShareLink, stack.path)
    }

    /// Revokes the stack's link at once.
    public func stopSharing(_ stack: UUID) async throws {
        _ = try await transport.send(Endpoint.V1.revokeShareLink, stack.path)
    }

    /// A shared stack by the token of its link (no sign-in needed), a page of its cards.
    public func sharedStack(token: String, page: Int = 1, perPage: Int = 50) async throws -> SharedStackDTO {
        try await transport.send(
            SharedStackDTO.self, Endpoint.V1.sharedStack, token,
            query: [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "perPage", value: "\(perPage)")])
    }

    /// Copies a shared stack into the caller's library, with new progress.
    public func copySharedStack(token: String) async throws -> StackDTO {
        try await transport.send(StackDTO.self, Endpoint.V1.copySharedStack, token)
    }
}

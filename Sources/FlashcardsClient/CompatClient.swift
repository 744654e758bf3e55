import FlashcardsAPI
import Foundation

/// The original Smart Flashcards API (routes at the root), as its web and iOS apps use it: raw
/// `Authorization` header, string ids. For apps and tools that must talk to either server.
public struct CompatClient: Sendable {
    let transport: Transport

    /// The token this client sends (shared with the ``FlashcardsClient`` it came from).
    public var token: String? {
        get { transport.token.value }
        nonmutating set { transport.token.value = newValue }
    }

    /// `POST /signup`; keeps the token.
    @discardableResult
    public func signup(name: String, mail: String, password: String) async throws -> CompatLoginResult {
        let result = try await transport.send(
            CompatLoginResult.self, Endpoint.Compat.signup,
            body: .json(CompatSignup(name: name, mail: mail, password: password)))
        token = result.token
        return result
    }

    /// `POST /login`; keeps the token.
    @discardableResult
    public func login(mail: String, password: String) async throws -> CompatLoginResult {
        let result = try await transport.send(
            CompatLoginResult.self, Endpoint.Compat.login, body: .json(CompatLogin(mail: mail, password: password)))
        token = result.token
        return result
    }

    /// `GET /stack`: every stack with all its cards.
    public func stacks() async throws -> [CompatStack] {
        try await transport.send([CompatStack].self, Endpoint.Compat.listStacks)
    }

    /// `POST /stack`.
    public func createStack(name: String, color: String) async throws -> CompatStack {
        try await transport.send(
            CompatStack.self, Endpoint.Compat.createStack, body: .json(CompatStackContext(name: name, color: color)))
    }

    /// `GET /stack/{s}`.
    public func stack(_ stackId: String) async throws -> CompatStack {
        try await transport.send(CompatStack.self, Endpoint.Compat.showStack, stackId)
    }

    /// `DELETE /stack/{s}`.
    public func deleteStack(_ stackId: String) async throws {
        _ = try await transport.send(Endpoint.Compat.deleteStack, stackId)
    }

    /// `POST /card`.
    public func createCard(stackId: String, question: String, answer: String) async throws -> CompatCard {
        try await transport.send(
            CompatCard.self, Endpoint.Compat.createCard,
            body: .json(CompatCardContext(stackId: stackId, cardId: "", question: question, answer: answer)))
    }

    /// `GET /stack/{s}/card/{c}`.
    public func card(stackId: String, cardId: String) async throws -> CompatCard {
        try await transport.send(CompatCard.self, Endpoint.Compat.showCard, stackId, cardId)
    }

    /// `PUT /stack/{s}/card/{c}`.
    public func updateCard(stackId: String, cardId: String, question: String, answer: String) async throws
        -> CompatCard
    {
        try await transport.send(
            CompatCard.self, Endpoint.Compat.updateCard, stackId, cardId,
            body: .json(CompatCardContext(stackId: stackId, cardId: cardId, question: question, answer: answer)))
    }

    /// `DELETE /stack/{s}/card/{c}` (without a body, as the web app does).
    public func deleteCard(stackId: String, cardId: String) async throws {
        _ = try await transport.send(Endpoint.Compat.deleteCard, stackId, cardId)
    }

    /// `GET /stack/{s}/card/next`; nil when nothing is due (the server's 404 `Card not found`).
    public func nextCard(stackId: String, daysAhead: Int = 0) async throws -> CompatCard? {
        do {
            return try await transport.send(
                CompatCard.self, Endpoint.Compat.nextCard, stackId,
                query: [URLQueryItem(name: "days-ahead", value: "\(daysAhead)")])
        } catch FlashcardsError.notFound(let body) where body?.message == "Card not found" {
            return nil
        }
    }

    /// `POST /stack/rating` with a difficulty id (0 Einfach, 1 Mittel, 2 Schwer).
    public func rate(stackId: String, cardId: String, difficulty: Int) async throws {
        _ = try await transport.send(
            Endpoint.Compat.rate,
            body: .json(CompatRating(stackId: stackId, cardId: cardId, difficulty: difficulty)))
    }
}

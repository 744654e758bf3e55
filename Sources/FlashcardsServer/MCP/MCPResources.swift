import FlashcardsGeneration
import Foundation
import Vapor

/// The read-only resources: the learner's stacks (`flashcards://stacks`) and each stack's cards
/// (`flashcards://stacks/{id}/cards`), as JSON.
struct MCPResources {
    let server: MCPServer

    static let stacksURI = "flashcards://stacks"
    /// Cards a stack's resource holds at most (larger stacks: `list_cards` pages through them).
    static let cardLimit = 1_000

    private var stacks: StackService { StackService(context: ServiceContext(server.http), user: server.user) }

    func list() async throws -> JSONValue {
        let german = server.german
        var resources: [JSONValue] = [
            [
                "uri": .string(Self.stacksURI), "name": "stacks",
                "title": .string(german ? "Deine Stapel" : "Your stacks"),
                "description": .string(german ? "Alle Stapel mit Kartenzahlen." : "All stacks with their card counts."),
                "mimeType": "application/json",
            ]
        ]
        for stack in try await stacks.list() {
            resources.append([
                "uri": .string(Self.cardsURI(stack.uniqueId)),
                "name": .string("cards-\(stack.uniqueId.uuidString.lowercased())"),
                "title": .string(stack.name), "mimeType": "application/json",
                "description": .string(german ? "Die Karten des Stapels." : "The stack's cards."),
            ])
        }
        return ["resources": .array(resources)]
    }

    static func templates(german: Bool) -> JSONValue {
        [
            "resourceTemplates": [
                [
                    "uriTemplate": "flashcards://stacks/{stack_id}/cards", "name": "stack-cards",
                    "title": .string(german ? "Karten eines Stapels" : "Cards of a stack"),
                    "mimeType": "application/json",
                ]
            ]
        ]
    }

    static func cardsURI(_ stackId: UUID) -> String {
        "\(stacksURI)/\(stackId.uuidString.lowercased())/cards"
    }

    func read(_ message: MCPMessage.Request) async throws -> JSONValue {
        guard case .string(let uri)? = message.param("uri") else {
            throw MCPMessage.Failure(code: MCPMessage.Failure.invalidParams, message: "resources/read needs a uri.")
        }
        let notFound = MCPMessage.Failure(
            code: MCPMessage.Failure.resourceNotFound, message: "Resource not found", data: ["uri": .string(uri)])
        let text: String
        if uri == Self.stacksURI {
            let summaries = try await stacks.listCounted()
            text = JSONValue.object([.init("stacks", .array(summaries.map { MCPView.stack($0.dto) }))]).text
        } else {
            let parts = uri.dropFirst(Self.stacksURI.count + 1).split(separator: "/", omittingEmptySubsequences: false)
            guard uri.hasPrefix(Self.stacksURI + "/"), parts.count == 2, parts[1] == "cards",
                UUID(uuidString: String(parts[0])) != nil
            else { throw notFound }
            let stack: StackModel
            do {
                stack = try await stacks.find(String(parts[0]))
            } catch AppError.stackNotFound {
                throw notFound
            }
            let cards = try await CardService(context: ServiceContext(server.http), stack: stack)
                .page(search: nil, page: 1, perPage: Self.cardLimit)
            text =
                JSONValue.object([
                    .init("stack", .string(stack.name)),
                    .init("cards", .array(try cards.cards.map { try MCPView.card($0.dto(stack: stack)) })),
                    .init("total", .integer(cards.total)),
                ]).text
        }
        return ["contents": [["uri": .string(uri), "mimeType": "application/json", "text": .string(text)]]]
    }
}

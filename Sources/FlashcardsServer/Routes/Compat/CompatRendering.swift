import FlashcardsAPI
import Fluent
import Foundation
import Vapor

/// Builds the original API's stack documents, which carry every card of a stack. These are the
/// largest responses the server sends (a 100,000-card stack), so cards are loaded in one query per
/// request and grouped in memory.
enum CompatRendering {
    static func stack(_ stack: StackModel, cards: [CardModel]) -> CompatStack {
        CompatStack(
            id: stack.id!, uniqueId: stack.uniqueId.uuidString.lowercased(), name: stack.name, color: stack.color,
            cards: cards.map { $0.compat() })
    }

    static func cards(ofStack stackId: Int, on db: any Database) async throws -> [CardModel] {
        try await CardModel.query(on: db).filter(\.$stackId == stackId).sort(\.$id).all()
    }

    static func cards(ofUser userId: UUID, on db: any Database) async throws -> [Int: [CardModel]] {
        let cards = try await CardModel.query(on: db).filter(\.$userId == userId).sort(\.$id).all()
        return Dictionary(grouping: cards, by: \.stackId)
    }

    static func response(stack: StackModel, cards: [CardModel]) throws -> Response {
        try jsonResponse(self.stack(stack, cards: cards))
    }

    static func response(stacks: [StackModel], cardsByStack: [Int: [CardModel]]) throws -> Response {
        try jsonResponse(stacks.map { stack($0, cards: cardsByStack[$0.id!] ?? []) })
    }
}

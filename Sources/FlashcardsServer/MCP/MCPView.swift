import FlashcardsAPI
import FlashcardsGeneration
import Foundation

/// What the tools show of stacks and cards: the fields an assistant needs, by their wire names'
/// meaning, without the app's presentation (colours, icons, rendered HTML).
enum MCPView {
    static func stack(_ stack: StackDTO) -> JSONValue {
        [
            "id": .string(stack.id.uuidString.lowercased()), "name": .string(stack.name),
            "description": .string(stack.description), "scheduler": .string(stack.scheduler.rawValue),
            "card_count": .integer(stack.cardCount), "due_count": .integer(stack.dueCount),
        ]
    }

    static func card(_ card: CardDTO) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("id", .string(card.id.uuidString.lowercased())),
            .init("stack_id", .string(card.stackId.uuidString.lowercased())),
            .init("kind", .string((card.kind ?? .basic).rawValue)),
            .init("question", .string(card.question)),
            .init("answer", .string(card.answer)),
        ]
        if let shown = card.shown, shown.question != card.question || shown.answer != card.answer {
            // What the learner sees of this card (a cloze's gap, the reverse side).
            members.append(.init("front", .string(shown.question)))
            members.append(.init("back", .string(shown.answer)))
        }
        if let hint = card.hint { members.append(.init("hint", .string(hint))) }
        if let choices = card.choices { members.append(.init("wrong_choices", .array(choices.map { .string($0) }))) }
        members.append(.init("due_at", .string(date(card.dueAt))))
        if let state = card.state { members.append(.init("state", .string(state.rawValue))) }
        if card.bookmarked { members.append(.init("bookmarked", true)) }
        return .object(members)
    }

    static func date(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

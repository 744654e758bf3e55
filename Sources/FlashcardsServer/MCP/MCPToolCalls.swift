import FlashcardsAPI
import FlashcardsCore
import FlashcardsGeneration
import Fluent
import Foundation
import Vapor

/// What a tool gives back: a JSON object for the assistant, and what it touched, counted, for the
/// token's activity.
struct MCPToolOutput {
    var result: JSONValue
    var counts: [String: Int] = [:]
}

/// The tools' work, done by the same services as the API's routes (so with the same validation
/// and scoping: every lookup is the caller's). `request` is the MCP request that carries the call.
struct MCPToolbox {
    let request: Request
    let user: UserModel
    let arguments: MCPArguments

    private var context: ServiceContext { ServiceContext(request) }
    private var stacks: StackService { StackService(context: context, user: user) }

    /// Runs the tool called `name`.
    func run(_ name: String) async throws -> MCPToolOutput {
        switch name {
        case "list_stacks": try await listStacks()
        case "search_cards": try await searchCards()
        case "list_cards": try await listCards()
        case "create_stack": try await createStack()
        case "add_cards": try await addCards()
        case "generate_drafts": try await MCPDraftTools(toolbox: self).generate()
        case "list_drafts": try await MCPDraftTools(toolbox: self).list()
        case "accept_drafts": try await MCPDraftTools(toolbox: self).accept()
        case "due_cards": try await MCPStudyTools(toolbox: self).dueCards()
        case "rate_card": try await MCPStudyTools(toolbox: self).rate()
        case "get_statistics": try await MCPStudyTools(toolbox: self).statistics()
        case "get_workload": try await MCPStudyTools(toolbox: self).workload()
        case "card_source": try await cardSource()
        default: throw MCPToolFailure("Unknown tool '\(name)'.")
        }
    }

    /// The caller's stack named by `stack_id`.
    func stack(_ key: String = "stack_id") async throws -> StackModel {
        try await stacks.find(try arguments.id(key))
    }

    func service() -> ServiceContext { context }

    // MARK: Stacks and cards

    private func listStacks() async throws -> MCPToolOutput {
        let summaries = try await stacks.listCounted()
        return MCPToolOutput(
            result: ["stacks": .array(summaries.map { MCPView.stack($0.dto) })], counts: ["stacks": summaries.count])
    }

    private func searchCards() async throws -> MCPToolOutput {
        let query = TextCheck.trimmed(try arguments.string("query")).lowercased()
        guard !query.isEmpty, query.count <= 200 else {
            throw MCPToolFailure("The argument 'query' must hold 1 to 200 characters.")
        }
        let limit = try arguments.int("limit", default: 20, range: 1...100)
        let owned = try await stacks.list()
        var scope = owned
        if arguments.has("stack_id") { scope = [try await stack()] }
        let byId = Dictionary(uniqueKeysWithValues: owned.map { ($0.id!, $0) })
        let cards = try await CardModel.query(on: context.db).filter(\.$userId == user.requireID())
            .filter(\.$stackId ~~ scope.map { $0.id! }).filter(searchTextContains: query)
            .sort(\.$id).limit(limit).all()
        let found = try cards.compactMap { card in try byId[card.stackId].map { try MCPView.card(card.dto(stack: $0)) }
        }
        return MCPToolOutput(result: ["cards": .array(found)], counts: ["cards": found.count])
    }

    private func listCards() async throws -> MCPToolOutput {
        let stack = try await stack()
        let page = try arguments.int("page", default: 1, range: 1...100_000)
        let perPage = try arguments.int("per_page", default: 50, range: 1...200)
        let result = try await CardService(context: context, stack: stack).page(
            search: nil, page: page, perPage: perPage)
        return MCPToolOutput(
            result: [
                "cards": .array(try result.cards.map { try MCPView.card($0.dto(stack: stack)) }),
                "page": .integer(page), "per_page": .integer(perPage), "total": .integer(result.total),
            ], counts: ["cards": result.cards.count])
    }

    private func createStack() async throws -> MCPToolOutput {
        let scheduler = try arguments.optionalChoice("scheduler", of: SchedulerKind.allCases) ?? .fsrs
        let stack = try await stacks.create(
            name: try arguments.string("name"), color: Self.newStackColor,
            settings: StackSettings.Change(scheduler: scheduler),
            library: .init(description: try arguments.optionalString("description")))
        return MCPToolOutput(
            result: ["stack": MCPView.stack(stack.dto(cardCount: 0, dueCount: 0))], counts: ["stacks": 1])
    }

    /// The colour of stacks an assistant makes (the app's primary green).
    static let newStackColor = "#047857"

    private func addCards() async throws -> MCPToolOutput {
        let stack = try await stack()
        guard let items = try arguments.optionalArray("cards", limit: 100), !items.isEmpty else {
            throw MCPToolFailure("The argument 'cards' must hold 1 to 100 cards.")
        }
        let new = try items.enumerated().map { index, item in try Self.newCard(item, number: index + 1) }
        let made: [CardModel]
        do {
            made = try await CardService(context: context, stack: stack).create(new.map(\.card))
        } catch let error as AppError {
            // Which card it was: checked one by one, so the first refused one is named.
            for (index, card) in new.enumerated() {
                do {
                    _ = try CardService.checkedTexts(
                        question: card.card.question, answer: card.card.answer, choices: card.card.choices,
                        kind: card.card.kind)
                    _ = try Validate.hint(card.card.hint)
                } catch let refusal as AppError {
                    throw MCPToolFailure("Card \(index + 1): \(refusal.body.message) No card was added.")
                }
            }
            throw MCPToolFailure("\(error.body.message) No card was added.")
        }
        return MCPToolOutput(
            result: [
                "added": .integer(made.count),
                "cards": .array(try made.map { try MCPView.card($0.dto(stack: stack)) }),
            ], counts: ["cards": made.count])
    }

    /// One card of `add_cards`, read as its schema says.
    private static func newCard(_ item: JSONValue, number: Int) throws -> (card: CardService.NewCard, number: Int) {
        let fields = try MCPArguments(item, allowed: ["kind", "question", "answer", "hint", "choices"])
        do {
            var choices: [String]?
            if let items = try fields.optionalArray("choices", limit: 20) {
                choices = try items.map { item in
                    guard case .string(let text) = item else { throw MCPToolFailure("choices must be strings.") }
                    return text
                }
            }
            return (
                CardService.NewCard(
                    question: try fields.string("question"), answer: try fields.string("answer"),
                    hint: try fields.optionalString("hint"),
                    kind: try fields.optionalChoice("kind", of: CardKind.allCases) ?? .basic, choices: choices),
                number
            )
        } catch let failure as MCPToolFailure {
            throw MCPToolFailure("Card \(number): \(failure.message) No card was added.")
        }
    }

    private func cardSource() async throws -> MCPToolOutput {
        let stack = try await stack()
        let card = try await CardService(context: context, stack: stack).find(try arguments.id("card_id"))
        let draft = try await CardDraftModel.query(on: context.db)
            .filter(\.$stackId == stack.id!).filter(\.$cardId == card.uniqueId).first()
        guard let draft, let source = draft.sourceText else {
            return MCPToolOutput(result: ["card_id": .string(card.uniqueId.uuidString.lowercased()), "source": .null])
        }
        return MCPToolOutput(
            result: [
                "card_id": .string(card.uniqueId.uuidString.lowercased()), "source": .string(source),
                "page": draft.sourcePage.map { .integer($0) } ?? .null,
            ])
    }
}

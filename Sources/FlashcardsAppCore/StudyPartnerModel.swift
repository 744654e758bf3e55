import FlashcardsAPI
import FlashcardsClient
import Foundation
import Observation

/// The study partner's conversation about a stack or one of its cards, as the app shows it: the
/// turns with each answer's sources, the quick actions, and what to say when the server has no
/// language model (the learner can connect their own assistant through MCP instead).
@MainActor @Observable
public final class StudyPartnerModel {
    /// One turn of the conversation.
    public struct Turn: Identifiable, Hashable, Sendable {
        public let id: Int
        public let fromLearner: Bool
        /// The learner's words, or the partner's Markdown.
        public let text: String
        /// The partner's answer as sanitised HTML.
        public let html: String?
        /// The cards the answer draws on.
        public let sources: [PartnerSourceDTO]
        /// For "more cards": the generation job whose drafts the draft editor shows.
        public let draftsJob: UUID?
    }

    /// What the panel shows besides the turns.
    public enum Status: Equatable, Sendable {
        case ready
        case answering
        /// The server has no language model: one sentence, and the way through MCP.
        case needsModel
        /// The last question failed; the message says why.
        case failed(String)
    }

    public private(set) var turns: [Turn] = []
    public private(set) var status: Status = .ready

    /// The quick actions with their German labels, which are also sent as the message.
    public static let quickActions: [(action: PartnerAction, label: String)] = [
        (.explain, "Erklär mir das"), (.example, "Gib mir ein Beispiel"), (.quiz, "Frag mich ab"),
        (.moreCards, "Mach 5 Karten mehr dazu"),
    ]

    /// Said when the server has no language model.
    public static let needsModelSentence =
        "Der Lernpartner braucht ein Sprachmodell; auf diesem Server ist keins eingerichtet. "
        + "Verbinde stattdessen deinen eigenen KI-Assistenten über MCP: Einstellungen → KI-Assistenten und Zugangstokens."

    private let client: FlashcardsClient
    private let stack: UUID
    private let card: UUID?

    /// The conversation about `stack`, or about its `card`.
    public init(client: FlashcardsClient, stack: UUID, card: UUID? = nil) {
        self.client = client
        self.stack = stack
        self.card = card
    }

    /// Asks `message` (a quick action's label with its `action`, or the learner's own words).
    public func ask(_ message: String, action: PartnerAction? = nil) async {
        let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, status != .answering, status != .needsModel else { return }
        // The last 20 turns go along, as the server takes them.
        let history = turns.suffix(20).map {
            PartnerTurn(role: $0.fromLearner ? "user" : "assistant", content: $0.text)
        }
        turns.append(Turn(id: turns.count, fromLearner: true, text: text, html: nil, sources: [], draftsJob: nil))
        status = .answering
        do {
            let answer = try await client.askPartner(
                in: stack, PartnerRequest(message: text, cardId: card, action: action, history: Array(history)))
            if !answer.text.isEmpty {
                turns.append(
                    Turn(
                        id: turns.count, fromLearner: false, text: answer.text, html: answer.html,
                        sources: answer.sources, draftsJob: answer.jobId))
            }
            status = answer.error.map { .failed($0.message) } ?? .ready
        } catch FlashcardsError.http(status: 409, let body) where body?.code == "partner_needs_model" {
            turns.removeLast()
            status = .needsModel
        } catch {
            status = .failed(UserFacingError.message(for: error))
        }
    }
}

import FlashcardsCore
import Foundation

/// A whole answer of the learning path: the card to show with its rating options, the counts, and
/// whether its hint may be shown. Both route families encode it as it is.
struct StudyState {
    /// The card to show; nil when the session is done (or today's limits hold the due cards back).
    let card: CardModel?
    /// The ratings offered for `card`, in button order.
    let options: [RatingOption]
    /// Due cards the limits let through, up to `QueueOrder.dueCountLimit`.
    let dueCount: Int
    /// Without a card: when the next one falls due.
    let nextDueAt: Date?
    /// Whether the card's hint may be shown (a stack learnt without hints sends none).
    let hintsVisible: Bool
}

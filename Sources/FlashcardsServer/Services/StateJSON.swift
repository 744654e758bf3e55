import FlashcardsAPI
import FlashcardsCore
import Foundation

/// Card states as the log stores them (`state_before`, `state_after`): JSON with sorted keys, so one
/// state is always one text.
enum StateJSON {
    private static let encoder: JSONEncoder = {
        let encoder = FlashcardsJSON.makeEncoder()
        encoder.outputFormatting.insert(.sortedKeys)
        return encoder
    }()

    /// A replay step's state: the ladder's `{due, level}`, FSRS's card, or `{"state":"new"}`.
    static func text(_ state: ReplayState) -> String {
        switch state {
        case .new: #"{"state":"new"}"#
        case .ladder(let ladder): text(ladder)
        case .fsrs(let card): text(card)
        }
    }

    /// The whole schedule, for undo entries.
    static func snapshot(_ schedule: CardSchedule) -> String {
        struct Snapshot: Encodable {
            let state: CardState
            let step: Int?
            let stability: Double?
            let difficulty: Double?
            let due: Date
            let level: Int
            let lastReview: Date?
        }
        return text(
            Snapshot(
                state: schedule.state, step: schedule.step, stability: schedule.stability,
                difficulty: schedule.difficulty, due: schedule.due, level: schedule.level,
                lastReview: schedule.lastReviewedAt))
    }

    private static func text<T: Encodable>(_ value: T) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

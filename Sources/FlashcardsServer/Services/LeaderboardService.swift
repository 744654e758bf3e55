import FlashcardsAPI
import FlashcardsCore
import Foundation

/// The daily leaderboards: distinct cards or distinct stacks studied on the caller's day, among
/// learners who opted in; display names only. Counted in SQL from the review log at every request
/// (no per-process state, so every instance on one database shows the same board).
struct LeaderboardService {
    let context: ServiceContext
    let user: UserModel

    /// Places shown.
    static let size = 50

    enum Metric: String, CaseIterable {
        case cards, topics

        var counted: AccountStore.BoardColumn {
            switch self {
            case .cards: .cards
            case .topics: .stacks
            }
        }
    }

    func daily(metric text: String?) async throws -> LeaderboardDTO {
        guard let metric = Metric(rawValue: text ?? Metric.cards.rawValue) else {
            throw AppError.validation("metric muss cards oder topics sein.")
        }
        let service = MotivationService(context: context, user: user)
        let today = service.days.day(of: context.now)
        let start = service.days.start(of: today)
        let end = service.days.start(of: today + 1)
        let settings = try await LearnerSettingsModel.find(for: user.id!, on: context.db)
        // Undone reviews do not count; ties share the order of the name, then the id.
        let rows = try await context.store.accounts.board(counting: metric.counted, from: start, to: end)
        var entries: [LeaderboardEntryDTO] = []
        var me: LeaderboardRankDTO?
        var rank = 0
        var previous: Int?
        for (index, row) in rows.enumerated() {
            // Equal values share a rank (1, 2, 2, 4).
            if row.value != previous { rank = index + 1 }
            previous = row.value
            let isMe = row.user_id == user.id
            if isMe { me = LeaderboardRankDTO(rank: rank, value: row.value) }
            if index < Self.size {
                entries.append(LeaderboardEntryDTO(rank: rank, name: row.name, value: row.value, isMe: isMe))
            }
        }
        return LeaderboardDTO(
            date: MotivationService.dateText(today), metric: metric.rawValue, optedIn: settings.leaderboardOptIn,
            entries: entries, me: settings.leaderboardOptIn ? me : nil)
    }
}

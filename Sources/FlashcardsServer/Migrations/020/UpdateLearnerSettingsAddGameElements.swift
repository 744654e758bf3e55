import Fluent
import SQLKit

/// Frozen: the learner's "Spielelemente" switch (`LearnerSettingsModel.gameElements`): levels, XP,
/// challenges, the box, achievements and the leaderboard are shown once earned unless it is off.
struct UpdateLearnerSettingsAddGameElements: AsyncMigration {
    var name: String { "020_UpdateLearnerSettingsAddGameElements" }

    func prepare(on database: any Database) async throws {
        try await database.schema("learner_settings").field(
            .definition(
                name: .key(.string("game_elements")), dataType: .bool,
                constraints: [.required, .sql(.default(true))])
        ).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("learner_settings").deleteField("game_elements").update()
    }
}

import FlashcardsCore
import Fluent
import Foundation

/// A stack of cards owned by one user. `id` is the sequential number the original clients show;
/// `uniqueId` is what every path uses.
final class StackModel: Model, @unchecked Sendable {
    static let schema = "stacks"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "unique_id") var uniqueId: UUID
    @Field(key: "user_id") var userId: UUID
    @Field(key: "name") var name: String
    @Field(key: "color") var color: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    /// Whether cards of this stack get hints made for them.
    @Field(key: "hints_enabled") var hintsEnabled: Bool
    /// `ladder` or `fsrs` (see `SchedulerKind`).
    @Field(key: "scheduler") var scheduler: String
    /// FSRS: target probability of recall, 0.70 … 0.99.
    @Field(key: "desired_retention") var desiredRetention: Double
    /// FSRS: learning steps in seconds, comma-separated.
    @Field(key: "learning_steps") var learningSteps: String
    /// FSRS: relearning steps in seconds, comma-separated.
    @Field(key: "relearning_steps") var relearningSteps: String
    /// FSRS: new cards per learner day.
    @Field(key: "new_cards_per_day") var newCardsPerDay: Int
    /// FSRS: review cards per learner day; a larger backlog is spread over the next days.
    @Field(key: "reviews_per_day") var reviewsPerDay: Int
    /// The learner day (FSRS day number) on which the backlog was last spread; nil forces a spread.
    @OptionalField(key: "spread_day") var spreadDay: Int?
    /// The moment `reviewedToday` and `freshToday` count from (the start of a learner day); nil when
    /// they are not kept (see `StackDayCounts`).
    @OptionalField(key: "reviewed_since") var reviewedSince: Date?
    /// Cards of this stack last reviewed at or after `reviewedSince`.
    @Field(key: "reviewed_today") var reviewedToday: Int
    /// Of those, the cards first reviewed at or after `reviewedSince` (new cards learnt).
    @Field(key: "fresh_today") var freshToday: Int
    /// The best time of the match game on this stack, in milliseconds; nil before a first game.
    @OptionalField(key: "match_best_ms") var matchBestMs: Int?
    /// What the stack is about, shown in the library ("" for none).
    @Field(key: "description") var description: String
    /// An icon name from `StackIcon`, nil for the letter badge.
    @OptionalField(key: "icon") var icon: String?
    /// Marked as a favourite in the library.
    @Field(key: "favorite") var favorite: Bool

    init() {}

    /// Reads every field from `output` as Fluent's `output(from:)` does, without its reflection (see
    /// `UserModel.read(from:)`). A field added to the model must be added here.
    func read(from output: any DatabaseOutput) throws {
        try $id.output(from: output)
        try $uniqueId.output(from: output)
        try $userId.output(from: output)
        try $name.output(from: output)
        try $color.output(from: output)
        try $createdAt.output(from: output)
        try $updatedAt.output(from: output)
        try $hintsEnabled.output(from: output)
        try $scheduler.output(from: output)
        try $desiredRetention.output(from: output)
        try $learningSteps.output(from: output)
        try $relearningSteps.output(from: output)
        try $newCardsPerDay.output(from: output)
        try $reviewsPerDay.output(from: output)
        try $spreadDay.output(from: output)
        try $reviewedSince.output(from: output)
        try $reviewedToday.output(from: output)
        try $freshToday.output(from: output)
        try $matchBestMs.output(from: output)
        try $description.output(from: output)
        try $icon.output(from: output)
        try $favorite.output(from: output)
    }

    init(uniqueId: UUID, userId: UUID, name: String, color: String, now: Date) {
        self.uniqueId = uniqueId
        self.userId = userId
        self.name = name
        self.color = color
        self.createdAt = now
        self.updatedAt = now
        self.hintsEnabled = true
        // Stacks of the original API keep the ladder; /api/v1 switches new stacks to FSRS.
        self.settings = StackSettings()
        self.spreadDay = nil
        self.reviewedSince = nil
        self.reviewedToday = 0
        self.freshToday = 0
        self.description = ""
        self.icon = nil
        self.favorite = false
    }
}

extension StackModel {
    /// The stack's scheduler; an unknown stored name is `UnknownStoredValue`.
    var schedulerKind: SchedulerKind {
        get throws { try storedValue(SchedulerKind.self, scheduler, column: "stacks.scheduler") }
    }

    /// The scheduler settings as one value; setting it writes the stored forms.
    var settings: StackSettings {
        get {
            StackSettings(
                scheduler: SchedulerKind(rawValue: scheduler) ?? .fsrs, desiredRetention: desiredRetention,
                learningSteps: StackSettings.steps(fromText: learningSteps),
                relearningSteps: StackSettings.steps(fromText: relearningSteps), newCardsPerDay: newCardsPerDay,
                reviewsPerDay: reviewsPerDay)
        }
        set {
            scheduler = newValue.scheduler.rawValue
            desiredRetention = newValue.desiredRetention
            learningSteps = StackSettings.stepsText(newValue.learningSteps)
            relearningSteps = StackSettings.stepsText(newValue.relearningSteps)
            newCardsPerDay = newValue.newCardsPerDay
            reviewsPerDay = newValue.reviewsPerDay
        }
    }
}

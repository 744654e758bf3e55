import Fluent

/// Every migration in the order it runs. Append only; never edit a migration once released.
enum Migrations {
    static let all: [any Migration] = [
        CreateUser(),
        CreateStack(),
        CreateCard(),
        CreateReviewLog(),
        CreateLoginFailure(),
        CreateServerSetting(),
        CreateJob(),
        CreateJobInput(),
        CreateCardDraft(),
        UpdateCardAddHintSource(),
        UpdateStackAddScheduler(),
        UpdateCardAddMemoryState(),
        UpdateReviewLogAddUndo(),
        CreateSchedulerParameters(),
        UpdateCardCoverTodaysReviews(),
        UpdateStackAddDayCounts(),
        UpdateCardVacuumOften(),
        UpdateCardIndexEachQueue(),
        UpdateReviewLogAddMode(),
        UpdateCardAddBookmarked(),
        UpdateStackAddMatchBest(),
        CreatePasswordReset(),
        UpdateReviewLogCoverStats(),
        UpdateCardDraftAddSource(),
        CreateMotivation(),
        UpdateCardAddTags(),
        UpdateCardAddFormat(),
        CreateShareLinks(),
        CreateCatalogue(),
        UpdateCardAddKind(),
        CreateCardImages(),
    ]
}

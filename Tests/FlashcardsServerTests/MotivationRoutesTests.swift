import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FlashcardsServer

/// Progress without pressure through the real server and the SDK: XP, streaks and challenges from
/// the review log (and its cache), guest accounts, logout, settings, rest days, the mystery box and
/// the leaderboard.
@Suite("Motivation routes")
struct MotivationRoutesTests {
    func at(_ text: String) -> Date { FlashcardsJSON.date(from: text)! }

    /// The error code of a failed call.
    func code(of error: any Error) -> String? {
        switch error as? FlashcardsError {
        case .invalid(let body), .unauthorized(let body), .notFound(let body): body?.code
        case .http(_, let body): body?.code
        default: nil
        }
    }

    @Test(
        "XP, streak and calendar from the log; late reviews, undo and a new day keep the cache true",
        arguments: TestDatabase.available)
    func progressFromTheLog(db: TestDatabase) async throws {
        let clock = TestClock()  // Saturday 2026-06-13 10:00 UTC
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                let auth = try await client.signup(
                    name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
                let stack = try await client.createStack(name: "Chemie", color: "#000000")
                var cards: [CardDTO] = []
                for index in 0..<3 {
                    cards.append(
                        try await client.createCard(
                            in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo))
                }
                func review(_ card: Int, _ rating: RatingKey, _ time: String) -> SyncReviewDTO {
                    SyncReviewDTO(id: UUID(), cardId: cards[card].id, rating: rating, reviewedAt: at(time))
                }
                let fresh = try await client.progress()
                #expect(fresh.level == LevelDTO(level: 1, totalXP: 0, xpIntoLevel: 0, xpForNextLevel: 100))
                #expect(
                    fresh.streak == StreakDTO(current: 0, longest: 0, freezes: 0, activeToday: false, restToday: false))
                #expect(fresh.challenges.map(\.kind) == ["cardsStudied", "perfectRun", "newTopic"])
                #expect(fresh.today == "2026-06-13" && fresh.calendar.isEmpty && fresh.achievements.isEmpty)

                _ = try await client.syncReviews([
                    review(0, .good, "2026-06-11T10:00:00.000Z"), review(1, .easy, "2026-06-11T10:01:00.000Z"),
                    review(0, .good, "2026-06-12T10:00:00.000Z"),
                    review(2, .again, "2026-06-13T09:00:00.000Z"),
                ])
                // 06-11: 15 + 25 and the new-stack challenge (50); 06-12: 15 and the streak bonus (20);
                // today: 10 and the bonus; the first-steps achievement (25).
                var progress = try await client.progress()
                #expect(progress.cardsToday == 1)
                #expect(progress.xpToday == 30)
                #expect(progress.level.totalXP == 90 + 35 + 30 + 25)
                #expect(progress.level.level == 2)
                #expect(progress.streak.current == 3 && progress.streak.activeToday)
                #expect(progress.calendar.map(\.date) == ["2026-06-11", "2026-06-12", "2026-06-13"])
                #expect(progress.calendar.allSatisfy { $0.kind == "active" })
                #expect(progress.achievements.map(\.kind) == ["firstSteps"])
                #expect(progress.challenges.first { $0.kind == "newTopic" }?.done == false)

                // The finished days are cached.
                struct Row: Decodable { let day: Int }
                let cached = try await app.db.sql.raw(
                    "SELECT day FROM motivation_days WHERE user_id = \(bind: auth.user.id) ORDER BY day"
                ).all(decoding: Row.self).map(\.day)
                #expect(cached.map(MotivationService.dateText) == ["2026-06-11", "2026-06-12"])

                // A review synced late into a finished day counts (the cache is rebuilt).
                _ = try await client.syncReviews([review(1, .good, "2026-06-12T11:00:00.000Z")])
                progress = try await client.progress()
                #expect(progress.level.totalXP == 180 + 15)

                // Undoing today's only review: today is not active, the streak is intact.
                _ = try await client.undoLastReview(of: cards[2].id, in: stack.id)
                progress = try await client.progress()
                #expect(progress.cardsToday == 0 && progress.xpToday == 0)
                #expect(progress.streak.current == 2 && !progress.streak.activeToday)
                #expect(progress.level.totalXP == 195 - 30)
                // The achievement stays.
                #expect(progress.achievements.map(\.kind) == ["firstSteps"])

                // A new day: yesterday ended without practice and without a freeze, so the streak
                // starts over; the longest streak stays.
                clock.advance(by: 86_400)
                progress = try await client.progress()
                #expect(progress.today == "2026-06-14")
                #expect(progress.streak.current == 0 && progress.streak.longest == 2)
                #expect(progress.calendar.last == CalendarDayDTO(date: "2026-06-13", kind: "missed"))
                #expect(progress.level.totalXP == 165)

                // The cache agrees with a computation from scratch, and a new time zone rebuilds it.
                try await app.db.sql.raw("DELETE FROM motivation_days").run()
                try await app.db.sql.raw("UPDATE learner_settings SET cache_key = NULL").run()
                #expect(try await client.progress() == progress)
                _ = try await client.updateMe(timeZone: "Pacific/Kiritimati")
                let moved = try await client.progress()
                #expect(moved.level.totalXP == 165)
                // 10:00 UTC is midnight at +14, before the 04:00 rollover: still the learner day 06-14.
                #expect(moved.today == "2026-06-14")

                // Undoing, today, a review of an earlier day takes it out of that (cached) day.
                _ = try await client.undoLastReview(of: cards[0].id, in: stack.id)
                #expect(try await client.progress().level.totalXP == 165 - 15)

                // Deleting a card takes its reviews out of finished days (06-12 is left without
                // practice: its streak bonus goes too); deleting the stack takes the rest. The
                // achievement stays.
                try await client.deleteCard(cards[1].id, in: stack.id)
                #expect(try await client.progress().level.totalXP == 65 + 25)
                try await client.deleteStack(stack.id)
                let empty = try await client.progress()
                #expect(empty.level.totalXP == 25 && empty.calendar.isEmpty && empty.streak.longest == 0)
            }
        }
    }

    @Test("guest start, upgrade keeps stacks, logout revokes one token", arguments: TestDatabase.available)
    func guestAndLogout(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, url in
                let guest = try await client.startAsGuest(timeZone: "Europe/Berlin")
                #expect(guest.user.isGuest && guest.user.mail.isEmpty)
                #expect(guest.user.name.last!.isNumber)
                let stack = try await client.createStack(name: "Ausprobiert", color: "#112233")
                let guestToken = guest.token
                let upgraded = try await client.upgradeGuest(mail: "gast@example.org", password: "correct horse")
                #expect(!upgraded.user.isGuest && upgraded.user.mail == "gast@example.org")
                #expect(upgraded.user.id == guest.user.id && upgraded.user.name == guest.user.name)
                #expect(try await client.stacks().map(\.id) == [stack.id])
                // The guest's token stopped working.
                await #expect(throws: FlashcardsError.self) {
                    try await FlashcardsClient(baseURL: url, token: guestToken).me()
                }
                // A guest in English gets an English name and English settings; another language is refused.
                let english = FlashcardsClient(baseURL: url)
                let englishGuest = try await english.startAsGuest(language: "en")
                #expect(GuestNames.english.adjectives.contains { englishGuest.user.name.hasPrefix($0) })
                #expect(try await english.settings().language == "en")
                do {
                    try await FlashcardsClient(baseURL: url).startAsGuest(language: "fr")
                    Issue.record("a guest in French was made")
                } catch {
                    #expect(code(of: error) == "validation_failed")
                }
                do {
                    try await client.upgradeGuest(mail: "other@example.org", password: "correct horse")
                    Issue.record("a second upgrade worked")
                } catch {
                    #expect(code(of: error) == "not_a_guest")
                }

                // Logout revokes this token only.
                let other = FlashcardsClient(baseURL: url)
                try await other.login(mail: "gast@example.org", password: "correct horse")
                let token = try #require(client.token)
                try await client.signOut()
                do {
                    _ = try await FlashcardsClient(baseURL: url, token: token).me()
                    Issue.record("a revoked token worked")
                } catch {
                    #expect(code(of: error) == "unauthorized")
                }
                // Also on a stack's route, whose account and stack are read in another statement.
                do {
                    _ = try await FlashcardsClient(baseURL: url, token: token).nextCard(in: stack.id)
                    Issue.record("a revoked token studied")
                } catch {
                    #expect(code(of: error) == "unauthorized")
                }
                _ = try await other.nextCard(in: stack.id)
                #expect(try await other.me().mail == "gast@example.org")

                // A guest leaves without a password; a mail taken by someone is refused on upgrade.
                let leaving = FlashcardsClient(baseURL: url)
                try await leaving.startAsGuest()
                do {
                    try await leaving.upgradeGuest(mail: "GAST@example.org", password: "correct horse")
                    Issue.record("a taken mail was accepted")
                } catch {
                    #expect(code(of: error) == "user_already_exists")
                }
                try await leaving.deleteAccount(password: nil)
                // A full account still needs its password.
                await #expect(throws: FlashcardsError.self) { try await other.deleteAccount(password: nil) }

                // 20 guests an hour per address (three were made above), then a 429 that says why.
                for _ in 0..<17 { try await FlashcardsClient(baseURL: url).startAsGuest() }
                do {
                    try await FlashcardsClient(baseURL: url).startAsGuest()
                    Issue.record("the 21st guest was made")
                } catch FlashcardsError.rateLimited(let retryAfter, let body) {
                    #expect((retryAfter ?? 0) > 0)
                    #expect(body?.message.contains("Gastkonten") == true)
                }
            }
        }
    }

    @Test("settings, rest days and the mystery box", arguments: TestDatabase.available)
    func settingsRestDaysAndBox(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { client, _ in
                let auth = try await client.signup(
                    name: "Mia", mail: "mia@example.org", password: "correct horse", timeZone: "UTC")
                var settings = try await client.settings()
                #expect(settings.dailyGoal == 20 && settings.language == "de" && !settings.onboarding.done)
                #expect(!settings.focusMode && !settings.remindersEnabled && settings.reminderTime == "18:00")
                #expect(settings.gameElements)
                #expect(try await client.progress().gameElements)
                settings = try await client.updateSettings(UpdateSettingsRequest(gameElements: false))
                let hidden = try await client.progress()
                #expect(!settings.gameElements && !hidden.gameElements)
                settings = try await client.updateSettings(
                    UpdateSettingsRequest(
                        onboarding: OnboardingPatch(
                            done: true, purpose: .set("exam"), minutesPerDay: .set(10),
                            interests: [" Chemie ", "chemie", "Latein"])))
                #expect(settings.dailyGoal == 20 && settings.onboarding.minutesPerDay == 10)
                #expect(settings.onboarding.interests == ["Chemie", "Latein"] && settings.onboarding.done)
                settings = try await client.updateSettings(
                    UpdateSettingsRequest(
                        dailyGoal: 5, focusMode: true, reminderTime: "07:30",
                        onboarding: OnboardingPatch(purpose: .clear)))
                #expect(settings.dailyGoal == 5 && settings.focusMode && settings.reminderTime == "07:30")
                #expect(settings.onboarding.purpose == nil && settings.onboarding.minutesPerDay == 10)
                for bad in [
                    UpdateSettingsRequest(dailyGoal: 0), UpdateSettingsRequest(reminderTime: "24:00"),
                    UpdateSettingsRequest(reminderTime: "+1:+5"), UpdateSettingsRequest(reminderTime: "-0:00"),
                    UpdateSettingsRequest(language: "fr"),
                    UpdateSettingsRequest(onboarding: OnboardingPatch(minutesPerDay: .set(7))),
                    UpdateSettingsRequest(
                        onboarding: OnboardingPatch(
                            interests: Array(repeating: "x", count: 1) + (0..<12).map { "t\($0)" })),
                ] {
                    do {
                        _ = try await client.updateSettings(bad)
                        Issue.record("accepted \(bad)")
                    } catch {
                        #expect(code(of: error) == "validation_failed")
                    }
                }
                // A theme of the boxes, not won yet: refused as things stand (409).
                do {
                    _ = try await client.updateSettings(UpdateSettingsRequest(theme: .set("gold")))
                    Issue.record("a locked theme was accepted")
                } catch {
                    #expect(code(of: error) == "theme_locked")
                }
                #expect(try await client.settings() == settings)

                // Rest days: today and ahead, never the past.
                try await client.setRestDay("2026-06-13", true)
                try await client.setRestDay("2026-06-20", true)
                var progress = try await client.progress()
                #expect(progress.streak.restToday && progress.restDays == ["2026-06-13", "2026-06-20"])
                #expect(progress.focusMode)
                for (bad, expected) in [
                    ("2026-06-12", "rest_day_out_of_range"), ("2026-13-01", "validation_failed"),
                    ("2026-02-30", "validation_failed"), ("heute", "validation_failed"),
                    ("2026-08-13", "rest_day_out_of_range"), ("2026-06-+5", "validation_failed"),
                    ("+026-06-14", "validation_failed"),
                ] {
                    do {
                        try await client.setRestDay(bad, true)
                        Issue.record("accepted rest day \(bad)")
                    } catch {
                        #expect(code(of: error) == expected, "\(bad)")
                    }
                }
                try await client.setRestDay("2026-06-13", false)
                #expect(try await client.progress().restDays == ["2026-06-20"])

                // The box: closed until the three challenges are done (goal 5: five cards, a clean
                // run of five, a new stack).
                do {
                    _ = try await client.openMysteryBox()
                    Issue.record("the box opened early")
                } catch {
                    #expect(code(of: error) == "challenges_open")
                }
                let stack = try await client.createStack(name: "Neu", color: "#000000")
                // Six cards, five rated: one new card stays due.
                for index in 0..<6 {
                    _ = try await client.createCard(
                        in: stack.id, question: "F\(index)", answer: "A", createdAt: longAgo)
                }
                for _ in 0..<5 {
                    let next = try await client.nextCard(in: stack.id)
                    let card = try #require(next.card)
                    _ = try await client.rate(card.id, in: stack.id, rating: .easy)
                }
                progress = try await client.progress()
                // The batched due count of the home and the library is study/next's count.
                let next = try await client.nextCard(in: stack.id)
                #expect(progress.dueCount == next.dueCount && next.dueCount == 1)
                #expect(try await client.stack(stack.id).dueCount == next.dueCount)
                #expect(progress.challenges.allSatisfy { $0.done })
                #expect(progress.mysteryBox == MysteryBoxStateDTO(available: true, opened: nil))
                let opened = try await client.openMysteryBox()
                let today = MotivationService.day(fromText: "2026-06-13")!
                let expected = MysteryBox.open(
                    seed: MysteryBox.seed(user: auth.user.id.uuidString.lowercased(), day: today))
                #expect(opened.box.rarity == expected.rarity.rawValue)
                switch expected.reward {
                case .xp(let xp): #expect(opened.box.xp == xp && opened.box.theme == nil)
                case .theme(let theme): #expect(opened.box.theme == theme && opened.box.xp == nil)
                }
                #expect(try await client.openMysteryBox() == opened)
                progress = try await client.progress()
                #expect(progress.mysteryBox.opened == opened.box)
                #expect(progress.level == opened.level)
                if let theme = opened.box.theme {
                    #expect(try await client.settings().unlockedThemes == [theme])
                    #expect(try await client.updateSettings(UpdateSettingsRequest(theme: .set(theme))).theme == theme)
                    #expect(try await client.updateSettings(UpdateSettingsRequest(theme: .clear)).theme == nil)
                }
            }
        }
    }

    @Test("the daily leaderboard lists opted-in learners only, ranked, names only", arguments: TestDatabase.available)
    func leaderboard(db: TestDatabase) async throws {
        try await withApp(db, clock: TestClock()) { app in
            try await withRunningServer(app) { _, url in
                func learner(_ name: String, cards: Int, optIn: Bool) async throws -> FlashcardsClient {
                    let client = FlashcardsClient(baseURL: url)
                    try await client.signup(
                        name: name, mail: "\(name)@example.org", password: "correct horse", timeZone: "UTC")
                    _ = try await client.updateSettings(UpdateSettingsRequest(leaderboardOptIn: optIn))
                    let stack = try await client.createStack(name: "S", color: "#000000")
                    for index in 0..<cards {
                        let card = try await client.createCard(
                            in: stack.id, question: "Q\(index)", answer: "A", createdAt: longAgo)
                        _ = try await client.rate(card.id, in: stack.id, rating: .good)
                    }
                    return client
                }
                let ada = try await learner("Ada", cards: 3, optIn: true)
                _ = try await learner("Bea", cards: 5, optIn: true)
                let cid = try await learner("Cid", cards: 9, optIn: false)
                _ = try await learner("Dan", cards: 3, optIn: true)
                let board = try await ada.dailyLeaderboard()
                #expect(board.optedIn && board.metric == "cards" && board.date == "2026-06-13")
                #expect(board.entries.map(\.name) == ["Bea", "Ada", "Dan"])
                #expect(board.entries.map(\.rank) == [1, 2, 2])
                #expect(board.entries.map(\.isMe) == [false, true, false])
                #expect(board.me == LeaderboardRankDTO(rank: 2, value: 3))
                let topics = try await ada.dailyLeaderboard(metric: "topics")
                #expect(topics.entries.map(\.value) == [1, 1, 1])
                let outside = try await cid.dailyLeaderboard()
                #expect(!outside.optedIn && outside.me == nil && outside.entries.count == 3)
                do {
                    _ = try await ada.dailyLeaderboard(metric: "xp")
                    Issue.record("accepted an unknown metric")
                } catch {
                    #expect(code(of: error) == "validation_failed")
                }
            }
        }
    }
}

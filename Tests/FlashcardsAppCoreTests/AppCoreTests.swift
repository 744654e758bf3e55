import FlashcardsAPI
import FlashcardsAppCore
import FlashcardsClient
import FlashcardsCore
import FlashcardsTestServer
import Foundation
import Testing

/// The iOS app's view models (issue 22), driven against the real server (`flashcards serve`, its own
/// process) through the SDK. Only the token store's file and the clock are test doubles.
@Suite("FlashcardsAppCore: the app's view models against the real server")
struct AppCoreTests {
    final class FixedClock: AppClock, @unchecked Sendable {
        var now: Date
        init(_ now: Date) { self.now = now }
    }

    private static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("appcore-\(UUID().uuidString)")
    }

    @Test("sign up, stay signed in across launches, wrong password, sign out revokes the token")
    func session() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileTokenStore(file: folder.appendingPathComponent("session.json"))
        try await TestServer.with { server in try await Self.sessionStory(url: server.url, store: store) }
    }

    @MainActor
    private static func sessionStory(url: URL, store: FileTokenStore) async throws {
        let session = SessionModel(server: url, store: store)
        #expect(!session.isSignedIn)
        await session.signUp(name: "Ada", mail: "ada@example.org", password: "kurz")
        #expect(session.errorMessage == "Das Passwort muss mindestens 8 Zeichen lang sein.")
        await session.signUp(name: "Ada", mail: "ada@example.org", password: "correct horse")
        #expect(session.user?.name == "Ada" && session.errorMessage == nil)
        let mode = try FileManager.default.attributesOfItem(atPath: store.file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // The next launch is signed in, with a working token.
        let relaunched = SessionModel(server: url, store: store)
        #expect(relaunched.user?.mail == "ada@example.org")
        #expect(try await relaunched.client.me().name == "Ada")
        // Another server's session is not used.
        #expect(!SessionModel(server: URL(string: "http://127.0.0.1:9")!, store: store).isSignedIn)

        await relaunched.signOut()
        #expect(!relaunched.isSignedIn && store.load() == nil)
        // The server revoked the token: the first model's copy no longer works.
        await #expect(throws: FlashcardsError.self) { _ = try await session.client.me() }

        let again = SessionModel(server: url, store: store)
        await again.signIn(mail: "ada@example.org", password: "falsch-falsch")
        #expect(again.errorMessage == "E-Mail-Adresse oder Passwort stimmen nicht." && !again.isSignedIn)
        await again.signIn(mail: " ADA@example.org ", password: "correct horse")
        #expect(again.isSignedIn && again.errorMessage == nil)
        await again.startAsGuest()
        #expect(again.user?.isGuest == true)
    }

    @Test("the library: empty, create, a blank name, delete; a dead server says so")
    func library() async throws {
        try await TestServer.with { server in try await Self.libraryStory(client: server.client()) }
    }

    @MainActor
    private static func libraryStory(client: FlashcardsClient) async throws {
        try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
        let stacks = StacksModel(client: client)
        #expect(stacks.state.value == nil && !stacks.isEmpty)
        await stacks.load()
        #expect(stacks.isEmpty)
        #expect(await stacks.create(name: "   ") == nil)
        #expect(stacks.errorMessage == "Bitte gib dem Stapel einen Namen.")
        let biology = try #require(await stacks.create(name: "Biologie"))
        _ = await stacks.create(name: "Chemie")
        #expect(stacks.state.value?.map(\.name) == ["Biologie", "Chemie"] && stacks.errorMessage == nil)
        await stacks.delete(biology)
        await stacks.load()
        #expect(stacks.state.value?.map(\.name) == ["Chemie"])

        let offline = StacksModel(client: FlashcardsClient(baseURL: URL(string: "http://127.0.0.1:9")!))
        await offline.load()
        #expect(offline.state.failure == "Keine Verbindung zum Server. Prüfe deine Internetverbindung.")
    }

    /// What the first part of the study story hands the second.
    final class Learned: @unchecked Sendable {
        var stackId = UUID()
        var cardIds: [UUID] = []
        var token = ""
    }

    @Test("a study session: reveal, rate, finish; offline ratings are kept on disk and synced once")
    func study() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queueFile = folder.appendingPathComponent("reviews.json")
        let clock = FixedClock(Date())
        let learned = Learned()
        try await TestServer.with { server in
            try await Self.studyUntilOffline(
                client: server.client(), queueFile: queueFile, clock: clock, learned: learned, stop: { server.stop() })
            // A new launch reads the queue from disk and sends it when the server is back.
            try await server.start()
            try await Self.studyAfterReconnect(url: server.url, queueFile: queueFile, clock: clock, learned: learned)
        }
    }

    @MainActor
    private static func studyUntilOffline(
        client: FlashcardsClient, queueFile: URL, clock: FixedClock, learned: Learned,
        stop: @Sendable () async -> Void
    ) async throws {
        try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
        learned.token = client.token!
        let stack = try await client.createStack(name: "Vokabeln", color: "#2563EB")
        learned.stackId = stack.id
        for (question, answer) in [("dog", "Hund"), ("cat", "Katze"), ("mouse", "Maus")] {
            learned.cardIds.append(try await client.createCard(in: stack.id, question: question, answer: answer).id)
        }
        let queue = OfflineReviewQueue(file: queueFile)
        let session = StudySessionModel(stackId: stack.id, client: client, queue: queue, clock: clock)
        await session.start()
        guard case .card(let first, let options) = session.phase else {
            Issue.record("no card: \(session.phase)")
            return
        }
        #expect(first.question == "dog" && options.map(\.rating) == [.again, .hard, .good, .easy])
        #expect(session.dueCount == 3)
        // Rating before the answer is shown does nothing.
        await session.rate(.easy)
        #expect(session.reviewed == 0)
        session.reveal()
        clock.now += 4
        await session.rate(.easy)
        #expect(session.reviewed == 1 && !session.revealed)
        guard case .card(let second, _) = session.phase else {
            Issue.record("no second card: \(session.phase)")
            return
        }
        #expect(second.question == "cat")
        let logged = try await client.card(first.id, in: stack.id)
        #expect(logged.reviewCount == 1 && logged.state == .review)

        // The connection drops: the rating is kept with its moment, the session says so.
        await stop()
        session.reveal()
        clock.now += 3
        await session.rate(.easy)
        #expect(session.phase == .offline && session.reviewed == 2)
        #expect(queue.pendingCount == 1 && queue.pending.first?.cardId == second.id)
        await session.start()
        #expect(session.phase == .offline && queue.pendingCount == 1)
    }

    @MainActor
    private static func studyAfterReconnect(url: URL, queueFile: URL, clock: FixedClock, learned: Learned)
        async throws
    {
        let client = FlashcardsClient(baseURL: url, token: learned.token)
        let queue = OfflineReviewQueue(file: queueFile)
        #expect(queue.pendingCount == 1)
        let session = StudySessionModel(stackId: learned.stackId, client: client, queue: queue, clock: clock)
        await session.start()
        #expect(queue.pendingCount == 0 && queue.lastError == nil)
        #expect(try await client.card(learned.cardIds[1], in: learned.stackId).reviewCount == 1)
        guard case .card(let third, _) = session.phase else {
            Issue.record("no third card: \(session.phase)")
            return
        }
        #expect(third.question == "mouse")
        session.reveal()
        await session.rate(.easy)
        if case .finished = session.phase {} else { Issue.record("not finished: \(session.phase)") }
        // A review whose card is gone is dropped on its own; the others still arrive.
        try queue.enqueue(SyncReviewDTO(id: UUID(), cardId: UUID(), rating: .good, reviewedAt: clock.now))
        try queue.enqueue(SyncReviewDTO(id: UUID(), cardId: learned.cardIds[2], rating: .good, reviewedAt: clock.now))
        #expect(await queue.sync(using: client))
        #expect(queue.pendingCount == 0 && queue.dropped == 1)
        #expect(try await client.card(learned.cardIds[2], in: learned.stackId).reviewCount == 2)
    }

    @Test("a stack's cards page by page and searched; the card editor checks, previews and saves")
    func cardsAndEditor() async throws {
        try await TestServer.with { server in try await Self.cardsStory(client: server.client()) }
    }

    @MainActor
    private static func cardsStory(client: FlashcardsClient) async throws {
        try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
        let stack = try await client.createStack(name: "Physik", color: "#2563EB")

        // The editor refuses what the server would, before asking it.
        let editor = CardEditorModel(stackId: stack.id, client: client)
        #expect(editor.problem == "Die Vorderseite ist leer.")
        #expect(await editor.save() == false && editor.errorMessage == "Die Vorderseite ist leer.")
        editor.question = "Was besagt das **2. Newtonsche Gesetz**?"
        editor.answer = String(repeating: "x", count: 20_001)
        #expect(editor.problem == "Die Rückseite ist zu lang (höchstens 20.000 Zeichen).")
        editor.answer = "$F = m \\cdot a$"
        editor.isRich = true
        await editor.updatePreview()
        #expect(editor.preview?.question == "<p>Was besagt das <strong>2. Newtonsche Gesetz</strong>?</p>")
        #expect(editor.preview?.answer == "<p><span class=\"math\">F = m \\cdot a</span></p>")
        #expect(await editor.save())
        #expect(editor.question.isEmpty && editor.answer.isEmpty && editor.isRich, "ready for the next card")
        for index in 1...6 {
            editor.isRich = false
            editor.question = "Frage \(index)"
            editor.answer = "Antwort \(index)"
            #expect(await editor.save())
        }

        // The stack's page: two at a time, then a search.
        let detail = StackDetailModel(stackId: stack.id, client: client, perPage: 2)
        await detail.load()
        #expect(detail.state.value?.count == 2 && detail.total == 7 && detail.hasMore)
        await detail.loadMore()
        await detail.loadMore()
        #expect(detail.state.value?.count == 6)
        await detail.load(search: " frage ")
        #expect(detail.total == 6 && detail.search == "frage")
        let first = try #require(detail.state.value?.first)
        await detail.delete(first)
        #expect(detail.total == 5 && detail.state.value?.contains(first) == false)

        // Editing switches the format and keeps the rest.
        let rich = try #require(try await client.cards(in: stack.id).items.first { $0.format == .markdown })
        let change = CardEditorModel(stackId: stack.id, client: client, card: rich)
        #expect(change.isRich && change.question == rich.question)
        change.isRich = false
        #expect(await change.save())
        #expect(change.card?.format == .plain && change.card?.rendered == nil)
        #expect(change.question == rich.question, "an edited card keeps its fields")

        // A photo from the camera goes onto the answer: uploaded, appended as Markdown, the card rich.
        let photo = CardEditorModel(stackId: stack.id, client: client)
        photo.question = "Welche Zellen?"
        photo.answer = "Diese:"
        #expect(await photo.insertImage(Data(count: 10 * 1_024 * 1_024 + 1), on: .answer) == false)
        #expect(photo.errorMessage == "Bilder dürfen höchstens 10 MB groß sein.")
        #expect(await photo.insertImage(Data("kein Bild".utf8), on: .answer) == false)
        #expect(photo.errorMessage?.contains("JPEG, PNG, GIF oder WebP") == true, "\(photo.errorMessage ?? "")")
        #expect(await photo.insertImage(try generationFixture("notes.jpg"), on: .answer, description: "Notizen"))
        #expect(photo.isRich && photo.answer.hasPrefix("Diese:\n\n![Notizen](image:"))
        #expect(photo.preview?.answer.contains("<img class=\"card-image\"") == true)
        #expect(await photo.save())
        let saved = try #require(try await client.cards(in: stack.id, search: "welche zellen").items.first)
        let imageId = try #require(RichText.imageIds(saved.answer).first.flatMap(UUID.init(uuidString:)))
        #expect(try await client.image(imageId).starts(with: [0xFF, 0xD8]))
    }

    // About 1.5 s alone; the limit leaves room for a machine busy with other builds (over a minute seen).
    @Test("generation from pasted text: progress, drafts, accept some, discard one", .timeLimit(.minutes(3)))
    func generation() async throws {
        try await TestServer.with(environment: ["FLASHCARDS_JOB_WORKERS": "1"]) { server in
            try await Self.generationStory(client: server.client())
        }
    }

    @MainActor
    private static func generationStory(client: FlashcardsClient) async throws {
        try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
        let stack = try await client.createStack(name: "Biologie", color: "#059669")
        let model = GenerationModel(stackId: stack.id, client: client, pollInterval: 0.05)
        await model.generate(text: "   ")
        #expect(model.phase == .failed("Füge zuerst einen Text ein."))
        await model.generate(
            text: "Das Mitochondrium ist das Kraftwerk der Zelle, in dem ATP gebildet wird.\n"
                + "Unter Osmose versteht man die Diffusion von Wasser durch eine halbdurchlässige Membran.\n"
                + "Das Ribosom ist der Ort, an dem Proteine aus Aminosäuren gebildet werden.\n")
        #expect(model.phase == .review)
        // A requirement: without two drafts the steps below would index out of range.
        try #require(model.drafts.count >= 2, "\(model.drafts.map(\.question))")
        let drafts = model.drafts
        await model.discard(drafts[0])
        await model.accept([drafts[1].id])
        #expect(model.accepted == 1 && model.drafts.count == drafts.count - 2)
        #expect(try await client.cards(in: stack.id).items.map(\.question) == [drafts[1].question])
        await model.accept()
        #expect(model.drafts.isEmpty && model.accepted == drafts.count - 1, "\(model.phase)")
    }

    @Test("a generation that waits for a free worker can be cancelled", .timeLimit(.minutes(3)))
    func generationCancelled() async throws {
        // No worker runs: the job stays queued until the learner gives up on it.
        try await TestServer.with { server in try await Self.cancelStory(client: server.client()) }
    }

    @MainActor
    private static func cancelStory(client: FlashcardsClient) async throws {
        try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
        let stack = try await client.createStack(name: "Chemie", color: "#DC2626")
        let model = GenerationModel(stackId: stack.id, client: client, pollInterval: 0.05)
        let running = Task { await model.generate(text: "Ein Katalysator beschleunigt eine Reaktion.") }
        while true {
            if case .running = model.phase, model.canCancel { break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        await model.cancel()
        await running.value
        #expect(model.phase == .idle && model.drafts.isEmpty)
        #expect(try await client.drafts(in: stack.id).isEmpty)
    }

    @Test("settings: profile, goal, reminder, focus mode, password (still signed in), delete account")
    func settings() async throws {
        let store = FileTokenStore(file: Self.folder().appendingPathComponent("token.json"))
        try await TestServer.with { server in try await Self.settingsStory(url: server.url, store: store) }
    }

    @MainActor
    private static func settingsStory(url: URL, store: FileTokenStore) async throws {
        let session = SessionModel(server: url, store: store)
        await session.signUp(name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "UTC")
        let model = SettingsModel(session: session)
        await model.load()
        #expect(model.state.value?.dailyGoal == 20 && model.state.value?.focusMode == false)

        await model.updateProfile(name: "Ada L.", timeZone: "Europe/Berlin")
        #expect(model.user?.name == "Ada L." && session.user?.timeZone == "Europe/Berlin")
        #expect(store.load()?.user.name == "Ada L.", "the next launch shows the new name")
        await model.updateProfile(timeZone: "Mars/Olympus")
        #expect(model.errorMessage == "Diese Zeitzone kennen wir nicht." && model.user?.timeZone == "Europe/Berlin")

        await model.setDailyGoal(0)
        #expect(model.errorMessage == "Das Tagesziel liegt zwischen 1 und 500 Karten.")
        await model.setDailyGoal(35)
        await model.setFocusMode(true)
        await model.setGameElements(false)
        await model.setReminder(enabled: true, time: "25:00")
        #expect(model.errorMessage == "Gib die Uhrzeit als HH:MM an, zum Beispiel 18:30.")
        await model.setReminder(enabled: true, time: "18:30")
        await model.setEasyDay(9, to: .minimum)
        #expect(model.errorMessage == "Diesen Wochentag gibt es nicht.")
        await model.setEasyDay(6, to: .minimum)
        await model.setEasyDay(2, to: .reduced)
        #expect(model.state.value?.easyDays == [.normal, .normal, .reduced, .normal, .normal, .normal, .minimum])
        await model.setLoadBalancing(false)
        await model.setLeaderboardOptIn(true)
        await model.setLanguage("en")
        #expect(model.errorMessage == nil && model.confirmation == "Gespeichert.")
        let saved = try await session.client.settings()
        #expect(saved.dailyGoal == 35 && saved.focusMode && saved.remindersEnabled && saved.reminderTime == "18:30")
        #expect(saved.leaderboardOptIn && saved.language == "en" && !saved.gameElements)
        #expect(!saved.loadBalancing && saved.easyDays[6] == .minimum && saved.easyDays[2] == .reduced)

        await model.changePassword(current: "correct horse", new: "battery staple", repeated: "battery stapel")
        #expect(model.errorMessage == "Die beiden neuen Passwörter stimmen nicht überein.")
        await model.changePassword(current: "wrong horse", new: "battery staple", repeated: "battery staple")
        #expect(model.errorMessage != nil && session.isSignedIn)
        await model.changePassword(current: "correct horse", new: "battery staple", repeated: "battery staple")
        #expect(model.confirmation == "Dein Passwort wurde geändert." && session.isSignedIn)
        #expect(try await session.client.me().name == "Ada L.", "the new token works")
        // Setting a first password is for accounts a provider made: this one has its own.
        await model.setPassword(new: "short", repeated: "short")
        #expect(model.errorMessage == "Das neue Passwort muss mindestens 8 Zeichen lang sein.")
        await model.setPassword(new: "another staple", repeated: "another staple")
        #expect(model.errorMessage != nil && model.confirmation == nil && session.isSignedIn)
        #expect(try await session.client.me().passwordSet == true)

        await model.deleteAccount(password: "")
        #expect(model.errorMessage == "Bestätige das Löschen mit deinem Passwort." && session.isSignedIn)
        await model.deleteAccount(password: "battery staple")
        #expect(!session.isSignedIn && store.load() == nil)
        let again = FlashcardsClient(baseURL: url)
        await #expect(throws: FlashcardsError.self) {
            try await again.login(mail: "ada@example.org", password: "battery staple")
        }
    }

    @Test("the quiz: right and wrong answers rated as the server says, a summary, offline answers kept")
    func quiz() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = folder.appendingPathComponent("reviews.json")
        try await TestServer.with { server in
            try await Self.quizStory(client: server.client(), queueFile: queue, stop: { server.stop() })
        }
    }

    @MainActor
    private static func quizStory(client: FlashcardsClient, queueFile: URL, stop: @Sendable () async -> Void)
        async throws
    {
        try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
        let stack = try await client.createStack(name: "Hauptstädte", color: "#2563EB")
        let pairs = [
            ("Frankreich", "Paris"), ("Italien", "Rom"), ("Spanien", "Madrid"), ("Polen", "Warschau"),
            ("Irland", "Dublin"),
        ]
        for (question, answer) in pairs {
            _ = try await client.createCard(in: stack.id, question: question, answer: answer)
        }
        let clock = FixedClock(Date())
        let queue = OfflineReviewQueue(file: queueFile)
        let quiz = QuizSessionModel(stackId: stack.id, client: client, queue: queue, clock: clock)
        await quiz.start()
        guard case .question(let first) = quiz.phase, let card = first.card, let right = first.correctIndex else {
            Issue.record("no question: \(quiz.phase)")
            return
        }
        #expect(first.choices.count == 4 && first.choices[right] == card.answer)
        let wrong = (right + 1) % first.choices.count
        clock.now += 5
        await quiz.choose(wrong)
        #expect(quiz.phase == .answered(first, chosen: wrong, correct: false))
        await quiz.choose(right)
        #expect(quiz.answered == 1, "a question is answered once")
        let rated = try await client.card(card.id, in: stack.id)
        #expect(rated.reviewCount == 1 && rated.state == .learning, "a wrong answer is FSRS Again")

        await quiz.next()
        guard case .question(let second) = quiz.phase, let index = second.correctIndex else {
            Issue.record("no second question: \(quiz.phase)")
            return
        }
        #expect(second.card?.id != card.id)
        await quiz.choose(index)
        #expect(quiz.summary == SessionSummary(reviewed: 2, correct: 1, seconds: 5) && quiz.summary.accuracy == 0.5)

        // Offline, the answer is kept for later.
        await quiz.next()
        guard case .question(let third) = quiz.phase, let thirdRight = third.correctIndex else {
            Issue.record("no third question: \(quiz.phase)")
            return
        }
        await stop()
        await quiz.choose(thirdRight)
        #expect(quiz.phase == .offline && queue.pending.map(\.mode) == [.quiz] && quiz.correct == 2)
    }

    @Test("write mode: a typo is close, the learner may claim it, a wrong answer is rated Again")
    func write() async throws {
        try await TestServer.with { server in try await Self.writeStory(client: server.client()) }
    }

    @MainActor
    private static func writeStory(client: FlashcardsClient) async throws {
        try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
        let stack = try await client.createStack(name: "Vokabeln", color: "#2563EB")
        for (question, answer) in [("exercise", "Übung"), ("tree", "Baum")] {
            _ = try await client.createCard(in: stack.id, question: question, answer: answer)
        }
        let queue = OfflineReviewQueue(file: Self.folder().appendingPathComponent("reviews.json"))
        let model = WriteSessionModel(stackId: stack.id, client: client, queue: queue, clock: FixedClock(Date()))
        await model.start()
        guard case .card(let first) = model.phase else {
            Issue.record("no card: \(model.phase)")
            return
        }
        #expect(first.question == "exercise")
        model.typed = "Ubung"
        await model.check()
        guard case .checked(_, let close) = model.phase else {
            Issue.record("not checked: \(model.phase)")
            return
        }
        #expect(close.verdict == .close && close.expected == "Übung" && close.rating == .hard)
        await model.rate(claimingRight: true)
        #expect(try await client.card(first.id, in: stack.id).reviewCount == 1)
        guard case .card(let second) = model.phase else {
            Issue.record("no second card: \(model.phase)")
            return
        }
        #expect(second.question == "tree" && model.typed.isEmpty)
        model.typed = "Blatt"
        await model.check()
        await model.rate()
        #expect(model.answered == 2 && model.correct == 1)
        let wrong = try await client.card(second.id, in: stack.id)
        #expect(wrong.state == .learning && wrong.step == 0, "Again keeps the card at the first step: \(wrong)")
    }

    @Test("onboarding sets goal and interests; home greets by the hour, fills the ring, hides motivation in focus mode")
    func onboardingAndHome() async throws {
        try await TestServer.with { server in try await Self.homeStory(client: server.client()) }
    }

    @MainActor
    private static func homeStory(client: FlashcardsClient) async throws {
        try await client.signup(
            name: "Ada", mail: "ada@example.org", password: "correct horse", timeZone: "Europe/Berlin")
        #expect(try await client.settings().onboarding.done == false)
        let onboarding = OnboardingModel(client: client)
        await onboarding.next()
        await onboarding.next()
        onboarding.back()
        #expect(onboarding.step == .noGuilt)
        await onboarding.next()
        await onboarding.next()
        #expect(onboarding.step == .goal)
        onboarding.purpose = "exam"
        await onboarding.next()
        onboarding.minutesPerDay = 10
        await onboarding.next()
        for topic in ["Medizin", "Recht", "Medizin"] { onboarding.toggle(interest: topic) }
        await onboarding.next()
        #expect(onboarding.isDone && onboarding.errorMessage == nil)
        let settings = try await client.settings()
        #expect(
            settings.onboarding == OnboardingDTO(done: true, purpose: "exam", minutesPerDay: 10, interests: ["Recht"]))
        #expect(settings.dailyGoal == 20, "ten minutes are twenty cards")

        // 06:30 UTC is 07:30 in Berlin.
        let clock = FixedClock(ISO8601DateFormatter().date(from: "2026-11-30T06:30:00Z")!)
        let home = HomeModel(client: client, clock: clock)
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        #expect(home.greeting(name: "Ada", timeZone: berlin) == "Guten Morgen, Ada")
        clock.now += 11 * 3600
        #expect(home.greeting(name: "Ada", timeZone: berlin) == "Guten Abend, Ada")
        #expect(home.greeting(name: "", timeZone: TimeZone(identifier: "UTC")!) == "Guten Tag", "17:30 in UTC")

        let stack = try await client.createStack(name: "Anatomie", color: "#DC2626")
        let card = try await client.createCard(
            in: stack.id, question: "Größter Knochen?", answer: "Oberschenkelknochen")
        await home.load()
        #expect(home.goalText == "0 / 20 Karten" && home.goalFraction == 0 && home.showsMotivation)
        #expect(home.state.value?.dueCount == 1)
        // A new learner sees no game element yet: nothing is earned.
        #expect(home.earned == EarnedGameElements())
        _ = try await client.rate(card.id, in: stack.id, rating: .good)
        await home.load()
        #expect(home.goalText == "1 / 20 Karten" && home.goalFraction == 0.05)
        // The first review earns level and XP; a streak of one day, the challenges and the calendar
        // wait for a second day.
        #expect(home.earned.level && !home.earned.streak && !home.earned.daily && !home.earned.achievements)
        _ = try await client.updateSettings(UpdateSettingsRequest(gameElements: false))
        await home.load()
        #expect(!home.showsMotivation && home.earned == EarnedGameElements())
        _ = try await client.updateSettings(UpdateSettingsRequest(focusMode: true, gameElements: true))
        await home.load()
        #expect(!home.showsMotivation)
    }
}

/// A file of the generation tests' fixtures (`Tests/FlashcardsGenerationTests/Fixtures`).
func generationFixture(_ name: String) throws -> Data {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FlashcardsGenerationTests/Fixtures/\(name)")
    return try Data(contentsOf: url)
}

extension AppCoreTests {
    @Test("the workload: the days ahead, what if, the retention advice in a sentence; a ladder stack says why not")
    func workload() async throws {
        try await TestServer.with { server in try await Self.workloadStory(client: server.client()) }
    }

    @MainActor
    private static func workloadStory(client: FlashcardsClient) async throws {
        try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
        let stack = try await client.createStack(name: "Physik", color: "#047857", scheduler: .fsrs)
        for index in 0..<6 { _ = try await client.createCard(in: stack.id, question: "Frage \(index)", answer: "A") }
        let model = WorkloadModel(client: client, stack: stack.id)
        await model.load()
        let forecast = try #require(model.forecast.value)
        #expect(forecast.days.count == 30 && forecast.cards == 6)
        #expect(forecast.days.map(\.newCards).reduce(0, +) == 6)
        #expect(model.summary?.hasPrefix("In den nächsten 30 Tagen: im Schnitt etwa") == true)
        await model.simulate(SimulationRequest(newCardsPerDay: -1))
        #expect(model.inputError == "Neue Karten pro Tag: eine ganze Zahl von 0 bis 1000.")
        await model.simulate(SimulationRequest(days: 7, newCardsPerDay: 0))
        #expect(model.inputError == nil && model.forecast.value?.days.count == 7)
        #expect(model.forecast.value?.days.allSatisfy { $0.newCards == 0 } == true)
        await model.loadAdvice()
        let advice = try #require(model.advice.value)
        #expect(advice.reason == "no_budget")
        #expect(model.adviceSentence?.contains("merkst du dir pro Minute Lernzeit am meisten") == true)
        #expect(WorkloadModel.minutesText(0.42) == "0,4" && WorkloadModel.minutesText(12.6) == "13")

        // A break, previewed; then three cards of the next days today.
        for card in try await client.cards(in: stack.id).items {
            _ = try await client.rate(card.id, in: stack.id, rating: .easy)
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let (from, to) = (
            formatter.string(from: Date().addingTimeInterval(2 * 86_400)),
            formatter.string(from: Date().addingTimeInterval(20 * 86_400))
        )
        await model.planBreak(from: to, to: from, preview: true)
        #expect(model.reschedule.failure == "Das Ende der Pause liegt vor ihrem Anfang.")
        await model.planBreak(from: from, to: to, preview: true)
        let plan = try #require(model.reschedule.value)
        #expect(plan.preview && plan.advanced + plan.postponed == 6)
        #expect(model.rescheduleSentence?.contains("kämen") == true)
        await model.move(0, later: true)
        #expect(model.reschedule.failure == "Gib eine Zahl von 1 bis 10000 ein.")
        await model.move(3, later: false)
        #expect(model.reschedule.value?.advanced == 3 && model.rescheduleSentence == "3 Karten kommen früher dran.")
        #expect(try await client.nextCard(in: stack.id).dueCount == 3)

        let ladder = try await client.createStack(name: "Vokabeln", color: "#000000", scheduler: .ladder)
        let refused = WorkloadModel(client: client, stack: ladder.id)
        await refused.load()
        #expect(refused.forecast.failure == "Die Vorschau rechnet mit FSRS; dieser Stapel nutzt die Lernstufen.")
        let all = WorkloadModel(client: client)
        await all.load(days: 14)
        #expect(all.forecast.value?.days.count == 14 && all.forecast.value?.cards == 6)
    }
}

#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

    /// Sign-in or the library, by the session. Every behaviour is in the models (FlashcardsAppCore).
    public struct FlashcardsRootView: View {
        @State private var session: SessionModel
        @State private var showsOnboarding = false

        /// The app for the server at `server`.
        public init(server: URL) {
            _session = State(initialValue: SessionModel(server: server, store: KeychainTokenStore()))
        }

        public var body: some View {
            if session.isSignedIn {
                TabView {
                    NavigationStack { HomeView(session: session) }.tabItem { Label("Start", systemImage: "house.fill") }
                    NavigationStack { StacksView(session: session) }
                        .tabItem { Label("Bibliothek", systemImage: "folder.fill") }
                }
                .sheet(isPresented: $showsOnboarding) { OnboardingView(model: OnboardingModel(client: session.client)) }
                .task { showsOnboarding = (try? await session.client.settings().onboarding.done) == false }
            } else {
                SignInView(session: session)
            }
        }
    }

    /// Mail and password, or a start as a guest.
    struct SignInView: View {
        let session: SessionModel
        @State private var mail = ""
        @State private var password = ""

        var body: some View {
            Form {
                Section("Anmelden") {
                    TextField("E-Mail-Adresse", text: $mail).textContentType(.username)
                    SecureField("Passwort", text: $password).textContentType(.password)
                    if let message = session.errorMessage { Text(message).foregroundStyle(.secondary) }
                    Button("Anmelden") { Task { await session.signIn(mail: mail, password: password) } }
                        .environment(\.isEnabled, !session.isWorking)
                }
                Section {
                    Button("Ohne Konto ausprobieren") { Task { await session.startAsGuest() } }
                        .environment(\.isEnabled, !session.isWorking)
                }
            }
        }
    }

    /// The library: stacks with their due counts; pull to refresh.
    struct StacksView: View {
        let session: SessionModel
        @State private var model: StacksModel

        init(session: SessionModel) {
            self.session = session
            _model = State(initialValue: StacksModel(client: session.client))
        }

        var body: some View {
            List {
                switch model.state {
                case .idle, .loading: ProgressView("Lädt …")
                case .failed(let message): Text(message)
                case .loaded(let list) where list.isEmpty: Text("Noch keine Stapel. Lege deinen ersten an.")
                case .loaded(let list):
                    ForEach(list, id: \.id) { stack in
                        NavigationLink(stack.name) { StackDetailView(stack: stack, client: session.client) }
                            .badge(stack.dueCount)
                    }
                }
            }
            .navigationTitle("Stapel")
            .toolbar {
                NavigationLink("Einstellungen") { SettingsView(session: session) }
                Button("Abmelden") { Task { await session.signOut() } }
            }
            .refreshable { await model.load() }
            .task { await model.load() }
        }
    }

    /// Flip and rate; offline ratings wait in the queue.
    struct StudyView: View {
        @State private var model: StudySessionModel

        init(stackId: UUID, client: FlashcardsClient) {
            _model = State(initialValue: StudySessionModel(stackId: stackId, client: client, queue: sharedReviewQueue))
        }

        var body: some View {
            VStack(spacing: 24) {
                switch model.phase {
                case .loading: ProgressView()
                case .offline: Text("Offline: Deine Bewertungen sind gespeichert und werden später übertragen.")
                case .failed(let message): Text(message)
                case .finished: SessionCompleteView(summary: model.summary)
                case .card(let card, let options):
                    Text(card.front).font(.title2)
                    if model.revealed {
                        Text(card.back)
                        HStack {
                            ForEach(options, id: \.rating) { option in
                                Button(option.label) { Task { await model.rate(option.rating) } }
                                    .buttonStyle(.borderedProminent)
                            }
                        }
                    } else {
                        Button("Antwort zeigen") { model.reveal() }
                    }
                }
            }
            .padding()
            .task { await model.start() }
        }
    }

    /// A stack: learn, add or generate cards, the cards page by page with a search.
    struct StackDetailView: View {
        let stack: StackDTO
        let client: FlashcardsClient
        @State private var model: StackDetailModel
        @State private var search = ""

        init(stack: StackDTO, client: FlashcardsClient) {
            self.stack = stack
            self.client = client
            _model = State(initialValue: StackDetailModel(stackId: stack.id, client: client))
        }

        var body: some View {
            List {
                Section {
                    NavigationLink("Lernen") { StudyView(stackId: stack.id, client: client) }
                    NavigationLink("Quiz") { QuizView(stackId: stack.id, client: client) }
                    NavigationLink("Antwort schreiben") { WriteView(stackId: stack.id, client: client) }
                    NavigationLink("Neue Karte") {
                        CardEditorView(model: CardEditorModel(stackId: stack.id, client: client))
                    }
                    NavigationLink("Karten aus Text erstellen") {
                        GenerationView(model: GenerationModel(stackId: stack.id, client: client))
                    }
                }
                Section("Karten") {
                    switch model.state {
                    case .idle, .loading: ProgressView("Lädt …")
                    case .failed(let message): Text(message)
                    case .loaded(let cards) where cards.isEmpty:
                        Text(
                            model.search.isEmpty
                                ? "Dieser Stapel hat noch keine Karten." : "Keine Karte passt zur Suche.")
                    case .loaded(let cards):
                        ForEach(cards, id: \.id) { card in
                            NavigationLink(card.front) {
                                CardEditorView(model: CardEditorModel(stackId: stack.id, client: client, card: card))
                            }
                            .swipeActions {
                                Button("Löschen", role: .destructive) { Task { await model.delete(card) } }
                            }
                        }
                        if model.hasMore { Button("Mehr laden") { Task { await model.loadMore() } } }
                    }
                    if let message = model.errorMessage { Text(message).foregroundStyle(.secondary) }
                }
            }
            .navigationTitle(stack.name)
            .searchable(text: $search, prompt: "Karten durchsuchen")
            .onSubmit(of: .search) { Task { await model.load(search: search) } }
            .refreshable { await model.load(search: search) }
            .task { await model.load() }
        }
    }

    /// Writing a card: fields, the rich-text option with the server's preview, saving.
    struct CardEditorView: View {
        @State var model: CardEditorModel
        @State private var photo: PhotosPickerItem?
        @Environment(\.dismiss) private var dismiss

        var body: some View {
            Form {
                Section("Vorderseite") { TextField("Frage", text: $model.question, axis: .vertical) }
                Section("Rückseite") { TextField("Antwort", text: $model.answer, axis: .vertical) }
                Section("Hinweis (optional)") { TextField("Hinweis", text: $model.hint, axis: .vertical) }
                // A photo from the library (the camera's pictures included) goes onto the back.
                PhotosPicker("Bild zur Rückseite hinzufügen", selection: $photo, matching: .images)
                    .onChange(of: photo) { _, item in
                        guard let item else { return }
                        Task {
                            if let data = try? await item.loadTransferable(type: Data.self) {
                                await model.insertImage(data, on: .answer)
                            }
                            photo = nil
                        }
                    }
                Toggle("Formatierung und Formeln", isOn: $model.isRich)
                if model.isRich, let preview = model.preview {
                    Section("Vorschau") {
                        // The server's sanitised HTML (formulas stay as their source here).
                        Text(Self.attributed(preview.question))
                        Text(Self.attributed(preview.answer))
                    }
                }
                if let message = model.errorMessage { Text(message).foregroundStyle(.red) }
                Button("Speichern") {
                    Task { if await model.save(), model.card != nil { dismiss() } }
                }
                .environment(\.isEnabled, !(model.isWorking || model.problem != nil))
            }
            .task(id: "\(model.isRich)\(model.question)\(model.answer)") { await model.updatePreview() }
        }

        /// Styled text of the server's sanitised HTML; the plain source when it does not parse.
        static func attributed(_ html: String) -> AttributedString {
            guard let data = html.data(using: .utf8),
                let text = try? NSAttributedString(
                    data: data,
                    options: [
                        .documentType: NSAttributedString.DocumentType.html,
                        .characterEncoding: String.Encoding.utf8.rawValue,
                    ],
                    documentAttributes: nil)
            else { return AttributedString(html) }
            return AttributedString(text)
        }
    }

    /// Cards from pasted text: progress while the job runs, then the drafts to keep or discard.
    struct GenerationView: View {
        @State var model: GenerationModel
        @State private var text = ""

        var body: some View {
            Form {
                switch model.phase {
                case .idle, .failed:
                    if case .failed(let message) = model.phase { Text(message).foregroundStyle(.secondary) }
                    TextField("Text einfügen", text: $text, axis: .vertical).lineLimit(6...20)
                    Button("Karten erstellen") { Task { await model.generate(text: text) } }
                case .running(let message):
                    ProgressView(message)
                    Button("Abbrechen", role: .cancel) { Task { await model.cancel() } }.environment(
                        \.isEnabled, model.canCancel)
                case .review:
                    if model.drafts.isEmpty { Text("\(model.accepted) Karten übernommen.") }
                    ForEach(model.drafts, id: \.id) { draft in
                        VStack(alignment: .leading) {
                            Text(draft.question).bold()
                            Text(draft.answer)
                        }
                        .swipeActions {
                            Button("Verwerfen", role: .destructive) { Task { await model.discard(draft) } }
                        }
                    }
                    if !model.drafts.isEmpty { Button("Alle übernehmen") { Task { await model.accept() } } }
                }
            }
            .navigationTitle("Karten erstellen")
        }
    }

    /// Profile, goal, language, focus mode, reminder, leaderboard, password, deleting the account.
    struct SettingsView: View {
        let session: SessionModel
        @State private var model: SettingsModel
        @State private var name = ""
        @State private var current = ""
        @State private var new = ""
        @State private var repeated = ""
        @State private var deletePassword = ""

        init(session: SessionModel) {
            self.session = session
            _model = State(initialValue: SettingsModel(session: session))
        }

        var body: some View {
            Form {
                switch model.state {
                case .idle, .loading: ProgressView("Lädt …")
                case .failed(let message): Text(message)
                case .loaded(let settings):
                    Section("Profil") {
                        TextField("Name", text: $name).onSubmit { Task { await model.updateProfile(name: name) } }
                        Text(model.user?.timeZone ?? "")
                    }
                    Section("Lernen") {
                        Stepper(
                            "Tagesziel: \(settings.dailyGoal) Karten",
                            onIncrement: { Task { await model.setDailyGoal(settings.dailyGoal + 5) } },
                            onDecrement: { Task { await model.setDailyGoal(max(1, settings.dailyGoal - 5)) } })
                        Toggle(
                            "Fokusmodus",
                            isOn: Binding(
                                get: { settings.focusMode }, set: { on in Task { await model.setFocusMode(on) } }))
                        Toggle(
                            "Erinnerung um \(settings.reminderTime)",
                            isOn: Binding(
                                get: { settings.remindersEnabled },
                                set: { on in Task { await model.setReminder(enabled: on) } }))
                        Toggle(
                            "In Bestenlisten erscheinen",
                            isOn: Binding(
                                get: { settings.leaderboardOptIn },
                                set: { on in Task { await model.setLeaderboardOptIn(on) } }))
                        Picker(
                            "Sprache",
                            selection: Binding(
                                get: { settings.language }, set: { value in Task { await model.setLanguage(value) } })
                        ) {
                            Text("Deutsch").tag("de")
                            Text("English").tag("en")
                        }
                    }
                    if !(model.user?.isGuest ?? false) {
                        Section("Passwort ändern") {
                            SecureField("Bisheriges Passwort", text: $current)
                            SecureField("Neues Passwort", text: $new)
                            SecureField("Neues Passwort wiederholen", text: $repeated)
                            Button("Passwort ändern") {
                                Task { await model.changePassword(current: current, new: new, repeated: repeated) }
                            }
                        }
                    }
                    Section("Konto löschen") {
                        if !(model.user?.isGuest ?? false) { SecureField("Passwort", text: $deletePassword) }
                        Button("Konto und alle Daten löschen", role: .destructive) {
                            Task { await model.deleteAccount(password: deletePassword) }
                        }
                    }
                }
                if let message = model.errorMessage { Text(message).foregroundStyle(.red) }
                if let message = model.confirmation { Text(message).foregroundStyle(.secondary) }
            }
            .navigationTitle("Einstellungen")
            .environment(\.isEnabled, !model.isWorking)
            .task {
                await model.load()
                name = model.user?.name ?? ""
            }
        }
    }

    /// The offline queue every study screen shares.
    @MainActor let sharedReviewQueue = OfflineReviewQueue(
        file: URL.applicationSupportDirectory.appendingPathComponent("pending-reviews.json"))

    /// Multiple choice: right or wrong at once, then the next question.
    struct QuizView: View {
        @State private var model: QuizSessionModel

        init(stackId: UUID, client: FlashcardsClient) {
            _model = State(initialValue: QuizSessionModel(stackId: stackId, client: client, queue: sharedReviewQueue))
        }

        var body: some View {
            VStack(spacing: 16) {
                switch model.phase {
                case .loading: ProgressView()
                case .offline: Text("Offline: Deine Antworten sind gespeichert und werden später übertragen.")
                case .failed(let message): Text(message)
                case .finished: SessionCompleteView(summary: model.summary)
                case .question(let quiz):
                    Text(quiz.card?.front ?? "").font(.title2)
                    ForEach(Array(quiz.choices.enumerated()), id: \.offset) { index, choice in
                        Button(choice) { Task { await model.choose(index) } }.buttonStyle(.bordered)
                    }
                case .answered(let quiz, let chosen, let correct):
                    Text(correct ? "Richtig!" : "Nicht ganz.").font(.headline)
                    ForEach(Array(quiz.choices.enumerated()), id: \.offset) { index, choice in
                        Text(choice)
                            .foregroundStyle(index == quiz.correctIndex ? .green : index == chosen ? .red : .primary)
                    }
                    Button("Weiter") { Task { await model.next() } }.buttonStyle(.borderedProminent)
                }
            }
            .padding()
            .task { await model.start() }
        }
    }

    /// Typing the answer, the difference shown, then rated.
    struct WriteView: View {
        @State private var model: WriteSessionModel

        init(stackId: UUID, client: FlashcardsClient) {
            _model = State(initialValue: WriteSessionModel(stackId: stackId, client: client, queue: sharedReviewQueue))
        }

        var body: some View {
            VStack(spacing: 16) {
                switch model.phase {
                case .loading: ProgressView()
                case .offline: Text("Offline: Deine Antworten sind gespeichert und werden später übertragen.")
                case .failed(let message): Text(message)
                case .finished: SessionCompleteView(summary: model.summary)
                case .card(let card):
                    Text(card.front).font(.title2)
                    TextField("Deine Antwort", text: $model.typed).onSubmit { Task { await model.check() } }
                    Toggle("Akzente ignorieren", isOn: $model.ignoreDiacritics)
                    Button("Prüfen") { Task { await model.check() } }.buttonStyle(.borderedProminent)
                case .checked(_, let result):
                    Text(
                        result.verdict == .correct
                            ? "Richtig!" : result.verdict == .close ? "Fast richtig." : "Nicht ganz."
                    )
                    .font(.headline)
                    Text("Richtige Antwort: \(result.expected)")
                    Button("Weiter") { Task { await model.rate() } }.buttonStyle(.borderedProminent)
                    if result.verdict != .correct {
                        Button("Ich hatte recht") { Task { await model.rate(claimingRight: true) } }
                    }
                }
            }
            .padding()
            .task { await model.start() }
        }
    }

    /// The end of a session: encouraging, never pressing.
    struct SessionCompleteView: View {
        let summary: SessionSummary

        var body: some View {
            VStack(spacing: 8) {
                Text("Toll gemacht!").font(.title)
                Text("\(summary.reviewed) Karten gelernt in \(max(1, summary.seconds / 60)) Minuten")
                if let accuracy = summary.accuracy { Text("\(Int((accuracy * 100).rounded())) % richtig") }
            }
        }
    }

    /// Home: greeting, today's goal as a ring, motivation unless focus mode is on.
    struct HomeView: View {
        let session: SessionModel
        @State private var model: HomeModel

        init(session: SessionModel) {
            self.session = session
            _model = State(initialValue: HomeModel(client: session.client))
        }

        var body: some View {
            VStack(spacing: 16) {
                Text(
                    model.greeting(
                        name: session.user?.name ?? "",
                        timeZone: TimeZone(identifier: session.user?.timeZone ?? "") ?? .current)
                ).font(.title)
                switch model.state {
                case .idle, .loading: ProgressView()
                case .failed(let message): Text(message)
                case .loaded(let progress):
                    Gauge(value: model.goalFraction) {
                        Text("Heute")
                    } currentValueLabel: {
                        Text(model.goalText)
                    }
                    .gaugeStyle(.accessoryCircularCapacity)
                    if progress.dueCount == 0 { Text("Für heute ist alles gelernt.") }
                    // Game elements appear once earned, never a zero or a lost streak.
                    if model.earned.level {
                        Text("Level \(progress.level.level)").foregroundStyle(.secondary)
                    }
                    if model.earned.streak {
                        Text("\(progress.streak.current) Tage in Folge").foregroundStyle(.secondary)
                    }
                }
            }
            .padding()
            .task { await model.load() }
        }
    }

    /// The first start: why the app is different, then goal, time and interests; skippable.
    struct OnboardingView: View {
        @State var model: OnboardingModel

        var body: some View {
            VStack(spacing: 20) {
                switch model.step {
                case .snapAndLearn: Text("Fotografieren und lernen: Karten aus Fotos, PDFs oder Text.")
                case .noGuilt: Text("Kein schlechtes Gewissen: Einen Tag verpasst? Kein Problem.")
                case .smartRepetition: Text("Kluge Wiederholung: FSRS zeigt Karten zur richtigen Zeit.")
                case .goal:
                    Picker("Dein Ziel", selection: $model.purpose) {
                        Text("Prüfungen bestehen").tag(Optional("exam"))
                        Text("Eine Sprache lernen").tag(Optional("language"))
                        Text("Neugier").tag(Optional("curiosity"))
                        Text("Beruf").tag(Optional("work"))
                    }
                case .time:
                    Picker("Minuten pro Tag", selection: $model.minutesPerDay) {
                        ForEach(OnboardingModel.minuteChoices, id: \.self) { Text("\($0) Minuten").tag(Optional($0)) }
                    }
                case .interests:
                    ForEach(OnboardingModel.suggestedInterests, id: \.self) { topic in
                        Toggle(
                            topic,
                            isOn: Binding(
                                get: { model.interests.contains(topic) }, set: { _ in model.toggle(interest: topic) }))
                    }
                }
                if let message = model.errorMessage { Text(message).foregroundStyle(.red) }
                HStack {
                    Button("Überspringen") { Task { await model.skip() } }
                    Button("Weiter") { Task { await model.next() } }.buttonStyle(.borderedProminent)
                }
            }
            .padding()
        }
    }
#endif

#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import SwiftUI

    /// Sign-in or the library, by the session. Every behaviour is in the models (FlashcardsAppCore).
    public struct FlashcardsRootView: View {
        @State private var session: SessionModel

        /// The app for the server at `server`.
        public init(server: URL) {
            _session = State(initialValue: SessionModel(server: server, store: KeychainTokenStore()))
        }

        public var body: some View {
            if session.isSignedIn {
                NavigationStack { StacksView(session: session) }
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
                        .disabled(session.isWorking)
                }
                Section {
                    Button("Ohne Konto ausprobieren") { Task { await session.startAsGuest() } }
                        .disabled(session.isWorking)
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
                        NavigationLink(stack.name) { StudyView(stackId: stack.id, client: session.client) }
                            .badge(stack.dueCount)
                    }
                }
            }
            .navigationTitle("Stapel")
            .toolbar { Button("Abmelden") { Task { await session.signOut() } } }
            .refreshable { await model.load() }
            .task { await model.load() }
        }
    }

    /// Flip and rate; offline ratings wait in the queue.
    struct StudyView: View {
        @State private var model: StudySessionModel

        init(stackId: UUID, client: FlashcardsClient) {
            let queue = OfflineReviewQueue(
                file: URL.applicationSupportDirectory.appendingPathComponent("pending-reviews.json"))
            _model = State(initialValue: StudySessionModel(stackId: stackId, client: client, queue: queue))
        }

        var body: some View {
            VStack(spacing: 24) {
                switch model.phase {
                case .loading: ProgressView()
                case .offline: Text("Offline: Deine Bewertungen sind gespeichert und werden später übertragen.")
                case .failed(let message): Text(message)
                case .finished: Text("Toll gemacht! Für heute ist alles gelernt.")
                case .card(let card, let options):
                    Text(card.question).font(.title2)
                    if model.revealed {
                        Text(card.answer)
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
#endif

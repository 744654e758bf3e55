#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

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
#endif

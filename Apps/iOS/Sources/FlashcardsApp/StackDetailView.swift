#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

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
#endif

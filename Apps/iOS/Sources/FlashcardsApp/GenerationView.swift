#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

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
#endif

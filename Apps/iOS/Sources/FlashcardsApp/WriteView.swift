#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

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
#endif

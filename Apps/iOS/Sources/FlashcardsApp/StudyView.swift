#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

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
#endif

#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

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
#endif

#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

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
#endif

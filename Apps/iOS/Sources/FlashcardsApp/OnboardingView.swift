#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

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

#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

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
#endif

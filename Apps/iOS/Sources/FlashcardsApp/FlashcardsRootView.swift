#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

    /// Sign-in or the library, by the session. Every behaviour is in the models (FlashcardsAppCore).
    public struct FlashcardsRootView: View {
        @State private var session: SessionModel
        @State private var showsOnboarding = false

        /// The app for the server at `server`.
        public init(server: URL) {
            _session = State(initialValue: SessionModel(server: server, store: KeychainTokenStore()))
        }

        public var body: some View {
            if session.isSignedIn {
                TabView {
                    NavigationStack { HomeView(session: session) }.tabItem { Label("Start", systemImage: "house.fill") }
                    NavigationStack { StacksView(session: session) }
                        .tabItem { Label("Bibliothek", systemImage: "folder.fill") }
                }
                .sheet(isPresented: $showsOnboarding) { OnboardingView(model: OnboardingModel(client: session.client)) }
                .task { showsOnboarding = (try? await session.client.settings().onboarding.done) == false }
            } else {
                SignInView(session: session)
            }
        }
    }
#endif

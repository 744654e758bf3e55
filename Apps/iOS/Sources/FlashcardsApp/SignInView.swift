#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

    /// Mail and password, or a start as a guest.
    struct SignInView: View {
        let session: SessionModel
        @State private var mail = ""
        @State private var password = ""

        var body: some View {
            Form {
                Section("Anmelden") {
                    TextField("E-Mail-Adresse", text: $mail).textContentType(.username)
                    SecureField("Passwort", text: $password).textContentType(.password)
                    if let message = session.errorMessage { Text(message).foregroundStyle(.secondary) }
                    Button("Anmelden") { Task { await session.signIn(mail: mail, password: password) } }
                        .environment(\.isEnabled, !session.isWorking)
                }
                Section {
                    Button("Ohne Konto ausprobieren") { Task { await session.startAsGuest() } }
                        .environment(\.isEnabled, !session.isWorking)
                }
            }
        }
    }
#endif

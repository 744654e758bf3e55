#if canImport(SwiftUI)
    import FlashcardsAPI
    import FlashcardsAppCore
    import PhotosUI
    import SwiftUI

    /// Profile, goal, language, focus mode, reminder, leaderboard, password, deleting the account.
    struct SettingsView: View {
        let session: SessionModel
        @State private var model: SettingsModel
        @State private var name = ""
        @State private var current = ""
        @State private var new = ""
        @State private var repeated = ""
        @State private var deletePassword = ""

        init(session: SessionModel) {
            self.session = session
            _model = State(initialValue: SettingsModel(session: session))
        }

        var body: some View {
            Form {
                switch model.state {
                case .idle, .loading: ProgressView("Lädt …")
                case .failed(let message): Text(message)
                case .loaded(let settings):
                    Section("Profil") {
                        TextField("Name", text: $name).onSubmit { Task { await model.updateProfile(name: name) } }
                        Text(model.user?.timeZone ?? "")
                    }
                    Section("Lernen") {
                        Stepper(
                            "Tagesziel: \(settings.dailyGoal) Karten",
                            onIncrement: { Task { await model.setDailyGoal(settings.dailyGoal + 5) } },
                            onDecrement: { Task { await model.setDailyGoal(max(1, settings.dailyGoal - 5)) } })
                        Toggle(
                            "Fokusmodus",
                            isOn: Binding(
                                get: { settings.focusMode }, set: { on in Task { await model.setFocusMode(on) } }))
                        Toggle(
                            "Erinnerung um \(settings.reminderTime)",
                            isOn: Binding(
                                get: { settings.remindersEnabled },
                                set: { on in Task { await model.setReminder(enabled: on) } }))
                        Toggle(
                            "In Bestenlisten erscheinen",
                            isOn: Binding(
                                get: { settings.leaderboardOptIn },
                                set: { on in Task { await model.setLeaderboardOptIn(on) } }))
                        Picker(
                            "Sprache",
                            selection: Binding(
                                get: { settings.language }, set: { value in Task { await model.setLanguage(value) } })
                        ) {
                            Text("Deutsch").tag("de")
                            Text("English").tag("en")
                        }
                    }
                    if !(model.user?.isGuest ?? false) {
                        if model.user?.passwordSet == false {
                            // An account a provider's sign-in made: its first password, no current one.
                            Section {
                                SecureField("Eigenes Passwort", text: $new)
                                SecureField("Passwort wiederholen", text: $repeated)
                                Button("Passwort festlegen") {
                                    Task { await model.setPassword(new: new, repeated: repeated) }
                                }
                            } header: {
                                Text("Passwort festlegen")
                            } footer: {
                                Text(
                                    "Du meldest dich bisher nur über einen Anbieter an. Mit einem eigenen Passwort geht es auch mit deiner E-Mail-Adresse."
                                )
                            }
                        } else {
                            Section("Passwort ändern") {
                                SecureField("Bisheriges Passwort", text: $current)
                                SecureField("Neues Passwort", text: $new)
                                SecureField("Neues Passwort wiederholen", text: $repeated)
                                Button("Passwort ändern") {
                                    Task { await model.changePassword(current: current, new: new, repeated: repeated) }
                                }
                            }
                        }
                    }
                    Section("Konto löschen") {
                        if !(model.user?.isGuest ?? false) { SecureField("Passwort", text: $deletePassword) }
                        Button("Konto und alle Daten löschen", role: .destructive) {
                            Task { await model.deleteAccount(password: deletePassword) }
                        }
                    }
                }
                if let message = model.errorMessage { Text(message).foregroundStyle(.red) }
                if let message = model.confirmation { Text(message).foregroundStyle(.secondary) }
            }
            .navigationTitle("Einstellungen")
            .environment(\.isEnabled, !model.isWorking)
            .task {
                await model.load()
                name = model.user?.name ?? ""
            }
        }
    }
#endif

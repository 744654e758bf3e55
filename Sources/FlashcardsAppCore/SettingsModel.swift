import FlashcardsAPI
import FlashcardsClient
import FlashcardsCore
import Foundation
import Observation

/// The settings screen: profile (name, time zone), password, language, daily goal, focus mode,
/// reminder, leaderboard opt-in, and deleting the account. Each change is sent when made and the
/// screen shows the server's answer; a refused change leaves the shown values as they were.
@MainActor @Observable
public final class SettingsModel {
    /// The learner's settings as the server keeps them, or why they could not be loaded.
    public private(set) var state: LoadState<SettingsDTO> = .idle
    /// The signed-in account (name, mail, time zone).
    public private(set) var user: UserDTO?
    /// Why the last change failed; nil after a success.
    public private(set) var errorMessage: String?
    /// What the last change achieved, for a short confirmation ("Gespeichert.").
    public private(set) var confirmation: String?
    /// A change is being sent.
    public private(set) var isWorking = false

    private let session: SessionModel
    private var client: FlashcardsClient { session.client }

    /// The settings of `session`'s account.
    public init(session: SessionModel) {
        self.session = session
        user = session.user
    }

    /// Loads the account and its settings.
    public func load() async {
        state = .loading
        do {
            async let settings = client.settings()
            async let me = client.me()
            let (loaded, account) = try await (settings, me)
            user = account
            state = .loaded(loaded)
        } catch {
            state = .failed(UserFacingError.message(for: error))
        }
    }

    /// Changes name and/or time zone (an IANA name such as `Europe/Berlin`).
    public func updateProfile(name: String? = nil, timeZone: String? = nil) async {
        if let name, name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            fail("Der Name darf nicht leer sein.")
            return
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            fail("Diese Zeitzone kennen wir nicht.")
            return
        }
        await send {
            let account = try await self.client.updateMe(name: name, timeZone: timeZone)
            self.user = account
            self.session.accountChanged(account)
        }
    }

    /// Changes the daily goal (1 … 500 cards).
    public func setDailyGoal(_ goal: Int) async {
        guard (1...500).contains(goal) else {
            fail("Das Tagesziel liegt zwischen 1 und 500 Karten.")
            return
        }
        await update(UpdateSettingsRequest(dailyGoal: goal))
    }

    /// Switches the interface language (`de` or `en`).
    public func setLanguage(_ language: String) async {
        guard ["de", "en"].contains(language) else {
            fail("Diese Sprache gibt es noch nicht.")
            return
        }
        await update(UpdateSettingsRequest(language: language))
    }

    /// Focus mode hides XP, levels, streaks, challenges, the box, achievements and leaderboards.
    public func setFocusMode(_ on: Bool) async { await update(UpdateSettingsRequest(focusMode: on)) }

    /// "Spielelemente": off keeps levels, XP, challenges, the box, achievements and the leaderboard
    /// out of sight even once earned.
    public func setGameElements(_ on: Bool) async { await update(UpdateSettingsRequest(gameElements: on)) }

    /// Load balancing: a rating's next day is chosen within its leeway by how many cards are due then,
    /// the weekday's weight and the card's siblings (on by default).
    public func setLoadBalancing(_ on: Bool) async { await update(UpdateSettingsRequest(loadBalancing: on)) }

    /// Sets how much `weekday` (0 Monday … 6 Sunday) should get, keeping the other days.
    public func setEasyDay(_ weekday: Int, to day: EasyDay) async {
        guard (0..<7).contains(weekday), case .loaded(let settings) = state else {
            fail("Diesen Wochentag gibt es nicht.")
            return
        }
        var days = settings.easyDays
        days[weekday] = day
        await update(UpdateSettingsRequest(easyDays: days.map(\.rawValue)))
    }

    /// Daily names on the leaderboards (off unless the learner turns it on).
    public func setLeaderboardOptIn(_ on: Bool) async { await update(UpdateSettingsRequest(leaderboardOptIn: on)) }

    /// The gentle daily reminder: on or off, at `time` (`HH:MM` in the learner's time zone).
    public func setReminder(enabled: Bool, time: String? = nil) async {
        if let time, !Self.isClockTime(time) {
            fail("Gib die Uhrzeit als HH:MM an, zum Beispiel 18:30.")
            return
        }
        await update(UpdateSettingsRequest(remindersEnabled: enabled, reminderTime: time))
    }

    /// Changes the password. The server ends every session on a change, so the model signs in
    /// again with the new password; the learner stays signed in.
    public func changePassword(current: String, new: String, repeated: String) async {
        guard !current.isEmpty else { return fail("Gib dein bisheriges Passwort ein.") }
        guard new.count >= 8 else { return fail("Das neue Passwort muss mindestens 8 Zeichen lang sein.") }
        guard new == repeated else { return fail("Die beiden neuen Passwörter stimmen nicht überein.") }
        guard let mail = user?.mail ?? session.user?.mail else { return }
        await send(done: "Dein Passwort wurde geändert.") {
            try await self.client.changePassword(current: current, new: new)
            await self.session.signIn(mail: mail, password: new)
        }
    }

    /// Sets the first password of an account a provider's sign-in made (`UserDTO.passwordSet`
    /// false); the server takes it within 10 minutes of signing in. It ends every session, so the
    /// model signs in again with the new password, as after a change.
    public func setPassword(new: String, repeated: String) async {
        guard new.count >= 8 else { return fail("Das neue Passwort muss mindestens 8 Zeichen lang sein.") }
        guard new == repeated else { return fail("Die beiden neuen Passwörter stimmen nicht überein.") }
        guard let mail = user?.mail ?? session.user?.mail else { return }
        await send(done: "Dein Passwort ist festgelegt. Du kannst dich jetzt auch damit anmelden.") {
            try await self.client.setPassword(new)
            await self.session.signIn(mail: mail, password: new)
            // The screen shows "Passwort ändern" from now on.
            self.user = self.session.user ?? self.user
        }
    }

    /// Deletes the account and everything in it, then signs out. A guest has no password; everyone
    /// else confirms with theirs.
    public func deleteAccount(password: String?) async {
        let isGuest = user?.isGuest ?? session.user?.isGuest ?? false
        if !isGuest && (password ?? "").isEmpty {
            return fail("Bestätige das Löschen mit deinem Passwort.")
        }
        await send {
            try await self.client.deleteAccount(password: isGuest ? nil : password)
            self.session.accountDeleted()
        }
    }

    /// Whether `text` is a time of day written `HH:MM`.
    static func isClockTime(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]),
            let minute = Int(parts[1])
        else { return false }
        return (0..<24).contains(hour) && (0..<60).contains(minute)
    }

    private func update(_ change: UpdateSettingsRequest) async {
        await send { self.state = .loaded(try await self.client.updateSettings(change)) }
    }

    private func send(done: String = "Gespeichert.", _ change: @escaping () async throws -> Void) async {
        isWorking = true
        defer { isWorking = false }
        do {
            try await change()
            errorMessage = nil
            confirmation = done
        } catch {
            fail(UserFacingError.message(for: error))
        }
    }

    private func fail(_ message: String) {
        errorMessage = message
        confirmation = nil
    }
}

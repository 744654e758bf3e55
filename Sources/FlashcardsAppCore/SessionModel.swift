import FlashcardsAPI
import FlashcardsClient
import Foundation
import Observation

/// Signing in and out (the sign-in screen and the account's sign-out): the token goes to the
/// ``TokenStore`` (the Keychain on iOS) and comes back on the next launch.
@MainActor @Observable
public final class SessionModel {
    /// The signed-in user; nil when signed out.
    public private(set) var user: UserDTO?
    /// A request is running (the screen disables its buttons).
    public private(set) var isWorking = false
    /// Why the last attempt failed, for the learner; nil after a success.
    public private(set) var errorMessage: String?
    /// The SDK client for the server, with the session's token.
    public private(set) var client: FlashcardsClient

    private let store: any TokenStore

    /// Restores the stored session for `server`, if there is one (a session of another server is
    /// not used).
    public init(server: URL, store: any TokenStore) {
        self.store = store
        let stored = store.load().flatMap { $0.server == server ? $0 : nil }
        client = FlashcardsClient(baseURL: server, token: stored?.token)
        user = stored?.user
    }

    /// Whether someone is signed in.
    public var isSignedIn: Bool { user != nil }

    /// Signs in with mail and password.
    public func signIn(mail: String, password: String) async {
        let mail = mail.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !mail.isEmpty, !password.isEmpty else {
            errorMessage = "Bitte gib deine E-Mail-Adresse und dein Passwort ein."
            return
        }
        await run { try await self.client.login(mail: mail, password: password) }
    }

    /// Creates an account and signs in.
    public func signUp(name: String, mail: String, password: String, timeZone: String = TimeZone.current.identifier)
        async
    {
        guard password.count >= 8 else {
            errorMessage = "Das Passwort muss mindestens 8 Zeichen lang sein."
            return
        }
        await run {
            try await self.client.signup(name: name, mail: mail, password: password, timeZone: timeZone)
        }
    }

    /// Starts without an account (a guest; securing it later keeps everything).
    public func startAsGuest(timeZone: String = TimeZone.current.identifier) async {
        await run { try await self.client.startAsGuest(timeZone: timeZone) }
    }

    /// Signs out: the server revokes the token, the store forgets it. Offline, the token is
    /// forgotten here all the same (it expires on its own).
    public func signOut() async {
        isWorking = true
        defer { isWorking = false }
        try? await client.signOut()
        client.logout()
        try? store.clear()
        user = nil
        errorMessage = nil
    }

    /// The session ended on the server (a 401 anywhere): back to the sign-in screen.
    public func sessionExpired() {
        forget(saying: "Deine Sitzung ist abgelaufen. Bitte melde dich erneut an.")
    }

    /// The account was deleted: nothing to revoke, everything to forget.
    func accountDeleted() {
        forget(saying: nil)
    }

    /// The account's name or time zone changed: the stored session shows the new one.
    func accountChanged(_ account: UserDTO) {
        user = account
        if let token = client.token {
            try? store.save(StoredSession(server: client.baseURL, token: token, user: account))
        }
    }

    private func forget(saying message: String?) {
        client.logout()
        try? store.clear()
        user = nil
        errorMessage = message
    }

    private func run(_ request: @escaping () async throws -> AuthResponse) async {
        isWorking = true
        defer { isWorking = false }
        do {
            let auth = try await request()
            client.token = auth.token
            try store.save(StoredSession(server: client.baseURL, token: auth.token, user: auth.user))
            user = auth.user
            errorMessage = nil
        } catch {
            errorMessage = UserFacingError.message(for: error)
        }
    }
}

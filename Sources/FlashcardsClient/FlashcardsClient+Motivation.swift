import FlashcardsAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Progress without pressure (issue 18): guest accounts, settings, the home screen's progress,
// rest days, the mystery box, the daily leaderboard and Web Push subscriptions.
extension FlashcardsClient {
    /// Starts with a guest account (no mail or password); keeps its token.
    @discardableResult
    public func startAsGuest(timeZone: String? = nil, language: String? = nil) async throws -> AuthResponse {
        let response = try await transport.send(
            AuthResponse.self, Endpoint.V1.guest, body: .json(GuestRequest(timeZone: timeZone, language: language)))
        token = response.token
        return response
    }

    /// Gives the guest account a mail and a password; every stack stays. Keeps the new token (the
    /// guest's token stops working).
    @discardableResult
    public func upgradeGuest(name: String? = nil, mail: String, password: String) async throws -> AuthResponse {
        let response = try await transport.send(
            AuthResponse.self, Endpoint.V1.upgradeGuest,
            body: .json(UpgradeGuestRequest(name: name, mail: mail, password: password)))
        token = response.token
        return response
    }

    /// Revokes the token on the server, then forgets it (``logout()`` only forgets it).
    public func signOut() async throws {
        _ = try await transport.send(Endpoint.V1.logout)
        logout()
    }

    /// The learner's settings.
    public func settings() async throws -> SettingsDTO {
        try await transport.send(SettingsDTO.self, Endpoint.V1.settings)
    }

    /// Changes the settings named in `change`.
    public func updateSettings(_ change: UpdateSettingsRequest) async throws -> SettingsDTO {
        try await transport.send(SettingsDTO.self, Endpoint.V1.updateSettings, body: .json(change))
    }

    /// The home screen: today's goal, level, streak, challenges, box and achievements.
    public func progress() async throws -> ProgressDTO {
        try await transport.send(ProgressDTO.self, Endpoint.V1.progress)
    }

    /// Marks (`true`) or unmarks a rest day, `YYYY-MM-DD`.
    public func setRestDay(_ date: String, _ rest: Bool) async throws {
        _ = try await transport.send(rest ? Endpoint.V1.addRestDay : Endpoint.V1.removeRestDay, date)
    }

    /// Opens today's mystery box (all three challenges must be done).
    public func openMysteryBox() async throws -> OpenBoxResponse {
        try await transport.send(OpenBoxResponse.self, Endpoint.V1.openMysteryBox)
    }

    /// Today's leaderboard: `cards` or `topics`.
    public func dailyLeaderboard(metric: String = "cards") async throws -> LeaderboardDTO {
        try await transport.send(
            LeaderboardDTO.self, Endpoint.V1.dailyLeaderboard, query: [URLQueryItem(name: "metric", value: metric)])
    }

    /// The server's VAPID public key, the browser's `applicationServerKey`.
    public func pushKey() async throws -> PushKeyDTO {
        try await transport.send(PushKeyDTO.self, Endpoint.V1.pushKey)
    }

    /// Registers a push subscription for reminders.
    public func addPushSubscription(_ subscription: PushSubscriptionRequest) async throws {
        _ = try await transport.send(Endpoint.V1.addPushSubscription, body: .json(subscription))
    }

    /// Removes a push subscription.
    public func removePushSubscription(endpoint: String) async throws {
        _ = try await transport.send(
            Endpoint.V1.removePushSubscription, body: .json(DeletePushSubscriptionRequest(endpoint: endpoint)))
    }
}

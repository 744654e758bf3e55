import Crypto
import FlashcardsCore
import Fluent
import Foundation
import Vapor

/// Sign-in with OpenID Connect (docs/oidc.md): starts a sign-in at a provider, takes the learner
/// back, and finds, links or makes the account.
///
/// - A provider's subject already linked signs in to its account.
/// - Otherwise the provider's e-mail address must be verified. When an account has that address, the
///   learner confirms the link with the account's password (never by the address alone, which a
///   provider may let anyone claim). When none has, a new account is made, without a password.
/// - The browser never carries a token in a URL: the callback hands it a one-time code (two minutes)
///   that the web app exchanges for its session.
struct OIDCService {
    let context: ServiceContext
    let clients: [String: OIDCProviderClient]
    let publicURL: URL

    /// How long a started sign-in waits for the provider.
    static let loginLifetime: TimeInterval = 600
    /// How long a finished sign-in's code works.
    static let resultLifetime: TimeInterval = 120

    private var store: IdentityStore { context.store.identities }

    func client(_ id: String) throws -> OIDCProviderClient {
        guard let client = clients[id] else {
            throw AppError.notFound(
                "Diese Anmeldung ist auf diesem Server nicht eingerichtet.", code: "oidc_provider_unknown")
        }
        return client
    }

    func redirectURI(_ provider: String) -> String {
        publicURL.absoluteString.trimmingSuffix("/") + "/api/v1/auth/oidc/\(provider)/callback"
    }

    /// The provider's address to send the browser to: a new state, nonce and PKCE verifier kept for
    /// ten minutes.
    func start(provider: String) async throws -> String {
        let client = try client(provider)
        let state = RandomToken.make()
        let nonce = RandomToken.make()
        let verifier = RandomToken.make()
        let challenge = Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
        let url = try await client.authorizationURL(
            redirectURI: redirectURI(provider), state: state, nonce: nonce, challenge: challenge)
        try await store.addLogin(
            id: context.uuid(), stateHash: RandomToken.hash(state), provider: provider, nonce: nonce,
            verifier: verifier, expiresAt: context.now.addingTimeInterval(Self.loginLifetime))
        return url
    }

    /// The provider sent the learner back: checks everything and returns the one-time code for the
    /// web app. `appleUser` is the JSON Apple posts with a learner's first sign-in (their name).
    func finish(provider: String, code: String?, state: String?, error: String?, appleUser: String?) async throws
        -> String
    {
        let client = try client(provider)
        // The state first: a callback this server did not start is refused whatever it says.
        guard let state, RandomToken.isWellFormed(state),
            let started = try await store.spendLogin(stateHash: RandomToken.hash(state), now: context.now),
            started.provider == provider
        else { throw OIDCFailure.stateInvalid }
        if error != nil { throw OIDCFailure.accessDenied }
        guard let code, !code.isEmpty, code.count <= 2_048 else { throw OIDCFailure.exchangeFailed }
        let token = try await client.idToken(
            code: code, verifier: started.verifier, redirectURI: redirectURI(provider), now: context.now)
        let identity = try await client.verify(idToken: token, nonce: started.nonce, now: context.now)
        var userId = try await store.user(provider: provider, subject: identity.subject)
        var linkUserId: UUID?
        if userId == nil {
            guard let mail = identity.mail else { throw OIDCFailure.mailMissing }
            guard identity.mailVerified else { throw OIDCFailure.mailUnverified }
            let key = UserModel.key(forMail: mail)
            if let existing = try await UserModel.query(on: context.db).filter(\.$mailKey == key).first() {
                linkUserId = try existing.requireID()
            } else {
                userId = try await makeAccount(
                    provider: provider, identity: identity, mail: mail, name: Self.appleName(appleUser))
            }
        }
        let oneTime = RandomToken.make()
        try await store.addResult(
            id: context.uuid(), codeHash: RandomToken.hash(oneTime), provider: provider, subject: identity.subject,
            mail: identity.mail, userId: userId, linkUserId: linkUserId,
            expiresAt: context.now.addingTimeInterval(Self.resultLifetime))
        return oneTime
    }

    /// A new account for a provider's learner: its name (or the address's local part), the verified
    /// address, a password nobody knows, linked to the subject.
    private func makeAccount(provider: String, identity: OIDCIdentity, mail: String, name: String?) async throws -> UUID
    {
        let mail = try Validate.mail(mail)
        let fallback = String(mail.prefix { $0 != "@" })
        let chosen = (name ?? identity.name ?? fallback).trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = String((chosen.isEmpty ? fallback : chosen).prefix(TextLimits.userName))
        let user = UserModel(
            id: context.uuid(), name: shown, mail: mail,
            passwordHash: try await context.passwords.hash(RandomToken.make()),
            timeZone: context.configuration.defaultTimeZone, createdAt: context.now)
        user.passwordSet = false
        do {
            try await user.create(on: context.db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw AppError.userAlreadyExists
        }
        let id = try user.requireID()
        _ = try await store.link(
            id: context.uuid(), userId: id, provider: provider, subject: identity.subject, mail: mail,
            now: context.now)
        return id
    }

    /// What a finished sign-in's code gives: the account, or the address of the account the
    /// learner must confirm the link to with its password.
    enum Outcome {
        case signedIn(UserModel)
        case linkRequired(mail: String, provider: String)
    }

    func session(code: String) async throws -> Outcome {
        let hash = try Self.codeHash(code)
        guard let result = try await store.result(codeHash: hash, now: context.now) else {
            throw OIDCFailure.stateInvalid
        }
        if let userId = result.user_id {
            guard try await store.spendResult(codeHash: hash),
                let user = try await UserModel.find(userId, on: context.db)
            else { throw OIDCFailure.stateInvalid }
            return .signedIn(user)
        }
        guard let linkUserId = result.link_user_id, let user = try await UserModel.find(linkUserId, on: context.db)
        else { throw OIDCFailure.stateInvalid }
        return .linkRequired(mail: user.mail, provider: result.provider)
    }

    /// Links the provider to the account its address matched, once the learner gave the account's
    /// password (counted by the login limits like a login).
    func link(code: String, password: String) async throws -> UserModel {
        let hash = try Self.codeHash(code)
        guard let result = try await store.result(codeHash: hash, now: context.now),
            let linkUserId = result.link_user_id,
            let user = try await UserModel.find(linkUserId, on: context.db)
        else { throw OIDCFailure.stateInvalid }
        let confirmed = try await AccountService(context: context).login(mail: user.mail, password: password)
        guard try confirmed.requireID() == linkUserId, try await store.spendResult(codeHash: hash) else {
            throw OIDCFailure.stateInvalid
        }
        guard
            try await store.link(
                id: context.uuid(), userId: linkUserId, provider: result.provider, subject: result.subject,
                mail: result.mail, now: context.now)
        else {
            throw AppError.conflict("Dieses Konto beim Anbieter ist schon mit einem anderen Konto verbunden.")
        }
        return user
    }

    private static func codeHash(_ code: String) throws -> String {
        guard RandomToken.isWellFormed(code) else { throw OIDCFailure.stateInvalid }
        return RandomToken.hash(code)
    }

    /// The name in Apple's `user` JSON (`{"name":{"firstName":…,"lastName":…},…}`), sent with a
    /// learner's first sign-in only.
    static func appleName(_ json: String?) -> String? {
        guard let data = json?.data(using: .utf8), data.count <= 4_096,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let name = object["name"] as? [String: Any]
        else { return nil }
        let parts = [name["firstName"] as? String, name["lastName"] as? String].compactMap { $0 }
        let joined = parts.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return joined.isEmpty ? nil : joined
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

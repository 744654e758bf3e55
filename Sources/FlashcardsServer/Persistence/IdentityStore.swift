import Fluent
import Foundation
import SQLKit

/// The statements of sign-in with OpenID Connect (`OIDCService`): linked identities, started
/// sign-ins (spent once by their state) and finished ones (fetched once by their code). Secrets
/// are stored as SHA-256 hashes only.
struct IdentityStore {
    let sql: any SQLDatabase

    struct Identity: Decodable {
        let provider: String
        let subject: String
        let mail: String?
        let created_at: Date
    }

    /// The account a provider's subject is linked to.
    func user(provider: String, subject: String) async throws -> UUID? {
        struct Row: Decodable { let user_id: UUID }
        return try await sql.raw(
            "SELECT user_id FROM user_identities WHERE provider = \(bind: provider) AND subject = \(bind: subject)"
        ).first(decoding: Row.self)?.user_id
    }

    /// Links a provider's subject to an account; false when the subject was already linked.
    func link(id: UUID, userId: UUID, provider: String, subject: String, mail: String?, now: Date) async throws -> Bool
    {
        do {
            try await sql.insert(into: "user_identities")
                .columns("id", "user_id", "provider", "subject", "mail", "created_at")
                .values(
                    SQLBind(id), SQLBind(userId), SQLBind(provider), SQLBind(subject), SQLBind(mail), SQLBind(now)
                )
                .run()
            return true
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return false
        }
    }

    /// The account's linked providers, oldest first.
    func identities(of userId: UUID) async throws -> [Identity] {
        try await sql.raw(
            """
            SELECT provider, subject, mail, created_at FROM user_identities WHERE user_id = \(bind: userId)
            ORDER BY created_at, provider
            """
        ).all(decoding: Identity.self)
    }

    /// Removes the account's link to `provider`; false when there was none.
    func unlink(_ userId: UUID, provider: String) async throws -> Bool {
        struct Row: Decodable { let id: UUID }
        return try await sql.raw(
            "DELETE FROM user_identities WHERE user_id = \(bind: userId) AND provider = \(bind: provider) RETURNING id"
        ).first(decoding: Row.self) != nil
    }

    // MARK: Started sign-ins

    struct StartedLogin: Decodable {
        let provider: String
        let nonce: String
        let verifier: String
    }

    func addLogin(id: UUID, stateHash: String, provider: String, nonce: String, verifier: String, expiresAt: Date)
        async throws
    {
        try await sql.insert(into: "oidc_logins")
            .columns("id", "state_hash", "provider", "nonce", "verifier", "expires_at")
            .values(
                SQLBind(id), SQLBind(stateHash), SQLBind(provider), SQLBind(nonce), SQLBind(verifier),
                SQLBind(expiresAt)
            )
            .run()
    }

    /// Takes the started sign-in of a state, once: a replayed or expired state finds nothing.
    /// Expired ones are cleared on the way.
    func spendLogin(stateHash: String, now: Date) async throws -> StartedLogin? {
        try await sql.raw("DELETE FROM oidc_logins WHERE expires_at <= \(bind: now)").run()
        return try await sql.raw(
            """
            DELETE FROM oidc_logins WHERE state_hash = \(bind: stateHash) AND expires_at > \(bind: now)
            RETURNING provider, nonce, verifier
            """
        ).first(decoding: StartedLogin.self)
    }

    // MARK: Finished sign-ins

    struct Result: Decodable {
        let provider: String
        let subject: String
        let mail: String?
        let user_id: UUID?
        let link_user_id: UUID?
    }

    func addResult(
        id: UUID, codeHash: String, provider: String, subject: String, mail: String?, userId: UUID?,
        linkUserId: UUID?, expiresAt: Date
    ) async throws {
        try await sql.insert(into: "oidc_results")
            .columns("id", "code_hash", "provider", "subject", "mail", "user_id", "link_user_id", "expires_at")
            .values(
                SQLBind(id), SQLBind(codeHash), SQLBind(provider), SQLBind(subject), SQLBind(mail), SQLBind(userId),
                SQLBind(linkUserId), SQLBind(expiresAt)
            )
            .run()
    }

    /// A finished sign-in by its code's hash, while it has not expired.
    func result(codeHash: String, now: Date) async throws -> Result? {
        try await sql.raw("DELETE FROM oidc_results WHERE expires_at <= \(bind: now)").run()
        return try await sql.raw(
            """
            SELECT provider, subject, mail, user_id, link_user_id FROM oidc_results
            WHERE code_hash = \(bind: codeHash) AND expires_at > \(bind: now)
            """
        ).first(decoding: Result.self)
    }

    /// Spends a finished sign-in; false when another request spent it first.
    func spendResult(codeHash: String) async throws -> Bool {
        struct Row: Decodable { let id: UUID }
        return try await sql.raw("DELETE FROM oidc_results WHERE code_hash = \(bind: codeHash) RETURNING id")
            .first(decoding: Row.self) != nil
    }
}

extension StudyStore {
    /// Sign-in with OpenID Connect's statements (through the driver).
    var identities: IdentityStore { IdentityStore(sql: db.sql) }
}

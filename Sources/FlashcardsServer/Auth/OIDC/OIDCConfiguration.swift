import Foundation

/// One OpenID Connect provider learners can sign in with (docs/oidc.md), from the environment:
///
///     FLASHCARDS_OIDC_PROVIDERS=school,google
///     FLASHCARDS_OIDC_SCHOOL_ISSUER=https://login.example-school.de/realms/schule
///     FLASHCARDS_OIDC_SCHOOL_CLIENT_ID=flashcards
///     FLASHCARDS_OIDC_SCHOOL_CLIENT_SECRET=…
///     FLASHCARDS_OIDC_SCHOOL_NAME=Schul-Login
///
/// Optional per provider: `_SCOPES` (default `openid email profile`), `_RESPONSE_MODE` (`query` or
/// `form_post`). Apple's variant has no fixed secret but `_APPLE_TEAM_ID`, `_APPLE_KEY_ID` and
/// `_APPLE_PRIVATE_KEY_FILE` (the `.p8` key), from which each token request signs its own secret.
public struct OIDCProviderConfiguration: Sendable, Equatable {
    /// How the client proves itself at the token endpoint.
    public enum ClientAuthentication: Sendable, Equatable {
        /// A fixed secret, sent as HTTP basic authentication (`client_secret_basic`).
        case secret(String)
        /// Apple: an ES256 JWT signed with the team's key, sent as `client_secret` in the body.
        case appleSignedSecret(teamID: String, keyID: String, privateKeyPEM: String)
    }

    /// The id in URLs and settings (`school`): lower-case letters, digits and `-`.
    public var id: String
    /// What the sign-in button says (`Schul-Login`, `Google`).
    public var name: String
    /// The issuer; its discovery document is at `<issuer>/.well-known/openid-configuration`.
    public var issuer: String
    public var clientID: String
    public var authentication: ClientAuthentication
    public var scopes: String = "openid email profile"
    /// `query` (default) or `form_post` (Apple's, and Apple's only way with a `name` or `email` scope).
    public var responseMode: String = "query"

    /// The providers named in `FLASHCARDS_OIDC_PROVIDERS`, each fully configured, or an error that
    /// names the missing or malformed key.
    static func load(from values: [String: String], publicURL: URL?) throws -> [OIDCProviderConfiguration] {
        func string(_ key: String) -> String? {
            guard let value = values[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        guard let list = string("FLASHCARDS_OIDC_PROVIDERS") else { return [] }
        guard publicURL != nil else {
            throw ConfigurationError(
                "FLASHCARDS_OIDC_PROVIDERS needs FLASHCARDS_PUBLIC_URL: providers send learners back to <public URL>/api/v1/auth/oidc/<id>/callback"
            )
        }
        var providers: [OIDCProviderConfiguration] = []
        for raw in list.split(separator: ",") {
            let id = raw.trimmingCharacters(in: .whitespaces).lowercased()
            guard !id.isEmpty, id.count <= 32,
                id.allSatisfy({ ($0.isLetter && $0.isASCII) || $0.isNumber || $0 == "-" }),
                !providers.contains(where: { $0.id == id })
            else {
                throw ConfigurationError(
                    "FLASHCARDS_OIDC_PROVIDERS: '\(id)' must be a new id of letters, digits and '-' (at most 32)")
            }
            let prefix = "FLASHCARDS_OIDC_" + id.uppercased().replacingOccurrences(of: "-", with: "_") + "_"
            func required(_ key: String) throws -> String {
                guard let value = string(prefix + key) else { throw ConfigurationError("\(prefix + key) is missing") }
                return value
            }
            let issuer = try required("ISSUER")
            guard let url = URL(string: issuer),
                url.scheme == "https" || url.host == "127.0.0.1" || url.host == "localhost",
                url.host != nil
            else {
                throw ConfigurationError("\(prefix)ISSUER must be an https URL (http only for 127.0.0.1 or localhost)")
            }
            let authentication: ClientAuthentication
            if let team = string(prefix + "APPLE_TEAM_ID") {
                let file = try required("APPLE_PRIVATE_KEY_FILE")
                guard let pem = try? String(contentsOfFile: file, encoding: .utf8), pem.contains("PRIVATE KEY") else {
                    throw ConfigurationError("\(prefix)APPLE_PRIVATE_KEY_FILE: '\(file)' is no readable .p8 key")
                }
                authentication = .appleSignedSecret(
                    teamID: team, keyID: try required("APPLE_KEY_ID"), privateKeyPEM: pem)
            } else {
                authentication = .secret(try required("CLIENT_SECRET"))
            }
            var provider = OIDCProviderConfiguration(
                id: id, name: string(prefix + "NAME") ?? id, issuer: issuer, clientID: try required("CLIENT_ID"),
                authentication: authentication)
            if let scopes = string(prefix + "SCOPES") {
                guard scopes.split(separator: " ").contains("openid") else {
                    throw ConfigurationError("\(prefix)SCOPES must contain openid")
                }
                provider.scopes = scopes
            }
            if let mode = string(prefix + "RESPONSE_MODE") {
                guard ["query", "form_post"].contains(mode) else {
                    throw ConfigurationError("\(prefix)RESPONSE_MODE must be query or form_post")
                }
                provider.responseMode = mode
            }
            providers.append(provider)
        }
        return providers
    }
}

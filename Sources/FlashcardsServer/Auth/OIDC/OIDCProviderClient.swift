import AsyncHTTPClient
import Crypto
import Foundation
import JWTKit
import NIOCore
import NIOHTTP1

/// Why a sign-in with a provider was refused; the code reaches the web app, which words it
/// (`oidc_<code>` in its strings).
enum OIDCFailure: String, Error, Sendable {
    /// Discovery, the keys or the token endpoint could not be reached or made no sense.
    case providerUnavailable = "provider_unavailable"
    /// The token endpoint refused the code (used, expired, another client's, a wrong verifier).
    case exchangeFailed = "exchange_failed"
    /// The ID token's signature does not verify with the provider's published keys (or it is unsigned).
    case signatureInvalid = "signature_invalid"
    case issuerInvalid = "issuer_invalid"
    /// The ID token was made for another client.
    case audienceInvalid = "audience_invalid"
    case tokenExpired = "token_expired"
    /// The ID token answers another sign-in than the one this browser started.
    case nonceInvalid = "nonce_invalid"
    /// The state is unknown, already used or expired: a replayed or forged callback.
    case stateInvalid = "state_invalid"
    /// The learner cancelled at the provider (or it refused).
    case accessDenied = "access_denied"
    /// The provider gave no e-mail address, or one it has not verified: no account can be made or linked.
    case mailMissing = "mail_missing"
    case mailUnverified = "mail_unverified"
}

/// What a verified ID token says of the learner.
struct OIDCIdentity: Sendable, Equatable {
    let subject: String
    let mail: String?
    let mailVerified: Bool
    let name: String?
}

/// One provider's protocol: discovery (cached for an hour), its signing keys (cached, fetched again
/// when a token names a key id they lack), the code exchange with PKCE and
/// the ID token's checks (signature RS256/ES256, issuer, audience, expiry, nonce).
actor OIDCProviderClient {
    let configuration: OIDCProviderConfiguration
    private let http: HTTPClient
    private var discovery: (document: Discovery, fetched: Date)?
    private var keys: (collection: JWTKeyCollection, kids: Set<String>, fetched: Date)?
    /// Key ids the keys were fetched again for in vain, and when.
    private var missingKids: [String: Date] = [:]

    struct Discovery: Decodable, Sendable {
        let issuer: String
        let authorization_endpoint: String
        let token_endpoint: String
        let jwks_uri: String
    }

    init(configuration: OIDCProviderConfiguration, http: HTTPClient) {
        self.configuration = configuration
        self.http = http
    }

    /// The provider's endpoints.
    func discovered(now: Date = Date()) async throws -> Discovery {
        if let discovery, now.timeIntervalSince(discovery.fetched) < 3_600 { return discovery.document }
        let base = configuration.issuer.hasSuffix("/") ? String(configuration.issuer.dropLast()) : configuration.issuer
        let data = try await get(base + "/.well-known/openid-configuration")
        guard let document = try? JSONDecoder().decode(Discovery.self, from: data),
            Self.sameIssuer(document.issuer, configuration.issuer)
        else { throw OIDCFailure.providerUnavailable }
        discovery = (document, now)
        return document
    }

    /// Where the learner's browser goes to sign in.
    func authorizationURL(redirectURI: String, state: String, nonce: String, challenge: String) async throws -> String {
        let document = try await discovered()
        guard var components = URLComponents(string: document.authorization_endpoint) else {
            throw OIDCFailure.providerUnavailable
        }
        var items = components.queryItems ?? []
        items += [
            .init(name: "response_type", value: "code"), .init(name: "client_id", value: configuration.clientID),
            .init(name: "redirect_uri", value: redirectURI), .init(name: "scope", value: configuration.scopes),
            .init(name: "state", value: state), .init(name: "nonce", value: nonce),
            .init(name: "code_challenge", value: challenge), .init(name: "code_challenge_method", value: "S256"),
        ]
        if configuration.responseMode != "query" {
            items.append(.init(name: "response_mode", value: configuration.responseMode))
        }
        components.queryItems = items
        // "+" in a query means a space to many servers: write it as %2B.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.string else { throw OIDCFailure.providerUnavailable }
        return url
    }

    /// Exchanges the code for the ID token (the access token is not kept: the server asks nothing more).
    func idToken(code: String, verifier: String, redirectURI: String, now: Date) async throws -> String {
        let document = try await discovered()
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", verifier), ("client_id", configuration.clientID),
        ]
        var request = HTTPClientRequest(url: document.token_endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        switch configuration.authentication {
        case .secret(let secret):
            let pair = Self.formEncode(configuration.clientID) + ":" + Self.formEncode(secret)
            request.headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        case .appleSignedSecret(let team, let keyID, let pem):
            form.append(
                (
                    "client_secret",
                    try await Self.appleClientSecret(
                        teamID: team, keyID: keyID, privateKeyPEM: pem, clientID: configuration.clientID,
                        audience: document.issuer, now: now)
                ))
        }
        request.body = .bytes(
            ByteBuffer(
                string: form.map { Self.formEncode($0.0) + "=" + Self.formEncode($0.1) }
                    .joined(separator: "&")))
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .seconds(10))
        } catch {
            throw OIDCFailure.providerUnavailable
        }
        let body = try await response.body.collect(upTo: 1 << 20)
        struct Tokens: Decodable { let id_token: String? }
        guard (200..<300).contains(response.status.code) else { throw OIDCFailure.exchangeFailed }
        guard let token = try? JSONDecoder().decode(Tokens.self, from: body).id_token else {
            throw OIDCFailure.providerUnavailable
        }
        return token
    }

    /// Checks an ID token and returns what it says of the learner.
    func verify(idToken: String, nonce: String, now: Date) async throws -> OIDCIdentity {
        let document = try await discovered(now: now)
        // Only the algorithms providers sign with; "none" and HMAC (with a public key as secret) never.
        guard let header = Self.header(of: idToken), ["RS256", "ES256"].contains(header.alg) else {
            throw OIDCFailure.signatureInvalid
        }
        let claims: IDTokenClaims
        do {
            claims = try await signed(idToken, kid: header.kid, now: now)
        } catch let failure as OIDCFailure {
            throw failure
        } catch {
            throw OIDCFailure.signatureInvalid
        }
        guard Self.sameIssuer(claims.iss, document.issuer) else { throw OIDCFailure.issuerInvalid }
        guard claims.aud.contains(configuration.clientID), claims.aud.count == 1 || claims.azp == configuration.clientID
        else { throw OIDCFailure.audienceInvalid }
        // A minute of leeway for clocks that differ.
        guard claims.exp.timeIntervalSince(now) > -60, claims.iat.map({ $0.timeIntervalSince(now) < 300 }) ?? true
        else {
            throw OIDCFailure.tokenExpired
        }
        guard let tokenNonce = claims.nonce,
            SHA256.hash(data: Data(tokenNonce.utf8)) == SHA256.hash(data: Data(nonce.utf8))
        else { throw OIDCFailure.nonceInvalid }
        let mail = claims.email?.trimmingCharacters(in: .whitespaces)
        return OIDCIdentity(
            subject: claims.sub, mail: mail?.isEmpty == false ? mail : nil, mailVerified: claims.emailVerified,
            name: claims.name)
    }

    /// The token's claims once its signature verifies with the provider's keys; the keys are fetched
    /// again once when the token names a key id they lack (the provider rotated its keys).
    /// (A key collection falls back to its first key for an unknown key id: the ids are checked here.)
    private func signed(_ token: String, kid: String?, now: Date) async throws -> IDTokenClaims {
        var (collection, kids) = try await signingKeys(now: now, refresh: false)
        if let kid, !kids.contains(kid) {
            // The token comes from the token endpoint itself, not from the browser; still, a key id
            // the provider does not publish is asked for at most once a minute.
            if let missed = missingKids[kid], now.timeIntervalSince(missed) < 60 { throw OIDCFailure.signatureInvalid }
            (collection, kids) = try await signingKeys(now: now, refresh: true)
            guard kids.contains(kid) else {
                missingKids[kid] = now
                throw OIDCFailure.signatureInvalid
            }
        }
        // Without a key id, each key is tried.
        return try await collection.verify(token, as: IDTokenClaims.self, iteratingKeys: kid == nil)
    }

    private func signingKeys(now: Date, refresh: Bool) async throws -> (JWTKeyCollection, Set<String>) {
        if !refresh, let keys { return (keys.collection, keys.kids) }
        let document = try await discovered(now: now)
        let data = try await get(document.jwks_uri)
        let collection = JWTKeyCollection()
        let kids: Set<String>
        do {
            let set = try JSONDecoder().decode(JWKS.self, from: data)
            try await collection.add(jwks: set)
            kids = Set(set.keys.compactMap { $0.keyIdentifier?.string })
        } catch {
            throw OIDCFailure.providerUnavailable
        }
        keys = (collection, kids, now)
        return (collection, kids)
    }

    private func get(_ url: String) async throws -> Data {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        do {
            let response = try await http.execute(request, timeout: .seconds(10))
            guard response.status == .ok else { throw OIDCFailure.providerUnavailable }
            return Data(buffer: try await response.body.collect(upTo: 1 << 20))
        } catch {
            throw OIDCFailure.providerUnavailable
        }
    }

    /// Issuers compare as written, but for a trailing slash.
    static func sameIssuer(_ a: String, _ b: String) -> Bool {
        func bare(_ s: String) -> String { s.hasSuffix("/") ? String(s.dropLast()) : s }
        return bare(a) == bare(b)
    }

    private static func header(of token: String) -> (alg: String, kid: String?)? {
        guard let first = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let data = Base64URL.decode(String(first)),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let alg = object["alg"] as? String
        else { return nil }
        return (alg, object["kid"] as? String)
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Apple's client secret: an ES256 JWT of the team, for the client, signed with the team's key,
    /// valid for five minutes.
    static func appleClientSecret(
        teamID: String, keyID: String, privateKeyPEM: String, clientID: String, audience: String, now: Date
    ) async throws -> String {
        struct Secret: JWTPayload {
            let iss: IssuerClaim
            let iat: IssuedAtClaim
            let exp: ExpirationClaim
            let aud: AudienceClaim
            let sub: SubjectClaim
            func verify(using algorithm: some JWTAlgorithm) async throws {}
        }
        let key: ES256PrivateKey
        do {
            key = try ES256PrivateKey(pem: privateKeyPEM)
        } catch {
            throw OIDCFailure.providerUnavailable
        }
        let collection = JWTKeyCollection()
        await collection.add(ecdsa: key, kid: JWKIdentifier(string: keyID))
        return try await collection.sign(
            Secret(
                iss: .init(value: teamID), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(300)),
                aud: .init(value: [audience]), sub: .init(value: clientID)),
            kid: JWKIdentifier(string: keyID))
    }
}

/// An ID token's claims. Its `verify` checks nothing: `OIDCProviderClient.verify` checks each claim
/// itself, so that each refusal has its own reason.
struct IDTokenClaims: JWTPayload {
    let iss: String
    let sub: String
    let aud: [String]
    let azp: String?
    let exp: Date
    let iat: Date?
    let nonce: String?
    let email: String?
    /// Apple sends `"true"`/`"false"` as strings.
    let emailVerified: Bool
    let name: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, azp, exp, iat, nonce, email, name
        case emailVerified = "email_verified"
        case givenName = "given_name"
        case familyName = "family_name"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        iss = try container.decode(String.self, forKey: .iss)
        sub = try container.decode(String.self, forKey: .sub)
        if let one = try? container.decode(String.self, forKey: .aud) {
            aud = [one]
        } else {
            aud = try container.decode([String].self, forKey: .aud)
        }
        azp = try container.decodeIfPresent(String.self, forKey: .azp)
        exp = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .exp))
        iat = try container.decodeIfPresent(Double.self, forKey: .iat).map(Date.init(timeIntervalSince1970:))
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        if let flag = try? container.decode(Bool.self, forKey: .emailVerified) {
            emailVerified = flag
        } else {
            emailVerified = (try? container.decode(String.self, forKey: .emailVerified)) == "true"
        }
        let given = try container.decodeIfPresent(String.self, forKey: .givenName)
        let family = try container.decodeIfPresent(String.self, forKey: .familyName)
        name =
            try container.decodeIfPresent(String.self, forKey: .name)
            ?? [given, family].compactMap { $0 }.joined(separator: " ").nilIfEmpty
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(iss, forKey: .iss)
        try container.encode(sub, forKey: .sub)
        try container.encode(aud, forKey: .aud)
        try container.encode(exp.timeIntervalSince1970, forKey: .exp)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}

// Web Push message encryption (RFC 8291, "aes128gcm" content coding of RFC 8188)
// and VAPID application-server authentication (RFC 8292, ES256 JWT).
//
// Self-contained: depends only on Foundation and swift-crypto's `Crypto`.
// Every type is a value type and `Sendable`; there is no global mutable state.

import Crypto
import Foundation

// MARK: - Errors

/// Everything that can go wrong while preparing a push message.
enum WebPushError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `field` ("p256dh", "auth", "vapidPrivateKey", ...) was not valid base64url.
    case invalidBase64URL(field: String)
    /// The subscription's `p256dh` did not decode to 65 bytes (an uncompressed P-256 point).
    case invalidPublicKeyLength(Int)
    /// The subscription's `p256dh` is 65 bytes but not an uncompressed point on P-256.
    case invalidPublicKeyPoint
    /// The subscription's `auth` secret did not decode to 16 bytes.
    case invalidAuthSecretLength(Int)
    /// The plaintext does not fit into the single record a push message may carry.
    case payloadTooLarge(size: Int, limit: Int)
    /// The record size is outside what RFC 8188 allows (18 ... 2^32-1).
    case invalidRecordSize(Int)
    /// An explicitly given salt was not 16 bytes.
    case invalidSaltLength(Int)
    /// The VAPID private key is not a valid 32-byte P-256 scalar (or PEM key).
    case invalidVAPIDPrivateKey
    /// The push endpoint has no http(s) scheme or no host, so no VAPID audience can be formed.
    case invalidEndpoint(String)
    /// The VAPID subject must be a `mailto:` or `https:` URI (RFC 8292 section 2.1).
    case invalidSubject(String)
    /// The requested VAPID expiration is not in the future.
    case expirationInPast

    var description: String {
        switch self {
        case .invalidBase64URL(let field):
            return "Web Push: \(field) is not valid base64url"
        case .invalidPublicKeyLength(let n):
            return "Web Push: p256dh must be a 65-byte uncompressed P-256 point, got \(n) bytes"
        case .invalidPublicKeyPoint:
            return "Web Push: p256dh is not an uncompressed point on the P-256 curve"
        case .invalidAuthSecretLength(let n):
            return "Web Push: auth secret must be 16 bytes, got \(n) bytes"
        case .payloadTooLarge(let size, let limit):
            return "Web Push: payload of \(size) bytes exceeds the limit of \(limit) bytes"
        case .invalidRecordSize(let rs):
            return "Web Push: record size \(rs) is invalid (must be 18 ... 4294967295)"
        case .invalidSaltLength(let n):
            return "Web Push: salt must be 16 bytes, got \(n) bytes"
        case .invalidVAPIDPrivateKey:
            return "VAPID: private key is not a valid P-256 private key"
        case .invalidEndpoint(let e):
            return "VAPID: push endpoint \(e) has no http(s) origin"
        case .invalidSubject(let s):
            return "VAPID: subject \(s) must be a mailto: or https: URI"
        case .expirationInPast:
            return "VAPID: expiration must be in the future"
        }
    }
}

// MARK: - Base64URL

/// base64url (RFC 4648 section 5). Encoding never pads; decoding accepts input with or
/// without `=` padding but rejects characters outside the URL-safe alphabet
/// (so standard-base64 `+` and `/` are refused).
enum Base64URL {
    static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var s = Data(bytes).base64EncodedString()
        s = s.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while s.hasSuffix("=") { s.removeLast() }
        return s
    }

    /// Returns nil when `string` is not base64url.
    static func decode(_ string: String) -> Data? {
        var chars = Array(string.utf8)
        var padding = 0
        while let last = chars.last, last == UInt8(ascii: "=") {
            chars.removeLast()
            padding += 1
        }
        if padding > 2 { return nil }
        if padding > 0 && (chars.count + padding) % 4 != 0 { return nil }
        if chars.count % 4 == 1 { return nil }
        for c in chars {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            default:
                return nil
            }
        }
        var standard = chars.map { c -> UInt8 in
            switch c {
            case UInt8(ascii: "-"): return UInt8(ascii: "+")
            case UInt8(ascii: "_"): return UInt8(ascii: "/")
            default: return c
            }
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard))
    }
}

// MARK: - Subscription keys

/// The `keys` of a browser's PushSubscription: the user agent's ECDH public key
/// (`p256dh`) and its authentication secret (`auth`), both base64url.
struct WebPushSubscriptionKeys: Sendable, Equatable {
    /// The user agent's P-256 public key.
    let publicKey: P256.KeyAgreement.PublicKey
    /// The same key as the 65-byte uncompressed point (0x04 || X || Y).
    let publicKeyBytes: Data
    /// The 16-byte authentication secret.
    let authSecret: Data

    init(p256dh: String, auth: String) throws {
        guard let point = Base64URL.decode(p256dh) else { throw WebPushError.invalidBase64URL(field: "p256dh") }
        guard let secret = Base64URL.decode(auth) else { throw WebPushError.invalidBase64URL(field: "auth") }
        try self.init(publicKeyBytes: point, authSecret: secret)
    }

    init(publicKeyBytes point: Data, authSecret secret: Data) throws {
        guard point.count == 65 else { throw WebPushError.invalidPublicKeyLength(point.count) }
        guard point.first == 0x04,
            let key = try? P256.KeyAgreement.PublicKey(x963Representation: point)
        else { throw WebPushError.invalidPublicKeyPoint }
        guard secret.count == 16 else { throw WebPushError.invalidAuthSecretLength(secret.count) }
        self.publicKey = key
        self.publicKeyBytes = Data(point)
        self.authSecret = Data(secret)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.publicKeyBytes == rhs.publicKeyBytes && lhs.authSecret == rhs.authSecret
    }
}

// MARK: - Encryption (RFC 8291 / RFC 8188)

enum WebPushCrypto {
    /// Value for the request's `Content-Encoding` header.
    static let contentEncoding = "aes128gcm"

    /// Size of the aes128gcm header Web Push uses:
    /// salt (16) + rs (4) + idlen (1) + keyid = uncompressed ephemeral public key (65).
    static let headerLength = 16 + 4 + 1 + 65

    /// Largest plaintext that can be sent: 3993 bytes.
    ///
    /// RFC 8291 section 4 only obliges push services to accept bodies of 4096 bytes,
    /// header included, and the message must be a single record. So:
    /// 4096 - 86 (header) - 16 (AES-GCM tag) - 1 (0x02 padding delimiter) = 3993.
    static let maxPlaintextLength = 4096 - headerLength - 16 - 1

    /// Encrypts `payload` for the subscription and returns the complete request body
    /// (aes128gcm header followed by one record).
    ///
    /// - Parameters:
    ///   - recordSize: the `rs` written into the header. The single record
    ///     (plaintext + 1 delimiter + 16 tag) must fit in it, and the plaintext is in any
    ///     case limited to `maxPlaintextLength`.
    ///   - ephemeralKey: the application server's one-time ECDH key; random when nil.
    ///     Only tests should pass one: reusing it with the same salt breaks confidentiality.
    ///   - salt: 16 random bytes when nil; same caveat.
    static func encrypt(
        payload: some DataProtocol,
        to keys: WebPushSubscriptionKeys,
        recordSize: Int = 4096,
        ephemeralKey: P256.KeyAgreement.PrivateKey? = nil,
        salt: [UInt8]? = nil
    ) throws -> Data {
        guard recordSize >= 18, recordSize <= Int(UInt32.max) else {
            throw WebPushError.invalidRecordSize(recordSize)
        }
        let limit = min(maxPlaintextLength, recordSize - 16 - 1)
        guard payload.count <= limit else {
            throw WebPushError.payloadTooLarge(size: payload.count, limit: limit)
        }
        let salt = salt ?? randomBytes(16)
        guard salt.count == 16 else { throw WebPushError.invalidSaltLength(salt.count) }

        let asKey = ephemeralKey ?? P256.KeyAgreement.PrivateKey()
        let asPublic = asKey.publicKey.x963Representation  // 65 bytes, 0x04 || X || Y
        let uaPublic = keys.publicKeyBytes

        // RFC 8291 section 3.3: combine the ECDH secret with the auth secret.
        //   PRK_key = HMAC-SHA-256(auth_secret, ecdh_secret)
        //   IKM     = HMAC-SHA-256(PRK_key, "WebPush: info" || 0x00 || ua_public || as_public || 0x01)
        let ecdhSecret = try asKey.sharedSecretFromKeyAgreement(with: keys.publicKey)
        var keyInfo = Data("WebPush: info".utf8)
        keyInfo.append(0)
        keyInfo.append(uaPublic)
        keyInfo.append(asPublic)
        let ikm = ecdhSecret.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: keys.authSecret, sharedInfo: keyInfo, outputByteCount: 32)

        // RFC 8291 section 3.4 / RFC 8188 section 2.2-2.3: content key and nonce.
        //   PRK   = HMAC-SHA-256(salt, IKM)
        //   CEK   = HMAC-SHA-256(PRK, "Content-Encoding: aes128gcm" || 0x00 || 0x01)[0..<16]
        //   NONCE = HMAC-SHA-256(PRK, "Content-Encoding: nonce" || 0x00 || 0x01)[0..<12]
        // The nonce is XORed with the record sequence number, which is 0 for the only record.
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt,
            info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonceKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt,
            info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        let nonce = try nonceKey.withUnsafeBytes { try AES.GCM.Nonce(data: Data($0)) }

        // The last (and only) record ends with the 0x02 delimiter and no further padding.
        var plaintext = Data(payload)
        plaintext.append(0x02)
        let sealed = try AES.GCM.seal(plaintext, using: cek, nonce: nonce)

        var body = Data(capacity: headerLength + plaintext.count + 16)
        body.append(contentsOf: salt)
        let rs = UInt32(recordSize)
        body.append(contentsOf: [UInt8(rs >> 24), UInt8((rs >> 16) & 0xFF), UInt8((rs >> 8) & 0xFF), UInt8(rs & 0xFF)])
        body.append(UInt8(asPublic.count))
        body.append(asPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &g) }
    }
}

// MARK: - VAPID (RFC 8292)

/// The application server's VAPID key pair (P-256). Generate one once, store
/// `privateKeyBase64URL` as a secret, and hand `publicKeyBase64URL` to browsers as
/// `applicationServerKey` for `pushManager.subscribe`.
struct VAPIDKey: Sendable {
    let privateKey: P256.Signing.PrivateKey

    /// Generates a new random key pair.
    init() {
        self.privateKey = P256.Signing.PrivateKey()
    }

    /// From the raw 32-byte private scalar.
    init(rawRepresentation: some ContiguousBytes) throws {
        let count = rawRepresentation.withUnsafeBytes { $0.count }
        guard count == 32, let key = try? P256.Signing.PrivateKey(rawRepresentation: rawRepresentation) else {
            throw WebPushError.invalidVAPIDPrivateKey
        }
        self.privateKey = key
    }

    /// From the base64url (padded or not) 32-byte private scalar, as `privateKeyBase64URL` prints it.
    init(privateKeyBase64URL: String) throws {
        guard let raw = Base64URL.decode(privateKeyBase64URL) else {
            throw WebPushError.invalidBase64URL(field: "vapidPrivateKey")
        }
        try self.init(rawRepresentation: raw)
    }

    /// From a PEM "EC PRIVATE KEY" / PKCS#8 "PRIVATE KEY" (e.g. `openssl ecparam -genkey -name prime256v1`).
    init(pemRepresentation: String) throws {
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: pemRepresentation) else {
            throw WebPushError.invalidVAPIDPrivateKey
        }
        self.privateKey = key
    }

    /// Uncompressed public point (65 bytes) in base64url without padding: the `k=` value
    /// and the browser's `applicationServerKey`.
    var publicKeyBase64URL: String { Base64URL.encode(privateKey.publicKey.x963Representation) }

    /// The 32-byte private scalar in base64url without padding.
    var privateKeyBase64URL: String { Base64URL.encode(privateKey.rawRepresentation) }

    /// Longest lifetime a push service must accept (RFC 8292 section 2: at most 24 hours).
    static let maxLifetime: TimeInterval = 24 * 60 * 60
    /// Safety margin subtracted from `maxLifetime` so a push service whose clock runs a little
    /// behind ours does not see more than 24 hours.
    static let clockSkewMargin: TimeInterval = 60
    /// Lifetime used when no expiration is given.
    static let defaultLifetime: TimeInterval = 12 * 60 * 60

    /// The VAPID audience of a push endpoint: its origin, `scheme://host[:port]`, with the
    /// port only when it is not the scheme's default.
    static func audience(for endpoint: URL) throws -> String {
        guard let components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
            var host = components.host?.lowercased(), !host.isEmpty
        else { throw WebPushError.invalidEndpoint(endpoint.absoluteString) }
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }  // IPv6 literal
        var origin = "\(scheme)://\(host)"
        if let port = components.port, port != (scheme == "https" ? 443 : 80) {
            origin += ":\(port)"
        }
        return origin
    }

    /// The ES256-signed JWT for `endpoint`'s push service.
    ///
    /// - Parameters:
    ///   - subject: contact URI, `mailto:` or `https:`.
    ///   - expiration: `exp`; default now + 12 h; clamped to now + 24 h - `clockSkewMargin`.
    ///   - now: the current time (injectable for tests).
    func jwt(endpoint: URL, subject: String, expiration: Date? = nil, now: Date = Date()) throws -> String {
        let lowered = subject.lowercased()
        guard lowered.hasPrefix("mailto:") || lowered.hasPrefix("https:") else {
            throw WebPushError.invalidSubject(subject)
        }
        let audience = try Self.audience(for: endpoint)
        let latest = now.addingTimeInterval(Self.maxLifetime - Self.clockSkewMargin)
        let requested = expiration ?? now.addingTimeInterval(Self.defaultLifetime)
        let exp = min(requested, latest)
        let expSeconds = Int(exp.timeIntervalSince1970.rounded(.down))
        guard expSeconds > Int(now.timeIntervalSince1970.rounded(.down)) else { throw WebPushError.expirationInPast }

        let header = #"{"typ":"JWT","alg":"ES256"}"#
        let claims = Claims(aud: audience, exp: expSeconds, sub: subject)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let claimsJSON = try encoder.encode(claims)

        let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(claimsJSON)
        // ES256: ECDSA P-256 over SHA-256(signingInput); JWS wants raw r || s (64 bytes).
        let signature = try privateKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// Value of the `Authorization` header: `vapid t=<JWT>, k=<public key>` (RFC 8292 section 3).
    func authorizationHeader(
        endpoint: URL, subject: String, expiration: Date? = nil, now: Date = Date()
    ) throws -> String {
        let token = try jwt(endpoint: endpoint, subject: subject, expiration: expiration, now: now)
        return "vapid t=\(token), k=\(publicKeyBase64URL)"
    }

    private struct Claims: Encodable {
        let aud: String
        let exp: Int
        let sub: String
    }
}

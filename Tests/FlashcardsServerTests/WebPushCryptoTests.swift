import Crypto
import Foundation
import XCTest

@testable import FlashcardsServer

/// RFC 8291 section 5 and appendix A ("When I grow up, I want to be a watermelon").
private enum RFC8291 {
    static let plaintext = "When I grow up, I want to be a watermelon"
    static let asPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    static let asPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
    static let uaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let uaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    static let body =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
}

private func b64(_ s: String) -> Data {
    guard let d = Base64URL.decode(s) else { fatalError("bad test base64url \(s)") }
    return d
}

// MARK: - Receiver side (the user agent), written independently of the encryptor

private struct DecryptError: Error, CustomStringConvertible { let description: String }

/// HKDF-SHA-256 spelled out with HMAC (RFC 5869), for outputs up to 32 bytes.
private func hkdf(salt: Data, ikm: Data, info: Data, length: Int) -> Data {
    let prk = Data(HMAC<SHA256>.authenticationCode(for: ikm, using: SymmetricKey(data: salt)))
    let okm = Data(HMAC<SHA256>.authenticationCode(for: info + [0x01], using: SymmetricKey(data: prk)))
    return okm.prefix(length)
}

/// Decrypts an aes128gcm Web Push body as a browser would (RFC 8291 section 3, RFC 8188).
private func receiverDecrypt(
    body: Data, uaPrivate: P256.KeyAgreement.PrivateKey, authSecret: Data
) throws -> (plaintext: Data, recordSize: UInt32) {
    let bytes = [UInt8](body)
    guard bytes.count >= 21 else { throw DecryptError(description: "short header") }
    let salt = Data(bytes[0..<16])
    let rs = bytes[16..<20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let idlen = Int(bytes[20])
    guard idlen == 65, bytes.count >= 21 + idlen + 17 else { throw DecryptError(description: "bad keyid") }
    let asPublicBytes = Data(bytes[21..<(21 + idlen)])
    let record = Data(bytes[(21 + idlen)...])
    guard record.count <= Int(rs) else { throw DecryptError(description: "record larger than rs") }

    let asPublic = try P256.KeyAgreement.PublicKey(x963Representation: asPublicBytes)
    let shared = try uaPrivate.sharedSecretFromKeyAgreement(with: asPublic)
    let ecdh = shared.withUnsafeBytes { Data($0) }
    let uaPublicBytes = uaPrivate.publicKey.x963Representation

    let ikm = hkdf(
        salt: authSecret, ikm: ecdh,
        info: Data("WebPush: info\u{0}".utf8) + uaPublicBytes + asPublicBytes, length: 32)
    let cek = hkdf(salt: salt, ikm: ikm, info: Data("Content-Encoding: aes128gcm\u{0}".utf8), length: 16)
    let nonce = hkdf(salt: salt, ikm: ikm, info: Data("Content-Encoding: nonce\u{0}".utf8), length: 12)

    let box = try AES.GCM.SealedBox(
        nonce: AES.GCM.Nonce(data: nonce), ciphertext: record.dropLast(16), tag: record.suffix(16))
    var padded = [UInt8](try AES.GCM.open(box, using: SymmetricKey(data: cek)))
    while padded.last == 0x00 { padded.removeLast() }
    guard padded.last == 0x02 else { throw DecryptError(description: "missing 0x02 delimiter of last record") }
    padded.removeLast()
    return (Data(padded), rs)
}

final class WebPushCryptoTests: XCTestCase {

    // MARK: RFC 8291 test vector

    func testRFC8291Section5VectorByteForByte() throws {
        let keys = try WebPushSubscriptionKeys(p256dh: RFC8291.uaPublic, auth: RFC8291.authSecret)
        let asKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: b64(RFC8291.asPrivate))
        XCTAssertEqual(Base64URL.encode(asKey.publicKey.x963Representation), RFC8291.asPublic)

        let body = try WebPushCrypto.encrypt(
            payload: Data(RFC8291.plaintext.utf8), to: keys, recordSize: 4096,
            ephemeralKey: asKey, salt: [UInt8](b64(RFC8291.salt)))

        XCTAssertEqual(Base64URL.encode(body), RFC8291.body)
        XCTAssertEqual(body, b64(RFC8291.body))
        XCTAssertEqual(body.count, 86 + 41 + 1 + 16)
    }

    func testRFC8291VectorWithByteArrayPayload() throws {
        let keys = try WebPushSubscriptionKeys(p256dh: RFC8291.uaPublic, auth: RFC8291.authSecret)
        let asKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: b64(RFC8291.asPrivate))
        let body = try WebPushCrypto.encrypt(
            payload: Array(RFC8291.plaintext.utf8), to: keys, ephemeralKey: asKey,
            salt: Array(b64(RFC8291.salt)))
        XCTAssertEqual(Base64URL.encode(body), RFC8291.body)
    }

    func testInTestDecryptorOpensRFCBody() throws {
        let ua = try P256.KeyAgreement.PrivateKey(rawRepresentation: b64(RFC8291.uaPrivate))
        XCTAssertEqual(Base64URL.encode(ua.publicKey.x963Representation), RFC8291.uaPublic)
        let (plaintext, rs) = try receiverDecrypt(
            body: b64(RFC8291.body), uaPrivate: ua, authSecret: b64(RFC8291.authSecret))
        XCTAssertEqual(String(decoding: plaintext, as: UTF8.self), RFC8291.plaintext)
        XCTAssertEqual(rs, 4096)
    }

    // MARK: Round trips

    func testRoundTripForSeveralSizes() throws {
        let ua = P256.KeyAgreement.PrivateKey()
        let auth = Data(WebPushCrypto.randomBytes(16))
        let keys = try WebPushSubscriptionKeys(
            p256dh: Base64URL.encode(ua.publicKey.x963Representation), auth: Base64URL.encode(auth))

        for size in [0, 1, 15, 16, 17, 41, 255, 1000, 3992, WebPushCrypto.maxPlaintextLength] {
            let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            let body = try WebPushCrypto.encrypt(payload: payload, to: keys)
            XCTAssertEqual(body.count, WebPushCrypto.headerLength + size + 1 + 16, "size \(size)")
            XCTAssertEqual(body[20], 65)
            let (plaintext, rs) = try receiverDecrypt(body: body, uaPrivate: ua, authSecret: auth)
            XCTAssertEqual(plaintext, payload, "size \(size)")
            XCTAssertEqual(rs, 4096)
        }
        XCTAssertEqual(WebPushCrypto.maxPlaintextLength, 3993)
        let maxBody = try WebPushCrypto.encrypt(
            payload: Data(count: WebPushCrypto.maxPlaintextLength), to: keys)
        XCTAssertEqual(maxBody.count, 4096)
    }

    func testUTF8JSONRoundTrip() throws {
        let ua = P256.KeyAgreement.PrivateKey()
        let auth = Data(WebPushCrypto.randomBytes(16))
        let keys = try WebPushSubscriptionKeys(publicKeyBytes: ua.publicKey.x963Representation, authSecret: auth)
        let json =
            #"{"title":"Smart Flashcards","body":"Lust auf ein paar Karten? Übung macht den Meister – 5 fällig"}"#
        let body = try WebPushCrypto.encrypt(payload: Data(json.utf8), to: keys)
        let (plaintext, _) = try receiverDecrypt(body: body, uaPrivate: ua, authSecret: auth)
        XCTAssertEqual(String(decoding: plaintext, as: UTF8.self), json)
    }

    func testEachMessageUsesFreshSaltAndEphemeralKey() throws {
        let keys = try WebPushSubscriptionKeys(p256dh: RFC8291.uaPublic, auth: RFC8291.authSecret)
        let a = try WebPushCrypto.encrypt(payload: Data("x".utf8), to: keys)
        let b = try WebPushCrypto.encrypt(payload: Data("x".utf8), to: keys)
        XCTAssertNotEqual(a.prefix(16), b.prefix(16))
        XCTAssertNotEqual(a[21..<86], b[21..<86])
    }

    func testCustomRecordSizeIsWrittenAndLimitsPayload() throws {
        let ua = P256.KeyAgreement.PrivateKey()
        let auth = Data(WebPushCrypto.randomBytes(16))
        let keys = try WebPushSubscriptionKeys(publicKeyBytes: ua.publicKey.x963Representation, authSecret: auth)
        let body = try WebPushCrypto.encrypt(payload: Data(count: 83), to: keys, recordSize: 100)
        let (plaintext, rs) = try receiverDecrypt(body: body, uaPrivate: ua, authSecret: auth)
        XCTAssertEqual(rs, 100)
        XCTAssertEqual(plaintext.count, 83)
        XCTAssertThrowsError(try WebPushCrypto.encrypt(payload: Data(count: 84), to: keys, recordSize: 100)) {
            XCTAssertEqual($0 as? WebPushError, .payloadTooLarge(size: 84, limit: 83))
        }
        XCTAssertThrowsError(try WebPushCrypto.encrypt(payload: Data(), to: keys, recordSize: 17)) {
            XCTAssertEqual($0 as? WebPushError, .invalidRecordSize(17))
        }
    }

    func testTooLargePayloadThrows() throws {
        let keys = try WebPushSubscriptionKeys(p256dh: RFC8291.uaPublic, auth: RFC8291.authSecret)
        XCTAssertThrowsError(try WebPushCrypto.encrypt(payload: Data(count: 3994), to: keys)) {
            XCTAssertEqual($0 as? WebPushError, .payloadTooLarge(size: 3994, limit: 3993))
        }
        // A bigger record size does not raise the limit: the body must stay within 4096 bytes.
        XCTAssertThrowsError(try WebPushCrypto.encrypt(payload: Data(count: 4000), to: keys, recordSize: 8192)) {
            XCTAssertEqual($0 as? WebPushError, .payloadTooLarge(size: 4000, limit: 3993))
        }
    }

    func testBadSaltLengthThrows() throws {
        let keys = try WebPushSubscriptionKeys(p256dh: RFC8291.uaPublic, auth: RFC8291.authSecret)
        XCTAssertThrowsError(try WebPushCrypto.encrypt(payload: Data(), to: keys, salt: [1, 2, 3])) {
            XCTAssertEqual($0 as? WebPushError, .invalidSaltLength(3))
        }
    }

    // MARK: Bad subscription keys

    func testBadBase64URL() {
        XCTAssertThrowsError(try WebPushSubscriptionKeys(p256dh: "not*base64!", auth: RFC8291.authSecret)) {
            XCTAssertEqual($0 as? WebPushError, .invalidBase64URL(field: "p256dh"))
        }
        XCTAssertThrowsError(try WebPushSubscriptionKeys(p256dh: RFC8291.uaPublic, auth: "BTBZMqHH6r4Tts7J/aSIgg")) {
            XCTAssertEqual($0 as? WebPushError, .invalidBase64URL(field: "auth"))
        }
        XCTAssertThrowsError(try WebPushSubscriptionKeys(p256dh: RFC8291.uaPublic, auth: "BTBZM")) {
            XCTAssertEqual($0 as? WebPushError, .invalidBase64URL(field: "auth"))
        }
    }

    func test64ByteKeyIsRejected() {
        let point = b64(RFC8291.uaPublic)
        XCTAssertThrowsError(
            try WebPushSubscriptionKeys(p256dh: Base64URL.encode(point.dropFirst()), auth: RFC8291.authSecret)
        ) {
            XCTAssertEqual($0 as? WebPushError, .invalidPublicKeyLength(64))
        }
    }

    func testPointNotOnCurveIsRejected() {
        var point = [UInt8](b64(RFC8291.uaPublic))
        point[64] ^= 0x01  // same X, wrong Y
        XCTAssertThrowsError(try WebPushSubscriptionKeys(p256dh: Base64URL.encode(point), auth: RFC8291.authSecret)) {
            XCTAssertEqual($0 as? WebPushError, .invalidPublicKeyPoint)
        }
        var compressedTag = [UInt8](b64(RFC8291.uaPublic))
        compressedTag[0] = 0x02
        XCTAssertThrowsError(
            try WebPushSubscriptionKeys(p256dh: Base64URL.encode(compressedTag), auth: RFC8291.authSecret)
        ) {
            XCTAssertEqual($0 as? WebPushError, .invalidPublicKeyPoint)
        }
    }

    func test15ByteAuthIsRejected() {
        let auth = Base64URL.encode(b64(RFC8291.authSecret).prefix(15))
        XCTAssertThrowsError(try WebPushSubscriptionKeys(p256dh: RFC8291.uaPublic, auth: auth)) {
            XCTAssertEqual($0 as? WebPushError, .invalidAuthSecretLength(15))
        }
    }

    func testPaddedBase64URLIsAccepted() throws {
        let keys = try WebPushSubscriptionKeys(p256dh: RFC8291.uaPublic + "=", auth: RFC8291.authSecret + "==")
        XCTAssertEqual(keys.publicKeyBytes, b64(RFC8291.uaPublic))
        XCTAssertEqual(keys.authSecret.count, 16)
    }

    // MARK: Base64URL

    func testBase64URL() {
        XCTAssertEqual(Base64URL.encode([UInt8]()), "")
        XCTAssertEqual(Base64URL.encode([0xFB, 0xFF]), "-_8")
        XCTAssertEqual(Base64URL.encode(Data("f".utf8)), "Zg")
        XCTAssertEqual(Base64URL.decode("-_8"), Data([0xFB, 0xFF]))
        XCTAssertEqual(Base64URL.decode("-_8="), Data([0xFB, 0xFF]))
        XCTAssertEqual(Base64URL.decode("Zg=="), Data("f".utf8))
        XCTAssertEqual(Base64URL.decode("Zg"), Data("f".utf8))
        XCTAssertEqual(Base64URL.decode(""), Data())
        XCTAssertNil(Base64URL.decode("+/8="))
        XCTAssertNil(Base64URL.decode("Zg==="))
        XCTAssertNil(Base64URL.decode("Z"))
        XCTAssertNil(Base64URL.decode("Zg ="))
    }

    // MARK: VAPID

    private struct ParsedHeader {
        let token: String
        let k: String
        let header: [String: Any]
        let claims: [String: Any]
        let signature: Data
    }

    private func parse(_ authorization: String) throws -> ParsedHeader {
        XCTAssertTrue(authorization.hasPrefix("vapid "))
        var t: String?
        var k: String?
        for part in authorization.dropFirst("vapid ".count).split(separator: ",") {
            let kv = part.trimmingCharacters(in: .whitespaces)
            if kv.hasPrefix("t=") { t = String(kv.dropFirst(2)) }
            if kv.hasPrefix("k=") { k = String(kv.dropFirst(2)) }
        }
        let token = try XCTUnwrap(t)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(parts.count, 3)
        let header = try XCTUnwrap(
            JSONSerialization.jsonObject(with: XCTUnwrap(Base64URL.decode(parts[0]))) as? [String: Any])
        let claims = try XCTUnwrap(
            JSONSerialization.jsonObject(with: XCTUnwrap(Base64URL.decode(parts[1]))) as? [String: Any])
        return ParsedHeader(
            token: token, k: try XCTUnwrap(k), header: header, claims: claims,
            signature: try XCTUnwrap(Base64URL.decode(parts[2])))
    }

    func testVAPIDHeaderParsesAndSignatureVerifies() throws {
        let key = VAPIDKey()
        let now = Date()
        let endpoint = URL(string: "https://fcm.googleapis.com/fcm/send/abc:def?x=1")!
        let value = try key.authorizationHeader(
            endpoint: endpoint, subject: "mailto:admin@example.org", expiration: now.addingTimeInterval(3600),
            now: now)
        let parsed = try parse(value)

        XCTAssertEqual(parsed.k, key.publicKeyBase64URL)
        XCTAssertEqual(Base64URL.decode(parsed.k)?.count, 65)
        XCTAssertFalse(parsed.k.contains("="))
        XCTAssertEqual(parsed.header["typ"] as? String, "JWT")
        XCTAssertEqual(parsed.header["alg"] as? String, "ES256")
        XCTAssertEqual(parsed.claims["aud"] as? String, "https://fcm.googleapis.com")
        XCTAssertEqual(parsed.claims["sub"] as? String, "mailto:admin@example.org")
        XCTAssertEqual(parsed.claims["exp"] as? Int, Int(now.addingTimeInterval(3600).timeIntervalSince1970))

        XCTAssertEqual(parsed.signature.count, 64)
        let publicKey = try P256.Signing.PublicKey(x963Representation: XCTUnwrap(Base64URL.decode(parsed.k)))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: parsed.signature)
        let signingInput = Data(parsed.token.split(separator: ".").prefix(2).joined(separator: ".").utf8)
        XCTAssertTrue(publicKey.isValidSignature(signature, for: signingInput))
        XCTAssertFalse(publicKey.isValidSignature(signature, for: signingInput + [0x20]))
        XCTAssertFalse(VAPIDKey().privateKey.publicKey.isValidSignature(signature, for: signingInput))
    }

    func testVAPIDAudienceIsOrigin() throws {
        let cases: [(String, String)] = [
            ("https://fcm.googleapis.com/fcm/send/abc", "https://fcm.googleapis.com"),
            ("https://updates.push.services.mozilla.com/wpush/v2/gAAA", "https://updates.push.services.mozilla.com"),
            ("https://Push.Example.NET:443/a/b", "https://push.example.net"),
            ("https://push.example.net:8443/a/b", "https://push.example.net:8443"),
            ("http://127.0.0.1:8080/push/1", "http://127.0.0.1:8080"),
            ("http://localhost:80/push/1", "http://localhost"),
            ("http://[::1]:9000/push/1", "http://[::1]:9000"),
        ]
        let key = VAPIDKey()
        for (endpoint, origin) in cases {
            XCTAssertEqual(try VAPIDKey.audience(for: URL(string: endpoint)!), origin, endpoint)
            let parsed = try parse(
                key.authorizationHeader(endpoint: URL(string: endpoint)!, subject: "https://example.org/contact"))
            XCTAssertEqual(parsed.claims["aud"] as? String, origin, endpoint)
        }
        XCTAssertThrowsError(try VAPIDKey.audience(for: URL(string: "ftp://example.org/x")!)) {
            XCTAssertEqual($0 as? WebPushError, .invalidEndpoint("ftp://example.org/x"))
        }
        XCTAssertThrowsError(try VAPIDKey.audience(for: URL(string: "/relative/path")!))
    }

    func testVAPIDExpirationIsClampedTo24Hours() throws {
        let key = VAPIDKey()
        let now = Date(timeIntervalSince1970: 1_700_000_000.5)
        let endpoint = URL(string: "https://push.example.net/x")!
        let far = try parse(
            key.authorizationHeader(
                endpoint: endpoint, subject: "mailto:a@b.c", expiration: now.addingTimeInterval(7 * 86400), now: now))
        let exp = try XCTUnwrap(far.claims["exp"] as? Int)
        XCTAssertLessThanOrEqual(exp, 1_700_000_000 + 86400)
        XCTAssertEqual(exp, 1_700_000_000 + 86400 - 60)

        let dflt = try parse(key.authorizationHeader(endpoint: endpoint, subject: "mailto:a@b.c", now: now))
        XCTAssertEqual(dflt.claims["exp"] as? Int, 1_700_000_000 + 12 * 3600)

        let live = try parse(key.authorizationHeader(endpoint: endpoint, subject: "mailto:a@b.c"))
        let liveExp = try XCTUnwrap(live.claims["exp"] as? Int)
        XCTAssertGreaterThan(Double(liveExp), Date().timeIntervalSince1970)
        XCTAssertLessThanOrEqual(Double(liveExp), Date().timeIntervalSince1970 + 86400)

        XCTAssertThrowsError(
            try key.authorizationHeader(
                endpoint: endpoint, subject: "mailto:a@b.c", expiration: now.addingTimeInterval(-1), now: now)
        ) {
            XCTAssertEqual($0 as? WebPushError, .expirationInPast)
        }
    }

    func testVAPIDSubjectMustBeMailtoOrHTTPS() {
        XCTAssertThrowsError(
            try VAPIDKey().authorizationHeader(
                endpoint: URL(string: "https://p.example/x")!, subject: "admin@example.org")
        ) {
            XCTAssertEqual($0 as? WebPushError, .invalidSubject("admin@example.org"))
        }
    }

    func testVAPIDKeySerialization() throws {
        let key = VAPIDKey()
        XCTAssertEqual(Base64URL.decode(key.privateKeyBase64URL)?.count, 32)
        let restored = try VAPIDKey(privateKeyBase64URL: key.privateKeyBase64URL)
        XCTAssertEqual(restored.publicKeyBase64URL, key.publicKeyBase64URL)
        XCTAssertEqual(
            try VAPIDKey(privateKeyBase64URL: key.privateKeyBase64URL + "=").publicKeyBase64URL,
            key.publicKeyBase64URL)
        XCTAssertEqual(
            try VAPIDKey(pemRepresentation: key.privateKey.pemRepresentation).publicKeyBase64URL,
            key.publicKeyBase64URL)

        // Same scalar, same point as the RFC 8291 application-server key.
        XCTAssertEqual(try VAPIDKey(privateKeyBase64URL: RFC8291.asPrivate).publicKeyBase64URL, RFC8291.asPublic)

        XCTAssertThrowsError(try VAPIDKey(privateKeyBase64URL: "***")) {
            XCTAssertEqual($0 as? WebPushError, .invalidBase64URL(field: "vapidPrivateKey"))
        }
        XCTAssertThrowsError(try VAPIDKey(rawRepresentation: Data(count: 31))) {
            XCTAssertEqual($0 as? WebPushError, .invalidVAPIDPrivateKey)
        }
        XCTAssertThrowsError(try VAPIDKey(rawRepresentation: Data(count: 32))) {  // zero scalar
            XCTAssertEqual($0 as? WebPushError, .invalidVAPIDPrivateKey)
        }
        XCTAssertThrowsError(try VAPIDKey(pemRepresentation: "nope")) {
            XCTAssertEqual($0 as? WebPushError, .invalidVAPIDPrivateKey)
        }
    }

    func testErrorsHaveReadableDescriptions() {
        XCTAssertTrue(WebPushError.invalidAuthSecretLength(15).description.contains("15"))
        XCTAssertTrue(WebPushError.payloadTooLarge(size: 5000, limit: 3993).description.contains("3993"))
    }
}

import Foundation
import JWTKit
import Testing

@testable import FlashcardsServer

/// Sign-in with OpenID Connect: its settings and what an ID token's claims are read as. The flow
/// itself runs against a real local provider in `e2e/api/test_oidc.py` (both databases).
@Suite("OpenID Connect: settings and claims")
struct OIDCTests {
    private let school: [String: String] = [
        "FLASHCARDS_PUBLIC_URL": "https://cards.example.org",
        "FLASHCARDS_OIDC_PROVIDERS": "school",
        "FLASHCARDS_OIDC_SCHOOL_ISSUER": "https://login.example.org/realms/schule",
        "FLASHCARDS_OIDC_SCHOOL_CLIENT_ID": "flashcards",
        "FLASHCARDS_OIDC_SCHOOL_CLIENT_SECRET": "geheim",
        "FLASHCARDS_OIDC_SCHOOL_NAME": "Schul-Login",
    ]

    @Test("providers come from the environment, each fully configured, or the start fails naming the key")
    func configuration() throws {
        let providers = try AppConfiguration(values: school).oidcProviders
        #expect(providers.count == 1)
        #expect(providers[0].id == "school" && providers[0].name == "Schul-Login")
        #expect(providers[0].authentication == .secret("geheim") && providers[0].scopes == "openid email profile")
        #expect(try AppConfiguration(values: [:]).oidcProviders.isEmpty)
        func refused(_ change: (inout [String: String]) -> Void, naming key: String) {
            var values = school
            change(&values)
            #expect {
                try AppConfiguration(values: values)
            } throws: { error in
                (error as? ConfigurationError)?.description.contains(key) == true
            }
        }
        refused({ $0["FLASHCARDS_PUBLIC_URL"] = nil }, naming: "FLASHCARDS_PUBLIC_URL")
        refused({ $0["FLASHCARDS_OIDC_SCHOOL_CLIENT_SECRET"] = nil }, naming: "FLASHCARDS_OIDC_SCHOOL_CLIENT_SECRET")
        refused({ $0["FLASHCARDS_OIDC_SCHOOL_ISSUER"] = "http://login.example.org" }, naming: "ISSUER")
        refused({ $0["FLASHCARDS_OIDC_SCHOOL_SCOPES"] = "email" }, naming: "SCOPES")
        refused({ $0["FLASHCARDS_OIDC_SCHOOL_RESPONSE_MODE"] = "fragment" }, naming: "RESPONSE_MODE")
        refused({ $0["FLASHCARDS_OIDC_PROVIDERS"] = "school,school" }, naming: "FLASHCARDS_OIDC_PROVIDERS")
        refused({ $0["FLASHCARDS_OIDC_PROVIDERS"] = "sch ool" }, naming: "FLASHCARDS_OIDC_PROVIDERS")
        refused(
            {
                $0["FLASHCARDS_OIDC_SCHOOL_APPLE_TEAM_ID"] = "TEAM"
                $0["FLASHCARDS_OIDC_SCHOOL_APPLE_KEY_ID"] = "KEY"
                $0["FLASHCARDS_OIDC_SCHOOL_APPLE_PRIVATE_KEY_FILE"] = "/nirgends.p8"
            }, naming: "APPLE_PRIVATE_KEY_FILE")
    }

    @Test("claims: one audience or several, Apple's string flags, a name from its parts")
    func claims() throws {
        func read(_ json: String) throws -> IDTokenClaims {
            try JSONDecoder().decode(IDTokenClaims.self, from: Data(json.utf8))
        }
        let google = try read(
            #"{"iss":"https://accounts.google.com","sub":"1","aud":"c","exp":2000000000,"email":"a@b.de","email_verified":true,"name":"Ada L"}"#
        )
        #expect(google.aud == ["c"] && google.emailVerified && google.name == "Ada L")
        let apple = try read(
            #"{"iss":"https://appleid.apple.com","sub":"2","aud":["c","d"],"azp":"c","exp":2000000000,"email_verified":"true"}"#
        )
        #expect(apple.aud == ["c", "d"] && apple.azp == "c" && apple.emailVerified && apple.name == nil)
        let parts = try read(
            #"{"iss":"i","sub":"3","aud":"c","exp":1,"email_verified":"false","given_name":"Ben","family_name":"B"}"#)
        #expect(!parts.emailVerified && parts.name == "Ben B")
        #expect(throws: (any Error).self) { try read(#"{"iss":"i","aud":"c","exp":1}"#) }
    }

    @Test("Apple's first-sign-in name; its client secret is an ES256 JWT of the team")
    func apple() async throws {
        #expect(
            OIDCService.appleName(#"{"name":{"firstName":"Dora","lastName":"Muster"},"email":"d@e.de"}"#)
                == "Dora Muster")
        #expect(OIDCService.appleName("kein json") == nil && OIDCService.appleName(nil) == nil)
        let key = ES256PrivateKey()
        let secret = try await OIDCProviderClient.appleClientSecret(
            teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: key.pemRepresentation, clientID: "org.example",
            audience: "https://appleid.apple.com", now: Date(timeIntervalSince1970: 1_800_000_000))
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(pem: key.publicKey.pemRepresentation), kid: "KEY1234567")
        struct Secret: JWTPayload {
            let iss: String
            let sub: String
            let aud: String
            let iat: Double
            let exp: Double
            func verify(using algorithm: some JWTAlgorithm) async throws {}
        }
        let claims = try await keys.verify(secret, as: Secret.self)
        #expect(claims.iss == "TEAM123456" && claims.sub == "org.example" && claims.aud == "https://appleid.apple.com")
        #expect(claims.exp - claims.iat == 300)
        #expect(secret.split(separator: ".").count == 3)
    }
}

import Crypto
import FlashcardsAPI
import FlashcardsClient
import FlashcardsGeneration
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// OAuth for MCP clients (issue 36): discovery, registration, consent, code + PKCE exchange for a
/// personal access token, and every refusal on the way. The real Python client's OAuth flow runs
/// in e2e/mcp.
@Suite("OAuth for MCP clients")
struct OAuthTests {
    private static func request(
        _ url: URL, _ method: String, _ path: String, body: String? = nil, form: Bool = false, token: String? = nil
    ) async throws -> (status: Int, json: JSONValue, headers: [AnyHashable: Any]) {
        var request = URLRequest(url: URL(string: path, relativeTo: url)!)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue(
                form ? "application/x-www-form-urlencoded" : "application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        let json = data.isEmpty ? JSONValue.null : (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .null
        return (http?.statusCode ?? 0, json, http?.allHeaderFields ?? [:])
    }

    private static func challenge(_ verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func formEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))!
    }

    @Test("discover, register, allow, exchange once for a token that opens /mcp", arguments: TestDatabase.available)
    func flow(db: TestDatabase) async throws {
        let clock = TestClock()
        try await withApp(db, clock: clock) { app in
            try await withRunningServer(app) { ada, url in
                try await ada.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let session = try #require(ada.token)
                let host = "http://127.0.0.1:\(url.port!)"

                let unauthorized = try await Self.request(
                    url, "POST", "/mcp", body: #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
                let challengeHeader =
                    unauthorized.headers.first { ($0.key as? String)?.lowercased() == "www-authenticate" }?.value
                    as? String
                    ?? ""
                #expect(
                    challengeHeader.contains("resource_metadata=\"\(host)/.well-known/oauth-protected-resource/mcp\""))
                let resource = try await Self.request(url, "GET", "/.well-known/oauth-protected-resource/mcp")
                #expect(resource.json["resource"] == .string(host + "/mcp"))
                #expect(resource.json["authorization_servers"] == [.string(host)])
                let server = try await Self.request(url, "GET", "/.well-known/oauth-authorization-server")
                #expect(server.json["token_endpoint"] == .string(host + "/oauth/token"))
                #expect(server.json["code_challenge_methods_supported"] == ["S256"])

                // Registration: https, or http back to this machine only.
                let evil = try await Self.request(
                    url, "POST", "/oauth/register",
                    body: #"{"client_name":"X","redirect_uris":["http://evil.example/cb"]}"#)
                #expect(evil.status == 400 && evil.json["error"] == "invalid_redirect_uri")
                let callback = "http://127.0.0.1:9/callback"
                let registered = try await Self.request(
                    url, "POST", "/oauth/register",
                    body: #"{"client_name":"Claude","redirect_uris":["\#(callback)"]}"#)
                guard registered.status == 201, case .string(let clientId)? = registered.json["client_id"] else {
                    Issue.record("registration: \(registered.json.text)")
                    return
                }

                // Consent: the client's name for the page, then a code for its address.
                let info = try await Self.request(
                    url, "GET",
                    "/api/v1/oauth/client?clientId=\(Self.formEncoded(clientId))&redirectUri=\(Self.formEncoded(callback))",
                    token: session)
                #expect(info.json["name"] == "Claude")
                let wrongAddress = try await Self.request(
                    url, "GET",
                    "/api/v1/oauth/client?clientId=\(Self.formEncoded(clientId))&redirectUri=https%3A%2F%2Fevil.example",
                    token: session)
                #expect(wrongAddress.status == 400)
                let unknown = try await Self.request(
                    url, "GET", "/api/v1/oauth/client?clientId=nope&redirectUri=\(Self.formEncoded(callback))",
                    token: session)
                #expect(unknown.status == 404)
                let verifier = String(repeating: "v3rifier-", count: 6)
                func allow(_ approve: Bool) async throws -> URLComponents {
                    let answer = try await Self.request(
                        url, "POST", "/api/v1/oauth/authorize",
                        body:
                            #"{"clientId":"\#(clientId)","redirectUri":"\#(callback)","codeChallenge":"\#(Self.challenge(verifier))","codeChallengeMethod":"S256","scope":"read write","state":"s1","approve":\#(approve)}"#,
                        token: session)
                    guard case .string(let target)? = answer.json["redirectTo"],
                        let components = URLComponents(string: target)
                    else {
                        throw Abort(.internalServerError, reason: "no redirect: \(answer.json.text)")
                    }
                    return components
                }
                let denied = try await allow(false)
                #expect(denied.queryItems?.contains(URLQueryItem(name: "error", value: "access_denied")) == true)
                let allowed = try await allow(true)
                #expect(allowed.host == "127.0.0.1" && allowed.path == "/callback")
                #expect(allowed.queryItems?.first { $0.name == "state" }?.value == "s1")
                let code = try #require(allowed.queryItems?.first { $0.name == "code" }?.value)

                func exchange(_ code: String, verifier: String, redirect: String = callback) async throws
                    -> (status: Int, json: JSONValue, headers: [AnyHashable: Any])
                {
                    try await Self.request(
                        url, "POST", "/oauth/token",
                        body:
                            "grant_type=authorization_code&code=\(Self.formEncoded(code))&redirect_uri=\(Self.formEncoded(redirect))"
                            + "&client_id=\(Self.formEncoded(clientId))&code_verifier=\(Self.formEncoded(verifier))",
                        form: true)
                }
                #expect(
                    try await exchange(code, verifier: String(repeating: "x", count: 50)).json["error"]
                        == "invalid_grant")
                #expect(
                    try await exchange(code, verifier: verifier, redirect: "http://127.0.0.1:9/other").json["error"]
                        == "invalid_grant")
                let granted = try await exchange(code, verifier: verifier)
                guard case .string(let accessToken)? = granted.json["access_token"] else {
                    Issue.record("no token: \(granted.json.text)")
                    return
                }
                #expect(granted.json["token_type"] == "Bearer" && granted.json["scope"] == "read write")
                let again = try await exchange(code, verifier: verifier)
                #expect(again.status == 400 && again.json["error"] == "invalid_grant", "a code works once")

                // The token opens /mcp and is the learner's, named after the client.
                let tools = try await Self.request(
                    url, "POST", "/mcp", body: #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, token: accessToken)
                #expect(tools.status == 200 && tools.json["result"]?["tools"] != nil)
                let listed = try await ada.accessTokens()
                #expect(listed.map(\.name) == ["Claude (OAuth)"] && listed[0].scopes == [.read, .write])

                // A code not exchanged within ten minutes expires.
                let late = try #require(try await allow(true).queryItems?.first { $0.name == "code" }?.value)
                clock.advance(by: 601)
                #expect(try await exchange(late, verifier: verifier).json["error"] == "invalid_grant")
                let unsupported = try await Self.request(
                    url, "POST", "/oauth/token", body: "grant_type=password&username=a", form: true)
                #expect(unsupported.json["error"] == "unsupported_grant_type")
            }
        }
    }
}

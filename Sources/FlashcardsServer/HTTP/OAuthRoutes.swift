import FlashcardsAPI
import FlashcardsGeneration
import Foundation
import Vapor

/// OAuth for MCP clients (`OAuthService`, `docs/mcp.md`): the discovery documents (RFC 9728's
/// protected-resource metadata for `/mcp`, RFC 8414's authorization-server metadata), dynamic
/// client registration, the token endpoint, and the two routes the consent page
/// (`/app/oauth/authorize`) calls with the learner's session.
struct OAuthRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(".well-known", "oauth-protected-resource", use: protectedResource)
        routes.get(".well-known", "oauth-protected-resource", "mcp", use: protectedResource)
        routes.get(".well-known", "oauth-authorization-server", use: authorizationServer)
        routes.post("oauth", "register", use: register)
        routes.post("oauth", "token", use: token)
        let session = routes.grouped("api", "v1").grouped(RequireUserMiddleware(personalTokens: .refused))
        session.on(Endpoint.V1.oauthClient, use: client)
        session.on(Endpoint.V1.oauthAuthorize, use: authorize)
    }

    /// Where this server is reached: `FLASHCARDS_PUBLIC_URL`, else the request's host over http.
    static func base(_ req: Request) -> String {
        if let url = req.application.appConfiguration.publicURL?.absoluteString {
            return url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        return "http://" + (req.headers.first(name: .host) ?? "127.0.0.1")
    }

    static func resourceMetadataURL(_ req: Request) -> String {
        base(req) + "/.well-known/oauth-protected-resource/mcp"
    }

    private func service(_ req: Request) -> OAuthService {
        OAuthService(context: ServiceContext(req), keys: req.application.tokens.keys)
    }

    func protectedResource(_ req: Request) async throws -> Response {
        let base = Self.base(req)
        return jsonResponse([
            "resource": .string(base + "/mcp"), "authorization_servers": [.string(base)],
            "scopes_supported": ["read", "write"], "bearer_methods_supported": ["header"],
            "resource_name": "Smart Flashcards", "resource_documentation": .string(base + "/app/settings"),
        ])
    }

    func authorizationServer(_ req: Request) async throws -> Response {
        let base = Self.base(req)
        return jsonResponse([
            "issuer": .string(base), "authorization_endpoint": .string(base + "/app/oauth/authorize"),
            "token_endpoint": .string(base + "/oauth/token"),
            "registration_endpoint": .string(base + "/oauth/register"),
            "response_types_supported": ["code"], "grant_types_supported": ["authorization_code"],
            "code_challenge_methods_supported": ["S256"], "token_endpoint_auth_methods_supported": ["none"],
            "scopes_supported": ["read", "write"],
        ])
    }

    private struct Registration: Decodable {
        var client_name: String?
        var redirect_uris: [String]?
    }

    func register(_ req: Request) async throws -> Response {
        do {
            guard let body = try? req.content.decode(Registration.self, as: .json) else {
                throw OAuthService.Failure(
                    error: "invalid_client_metadata", description: "The body must be JSON client metadata.")
            }
            let client = try await service(req).register(name: body.client_name, redirectURIs: body.redirect_uris ?? [])
            return jsonResponse(
                [
                    "client_id": .string(client.id), "client_name": .string(client.name),
                    "redirect_uris": .array(client.redirectURIs.map { .string($0) }),
                    "grant_types": ["authorization_code"], "response_types": ["code"],
                    "token_endpoint_auth_method": "none",
                    "client_id_issued_at": .integer(Int(req.now.timeIntervalSince1970)),
                ], status: .created)
        } catch let failure as OAuthService.Failure {
            return Self.failure(failure)
        }
    }

    private struct TokenRequest: Decodable {
        var grant_type: String?
        var code: String?
        var redirect_uri: String?
        var client_id: String?
        var code_verifier: String?
    }

    func token(_ req: Request) async throws -> Response {
        do {
            guard let body = try? req.content.decode(TokenRequest.self, as: .urlEncodedForm) else {
                throw OAuthService.Failure(error: "invalid_request", description: "The body must be a form.")
            }
            guard body.grant_type == "authorization_code" else {
                throw OAuthService.Failure(
                    error: "unsupported_grant_type", description: "Only authorization_code is supported.")
            }
            guard let code = body.code, let uri = body.redirect_uri, let clientId = body.client_id,
                let verifier = body.code_verifier
            else {
                throw OAuthService.Failure(
                    error: "invalid_request", description: "code, redirect_uri, client_id and code_verifier are needed."
                )
            }
            let made = try await service(req).exchange(
                code: code, clientId: clientId, redirectURI: uri, verifier: verifier)
            let response = jsonResponse([
                "access_token": .string(made.secret), "token_type": "Bearer", "expires_in": .integer(made.expiresIn),
                "scope": .string(made.scopes.map(\.rawValue).joined(separator: " ")),
            ])
            response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
            return response
        } catch let failure as OAuthService.Failure {
            return Self.failure(failure)
        }
    }

    func client(_ req: Request) async throws -> Response {
        let client = try await checkedClient(
            req, id: req.queryText("clientId"), redirectURI: req.queryText("redirectUri"))
        return try jsonResponse(OAuthClientInfoDTO(name: client.name, redirectUri: client.redirectURIs[0]))
    }

    func authorize(_ req: Request) async throws -> Response {
        let body = try req.decodeBody(OAuthAuthorizeRequest.self)
        let client = try await checkedClient(req, id: body.clientId, redirectURI: body.redirectUri)
        var components = URLComponents(string: body.redirectUri)!
        var items = components.queryItems ?? []
        if body.approve {
            do {
                let code = try await service(req).code(
                    for: try req.user.requireID(), client: client, redirectURI: body.redirectUri,
                    challenge: body.codeChallenge, method: body.codeChallengeMethod,
                    scopes: try OAuthService.scopes(body.scope))
                items.append(URLQueryItem(name: "code", value: code))
            } catch let failure as OAuthService.Failure {
                throw AppError.invalid(failure.description, code: failure.error)
            }
        } else {
            items.append(URLQueryItem(name: "error", value: "access_denied"))
        }
        if let state = body.state { items.append(URLQueryItem(name: "state", value: state)) }
        components.queryItems = items
        return try jsonResponse(OAuthAuthorizeResponse(redirectTo: components.string ?? body.redirectUri))
    }

    /// The client and address of a consent, checked before anything is shown or sent back (never
    /// a redirect to an address the client did not register).
    private func checkedClient(_ req: Request, id: String?, redirectURI: String?) async throws -> OAuthService.Client {
        guard let id, let redirectURI else {
            throw AppError.validation("clientId und redirectUri werden gebraucht.")
        }
        do {
            return try await service(req).client(id, redirectURI: redirectURI)
        } catch let failure as OAuthService.Failure {
            // A client this server never registered is not found; a known one with another address is
            // a bad request.
            let message =
                "Dieser Zugriff kann nicht erlaubt werden: der Client ist unbekannt oder die Rücksprungadresse nicht seine."
            if failure.error == "invalid_client" { throw AppError.notFound(message, code: failure.error) }
            throw AppError.invalid(message, code: failure.error)
        }
    }

    /// An RFC 6749 error answer: 400, or 401 for an unknown client.
    static func failure(_ failure: OAuthService.Failure) -> Response {
        jsonResponse(
            ["error": .string(failure.error), "error_description": .string(failure.description)],
            status: failure.error == "invalid_client" ? .unauthorized : .badRequest)
    }
}

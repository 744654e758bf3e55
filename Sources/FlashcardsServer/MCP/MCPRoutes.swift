import FlashcardsGeneration
import Foundation
import Vapor

/// `/mcp`: the Model Context Protocol over Streamable HTTP (`docs/mcp.md`). Every request is a POST
/// answered with JSON; there are no sessions and no server-sent streams, so `GET` and `DELETE` are
/// 405. Only personal access tokens open it (`RequireUserMiddleware.PersonalTokens.required`).
struct MCPRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let transport = routes.grouped(MCPTransportMiddleware())
        transport.grouped(RequireUserMiddleware(personalTokens: .required)).post("mcp", use: post)
        for method in [HTTPMethod.GET, .DELETE, .PUT, .PATCH] {
            transport.on(method, "mcp") { _ -> Response in
                var headers = HTTPHeaders()
                headers.replaceOrAdd(name: .allow, value: "POST")
                let response = MCPMessage.failure(
                    MCPMessage.Failure(
                        code: MCPMessage.Failure.invalidRequest,
                        message: "This MCP server answers POST requests only (no event stream, no sessions)."),
                    id: nil, status: .methodNotAllowed)
                response.headers.replaceOrAdd(name: .allow, value: "POST")
                return response
            }
        }
    }

    func post(_ req: Request) async throws -> Response {
        guard let token = req.accessToken else { throw AppError.invalidAccessToken }
        let user = try req.user
        let incoming: MCPMessage.Incoming
        do {
            incoming = try MCPMessage.read(req.body.data)
        } catch let failure as MCPMessage.Failure {
            return MCPMessage.failure(failure, id: nil)
        }
        guard case .request(let message) = incoming else { return Response(status: .accepted) }
        let settings = try await LearnerSettingsModel.find(for: try user.requireID(), on: req.db)
        return await MCPServer(http: req, user: user, token: token, german: settings.language != "en")
            .respond(to: message)
    }
}

/// The transport's checks before anything else: a browser page of another site may not call it
/// (`Origin`, against DNS rebinding), the client must take JSON; and refusals of the token (401,
/// 429) go back as JSON-RPC errors with their HTTP status and headers, so an MCP client shows
/// their message.
struct MCPTransportMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if let origin = request.headers.first(name: .origin), !Self.isOwn(origin: origin, request: request) {
            return MCPMessage.failure(
                MCPMessage.Failure(code: MCPMessage.Failure.invalidRequest, message: "Invalid Origin header."),
                id: nil, status: .forbidden)
        }
        if request.method == .POST, let accept = request.headers.first(name: .accept),
            !accept.contains("application/json"), !accept.contains("*/*")
        {
            return MCPMessage.failure(
                MCPMessage.Failure(
                    code: MCPMessage.Failure.invalidRequest, message: "The client must accept application/json."),
                id: nil, status: .notAcceptable)
        }
        do {
            return try await next.respond(to: request)
        } catch let error as AppError {
            let response = MCPMessage.failure(
                MCPMessage.Failure(code: MCPMessage.Failure.invalidRequest, message: error.body.message), id: nil,
                status: error.status)
            switch error {
            case .unauthorized, .invalidAccessToken:
                response.headers.replaceOrAdd(
                    name: .wwwAuthenticate,
                    value: "Bearer realm=\"Smart Flashcards\", error=\"invalid_token\", "
                        + "error_description=\"A personal access token (fcpat_...) is needed\", "
                        + "resource_metadata=\"\(OAuthRoutes.resourceMetadataURL(request))\"")
            case .tooManyRequests(_, let seconds):
                response.headers.replaceOrAdd(name: .retryAfter, value: "\(seconds)")
            default: break
            }
            return response
        }
    }

    /// Whether `origin` is this server's own: its public address, or the host the request came to.
    static func isOwn(origin: String, request: Request) -> Bool {
        guard let url = URL(string: origin), let host = url.host else { return false }
        if let publicURL = request.application.appConfiguration.publicURL,
            publicURL.host == host, publicURL.port == url.port
        {
            return true
        }
        guard let requestHost = request.headers.first(name: .host) else { return false }
        let authority = url.port.map { "\(host):\($0)" } ?? host
        return requestHost.lowercased() == authority.lowercased()
    }
}

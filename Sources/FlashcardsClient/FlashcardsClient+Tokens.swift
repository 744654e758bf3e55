import FlashcardsAPI
import Foundation

/// Personal access tokens (`docs/mcp.md`): keys for the learner's own AI assistant (MCP), scripts
/// and the command line. Managed only with a signed-in session; a client made with a personal
/// access token as its `token` works like a signed-in one within the token's scopes.
extension FlashcardsClient {
    /// The learner's tokens, newest first (revoked ones too).
    public func accessTokens() async throws -> [AccessTokenDTO] {
        try await transport.send([AccessTokenDTO].self, Endpoint.V1.listTokens)
    }

    /// A new token; its secret is in this answer only.
    public func createAccessToken(name: String, scopes: [TokenScope], expiresInDays: Int? = nil) async throws
        -> CreatedAccessTokenDTO
    {
        try await transport.send(
            CreatedAccessTokenDTO.self, Endpoint.V1.createToken,
            body: .json(CreateAccessTokenRequest(name: name, scopes: scopes, expiresInDays: expiresInDays)))
    }

    /// Revokes a token at once.
    public func revokeAccessToken(_ id: UUID) async throws {
        _ = try await transport.send(Endpoint.V1.revokeToken, id.path)
    }

    /// What a token did, newest first.
    public func accessTokenActivity(_ id: UUID, page: Int = 1, perPage: Int = 20) async throws
        -> PageDTO<TokenActivityDTO>
    {
        try await transport.send(
            PageDTO<TokenActivityDTO>.self, Endpoint.V1.tokenActivity, id.path,
            query: [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "perPage", value: "\(perPage)")])
    }
}

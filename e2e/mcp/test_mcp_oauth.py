"""The real MCP client signs in by OAuth: on a 401 it follows the server's protected-resource
metadata to its authorization server, registers itself, sends the learner to the consent page
(here: the consent route the page calls, with the learner's session), exchanges the code with PKCE
and then works with the personal access token it got."""

from __future__ import annotations

import urllib.parse

import anyio
import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from mcp_e2e import Learner, mcp_url


class MemoryStorage:
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


def test_the_client_signs_in_by_oauth(mcp_server, learner: Learner):
    callback = mcp_server.base_url + "/oauth-test/callback"
    answered: dict[str, str] = {}

    async def consent(authorization_url: str) -> None:
        # What the consent page does when the learner presses "Erlauben".
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(authorization_url).query))
        assert urllib.parse.urlparse(authorization_url).path == "/app/oauth/authorize"
        assert query["response_type"] == "code" and query["code_challenge_method"] == "S256"
        response = learner.http.post(
            f"{mcp_server.base_url}/api/v1/oauth/authorize", timeout=30,
            headers={"Authorization": f"Bearer {learner.session_token}"},
            json={"clientId": query["client_id"], "redirectUri": query["redirect_uri"],
                  "codeChallenge": query["code_challenge"], "codeChallengeMethod": query["code_challenge_method"],
                  "scope": query.get("scope"), "state": query.get("state"), "approve": True})
        assert response.status_code == 200, response.text
        back = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(response.json()["redirectTo"]).query))
        answered.update(back)

    async def callback_handler() -> AuthorizationCodeResult:
        return AuthorizationCodeResult(code=answered["code"], state=answered.get("state"))

    storage = MemoryStorage()
    provider = OAuthClientProvider(
        server_url=mcp_url(mcp_server),
        client_metadata=OAuthClientMetadata(
            client_name="Pytest-Assistent", redirect_uris=[callback], scope="read write",
            grant_types=["authorization_code"], response_types=["code"], token_endpoint_auth_method="none"),
        storage=storage, redirect_handler=consent, callback_handler=callback_handler)

    async def run() -> list[str]:
        async with httpx2.AsyncClient(auth=provider, timeout=httpx2.Timeout(30, read=120)) as http:
            transport = streamable_http_client(mcp_url(mcp_server), http_client=http)
            async with Client(transport, cache=None, read_timeout_seconds=120) as client:
                tools = await client.list_tools()
                made = await client.call_tool("create_stack", {"name": "Per OAuth"})
                assert not made.is_error, made
                return [tool.name for tool in tools.tools]

    names = anyio.run(run)
    assert "add_cards" in names and len(names) == 13
    assert storage.tokens is not None and storage.tokens.access_token.startswith("fcpat_")
    listed = learner.http.get(f"{mcp_server.base_url}/api/v1/me/tokens", timeout=30,
                              headers={"Authorization": f"Bearer {learner.session_token}"}).json()
    assert [token["name"] for token in listed] == ["Pytest-Assistent (OAuth)"]
    assert listed[0]["scopes"] == ["read", "write"]
    stacks = learner.http.get(f"{mcp_server.base_url}/api/v1/stacks", timeout=30,
                              headers={"Authorization": f"Bearer {learner.session_token}"}).json()
    assert [stack["name"] for stack in stacks] == ["Per OAuth"]

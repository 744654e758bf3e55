"""Personal access tokens, the study partner's refusal without a model, and OAuth consent on /api/v1.

Every real response is checked against Public/openapi.json (conftest.SpecChecker). The MCP server
itself (JSON-RPC, not in the document) is tested with the real MCP client in e2e/mcp.
"""

from __future__ import annotations

import base64
import hashlib
import urllib.parse

import requests

from conftest import Api
from openapi_helpers import STACKS, V1

TOKENS = V1 + "/me/tokens"
TOKEN = TOKENS + "/{tokenId}"
ACTIVITY = TOKEN + "/activity"
PARTNER = STACKS + "/{stackId}/partner"
OAUTH_CLIENT = V1 + "/oauth/client"
OAUTH_AUTHORIZE = V1 + "/oauth/authorize"


def test_v1_tokens_story(api: Api):
    token = api.signup()["token"]
    other = api.signup("Jonas Fremd")["token"]
    _, empty = api.call("GET", TOKENS, token=token, expect=200)
    assert empty == []
    api.call("POST", TOKENS, token=token, json_body={"name": "", "scopes": ["read"]}, expect=400)
    api.call("POST", TOKENS, token=token, json_body={"name": "Doppelt", "scopes": ["read", "read"]}, expect=400)
    _, made = api.call(
        "POST", TOKENS, token=token, json_body={"name": "Skript", "scopes": ["write"], "expiresInDays": 30}, expect=201
    )
    secret, at = made["secret"], {"tokenId": made["token"]["id"]}
    assert made["token"]["scopes"] == ["read", "write"] and secret.startswith("fcpat_")

    # The token writes; the write is noted; it cannot manage tokens.
    api.call("POST", STACKS, token=secret, json_body={"name": "Per Token", "color": "#0EA5E9"}, expect=201)
    _, activity = api.call("GET", ACTIVITY, path=at, token=token, params={"perPage": 5}, expect=200)
    assert [item["action"] for item in activity["items"]] == ["POST /api/v1/stacks"]
    _, refused = api.call("GET", TOKENS, token=secret, expect=403)
    assert refused["code"] == "session_required"
    api.call("GET", ACTIVITY, path=at, token=other, expect=404)
    api.call("DELETE", TOKEN, path=at, token=other, expect=404)
    api.call("DELETE", TOKEN, path=at, token=token, expect=204)
    api.call("DELETE", TOKEN, path=at, token=token, expect=204)
    _, revoked = api.call("GET", STACKS, token=secret, expect=401)
    assert revoked["code"] == "invalid_token"


def test_v1_partner_without_a_model(api: Api):
    token = api.signup()["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Zelle", "color": "#059669"}, expect=201)
    at = {"stackId": stack["id"]}
    api.call("POST", PARTNER, path=at, token=token, json_body={"message": ""}, expect=400)
    _, refused = api.call("POST", PARTNER, path=at, token=token, json_body={"message": "Erklär mir das"}, expect=409)
    assert refused["code"] == "partner_needs_model"


def test_v1_oauth_consent(api: Api):
    token = api.signup()["token"]
    base = api.server.base_url
    callback = base + "/oauth-test/callback"
    registered = requests.post(
        base + "/oauth/register", json={"client_name": "Claude", "redirect_uris": [callback]}, timeout=10
    ).json()
    client_id = registered["client_id"]
    _, info = api.call(
        "GET", OAUTH_CLIENT, token=token, params={"clientId": client_id, "redirectUri": callback}, expect=200
    )
    assert info == {"name": "Claude", "redirectUri": callback}
    _, body = api.call(
        "GET", OAUTH_CLIENT, token=token, params={"clientId": "nope", "redirectUri": callback}, expect=404
    )
    assert body["code"] == "invalid_client"
    _, body = api.call(
        "GET", OAUTH_CLIENT, token=token, params={"clientId": client_id, "redirectUri": "https://evil.example"},
        expect=400,
    )
    assert body["code"] == "invalid_request"
    verifier = "v" * 64
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    body = {"clientId": client_id, "redirectUri": callback, "codeChallenge": challenge, "codeChallengeMethod": "S256",
            "scope": "read", "state": "s", "approve": True}
    _, allowed = api.call("POST", OAUTH_AUTHORIZE, token=token, json_body=body, expect=200)
    query = urllib.parse.parse_qs(urllib.parse.urlparse(allowed["redirectTo"]).query)
    granted = requests.post(base + "/oauth/token", data={
        "grant_type": "authorization_code", "code": query["code"][0], "redirect_uri": callback,
        "client_id": client_id, "code_verifier": verifier}, timeout=10).json()
    assert granted["token_type"] == "Bearer" and granted["scope"] == "read"
    _, denied = api.call("POST", OAUTH_AUTHORIZE, token=token, json_body={**body, "approve": False}, expect=200)
    assert "error=access_denied" in denied["redirectTo"]
    api.call("POST", OAUTH_AUTHORIZE, token=token, json_body={**body, "codeChallengeMethod": "plain"}, expect=400)

"""Helpers of the MCP tests (e2e/mcp/test_mcp.py): the server start of the API tests (reused from
e2e/api/conftest.py), learners with personal access tokens driven through the REST API, and the real
Python MCP client (the `mcp` package from PyPI) connected over Streamable HTTP.

A module of its own (not conftest.py): `from conftest import …` would find whichever conftest.py
pytest imported last when e2e/api and e2e/mcp run together.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator

import requests

ROOT = Path(__file__).resolve().parents[2]

# e2e/api/conftest.py by path, under a name of its own: pytest has already imported it as a
# `conftest` (or will), and a second `import conftest` would find whichever came first.
_spec = importlib.util.spec_from_file_location("flashcards_e2e_api_conftest", ROOT / "e2e" / "api" / "conftest.py")
api_support = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = api_support  # its dataclasses look their module up there
_spec.loader.exec_module(api_support)

BACKENDS = api_support.BACKENDS
PASSWORD = api_support.PASSWORD
Server = api_support.Server
start_server = api_support.start_server
unique_mail = api_support.unique_mail

#: Every tool of the server (docs/mcp.md), as tools/list must name them.
TOOL_NAMES = {
    "list_stacks", "search_cards", "list_cards", "create_stack", "add_cards", "generate_drafts", "list_drafts",
    "accept_drafts", "due_cards", "rate_card", "get_statistics", "get_workload", "card_source",
}

#: What the Python client can be told to speak: "auto" probes server/discover (2026-07-28) and falls
#: back to the initialize handshake; "legacy" is the handshake only (2025-11-25).
CLIENT_MODES = ["auto", "legacy"]
EXPECTED_VERSION = {"auto": "2026-07-28", "legacy": "2025-11-25"}


# --- learners, their REST API and their tokens -----------------------------------------------------


@dataclass
class Token:
    id: str
    secret: str
    scopes: list[str]
    description: dict


class Learner:
    """An account on the server, driven through /api/v1 with its session token (a JWT)."""

    def __init__(self, server: Server, name: str = "Mara Beispiel"):
        self.server = server
        self.base = server.base_url
        self.http = requests.Session()
        self.mail = unique_mail("mcp")
        response = self.http.post(f"{self.base}/api/v1/auth/signup", timeout=30,
                                  json={"name": name, "mail": self.mail, "password": PASSWORD})
        assert response.status_code == 201, f"signup: {response.status_code} {response.text[:300]}"
        body = response.json()
        self.session_token: str = body["token"]
        self.user: dict = body["user"]

    def rest(self, method: str, path: str, expect: int | None = 200, **kwargs) -> Any:
        """A request to /api/v1 with the session token; asserts the status and returns the JSON body."""
        headers = {"Authorization": f"Bearer {self.session_token}", **kwargs.pop("headers", {})}
        response = self.http.request(method, f"{self.base}/api/v1{path}", headers=headers, timeout=30, **kwargs)
        if expect is not None:
            assert response.status_code == expect, (
                f"{method} {path}: expected {expect}, got {response.status_code}: {response.text[:500]}\n"
                f"server log:\n{self.server.log_tail(20)}"
            )
        if not response.content:
            return None
        return response.json()

    def make_token(self, scopes: list[str], name: str = "Test-Assistent", expires_in_days: int | None = None) -> Token:
        body = self.rest("POST", "/me/tokens", expect=201,
                         json={"name": name, "scopes": scopes, "expiresInDays": expires_in_days})
        token, secret = body["token"], body["secret"]
        assert secret.startswith("fcpat_"), secret
        assert secret.startswith(token["prefix"]), (secret, token["prefix"])
        for key in ("id", "name", "scopes", "prefix", "createdAt", "expiresAt", "lastUsedAt", "revokedAt"):
            assert key in token, f"token description without {key}: {token}"
        assert token["revokedAt"] is None
        assert set(scopes) <= set(token["scopes"]), token
        return Token(token["id"], secret, token["scopes"], token)

    def revoke(self, token: Token) -> None:
        self.rest("DELETE", f"/me/tokens/{token.id}", expect=204)

    def activity(self, token: Token) -> list[dict]:
        body = self.rest("GET", f"/me/tokens/{token.id}/activity", params={"perPage": 100})
        assert set(body) >= {"items", "page", "perPage", "total"}, body
        for item in body["items"]:
            assert set(item) >= {"at", "action", "via", "counts"}, item
        return body["items"]

    # The learner's data, as the REST API shows it (the witness of what the MCP tools wrote).

    def stacks(self) -> list[dict]:
        return self.rest("GET", "/stacks")

    def cards(self, stack_id: str) -> list[dict]:
        page = self.rest("GET", f"/stacks/{stack_id}/cards", params={"perPage": 200})
        assert page["total"] == len(page["items"]), page
        return page["items"]

    def new_stack(self, name: str, cards: list[dict] = ()) -> dict:
        stack = self.rest("POST", "/stacks", expect=201, json={"name": name, "color": "#2563EB"})
        for card in cards:
            self.rest("POST", f"/stacks/{stack['id']}/cards", expect=201, json=card)
        return stack


def expire_token(server: Server, token: Token) -> None:
    """Makes `token` expired by moving its expiry back to its creation in the server's database.

    The API cannot make an expired token (expiresInDays is 1 to 3650) and the binary has no test
    clock: ServerEnvironment.now is injected in the Swift tests only, no environment variable
    sets it (the Swift tests move an injected clock past the expiry instead, AccessTokenTests).
    The row is found by the secret's hash (lowercase hex SHA-256, as RandomToken.hash keeps it);
    the server reads the token on every request, so the change counts at once.
    """
    digest = hashlib.sha256(token.secret.encode()).hexdigest()
    statement = f"UPDATE access_tokens SET expires_at = created_at WHERE token_hash = '{digest}'"
    if server.backend == "sqlite":
        database = sqlite3.connect(os.path.join(server.data_dir, "flashcards.sqlite"), timeout=30)
        try:
            changed = database.execute(statement).rowcount
            database.commit()
        finally:
            database.close()
    else:
        schema = server.env["DATABASE_SCHEMA"]
        result = subprocess.run(
            ["psql", server.env["DATABASE_URL"], "-v", "ON_ERROR_STOP=1", "-qAt", "-c",
             f'SET search_path TO "{schema}"; {statement} RETURNING 1'],
            capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"psql: {result.stderr}"
        changed = result.stdout.splitlines().count("1")  # a line per RETURNING row (-q: no command tags)
    assert changed == 1, f"expected to expire one token row, changed {changed}"




# --- the MCP client --------------------------------------------------------------------------------


def mcp_url(server: Server) -> str:
    return f"{server.base_url}/mcp"


@asynccontextmanager
async def connect(server: Server, secret: str | None, mode: str = "auto") -> AsyncIterator[Any]:
    """The real MCP client connected to the server with `secret` as its bearer token.

    The token goes into the headers of the client's own httpx2 client (the SDK's way to send a
    static token: `Client(url)` alone takes no headers). The client's response cache is off, so
    every read reaches the server."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=120)) as http:
        transport = streamable_http_client(mcp_url(server), http_client=http)
        async with Client(transport, mode=mode, cache=None, read_timeout_seconds=120) as client:
            yield client


def leaf_exceptions(error: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups: the client's task groups wrap what it raises."""
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in leaf_exceptions(inner)]
    return [error]


def structured(result: Any, what: str) -> dict:
    """A successful tool result's structuredContent, checked: an object, and a text item that holds
    the same JSON."""
    text = " ".join(getattr(item, "text", "") for item in result.content)
    assert not result.is_error, f"{what}: isError: {text[:800]}"
    content = result.structured_content
    assert isinstance(content, dict), f"{what}: structuredContent is {type(content).__name__}: {content!r}"
    parsed = []
    for item in result.content:
        if getattr(item, "type", None) == "text":
            try:
                parsed.append(json.loads(item.text))
            except ValueError:
                pass
    assert content in parsed, f"{what}: no text content item holds the structuredContent's JSON: {text[:800]}"
    return content


def error_text(result: Any) -> str:
    return " ".join(getattr(item, "text", "") for item in result.content)

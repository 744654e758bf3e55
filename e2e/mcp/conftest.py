"""Fixtures for the MCP tests (docs/mcp.md): a real server process and learners on it; the helpers
are in mcp_e2e.py.

The server is started as the API tests start theirs (e2e/api/conftest.py, reused: `<bin> serve` on
a free loopback port with a fresh data directory, SQLite, and once more on PostgreSQL when
FLASHCARDS_TEST_POSTGRES_URL is set). Its log goes to artifacts/api-server-mcp-<backend>.log.
"""

from __future__ import annotations

import pytest

from mcp_e2e import BACKENDS, Learner, Server, start_server


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture(scope="session")
def mcp_server(backend) -> Server:
    """The server of the MCP tests. Its token rate limit is lifted: the tests make many requests
    with one token in a few seconds (the limit has tests of its own)."""
    server = start_server(backend, "mcp", {"FLASHCARDS_TOKEN_REQUESTS_PER_MINUTE": "100000"})
    yield server
    server.stop()


@pytest.fixture
def learner(mcp_server) -> Learner:
    return Learner(mcp_server)


@pytest.fixture
def other_learner(mcp_server) -> Learner:
    return Learner(mcp_server, "Jonas Anders")

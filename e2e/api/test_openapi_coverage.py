"""Runs last (conftest orders it after every other test of its backend): every documented operation was exercised by the stories.

Every real response is checked against Public/openapi.json (conftest.SpecChecker).
"""

from __future__ import annotations

from conftest import load_document, operations


def test_every_operation_was_exercised(server, limited_server, idle_server, mailing_server, oidc):
    """Runs last: fails when a documented operation was never called by the stories above."""
    document = load_document()
    exercised = (
        server.exercised | limited_server.exercised | idle_server.exercised | mailing_server.exercised | oidc[0].exercised
    )
    seen = {(method, path) for method, path, _ in exercised}
    missing = sorted(set(operations(document)) - seen)
    assert not missing, f"operations never exercised: {missing}"
    statuses = {(m, p, str(s)) for m, p, s in exercised}
    untested = sorted(
        f"{method} {path} {status}"
        for method, path in operations(document)
        for status in document["paths"][path][method.lower()]["responses"]
        if (method, path, status) not in statuses
    )
    print(f"\ndocumented responses not produced by the stories ({len(untested)}):\n  " + "\n  ".join(untested))

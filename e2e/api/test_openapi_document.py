"""The OpenAPI document itself, the served document and the wire conventions (lowercase ids, explicit nulls).

Every real response is checked against Public/openapi.json (conftest.SpecChecker).
"""

from __future__ import annotations

import json

from openapi_spec_validator import validate as validate_spec
import requests

from conftest import Api, PASSWORD, load_document, operations, unique_mail
from openapi_helpers import (
    ACCEPT,
    CARD,
    CARDS,
    C_CARD,
    C_CREATE,
    C_NEXT,
    C_STACK,
    DRAFT,
    DRAFTS,
    GENERATIONS,
    GENERATION_INFO,
    GUEST,
    JOB,
    JOB_CANCEL,
    JOB_EVENTS,
    LEADERBOARD,
    LOGOUT,
    ME_RETRIEVABILITY,
    ME_STATS,
    MYSTERY_BOX,
    NEXT,
    OPTIMIZE,
    PROGRESS,
    PUSH_KEY,
    PUSH_SUBSCRIPTIONS,
    RATE,
    RESET,
    RESET_CONFIRM,
    REST_DAY,
    RETRIEVABILITY,
    REVIEWS,
    SCHEDULER,
    SETTINGS,
    STACK,
    STACKS,
    STATS,
    UNDO,
    UPGRADE,
    V1,
)


def test_document_is_valid_openapi_3_1():
    document = load_document()
    assert document["openapi"].startswith("3.1.")
    validate_spec(document)


def test_document_conventions():
    """Every operation has a unique id; every protected one documents 401; every v1 path and every
    compatibility route 1-13 is present."""
    document = load_document()
    ids = []
    for method, path in operations(document):
        operation = document["paths"][path][method.lower()]
        ids.append(operation["operationId"])
        security = operation.get("security", document["security"])
        if security:
            assert "401" in operation["responses"], f"{method} {path} needs a 401 response"
        for status in operation["responses"]:
            assert status.isdigit(), f"{method} {path}: use explicit status codes, not {status}"
    assert len(ids) == len(set(ids)), "operationIds must be unique"
    expected = {
        ("POST", "/signup"),
        ("POST", "/login"),
        ("POST", "/stack"),
        ("GET", "/stack"),
        ("GET", C_STACK),
        ("DELETE", C_STACK),
        ("POST", "/card"),
        ("GET", C_CARD),
        ("PUT", C_CARD),
        ("DELETE", C_CARD),
        ("GET", C_NEXT),
        ("POST", "/stack/rating"),
        ("GET", V1 + "/health"),
        ("GET", V1 + "/ready"),
        ("GET", V1 + "/openapi.json"),
        ("POST", V1 + "/auth/signup"),
        ("POST", V1 + "/auth/login"),
        ("GET", V1 + "/me"),
        ("PATCH", V1 + "/me"),
        ("DELETE", V1 + "/me"),
        ("POST", V1 + "/me/password"),
        ("GET", STACKS),
        ("POST", STACKS),
        ("GET", STACK),
        ("PATCH", STACK),
        ("DELETE", STACK),
        ("GET", CARDS),
        ("POST", CARDS),
        ("GET", CARD),
        ("PATCH", CARD),
        ("DELETE", CARD),
        ("GET", NEXT),
        ("POST", RATE),
        ("POST", C_CREATE),
        ("POST", GENERATIONS),
        ("GET", GENERATION_INFO),
        ("GET", DRAFTS),
        ("POST", ACCEPT),
        ("PATCH", DRAFT),
        ("DELETE", DRAFT),
        ("GET", JOB),
        ("GET", JOB_EVENTS),
        ("POST", JOB_CANCEL),
        ("POST", REVIEWS),
        ("POST", UNDO),
        ("GET", STATS),
        ("GET", RETRIEVABILITY),
        ("GET", ME_STATS),
        ("GET", ME_RETRIEVABILITY),
        ("GET", SCHEDULER),
        ("DELETE", SCHEDULER),
        ("POST", OPTIMIZE),
        ("GET", RESET),
        ("POST", RESET),
        ("POST", RESET_CONFIRM),
        ("POST", GUEST),
        ("POST", UPGRADE),
        ("POST", LOGOUT),
        ("GET", SETTINGS),
        ("PATCH", SETTINGS),
        ("GET", PROGRESS),
        ("PUT", REST_DAY),
        ("DELETE", REST_DAY),
        ("POST", MYSTERY_BOX),
        ("GET", LEADERBOARD),
        ("GET", PUSH_KEY),
        ("POST", PUSH_SUBSCRIPTIONS),
        ("DELETE", PUSH_SUBSCRIPTIONS),
        ("POST", V1 + "/imports/preview"),
        ("POST", V1 + "/imports"),
        ("GET", STACK + "/export"),
    }
    missing = expected - set(operations(document))
    assert not missing, f"routes missing from the document: {sorted(missing)}"


def test_health_and_served_document(api: Api):
    response, body = api.call("GET", V1 + "/health", expect=200)
    assert body == {"status": "ok"}
    # Every response names its request for the logs; a proxy's id is kept.
    assert len(response.headers["X-Request-Id"]) == 36
    kept = requests.get(api.server.base_url + V1 + "/health", headers={"X-Request-Id": "proxy-7f3a"}, timeout=10)
    assert kept.headers["X-Request-Id"] == "proxy-7f3a"
    _, ready = api.call("GET", V1 + "/ready", expect=200)
    assert ready == {"status": "ready"}
    # Metrics are off unless an operator sets a token: nothing to find.
    assert requests.get(api.server.base_url + "/metrics", timeout=10).status_code == 404
    response, served = api.call("GET", V1 + "/openapi.json", expect=200)
    assert served == load_document(), "the server must serve Public/openapi.json as it is"
    assert response.headers["Content-Type"].startswith("application/json")
    static = requests.get(api.server.base_url + "/openapi.json", timeout=10)
    assert static.status_code == 200 and json.loads(static.content) == served


def test_v1_ids_are_lowercase_uuids(api: Api):
    """docs/api.md: "Ids are UUID strings (lowercase)"; the compatibility routes send the same ids."""
    response = api.session.post(
        api.server.base_url + V1 + "/auth/signup",
        json={"name": "Ida Klein", "mail": unique_mail(), "password": PASSWORD},
        timeout=10,
    )
    assert response.status_code == 201, response.text
    user_id = response.json()["user"]["id"]
    token = response.json()["token"]
    stack = api.session.post(
        api.server.base_url + STACKS,
        json={"name": "Ids", "color": "#000000"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    ).json()
    compat = api.session.get(api.server.base_url + "/stack", headers={"Authorization": token}, timeout=10).json()
    assert user_id == user_id.lower(), f"user id {user_id} is not lowercase"
    assert stack["id"] == stack["id"].lower(), f"stack id {stack['id']} is not lowercase"
    assert stack["id"] == compat[0]["uniqueId"], "/api/v1 and the compatibility routes must send the same id"


def test_v1_absent_values_are_explicit_nulls(api: Api):
    """docs/api.md: a card without hint has `hint: null`; `study/next` answers `card: null` when the
    session is over and `nextDueAt: null` while a card is due (JavaScript clients test `=== null`)."""
    base = api.server.base_url
    token = api.session.post(
        base + V1 + "/auth/signup",
        json={"name": "Nele Null", "mail": unique_mail(), "password": PASSWORD},
        timeout=10,
    ).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    stack = api.session.post(base + STACKS, json={"name": "Null", "color": "#000000"}, headers=auth, timeout=10).json()
    done = api.session.get(f"{base}{STACKS}/{stack['id']}/study/next", headers=auth, timeout=10).json()
    assert "card" in done and done["card"] is None, f"study/next of an empty stack: {done}"
    assert "nextDueAt" in done and done["nextDueAt"] is None, f"study/next of an empty stack: {done}"
    card = api.session.post(
        f"{base}{STACKS}/{stack['id']}/cards", json={"question": "Q", "answer": "A"}, headers=auth, timeout=10
    ).json()
    assert "hint" in card and card["hint"] is None, f"a card without hint: {card}"
    due = api.session.get(f"{base}{STACKS}/{stack['id']}/study/next", headers=auth, timeout=10).json()
    assert "nextDueAt" in due and due["nextDueAt"] is None, f"study/next with a due card: {due}"

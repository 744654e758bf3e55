"""The OpenAPI document against the real server.

First the document itself is validated (openapi-spec-validator). Then stories walk every route of
/api/v1 and of the compatibility API, good paths and errors, and every real response is checked:
its status must be documented for that operation and its body must validate against that status's
schema (JSON Schema 2020-12, `$ref`s resolved through `referencing`). The last test fails when an
operation of the document was never exercised by the stories.
"""

from __future__ import annotations

import base64
import email
import email.policy
import json
import os
import re
import threading
import time
import uuid
from datetime import date, datetime, timedelta, timezone

import requests
from openapi_spec_validator import validate as validate_spec

from conftest import PASSWORD, ROOT, Api, load_document, operations, unique_mail

V1 = "/api/v1"
STACKS = V1 + "/stacks"
STACK = STACKS + "/{stackId}"
CARDS = STACK + "/cards"
CARD = CARDS + "/{cardId}"
BOOKMARK = CARD + "/bookmark"
NEXT = STACK + "/study/next"
QUIZ = STACK + "/study/quiz"
CHECK = STACK + "/study/check"
MATCH = STACK + "/match"
RATE = STACK + "/study/rate"
C_STACK = "/stack/{stackId}"
C_CARD = "/stack/{stackId}/card/{cardId}"
C_NEXT = "/stack/{stackId}/card/next"
C_CREATE = "/stack/{stackId}/createFromFile"
GENERATIONS = STACK + "/generations"
GENERATION_INFO = V1 + "/generation"
DRAFTS = STACK + "/drafts"
ACCEPT = DRAFTS + "/accept"
DRAFT = DRAFTS + "/{draftId}"
JOB = V1 + "/jobs/{jobId}"
JOB_EVENTS = JOB + "/events"
JOB_CANCEL = JOB + "/cancel"
REVIEWS = V1 + "/reviews"
UNDO = CARD + "/undo"
STATS = STACK + "/stats"
RETRIEVABILITY = STATS + "/retrievability"
ME_STATS = V1 + "/me/stats"
ME_RETRIEVABILITY = ME_STATS + "/retrievability"
SCHEDULER = V1 + "/me/scheduler"
OPTIMIZE = SCHEDULER + "/optimize"
RESET = V1 + "/auth/password-reset"
RESET_CONFIRM = RESET + "/confirm"
GUEST = V1 + "/auth/guest"
UPGRADE = V1 + "/auth/upgrade"
LOGOUT = V1 + "/auth/logout"
SETTINGS = V1 + "/me/settings"
PROGRESS = V1 + "/me/progress"
REST_DAY = V1 + "/me/rest-days/{date}"
MYSTERY_BOX = V1 + "/me/mystery-box"
LEADERBOARD = V1 + "/leaderboards/daily"
PUSH_KEY = V1 + "/push/key"
PUSH_SUBSCRIPTIONS = V1 + "/me/push-subscriptions"
FINISHED = ("succeeded", "failed", "cancelled")


def parse_date(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def code(body) -> str:
    return body["code"]


def without_hint(card: dict) -> dict:
    """A card without its hint, which the hint generator may fill in at any moment."""
    return {key: value for key, value in card.items() if key != "hint"}


#: German unit word of a compat `duration.displayName` -> its `unit`, and whether the word is plural.
DURATION_UNITS = {
    "Sekunde": ("SECONDS", False),
    "Sekunden": ("SECONDS", True),
    "Minute": ("MINUTES", False),
    "Minuten": ("MINUTES", True),
    "Stunde": ("HOURS", False),
    "Stunden": ("HOURS", True),
    "Tag": ("DAYS", False),
    "Tage": ("DAYS", True),
}


def check_compat_durations(card: dict) -> list[tuple[int, str]]:
    """Asserts that every `duration` of a compat card states its interval in both shapes, and the
    same one: `displayName` ("<n> <German unit>", for the Vue app) and `amount` + `unit` (the
    original API's documented `Duration` model). Returns the (amount, unit) pairs in option order."""
    pairs = []
    for option in card["difficultyAndDurations"]:
        duration = option["duration"]
        number, _, word = duration["displayName"].partition(" ")
        assert number.isdigit() and word in DURATION_UNITS, f"unexpected displayName: {duration}"
        unit, plural = DURATION_UNITS[word]
        amount = duration.get("amount")
        assert type(amount) is int and amount >= 1, f"amount must be an integer >= 1: {duration}"
        assert amount == int(number) and duration.get("unit") == unit, f"amount/unit differ from the name: {duration}"
        assert plural == (amount > 1), f"singular/plural does not fit the amount: {duration}"
        pairs.append((amount, unit))
    return pairs


# --- the document -------------------------------------------------------------------------------


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


# --- meta ---------------------------------------------------------------------------------------


def test_health_and_served_document(api: Api):
    _, body = api.call("GET", V1 + "/health", expect=200)
    assert body == {"status": "ok"}
    response, served = api.call("GET", V1 + "/openapi.json", expect=200)
    assert served == load_document(), "the server must serve Public/openapi.json as it is"
    assert response.headers["Content-Type"].startswith("application/json")
    static = requests.get(api.server.base_url + "/openapi.json", timeout=10)
    assert static.status_code == 200 and json.loads(static.content) == served


# --- wire conventions, each in a test of its own so that a break is named precisely -----------------------


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


# --- /api/v1 accounts ----------------------------------------------------------------------------


def test_v1_account_story(api: Api):
    mail = unique_mail("konto")
    signup = {"name": "  Mara Beispiel ", "mail": mail, "password": PASSWORD, "timeZone": "Europe/Berlin"}
    # A stale token on signup is ignored.
    _, auth = api.call("POST", V1 + "/auth/signup", json_body=signup, token="garbage", expect=201)
    token = auth["token"]
    assert auth["user"]["name"] == "Mara Beispiel"
    assert auth["user"]["mail"] == mail and auth["user"]["timeZone"] == "Europe/Berlin"
    expires = parse_date(auth["expiresAt"]) - datetime.now(timezone.utc)
    assert timedelta(days=6, hours=23) < expires <= timedelta(days=7, minutes=1)

    # Signup errors: taken mail (any case), bad fields, bad JSON.
    _, body = api.call("POST", V1 + "/auth/signup", json_body={**signup, "mail": mail.upper()}, expect=409)
    assert code(body) == "user_already_exists"
    for bad, expected in (
        ({**signup, "mail": unique_mail(), "password": "kurz"}, "validation_failed"),
        ({**signup, "mail": "keine-adresse"}, "validation_failed"),
        ({**signup, "mail": unique_mail(), "timeZone": "Mars/Olympus"}, "unknown_time_zone"),
        ({**signup, "mail": unique_mail(), "name": "   "}, "validation_failed"),
        ({**signup, "mail": unique_mail(), "name": "x" * 101}, "validation_failed"),
        ({**signup, "mail": unique_mail(), "password": "ü" * 40}, "password_too_long"),  # 80 bytes > 72
    ):
        _, body = api.call("POST", V1 + "/auth/signup", json_body=bad, expect=400)
        assert code(body) == expected, bad
    for raw in (b"", b"{", b"[]", b'{"name":"x","mail":"a@b.de"}', b'{"name":1,"mail":"a@b.de","password":"12345678"}'):
        _, body = api.call("POST", V1 + "/auth/signup", data=raw, expect=400)
        assert code(body) == "malformed_json", raw
        assert body["message"], "a malformed body needs a clear message"

    # Login: good (mail case-insensitive), wrong password, unknown account, empty fields.
    _, login = api.call("POST", V1 + "/auth/login", json_body={"mail": mail.upper(), "password": PASSWORD}, expect=200)
    assert login["user"]["id"] == auth["user"]["id"]
    _, body = api.call("POST", V1 + "/auth/login", json_body={"mail": mail, "password": "falsch-falsch"}, expect=401)
    assert code(body) == "wrong_password" and body["message"] == "WRONG_PASSWORD"
    _, body = api.call("POST", V1 + "/auth/login", json_body={"mail": unique_mail(), "password": PASSWORD}, expect=401)
    assert code(body) == "user_not_found"
    _, body = api.call("POST", V1 + "/auth/login", json_body={"mail": "", "password": PASSWORD}, expect=400)
    assert code(body) == "validation_failed"
    _, body = api.call("POST", V1 + "/auth/login", data=b"mail=x", expect=400)
    assert code(body) == "malformed_json"

    # /me with Bearer and with the raw token; 401 for missing, garbage and empty tokens.
    _, me = api.call("GET", V1 + "/me", token=token, expect=200)
    assert me == auth["user"]
    api.call("GET", V1 + "/me", token=token, raw_token=True, expect=200)
    for bad_token in (None, "garbage", "", token[:-4] + "AAAA", "a.b.c"):
        _, body = api.call("GET", V1 + "/me", token=bad_token, expect=401)
        assert code(body) == "unauthorized"

    # PATCH /me.
    _, me = api.call(
        "PATCH", V1 + "/me", token=token, json_body={"name": "Mara B.", "timeZone": "Asia/Tokyo"}, expect=200
    )
    assert me["name"] == "Mara B." and me["timeZone"] == "Asia/Tokyo" and me["id"] == auth["user"]["id"]
    _, me = api.call("PATCH", V1 + "/me", token=token, json_body={}, expect=200)
    assert me["name"] == "Mara B."
    for bad, expected in (
        ({"timeZone": "Nowhere/City"}, "unknown_time_zone"),
        ({"name": " "}, "validation_failed"),
        ({"name": "y" * 101}, "validation_failed"),
    ):
        _, body = api.call("PATCH", V1 + "/me", token=token, json_body=bad, expect=400)
        assert code(body) == expected, bad
    _, body = api.call("PATCH", V1 + "/me", token=token, json_body={"name": 5}, expect=400)
    assert code(body) == "malformed_json"
    api.call("PATCH", V1 + "/me", json_body={"name": "Nobody"}, expect=401)

    # Password change: wrong current, too short new, then success; older tokens stop working.
    path = V1 + "/me/password"
    _, body = api.call(
        "POST",
        path,
        token=token,
        json_body={"currentPassword": "nope-nope", "newPassword": "neu-und-lang-1"},
        expect=403,
    )
    assert code(body) == "wrong_password"
    _, body = api.call(
        "POST", path, token=token, json_body={"currentPassword": PASSWORD, "newPassword": "kurz"}, expect=400
    )
    assert code(body) == "validation_failed"
    _, body = api.call("POST", path, token=token, json_body={"currentPassword": PASSWORD}, expect=400)
    assert code(body) == "malformed_json"
    api.call("POST", path, json_body={"currentPassword": PASSWORD, "newPassword": "neu-und-lang-1"}, expect=401)
    api.call(
        "POST", path, token=token, json_body={"currentPassword": PASSWORD, "newPassword": "neu-und-lang-1"}, expect=204
    )
    api.call("GET", V1 + "/me", token=token, expect=401)
    api.call("GET", V1 + "/me", token=login["token"], expect=401)
    _, login = api.call("POST", V1 + "/auth/login", json_body={"mail": mail, "password": "neu-und-lang-1"}, expect=200)
    token = login["token"]

    # Account deletion: needs the password; afterwards the token and the login are gone.
    _, body = api.call("DELETE", V1 + "/me", token=token, json_body={"password": PASSWORD}, expect=403)
    assert code(body) == "wrong_password"
    _, body = api.call("DELETE", V1 + "/me", token=token, expect=400)
    assert code(body) == "malformed_json"
    api.call("DELETE", V1 + "/me", json_body={"password": "neu-und-lang-1"}, expect=401)
    api.call("DELETE", V1 + "/me", token=token, json_body={"password": "neu-und-lang-1"}, expect=204)
    api.call("GET", V1 + "/me", token=token, expect=401)
    api.call("DELETE", V1 + "/me", token=token, json_body={"password": "neu-und-lang-1"}, expect=401)
    _, body = api.call("POST", V1 + "/auth/login", json_body={"mail": mail, "password": "neu-und-lang-1"}, expect=401)
    assert code(body) == "user_not_found"


# --- /api/v1 stacks and cards ------------------------------------------------------------------------


RENDER = V1 + "/render"


def test_v1_rich_cards_story(api: Api):
    """Issue 20: a card written in the Markdown subset with formulas is rendered as sanitised HTML on
    /api/v1 and shown as plain text by the original routes; the editor's preview renders the same way."""
    owner = api.signup()
    token = owner["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Physik", "color": "#2563EB"}, expect=201)
    at = {"stackId": stack["id"]}
    source = {"question": "Was besagt **Newtons** 2. Gesetz?", "answer": "$F = m \\cdot a$", "hint": "<b>Kraft</b>"}
    _, card = api.call("POST", CARDS, path=at, token=token, json_body={**source, "format": "markdown"}, expect=201)
    assert card["format"] == "markdown" and card["question"] == source["question"]
    assert card["rendered"] == {
        "question": "<p>Was besagt <strong>Newtons</strong> 2. Gesetz?</p>",
        "answer": '<p><span class="math">F = m \\cdot a</span></p>',
        "hint": "<p>&lt;b&gt;Kraft&lt;/b&gt;</p>",
    }
    _, plain = api.call("POST", CARDS, path=at, token=token, json_body={"question": "a*b*c", "answer": "x"}, expect=201)
    assert plain["format"] == "plain" and plain["rendered"] is None
    _, page = api.call("GET", CARDS, path=at, token=token, expect=200)
    assert {c["id"]: c["format"] for c in page["items"]} == {card["id"]: "markdown", plain["id"]: "plain"}
    # The original routes show the words.
    _, compat = api.call("GET", C_CARD, path={**at, "cardId": card["id"]}, token=token, raw_token=True, expect=200)
    assert compat["question"] == "Was besagt Newtons 2. Gesetz?" and compat["answer"] == "F = m \\cdot a"
    # Switching the format back and forth; a format that does not exist is refused.
    _, changed = api.call("PATCH", CARD, path={**at, "cardId": plain["id"]}, token=token,
                          json_body={"format": "markdown"}, expect=200)
    assert changed["rendered"]["question"] == "<p>a<em>b</em>c</p>"
    _, body = api.call("PATCH", CARD, path={**at, "cardId": plain["id"]}, token=token,
                       json_body={"format": "html"}, expect=400)
    assert code(body) == "validation_failed"
    # The editor's preview.
    _, preview = api.call("POST", RENDER, token=token, json_body={"text": "- $x^2$\n- <script>"}, expect=200)
    assert preview == {"html": '<ul><li><span class="math">x^2</span></li><li>&lt;script&gt;</li></ul>',
                       "plainText": "- x^2\n- <script>"}
    _, body = api.call("POST", RENDER, token=token, json_body={"text": "x" * 20_001}, expect=400)
    assert code(body) == "validation_failed"
    api.call("POST", RENDER, json_body={"text": "x"}, expect=401)


def test_v1_card_kinds_story(api: Api):
    """Issue 20: card kinds. A reversed pair and a cloze are notes of several cards, edited together;
    a true/false and a multiple-choice card bring their own quiz options; Write checks a cloze's gap;
    the original routes show the sides. Every answer is checked against the document."""
    token = api.signup()["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Arten", "color": "#2563EB"}, expect=201)
    at = {"stackId": stack["id"]}
    _, pair = api.call("POST", CARDS, path=at, token=token,
                       json_body={"question": "Hund", "answer": "dog", "kind": "reversed"}, expect=201)
    assert pair["kind"] == "reversed" and pair["variant"] == 0 and pair["noteId"]
    _, cloze = api.call("POST", CARDS, path=at, token=token, json_body={
        "question": "{{c1::Paris}} liegt an der {{c2::Seine::Fluss}}.", "answer": "", "kind": "cloze"}, expect=201)
    assert cloze["shown"] == {"question": "[…] liegt an der Seine.", "answer": "Paris liegt an der Seine.",
                              "expected": "Paris"}
    _, page = api.call("GET", CARDS, path=at, token=token, expect=200)
    assert sorted((c["kind"], c["variant"]) for c in page["items"]) == [
        ("cloze", 1), ("cloze", 2), ("reversed", 0), ("reversed", 1)]
    back = next(c for c in page["items"] if c["kind"] == "reversed" and c["variant"] == 1)
    assert back["shown"]["question"] == "dog" and pair["shown"] is None or pair["shown"]["question"] == "Hund"
    # An edit of a cloze: gap 2 goes, gap 3 comes.
    _, edited = api.call("PATCH", CARD, path={**at, "cardId": cloze["id"]}, token=token,
                         json_body={"question": "{{c1::Paris}} ist die Hauptstadt von {{c3::Frankreich}}."}, expect=200)
    assert edited["id"] == cloze["id"] and edited["variant"] == 1
    _, page = api.call("GET", CARDS, path=at, token=token, expect=200)
    assert sorted(c["variant"] for c in page["items"] if c["kind"] == "cloze") == [1, 3]
    # Write checks the gap.
    _, checked = api.call("POST", CHECK, path=at, token=token, json_body={"cardId": cloze["id"], "answer": "paris"},
                          expect=200)
    assert checked["verdict"] == "correct" and checked["expected"] == "Paris"
    # The original routes show the sides.
    _, compat = api.call("GET", C_CARD, path={**at, "cardId": cloze["id"]}, token=token, raw_token=True, expect=200)
    assert compat["question"] == "[…] ist die Hauptstadt von Frankreich."

    # Own quiz options.
    _, quiz_stack = api.call("POST", STACKS, token=token, json_body={"name": "Quiz", "color": "#2563EB"}, expect=201)
    qat = {"stackId": quiz_stack["id"]}
    _, truth = api.call("POST", CARDS, path=qat, token=token,
                        json_body={"question": "Wale sind Fische.", "answer": "false", "kind": "trueFalse"}, expect=201)
    _, quiz = api.call("GET", QUIZ, path=qat, token=token, expect=200)
    assert quiz["card"]["id"] == truth["id"] and quiz["choices"] == ["Wahr", "Falsch"] and quiz["correctIndex"] == 1
    _, choice = api.call("POST", CARDS, path=qat, token=token, json_body={
        "question": "Welches Organ pumpt Blut?", "answer": "Herz", "kind": "multipleChoice",
        "choices": ["Lunge", "Leber"]}, expect=201)
    assert choice["choices"] == ["Lunge", "Leber"]

    # What a kind cannot be made of: 400 card_kind_rules, nothing written.
    for bad in (
        {"question": "ohne Lücke", "answer": "", "kind": "cloze"},
        {"question": "Satz", "answer": "vielleicht", "kind": "trueFalse"},
        {"question": "Frage", "answer": "a", "kind": "multipleChoice"},
        {"question": "Frage", "answer": "a", "kind": "multipleChoice", "choices": ["A"]},
        {"question": "ohne Lücke", "answer": "x", "kind": "fillBlank"},
        {"question": "Frage", "answer": "a", "choices": ["b"]},
    ):
        _, body = api.call("POST", CARDS, path=qat, token=token, json_body=bad, expect=400)
        assert code(body) == "card_kind_rules", bad
    _, body = api.call("POST", CARDS, path=qat, token=token, json_body={"question": "F", "answer": "a", "kind": "note"},
                       expect=400)
    assert code(body) == "validation_failed"
    _, page = api.call("GET", CARDS, path=qat, token=token, expect=200)
    assert page["total"] == 2


SHARE = STACK + "/share"
SHARED = V1 + "/shared/{token}"
SHARED_COPY = SHARED + "/copy"


def test_v1_share_link_story(api: Api):
    """Issue 20: a read-only link to a stack, viewed without an account, copied with new progress,
    revoked at once."""
    owner = api.signup()
    token = owner["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Latein", "color": "#7C3AED"}, expect=201)
    at = {"stackId": stack["id"]}
    api.call("POST", CARDS, path=at, token=token, json_body={"question": "amo", "answer": "ich liebe"}, expect=201)
    api.call("POST", CARDS, path=at, token=token,
             json_body={"question": "**esse**", "answer": "sein", "format": "markdown"}, expect=201)
    _, body = api.call("GET", SHARE, path=at, token=token, expect=404)
    assert code(body) == "share_not_found"
    _, link = api.call("POST", SHARE, path=at, token=token, expect=201)
    assert link["path"] == "/app/shared/" + link["token"]
    _, same = api.call("POST", SHARE, path=at, token=token, expect=200)
    assert same == link
    _, shown = api.call("GET", SHARE, path=at, token=token, expect=200)
    assert shown == link
    api.call("POST", SHARE, path=at, expect=401)
    # Anyone with the link; no learning state in it.
    _, shared = api.call("GET", SHARED, path={"token": link["token"]}, expect=200)
    assert shared["name"] == "Latein" and shared["cardCount"] == 2
    assert [c["question"] for c in shared["cards"]["items"]] == ["amo", "**esse**"]
    assert shared["cards"]["items"][1]["rendered"]["question"] == "<p><strong>esse</strong></p>"
    assert all(set(c) == {"question", "answer", "hint", "format", "rendered"} for c in shared["cards"]["items"])
    api.call("GET", SHARED, path={"token": link["token"]}, params={"perPage": "0"}, expect=400)
    # Another learner copies it.
    other = api.signup("Jonas Fremd")
    api.call("POST", SHARED_COPY, path={"token": link["token"]}, expect=401)
    _, copy = api.call("POST", SHARED_COPY, path={"token": link["token"]}, token=other["token"], expect=201)
    assert copy["name"] == "Latein" and copy["cardCount"] == 2 and copy["dueCount"] == 2 and copy["id"] != stack["id"]
    api.call("GET", SHARE, path=at, token=other["token"], expect=404)
    api.call("DELETE", SHARE, path=at, token=other["token"], expect=404)
    # Revoked: gone at once.
    api.call("DELETE", SHARE, path=at, token=token, expect=204)
    api.call("DELETE", SHARE, path=at, token=token, expect=204)
    _, body = api.call("GET", SHARED, path={"token": link["token"]}, expect=404)
    assert code(body) == "share_not_found"
    _, body = api.call("POST", SHARED_COPY, path={"token": link["token"]}, token=other["token"], expect=404)
    assert code(body) == "share_not_found"
    _, body = api.call("GET", SHARED, path={"token": "A" * 43}, expect=404)
    assert code(body) == "share_not_found"


IMAGES = V1 + "/images"
IMAGE = IMAGES + "/{imageId}"


def test_v1_card_images_story(api: Api):
    """Issue 20: an image uploaded (a form and a pasted body), shown by a rich card, served to its
    owner and to share-link holders only, refused on another learner's card, bad uploads refused."""
    owner = api.signup()
    token = owner["token"]
    _, image = api.call("POST", IMAGES, token=token, files={"file": ("notes.jpg", fixture("notes.jpg"))}, expect=201)
    assert image["mediaType"] == "image/jpeg" and (image["width"], image["height"]) == (1400, 520)
    assert image["markdown"] == f"![](image:{image['id']})"
    response, _ = api.call("GET", IMAGE, path={"imageId": image["id"]}, token=token, expect=200)
    assert response.headers["Content-Type"] == "image/jpeg" and len(response.content) == image["bytes"]
    assert response.content[:3] == b"\xff\xd8\xff" and b"Exif" not in response.content
    assert "private" in response.headers["Cache-Control"]
    # A pasted picture: the bytes are the body.
    response, pasted = api.call(
        "POST", IMAGES, token=token, data=fixture("notes.png"), headers={"Content-Type": "image/png"}, expect=201)
    assert pasted["mediaType"] == "image/png" and response.headers["Location"] == f"/api/v1/images/{pasted['id']}"
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Zellen", "color": "#059669"}, expect=201)
    at = {"stackId": stack["id"]}
    _, card = api.call("POST", CARDS, path=at, token=token, expect=201, json_body={
        "question": "Was zeigt das Bild? ![Notizen <b>](image:" + image["id"] + ")", "answer": "Notizen",
        "format": "markdown"})
    assert card["rendered"]["question"] == (
        f'<p>Was zeigt das Bild? <img class="card-image" data-image="{image["id"]}" alt="Notizen &lt;b&gt;"></p>')
    # Not to anyone else; a foreign image on another learner's card is refused.
    api.call("GET", IMAGE, path={"imageId": image["id"]}, expect=404)
    other = api.signup("Jonas Fremd")
    _, body = api.call("GET", IMAGE, path={"imageId": image["id"]}, token=other["token"], expect=404)
    assert code(body) == "image_not_found"
    _, theirs = api.call("POST", STACKS, token=other["token"], json_body={"name": "X", "color": "#DC2626"}, expect=201)
    _, body = api.call("POST", CARDS, path={"stackId": theirs["id"]}, token=other["token"], expect=400,
                       json_body={"question": image["markdown"], "answer": "x", "format": "markdown"})
    assert code(body) == "unknown_image"
    # A share link shows it, until it is revoked.
    _, link = api.call("POST", SHARE, path=at, token=token, expect=201)
    api.call("GET", IMAGE, path={"imageId": image["id"]}, params={"share": link["token"]}, expect=200)
    api.call("GET", IMAGE, path={"imageId": pasted["id"]}, params={"share": link["token"]}, expect=404)
    api.call("DELETE", SHARE, path=at, token=token, expect=204)
    _, body = api.call("GET", IMAGE, path={"imageId": image["id"]}, params={"share": link["token"]}, expect=404)
    assert code(body) == "share_not_found"
    api.call("GET", IMAGE, path={"imageId": image["id"]}, token="expired.or.forged", expect=401)
    # Bad uploads: clear 4xx, nothing stored.
    _, body = api.call("POST", IMAGES, token=token, files={"file": ("a.svg", b"<svg onload=alert(1)/>")}, expect=415)
    assert code(body) == "unsupported_media_type"
    _, body = api.call("POST", IMAGES, token=token, data=b"\xff\xd8\xff\xe0\x00\x04\x00\x00",
                       headers={"Content-Type": "image/jpeg"}, expect=400)
    assert code(body) == "image_invalid"
    _, body = api.call("POST", IMAGES, token=token, data=b"\xff\xd8\xff" + bytes(10 * 1024 * 1024),
                       headers={"Content-Type": "image/jpeg"}, expect=413)
    assert code(body) == "payload_too_large"
    api.call("POST", IMAGES, data=fixture("notes.png"), headers={"Content-Type": "image/png"}, expect=401)


PUBLICATION = STACK + "/publication"
EXPLORE = V1 + "/explore"
EXPLORE_ENTRY = EXPLORE + "/{entryId}"
EXPLORE_COPY = EXPLORE_ENTRY + "/copy"
EXPLORE_REPORT = EXPLORE_ENTRY + "/report"


def test_v1_explore_story(api: Api):
    """Issue 20: publish a stack in the catalogue, browse, search, open, copy, report, take back;
    the starter decks are there from the first start."""
    tag = uuid.uuid4().hex[:10]
    owner = api.signup()
    token = owner["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": f"Vokabeln {tag}", "color": "#7C3AED"},
                        expect=201)
    at = {"stackId": stack["id"]}
    _, body = api.call("PUT", PUBLICATION, path=at, token=token,
                       json_body={"category": "languages", "language": "de"}, expect=409)
    assert code(body) == "stack_empty"
    for i in range(4):
        api.call("POST", CARDS, path=at, token=token, json_body={"question": f"Wort {i}", "answer": f"word {i}"},
                 expect=201)
    _, body = api.call("GET", PUBLICATION, path=at, token=token, expect=404)
    assert code(body) == "not_published"
    _, entry = api.call("PUT", PUBLICATION, path=at, token=token,
                        json_body={"category": "languages", "language": "de"}, expect=201)
    _, changed = api.call("PUT", PUBLICATION, path=at, token=token,
                          json_body={"category": "languages", "language": "en"}, expect=200)
    assert changed["entryId"] == entry["entryId"] and changed["language"] == "en"
    api.call("GET", PUBLICATION, path=at, token=token, expect=200)
    api.call("PUT", PUBLICATION, path=at, token=token, json_body={"category": "astrology", "language": "de"},
             expect=400)
    api.call("GET", PUBLICATION, path=at, expect=401)

    other = api.signup("Jonas Fremd")
    ot = other["token"]
    api.call("PUT", PUBLICATION, path=at, token=ot, json_body={"category": "other", "language": "de"}, expect=404)
    _, starter = api.call("GET", EXPLORE, token=ot, params={"perPage": "100"}, expect=200)
    assert any(e["official"] and e["name"] == "Europäische Hauptstädte" for e in starter["items"])
    _, found = api.call("GET", EXPLORE, token=ot, params={"q": f"VOKABELN {tag}", "language": "en"}, expect=200)
    assert [e["name"] for e in found["items"]] == [f"Vokabeln {tag}"] and found["items"][0]["cardCount"] == 4
    assert [c["question"] for c in found["items"][0]["preview"]] == ["Wort 0", "Wort 1", "Wort 2"]
    api.call("GET", EXPLORE, token=ot, params={"category": "astrology"}, expect=400)
    api.call("GET", EXPLORE, expect=401)
    eid = {"entryId": entry["entryId"]}
    _, page = api.call("GET", EXPLORE_ENTRY, path=eid, token=ot, params={"perPage": "3", "page": "2"}, expect=200)
    assert [c["question"] for c in page["cards"]["items"]] == ["Wort 3"]
    api.call("GET", EXPLORE_ENTRY, path=eid, token=ot, params={"perPage": "0"}, expect=400)
    _, copy = api.call("POST", EXPLORE_COPY, path=eid, token=ot, expect=201)
    assert copy["cardCount"] == 4 and copy["dueCount"] == 4
    _, body = api.call("POST", EXPLORE_REPORT, path=eid, token=token, json_body={"reason": "spam"}, expect=409)
    assert code(body) == "own_entry"
    api.call("POST", EXPLORE_REPORT, path=eid, token=ot, json_body={"reason": "nonsense"}, expect=400)
    api.call("POST", EXPLORE_REPORT, path=eid, token=ot, json_body={"reason": "spam", "note": "Werbung"}, expect=204)
    _, body = api.call("GET", EXPLORE_ENTRY, path=eid, token=ot, expect=404)
    assert code(body) == "catalogue_entry_not_found"
    api.call("POST", EXPLORE_COPY, path=eid, token=ot, expect=404)
    api.call("POST", EXPLORE_REPORT, path=eid, token=ot, json_body={"reason": "spam"}, expect=404)
    # The operator sees the report (`flashcards catalogue`), hides the entry for everyone.
    listed = api.server.command("catalogue", "reports")
    assert listed.returncode == 0, listed.stderr
    line = next(l for l in listed.stdout.splitlines() if entry["entryId"] in l)
    assert "spam" in line and f'"Vokabeln {tag}"' in line and line.endswith(": Werbung"), line
    third = api.signup("Cleo Dritte")["token"]
    api.call("GET", EXPLORE_ENTRY, path=eid, token=third, expect=200)
    hidden = api.server.command("catalogue", "hide", entry["entryId"])
    assert hidden.returncode == 0 and "Hidden" in hidden.stdout, hidden.stderr
    api.call("GET", EXPLORE_ENTRY, path=eid, token=third, expect=404)
    assert entry["entryId"] not in api.server.command("catalogue", "reports").stdout
    unknown = api.server.command("catalogue", "hide", str(uuid.uuid4()))
    assert unknown.returncode != 0 and "No catalogue entry" in unknown.stderr + unknown.stdout
    # Taken back.
    api.call("DELETE", PUBLICATION, path=at, token=token, expect=204)
    api.call("DELETE", PUBLICATION, path=at, token=ot, expect=404)
    _, body = api.call("GET", EXPLORE_ENTRY, path=eid, token=token, expect=404)
    assert code(body) == "catalogue_entry_not_found"


def test_v1_stacks_and_cards_story(api: Api):
    owner = api.signup()
    token = owner["token"]
    other = api.signup("Jonas Fremd")

    _, stacks = api.call("GET", STACKS, token=token, expect=200)
    assert stacks == []
    api.call("GET", STACKS, expect=401)

    # Create.
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": " Biologie ", "color": "#059669"}, expect=201)
    assert stack["name"] == "Biologie" and stack["cardCount"] == 0 and stack["dueCount"] == 0
    assert stack["createdAt"] == stack["updatedAt"]
    sid = stack["id"]
    for bad in (
        {"name": "Chemie", "color": "red"},
        {"name": "Chemie", "color": "#12345"},
        {"name": "  ", "color": "#000000"},
        {"name": "z" * 201, "color": "#000000"},
        {"name": "Chemie", "color": ""},
    ):
        _, body = api.call("POST", STACKS, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed", bad
    _, body = api.call("POST", STACKS, token=token, json_body={"name": "Chemie"}, expect=400)
    assert code(body) == "malformed_json"
    api.call("POST", STACKS, json_body={"name": "Chemie", "color": "#000000"}, expect=401)
    _, second = api.call("POST", STACKS, token=token, json_body={"name": "Chemie", "color": "#2563EB"}, expect=201)

    # Read, list (creation order), 404 for unknown, malformed and foreign ids.
    _, got = api.call("GET", STACK, path={"stackId": sid}, token=token, expect=200)
    assert got == stack
    _, stacks = api.call("GET", STACKS, token=token, expect=200)
    assert [s["id"] for s in stacks] == [sid, second["id"]]
    for missing in (str(uuid.uuid4()), "not-a-uuid", "0"):
        _, body = api.call("GET", STACK, path={"stackId": missing}, token=token, expect=404)
        assert code(body) == "stack_not_found"
    _, body = api.call("GET", STACK, path={"stackId": sid}, token=other["token"], expect=404)
    assert code(body) == "stack_not_found"
    api.call("GET", STACK, path={"stackId": sid}, expect=401)

    # Update.
    _, updated = api.call(
        "PATCH", STACK, path={"stackId": sid}, token=token, json_body={"name": "Biologie II"}, expect=200
    )
    assert updated["name"] == "Biologie II" and updated["color"] == "#059669"
    assert parse_date(updated["updatedAt"]) >= parse_date(stack["updatedAt"])
    _, updated = api.call(
        "PATCH", STACK, path={"stackId": sid}, token=token, json_body={"color": "#ABCDEF"}, expect=200
    )
    assert updated["color"] == "#ABCDEF" and updated["name"] == "Biologie II"
    _, body = api.call("PATCH", STACK, path={"stackId": sid}, token=token, json_body={"color": "blue"}, expect=400)
    assert code(body) == "validation_failed"
    _, body = api.call("PATCH", STACK, path={"stackId": sid}, token=token, data=b"{oops", expect=400)
    assert code(body) == "malformed_json"
    api.call("PATCH", STACK, path={"stackId": sid}, token=other["token"], json_body={"name": "Meins"}, expect=404)
    api.call("PATCH", STACK, path={"stackId": sid}, json_body={"name": "Meins"}, expect=401)

    # Cards: create with and without hint, errors.
    created = []
    for index in range(7):
        body = {"question": f"Frage {index}", "answer": f"Antwort {index}"}
        if index == 0:
            body["hint"] = "Merkwort Zitrone"
        if index == 1:
            body["question"] = "Was heißt 50% Rabatt_Code?"
        if index == 2:
            body["hint"] = "  "
        _, card = api.call("POST", CARDS, path={"stackId": sid}, token=token, json_body=body, expect=201)
        assert card["stackId"] == sid and card["level"] == 0
        assert card["dueAt"] == card["createdAt"], "a new card is due at once"
        created.append(card)
    assert created[0]["hint"] == "Merkwort Zitrone"
    assert created[2]["hint"] is None and created[3]["hint"] is None
    _, body = api.call("POST", CARDS, path={"stackId": sid}, token=token, json_body={"question": "Q", "answer": ""},
                       expect=400)
    assert code(body) == "card_kind_rules", "an empty back is a rule of the card's kind (a cloze may have one)"
    for bad in (
        {"question": " ", "answer": "A"},
        {"question": "Q" * 10_001, "answer": "A"},
        {"question": "Q", "answer": "A" * 20_001},
        {"question": "Q", "answer": "A", "hint": "H" * 2_001},
        {"question": "Q\u0000", "answer": "A"},
    ):
        _, body = api.call("POST", CARDS, path={"stackId": sid}, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed"
    _, body = api.call("POST", CARDS, path={"stackId": sid}, token=token, json_body={"question": "Q"}, expect=400)
    assert code(body) == "malformed_json"
    _, body = api.call(
        "POST",
        CARDS,
        path={"stackId": str(uuid.uuid4())},
        token=token,
        json_body={"question": "Q", "answer": "A"},
        expect=404,
    )
    assert code(body) == "stack_not_found"
    api.call(
        "POST",
        CARDS,
        path={"stackId": sid},
        token=other["token"],
        json_body={"question": "Q", "answer": "A"},
        expect=404,
    )
    api.call("POST", CARDS, path={"stackId": sid}, json_body={"question": "Q", "answer": "A"}, expect=401)
    # Longest allowed texts are fine.
    _, long_card = api.call(
        "POST",
        CARDS,
        path={"stackId": sid},
        token=token,
        json_body={"question": "Q" * 10_000, "answer": "A" * 20_000, "hint": "H" * 2_000},
        expect=201,
    )

    # Bodies above 1 MB: 413.
    _, body = api.call(
        "POST",
        CARDS,
        path={"stackId": sid},
        token=token,
        json_body={"question": "Q" * 1_100_000, "answer": "A"},
        expect=413,
    )
    assert code(body) == "payload_too_large"

    # Counts.
    _, got = api.call("GET", STACK, path={"stackId": sid}, token=token, expect=200)
    assert got["cardCount"] == 8 and got["dueCount"] == 8

    # Paging and search.
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"page": 1, "perPage": 3}, expect=200)
    assert page["total"] == 8 and page["page"] == 1 and page["perPage"] == 3
    assert [c["id"] for c in page["items"]] == [c["id"] for c in created[:3]]
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"page": 3, "perPage": 3}, expect=200)
    assert [c["id"] for c in page["items"]] == [created[6]["id"], long_card["id"]]
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"page": 4, "perPage": 3}, expect=200)
    assert page["items"] == [] and page["total"] == 8
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, expect=200)
    assert page["perPage"] == 50 and page["page"] == 1 and len(page["items"]) == 8
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"q": "ANTWORT 4"}, expect=200)
    assert [c["id"] for c in page["items"]] == [created[4]["id"]] and page["total"] == 1
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"q": "ZITRONE"}, expect=200)
    assert [c["id"] for c in page["items"]] == [created[0]["id"]]
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"q": "50%"}, expect=200)
    assert [c["id"] for c in page["items"]] == [created[1]["id"]]
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"q": "t_c"}, expect=200)
    assert [c["id"] for c in page["items"]] == [created[1]["id"]]
    # As wildcards, "e%3" and "e_3" would match "Frage 3"; they must be matched literally.
    for literal in ("e%3", "e_3"):
        _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"q": literal}, expect=200)
        assert page["items"] == [] and page["total"] == 0, f"{literal!r} must be matched literally"
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"q": "gibt es nicht"}, expect=200)
    assert page["items"] == [] and page["total"] == 0
    for bad in ({"perPage": 0}, {"perPage": 201}, {"page": 0}, {"page": "abc"}, {"perPage": "1.5"}):
        _, body = api.call("GET", CARDS, path={"stackId": sid}, token=token, params=bad, expect=400)
        assert code(body) == "validation_failed", bad
    api.call("GET", CARDS, path={"stackId": "nope"}, token=token, expect=404)
    api.call("GET", CARDS, path={"stackId": sid}, expect=401)

    # One card: read, edit, remove the hint, 404s.
    cid = created[0]["id"]
    _, card = api.call("GET", CARD, path={"stackId": sid, "cardId": cid}, token=token, expect=200)
    assert card == created[0]
    for missing in (str(uuid.uuid4()), "next", "x"):
        _, body = api.call("GET", CARD, path={"stackId": sid, "cardId": missing}, token=token, expect=404)
        assert code(body) == "card_not_found"
    _, body = api.call("GET", CARD, path={"stackId": second["id"], "cardId": cid}, token=token, expect=404)
    assert code(body) == "card_not_found", "a card is found only in its own stack"
    api.call("GET", CARD, path={"stackId": sid, "cardId": cid}, token=other["token"], expect=404)
    api.call("GET", CARD, path={"stackId": sid, "cardId": cid}, expect=401)

    _, card = api.call(
        "PATCH",
        CARD,
        path={"stackId": sid, "cardId": cid},
        token=token,
        json_body={"question": "Neue Frage"},
        expect=200,
    )
    assert card["question"] == "Neue Frage" and card["answer"] == "Antwort 0" and card["hint"] == "Merkwort Zitrone"
    _, card = api.call(
        "PATCH", CARD, path={"stackId": sid, "cardId": cid}, token=token, json_body={"hint": ""}, expect=200
    )
    assert card["hint"] is None
    _, card = api.call(
        "PATCH",
        CARD,
        path={"stackId": sid, "cardId": cid},
        token=token,
        json_body={"hint": "Merkwort Apfelbaum", "answer": "Neue Antwort"},
        expect=200,
    )
    assert card["hint"] == "Merkwort Apfelbaum" and card["answer"] == "Neue Antwort"
    _, card = api.call(
        "PATCH", CARD, path={"stackId": sid, "cardId": cid}, token=token, json_body={"hint": None}, expect=200
    )
    assert card["hint"] == "Merkwort Apfelbaum", "null leaves the hint as it is"
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"q": "apfelbaum"}, expect=200)
    assert [c["id"] for c in page["items"]] == [cid], "search follows edits"
    _, body = api.call(
        "PATCH", CARD, path={"stackId": sid, "cardId": cid}, token=token, json_body={"question": ""}, expect=400
    )
    assert code(body) == "validation_failed"
    _, body = api.call(
        "PATCH", CARD, path={"stackId": sid, "cardId": cid}, token=token, json_body={"answer": []}, expect=400
    )
    assert code(body) == "malformed_json"
    api.call(
        "PATCH",
        CARD,
        path={"stackId": sid, "cardId": str(uuid.uuid4())},
        token=token,
        json_body={"question": "Q"},
        expect=404,
    )
    api.call("PATCH", CARD, path={"stackId": sid, "cardId": cid}, json_body={"question": "Q"}, expect=401)

    # Bookmarks: set, filter, remove; foreign cards are not found.
    at_card = {"stackId": sid, "cardId": cid}
    assert card["bookmarked"] is False
    _, card = api.call("PUT", BOOKMARK, path=at_card, token=token, expect=200)
    assert card["bookmarked"] is True and card["answer"] == "Neue Antwort"
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"bookmarked": "true"}, expect=200)
    assert [c["id"] for c in page["items"]] == [cid] and page["total"] == 1
    _, page = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"bookmarked": "false"}, expect=200)
    assert cid not in [c["id"] for c in page["items"]]
    _, body = api.call("GET", CARDS, path={"stackId": sid}, token=token, params={"bookmarked": "ja"}, expect=400)
    assert code(body) == "validation_failed"
    _, card = api.call("DELETE", BOOKMARK, path=at_card, token=token, expect=200)
    assert card["bookmarked"] is False
    api.call("PUT", BOOKMARK, path=at_card, token=other["token"], expect=404)
    api.call("DELETE", BOOKMARK, path={"stackId": sid, "cardId": str(uuid.uuid4())}, token=token, expect=404)
    api.call("PUT", BOOKMARK, path=at_card, expect=401)
    api.call("DELETE", BOOKMARK, path=at_card, expect=401)

    # Delete a card.
    api.call("DELETE", CARD, path={"stackId": sid, "cardId": cid}, expect=401)
    api.call("DELETE", CARD, path={"stackId": sid, "cardId": cid}, token=other["token"], expect=404)
    api.call("DELETE", CARD, path={"stackId": sid, "cardId": cid}, token=token, expect=204)
    api.call("GET", CARD, path={"stackId": sid, "cardId": cid}, token=token, expect=404)
    _, body = api.call("DELETE", CARD, path={"stackId": sid, "cardId": cid}, token=token, expect=404)
    assert code(body) == "card_not_found"
    _, got = api.call("GET", STACK, path={"stackId": sid}, token=token, expect=200)
    assert got["cardCount"] == 7

    # Delete a stack: its cards go with it.
    api.call("DELETE", STACK, path={"stackId": sid}, expect=401)
    api.call("DELETE", STACK, path={"stackId": sid}, token=other["token"], expect=404)
    api.call("DELETE", STACK, path={"stackId": sid}, token=token, expect=204)
    api.call("GET", STACK, path={"stackId": sid}, token=token, expect=404)
    api.call("GET", CARD, path={"stackId": sid, "cardId": created[1]["id"]}, token=token, expect=404)
    _, body = api.call("DELETE", STACK, path={"stackId": sid}, token=token, expect=404)
    assert code(body) == "stack_not_found"
    _, stacks = api.call("GET", STACKS, token=token, expect=200)
    assert [s["id"] for s in stacks] == [second["id"]]


# --- /api/v1 study ---------------------------------------------------------------------------------


def test_v1_study_story(api: Api):
    owner = api.signup(time_zone="Europe/Berlin")
    token = owner["token"]
    _, stack = api.call(
        "POST",
        STACKS,
        token=token,
        json_body={"name": "Vokabeln", "color": "#7C3AED", "scheduler": "ladder"},
        expect=201,
    )
    assert stack["scheduler"] == "ladder"
    sid = stack["id"]
    at = {"stackId": sid}

    # Empty stack: nothing due, nothing ever due.
    _, nxt = api.call("GET", NEXT, path=at, token=token, expect=200)
    assert nxt == {"card": None, "options": [], "dueCount": 0, "nextDueAt": None}
    _, quiz = api.call("GET", QUIZ, path=at, token=token, expect=200)
    assert quiz["card"] is None and quiz["choices"] == [] and quiz["correctIndex"] is None

    first = api.call("POST", CARDS, path=at, token=token, json_body={"question": "Hund", "answer": "dog"}, expect=201)[
        1
    ]
    second = api.call(
        "POST", CARDS, path=at, token=token, json_body={"question": "Katze", "answer": "cat"}, expect=201
    )[1]

    _, nxt = api.call("GET", NEXT, path=at, token=token, expect=200)
    assert nxt["card"]["id"] == first["id"] and nxt["dueCount"] == 2 and nxt["nextDueAt"] is None
    assert [(o["rating"], o["id"], o["label"], o["color"]) for o in nxt["options"]] == [
        ("hard", 2, "Schwer", "#EF4444"),
        ("medium", 1, "Mittel", "#F97316"),
        ("easy", 0, "Einfach", "#22C55E"),
    ]
    assert [(o["intervalSeconds"], o["intervalText"]) for o in nxt["options"]] == [
        (60, "1 Minute"),
        (120, "2 Minuten"),
        (600, "10 Minuten"),
    ]
    _, same = api.call("GET", NEXT, path=at, token=token, params={"daysAhead": 0}, expect=200)
    assert same["card"]["id"] == nxt["card"]["id"] and same["options"] == nxt["options"]
    for bad in ("-1", "3651", "abc", "1.5"):
        _, body = api.call("GET", NEXT, path=at, token=token, params={"daysAhead": bad}, expect=400)
        assert code(body) == "validation_failed"
    api.call("GET", NEXT, path={"stackId": str(uuid.uuid4())}, token=token, expect=404)
    api.call("GET", NEXT, path=at, token=api.signup()["token"], expect=404)
    api.call("GET", NEXT, path=at, expect=401)

    # The same card as a quiz question: two cards, so two choices, and it says so; the ladder's keys.
    _, quiz = api.call("GET", QUIZ, path=at, token=token, expect=200)
    assert quiz["card"]["id"] == nxt["card"]["id"] and sorted(quiz["choices"]) == ["cat", "dog"]
    assert quiz["choices"][quiz["correctIndex"]] == "dog" and quiz["fewerChoices"] is True
    assert (quiz["ratingIfRight"], quiz["ratingIfWrong"]) == ("easy", "hard")
    _, again = api.call("GET", QUIZ, path=at, token=token, params={"daysAhead": 0}, expect=200)
    # (The card itself may have gained a generated hint in between.)
    assert again["card"]["id"] == quiz["card"]["id"]
    assert {k: v for k, v in again.items() if k != "card"} == {k: v for k, v in quiz.items() if k != "card"}, (
        "the same card and review count give the same question"
    )
    _, body = api.call("GET", QUIZ, path=at, token=token, params={"daysAhead": "x"}, expect=400)
    assert code(body) == "validation_failed"
    api.call("GET", QUIZ, path={"stackId": str(uuid.uuid4())}, token=token, expect=404)
    api.call("GET", QUIZ, path=at, expect=401)

    # Match game: practice only; the stack keeps the best time.
    assert api.call("GET", STACK, path=at, token=token, expect=200)[1]["matchBestMs"] is None
    _, match = api.call("POST", MATCH, path=at, token=token, json_body={"milliseconds": 42000}, expect=200)
    assert match == {"bestMs": 42000, "newBest": True}
    _, match = api.call("POST", MATCH, path=at, token=token, json_body={"milliseconds": 50000}, expect=200)
    assert match == {"bestMs": 42000, "newBest": False}
    assert api.call("GET", STACK, path=at, token=token, expect=200)[1]["matchBestMs"] == 42000
    _, body = api.call("POST", MATCH, path=at, token=token, json_body={"milliseconds": 10}, expect=400)
    assert code(body) == "validation_failed"
    api.call("POST", MATCH, path={"stackId": str(uuid.uuid4())}, token=token, json_body={"milliseconds": 9000}, expect=404)
    api.call("POST", MATCH, path=at, json_body={"milliseconds": 9000}, expect=401)

    # Write mode: a typed answer checked against the card's; nothing is written.
    _, checked = api.call(
        "POST", CHECK, path=at, token=token, json_body={"cardId": first["id"], "answer": " DOG! "}, expect=200
    )
    assert (checked["verdict"], checked["expected"], checked["rating"]) == ("correct", "dog", "easy")
    _, checked = api.call("POST", CHECK, path=at, token=token, json_body={"cardId": first["id"], "answer": "dgo"}, expect=200)
    assert checked["verdict"] in ("close", "wrong") and checked["ratingIfRight"] == "easy"
    assert "".join(run["text"] for run in checked["diff"] if run["kind"] != "missing") == "dgo"
    _, body = api.call("POST", CHECK, path=at, token=token, json_body={"cardId": first["id"]}, expect=400)
    assert code(body) == "malformed_json"
    _, body = api.call(
        "POST", CHECK, path=at, token=token, json_body={"cardId": first["id"], "answer": "x" * 20001}, expect=400
    )
    assert code(body) == "validation_failed"
    api.call("POST", CHECK, path=at, token=token, json_body={"cardId": str(uuid.uuid4()), "answer": "x"}, expect=404)
    api.call("POST", CHECK, path=at, json_body={"cardId": first["id"], "answer": "x"}, expect=401)

    # Rate: the card moves on, `next` comes along; a repeated reviewId changes nothing.
    review = str(uuid.uuid4())
    before = datetime.now(timezone.utc)
    _, rated = api.call(
        "POST",
        RATE,
        path=at,
        token=token,
        json_body={"cardId": first["id"], "rating": "easy", "reviewId": review},
        expect=200,
    )
    assert rated["card"]["id"] == first["id"] and rated["card"]["level"] == 1
    due = parse_date(rated["card"]["dueAt"])
    assert (
        before + timedelta(minutes=10) - timedelta(seconds=2)
        <= due
        <= datetime.now(timezone.utc) + timedelta(minutes=10, seconds=2)
    )
    assert rated["next"]["card"]["id"] == second["id"]
    _, again = api.call(
        "POST",
        RATE,
        path=at,
        token=token,
        json_body={"cardId": first["id"], "rating": "hard", "reviewId": review},
        expect=200,
    )
    assert without_hint(again["card"]) == without_hint(rated["card"]), "a repeated reviewId must not rate twice"
    _, body = api.call(
        "POST",
        RATE,
        path=at,
        token=token,
        json_body={"cardId": second["id"], "rating": "easy", "reviewId": review},
        expect=409,
    )
    assert code(body) == "conflict"

    # Rating errors.
    for bad, expected in (
        ({"cardId": second["id"], "rating": "great"}, "validation_failed"),
        ({"cardId": second["id"], "rating": "easy", "daysAhead": 3651}, "validation_failed"),
        ({"cardId": second["id"], "rating": "easy", "daysAhead": -1}, "validation_failed"),
        ({"cardId": "not-a-uuid", "rating": "easy"}, "malformed_json"),
        ({"cardId": second["id"]}, "malformed_json"),
        ({"cardId": second["id"], "rating": 0}, "malformed_json"),
        ({"cardId": second["id"], "rating": "easy", "reviewId": "nope"}, "malformed_json"),
    ):
        _, body = api.call("POST", RATE, path=at, token=token, json_body=bad, expect=400)
        assert code(body) == expected, bad
    _, body = api.call("POST", RATE, path=at, token=token, expect=400)
    assert code(body) == "malformed_json"
    _, body = api.call(
        "POST", RATE, path=at, token=token, json_body={"cardId": str(uuid.uuid4()), "rating": "easy"}, expect=404
    )
    assert code(body) == "card_not_found"
    _, body = api.call(
        "POST",
        RATE,
        path={"stackId": str(uuid.uuid4())},
        token=token,
        json_body={"cardId": second["id"], "rating": "easy"},
        expect=404,
    )
    assert code(body) == "stack_not_found"
    api.call("POST", RATE, path=at, json_body={"cardId": second["id"], "rating": "easy"}, expect=401)

    # Learn until the session is over: "easy" climbs the ladder until every card is due after tonight.
    for _ in range(20):
        _, nxt = api.call("GET", NEXT, path=at, token=token, expect=200)
        if nxt["card"] is None:
            break
        _, rated = api.call(
            "POST",
            RATE,
            path=at,
            token=token,
            json_body={"cardId": nxt["card"]["id"], "rating": "easy", "daysAhead": 0},
            expect=200,
        )
        assert rated["next"]["dueCount"] <= nxt["dueCount"]
    assert nxt["card"] is None, "the session must end"
    assert nxt["options"] == [] and nxt["dueCount"] == 0 and nxt["nextDueAt"] is not None
    _, got = api.call("GET", STACK, path=at, token=token, expect=200)
    assert got["dueCount"] == 0 and got["cardCount"] == 2

    # Learning ahead brings the earliest card back.
    _, ahead = api.call("GET", NEXT, path=at, token=token, params={"daysAhead": 3650}, expect=200)
    assert ahead["card"] is not None and ahead["dueCount"] == 2
    assert ahead["card"]["dueAt"] == nxt["nextDueAt"]
    _, rated = api.call(
        "POST",
        RATE,
        path=at,
        token=token,
        json_body={"cardId": ahead["card"]["id"], "rating": "medium", "daysAhead": 3650},
        expect=200,
    )
    assert rated["next"]["card"] is not None


def test_v1_fsrs_stack_story(api: Api):
    """New stacks use FSRS unless told otherwise: four ratings, settings validated."""
    token = api.signup()["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "FSRS", "color": "#0EA5E9"}, expect=201)
    assert stack["scheduler"] == "fsrs" and stack["desiredRetention"] == 0.9
    assert stack["learningSteps"] == [60, 600] and stack["relearningSteps"] == [600]
    assert stack["newCardsPerDay"] == 20 and stack["reviewsPerDay"] == 200
    at = {"stackId": stack["id"]}
    for bad in (
        {"desiredRetention": 0.5},
        {"desiredRetention": 1.2},
        {"scheduler": "sm2"},
        {"learningSteps": [0]},
        {"newCardsPerDay": -1},
        {"reviewsPerDay": 0},
    ):
        _, body = api.call("PATCH", STACK, path=at, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed", bad
    _, changed = api.call(
        "PATCH",
        STACK,
        path=at,
        token=token,
        json_body={"desiredRetention": 0.85, "learningSteps": [120], "reviewsPerDay": 100},
        expect=200,
    )
    assert changed["desiredRetention"] == 0.85 and changed["learningSteps"] == [120] and changed["reviewsPerDay"] == 100
    _, card = api.call("POST", CARDS, path=at, token=token, json_body={"question": "Q", "answer": "A"}, expect=201)
    _, nxt = api.call("GET", NEXT, path=at, token=token, expect=200)
    assert nxt["card"]["id"] == card["id"]
    assert [(o["rating"], o["id"], o["label"]) for o in nxt["options"]] == [
        ("again", 11, "Nochmal"),
        ("hard", 12, "Schwer"),
        ("good", 13, "Gut"),
        ("easy", 14, "Einfach"),
    ]
    # The compatibility route offers the same four ratings, each duration in both shapes.
    _, compat_next = api.call("GET", C_NEXT, path=at, token=token, raw_token=True, expect=200)
    assert compat_next["uniqueId"] == card["id"]
    assert [d["difficulty"]["id"] for d in compat_next["difficultyAndDurations"]] == [11, 12, 13, 14]
    assert len(check_compat_durations(compat_next)) == 4
    _, body = api.call(
        "POST", RATE, path=at, token=token, json_body={"cardId": card["id"], "rating": "medium"}, expect=409
    )
    assert code(body) == "rating_not_for_scheduler", "medium is a ladder rating"
    _, rated = api.call(
        "POST",
        RATE,
        path=at,
        token=token,
        json_body={"cardId": card["id"], "rating": "good", "durationMs": 4200},
        expect=200,
    )
    assert rated["card"]["reviewCount"] == 1 and rated["card"]["state"] in ("learning", "review")
    # Switching the scheduler recomputes the cards; the stack says so.
    _, ladder = api.call("PATCH", STACK, path=at, token=token, json_body={"scheduler": "ladder"}, expect=200)
    assert ladder["scheduler"] == "ladder"
    _, nxt = api.call("GET", NEXT, path=at, token=token, params={"daysAhead": 3650}, expect=200)
    assert [o["rating"] for o in nxt["options"]] == ["hard", "medium", "easy"]


# --- compatibility API -------------------------------------------------------------------------------


def test_compat_story(api: Api):
    mail = unique_mail("compat")
    _, result = api.call(
        "POST",
        "/signup",
        json_body={"name": "Lena Alt", "mail": mail, "password": PASSWORD},
        token="stale-cookie-token",
        raw_token=True,
        expect=200,
    )
    assert result["username"] == "Lena Alt"
    token = result["token"]
    _, body = api.call(
        "POST", "/signup", json_body={"name": "Lena", "mail": mail.upper(), "password": PASSWORD}, expect=400
    )
    assert body["message"] == "USER_ALREADY_EXISTS"
    _, body = api.call(
        "POST", "/signup", json_body={"name": "Lena", "mail": unique_mail(), "password": "1234"}, expect=400
    )
    assert code(body) == "validation_failed"
    _, body = api.call("POST", "/signup", data=b"not json", expect=400)
    assert code(body) == "malformed_json"

    _, login = api.call(
        "POST",
        "/login",
        json_body={"mail": mail, "password": PASSWORD},
        token="expired.or.garbage",
        raw_token=True,
        expect=200,
    )
    assert login["username"] == "Lena Alt"
    _, body = api.call("POST", "/login", json_body={"mail": mail, "password": "falsches-passwort"}, expect=400)
    assert body["message"] == "WRONG_PASSWORD"
    _, body = api.call("POST", "/login", json_body={"mail": unique_mail(), "password": PASSWORD}, expect=400)
    assert body["message"] == "USER_NOT_FOUND"
    _, body = api.call("POST", "/login", json_body={"mail": mail}, expect=400)
    assert code(body) == "malformed_json"

    # Stacks: raw token as the original clients send it; Bearer works too.
    _, stack = api.call(
        "POST", "/stack", json_body={"name": "Biologie", "color": "#059669"}, token=token, raw_token=True, expect=200
    )
    assert stack["cards"] == [] and stack["name"] == "Biologie" and isinstance(stack["id"], int)
    sid = stack["uniqueId"]
    _, lenient = api.call("POST", "/stack", json_body={"name": "Alt", "color": "red"}, token=token, expect=200)
    assert lenient["color"] == "red", "the original accepted any colour text"
    for bad in ({"name": " ", "color": "red"}, {"name": "X", "color": "  "}):
        _, body = api.call("POST", "/stack", json_body=bad, token=token, raw_token=True, expect=400)
        assert code(body) == "validation_failed"
    _, body = api.call("POST", "/stack", json_body={"name": "X"}, token=token, raw_token=True, expect=400)
    assert code(body) == "malformed_json"
    api.call("POST", "/stack", json_body={"name": "X", "color": "red"}, expect=401)
    api.call("POST", "/stack", json_body={"name": "X", "color": "red"}, token="garbage", raw_token=True, expect=401)

    # The v1 view of a stack made here keeps its colour text.
    _, v1_stacks = api.call("GET", STACKS, token=token, expect=200)
    assert [(s["id"], s["color"]) for s in v1_stacks] == [(sid, "#059669"), (lenient["uniqueId"], "red")]

    # Cards: the Vue app sends cardId "", the iOS app leaves it out.
    _, vue_card = api.call(
        "POST",
        "/card",
        json_body={"stackId": sid, "cardId": "", "question": "Zelle", "answer": "Einheit"},
        token=token,
        raw_token=True,
        expect=200,
    )
    assert vue_card["hint"] == "" and vue_card["difficultyAndDurations"] == []
    assert vue_card["maturity"]["level"] == 0
    _, ios_card = api.call(
        "POST",
        "/card",
        json_body={"stackId": sid, "question": "Mitose", "answer": "Teilung"},
        token=token,
        raw_token=True,
        expect=200,
    )
    assert ios_card["id"] > vue_card["id"]
    _, body = api.call(
        "POST",
        "/card",
        json_body={"stackId": str(uuid.uuid4()), "question": "Q", "answer": "A"},
        token=token,
        raw_token=True,
        expect=404,
    )
    assert body["message"] == "Stack not found"
    _, body = api.call(
        "POST",
        "/card",
        json_body={"stackId": "kaputt", "question": "Q", "answer": "A"},
        token=token,
        raw_token=True,
        expect=404,
    )
    assert body["message"] == "Stack not found"
    _, body = api.call(
        "POST",
        "/card",
        json_body={"stackId": sid, "question": "", "answer": "A"},
        token=token,
        raw_token=True,
        expect=400,
    )
    assert code(body) == "validation_failed"
    _, body = api.call(
        "POST", "/card", json_body={"stackId": sid, "question": "Q"}, token=token, raw_token=True, expect=400
    )
    assert code(body) == "malformed_json"
    api.call("POST", "/card", json_body={"stackId": sid, "question": "Q", "answer": "A"}, expect=401)

    # Reading.
    _, stacks = api.call("GET", "/stack", token=token, raw_token=True, expect=200)
    assert [s["uniqueId"] for s in stacks] == [sid, lenient["uniqueId"]]
    assert [c["uniqueId"] for c in stacks[0]["cards"]] == [vue_card["uniqueId"], ios_card["uniqueId"]]
    assert stacks[1]["cards"] == []
    api.call("GET", "/stack", token=token, expect=200)
    api.call("GET", "/stack", expect=401)
    _, got = api.call("GET", C_STACK, path={"stackId": sid}, token=token, raw_token=True, expect=200)
    assert [without_hint(c) for c in got["cards"]] == [without_hint(c) for c in stacks[0]["cards"]]
    for missing in (str(uuid.uuid4()), "kaputt"):
        _, body = api.call("GET", C_STACK, path={"stackId": missing}, token=token, raw_token=True, expect=404)
        assert body["message"] == "Stack not found"
    api.call("GET", C_STACK, path={"stackId": sid}, expect=401)
    at = {"stackId": sid, "cardId": vue_card["uniqueId"]}
    _, card = api.call("GET", C_CARD, path=at, token=token, raw_token=True, expect=200)
    assert without_hint(card) == without_hint(vue_card)
    _, body = api.call(
        "GET", C_CARD, path={"stackId": sid, "cardId": str(uuid.uuid4())}, token=token, raw_token=True, expect=404
    )
    assert body["message"] == "Card not found"
    _, body = api.call(
        "GET",
        C_CARD,
        path={"stackId": str(uuid.uuid4()), "cardId": vue_card["uniqueId"]},
        token=token,
        raw_token=True,
        expect=404,
    )
    assert body["message"] == "Stack not found"
    api.call("GET", C_CARD, path=at, expect=401)

    # Editing: the path decides; a body naming another card is refused.
    edit = {"stackId": sid, "cardId": vue_card["uniqueId"], "question": "Zelle?", "answer": "Kleinste Einheit"}
    _, card = api.call("PUT", C_CARD, path=at, json_body=edit, token=token, raw_token=True, expect=200)
    assert (
        card["question"] == "Zelle?"
        and card["answer"] == "Kleinste Einheit"
        and card["uniqueId"] == vue_card["uniqueId"]
    )
    _, body = api.call(
        "PUT",
        C_CARD,
        path=at,
        json_body={**edit, "cardId": ios_card["uniqueId"]},
        token=token,
        raw_token=True,
        expect=400,
    )
    assert code(body) == "ids_contradict_path"
    _, body = api.call(
        "PUT", C_CARD, path=at, json_body={**edit, "question": " "}, token=token, raw_token=True, expect=400
    )
    assert code(body) == "validation_failed"
    _, body = api.call(
        "PUT", C_CARD, path=at, json_body={"question": "Q", "answer": "A"}, token=token, raw_token=True, expect=400
    )
    assert code(body) == "malformed_json"
    api.call(
        "PUT",
        C_CARD,
        path={"stackId": sid, "cardId": str(uuid.uuid4())},
        json_body=edit,
        token=token,
        raw_token=True,
        expect=404,
    )
    api.call("PUT", C_CARD, path=at, json_body=edit, expect=401)

    # Learning: next card with three options, rating with `difficulty` (Vue) or `difficultyId` (iOS).
    _, nxt = api.call("GET", C_NEXT, path={"stackId": sid}, token=token, raw_token=True, expect=200)
    assert nxt["uniqueId"] == vue_card["uniqueId"]
    assert [
        (d["difficulty"]["id"], d["difficulty"]["name"], d["difficulty"]["color"], d["duration"]["displayName"])
        for d in nxt["difficultyAndDurations"]
    ] == [
        (0, "Einfach", "#22C55E", "10 Minuten"),
        (1, "Mittel", "#F97316", "2 Minuten"),
        (2, "Schwer", "#EF4444", "1 Minute"),
    ]
    # Both duration shapes in one object: displayName for the Vue app, amount + unit for clients of
    # the original API's documented Duration model.
    assert check_compat_durations(nxt) == [(10, "MINUTES"), (2, "MINUTES"), (1, "MINUTES")]
    _, same = api.call(
        "GET", C_NEXT, path={"stackId": sid}, token=token, raw_token=True, params={"days-ahead": 0}, expect=200
    )
    assert without_hint(same) == without_hint(nxt)
    check_compat_durations(same)
    _, body = api.call(
        "GET", C_NEXT, path={"stackId": sid}, token=token, raw_token=True, params={"days-ahead": "x"}, expect=400
    )
    assert code(body) == "validation_failed"
    _, body = api.call("GET", C_NEXT, path={"stackId": str(uuid.uuid4())}, token=token, raw_token=True, expect=404)
    assert body["message"] == "Stack not found"
    api.call("GET", C_NEXT, path={"stackId": sid}, expect=401)

    _, body = api.call(
        "POST",
        "/stack/rating",
        json_body={"stackId": sid, "cardId": vue_card["uniqueId"], "difficulty": 0},
        token=token,
        raw_token=True,
        expect=200,
    )
    assert body is None
    _, card = api.call("GET", C_CARD, path=at, token=token, raw_token=True, expect=200)
    assert card["maturity"]["level"] == 1
    api.call(
        "POST",
        "/stack/rating",
        json_body={"stackId": sid, "cardId": ios_card["uniqueId"], "difficultyId": 2},
        token=token,
        raw_token=True,
        expect=200,
    )
    for bad in (
        {"stackId": sid, "cardId": ios_card["uniqueId"], "difficulty": 3},
        {"stackId": sid, "cardId": ios_card["uniqueId"], "difficultyId": -1},
        {"stackId": sid, "cardId": ios_card["uniqueId"]},
    ):
        _, body = api.call("POST", "/stack/rating", json_body=bad, token=token, raw_token=True, expect=400)
        assert code(body) == "validation_failed", bad
    _, body = api.call(
        "POST", "/stack/rating", json_body={"stackId": sid, "difficulty": 1}, token=token, raw_token=True, expect=400
    )
    assert code(body) == "malformed_json"
    _, body = api.call(
        "POST",
        "/stack/rating",
        json_body={"stackId": sid, "cardId": str(uuid.uuid4()), "difficulty": 1},
        token=token,
        raw_token=True,
        expect=404,
    )
    assert body["message"] == "Card not found"
    _, body = api.call(
        "POST",
        "/stack/rating",
        json_body={"stackId": str(uuid.uuid4()), "cardId": ios_card["uniqueId"], "difficulty": 1},
        token=token,
        raw_token=True,
        expect=404,
    )
    assert body["message"] == "Stack not found"
    api.call(
        "POST", "/stack/rating", json_body={"stackId": sid, "cardId": ios_card["uniqueId"], "difficulty": 1}, expect=401
    )

    # Learn until nothing is due: then card/next is a 404 "Card not found".
    for _ in range(20):
        response, nxt = api.call("GET", C_NEXT, path={"stackId": sid}, token=token, raw_token=True)
        if response.status_code == 404:
            break
        check_compat_durations(nxt)
        api.call(
            "POST",
            "/stack/rating",
            json_body={"stackId": sid, "cardId": nxt["uniqueId"], "difficulty": 0},
            token=token,
            raw_token=True,
            expect=200,
        )
    assert response.status_code == 404 and nxt["message"] == "Card not found" and code(nxt) == "card_not_found"
    _, ahead = api.call(
        "GET", C_NEXT, path={"stackId": sid}, token=token, raw_token=True, params={"days-ahead": 3650}, expect=200
    )
    assert len(ahead["difficultyAndDurations"]) == 3
    check_compat_durations(ahead)

    # Deleting cards: the Vue app sends no body, the iOS app a card context.
    _, body = api.call(
        "DELETE",
        C_CARD,
        path=at,
        json_body={"stackId": sid, "cardId": ios_card["uniqueId"], "question": "Q", "answer": "A"},
        token=token,
        raw_token=True,
        expect=400,
    )
    assert code(body) == "ids_contradict_path"
    _, body = api.call("DELETE", C_CARD, path=at, token=token, raw_token=True, expect=200)
    assert body is None
    api.call("GET", C_CARD, path=at, token=token, raw_token=True, expect=404)
    _, body = api.call("DELETE", C_CARD, path=at, token=token, raw_token=True, expect=404)
    assert body["message"] == "Card not found"
    ios_at = {"stackId": sid, "cardId": ios_card["uniqueId"]}
    api.call("DELETE", C_CARD, path=ios_at, expect=401)
    api.call(
        "DELETE",
        C_CARD,
        path=ios_at,
        json_body={"stackId": sid, "cardId": ios_card["uniqueId"], "question": "Mitose", "answer": "Teilung"},
        token=token,
        raw_token=True,
        expect=200,
    )
    _, got = api.call("GET", C_STACK, path={"stackId": sid}, token=token, raw_token=True, expect=200)
    assert got["cards"] == []

    # Deleting a stack answers `true`.
    api.call("DELETE", C_STACK, path={"stackId": sid}, expect=401)
    _, body = api.call("DELETE", C_STACK, path={"stackId": sid}, token=token, raw_token=True, expect=200)
    assert body is True
    _, body = api.call("DELETE", C_STACK, path={"stackId": sid}, token=token, raw_token=True, expect=404)
    assert body["message"] == "Stack not found"
    _, stacks = api.call("GET", "/stack", token=token, raw_token=True, expect=200)
    assert [s["uniqueId"] for s in stacks] == [lenient["uniqueId"]]

    # Oversized bodies: 413 on the compatibility routes too.
    _, body = api.call(
        "POST",
        "/card",
        json_body={"stackId": lenient["uniqueId"], "question": "Q" * 1_100_000, "answer": "A"},
        token=token,
        raw_token=True,
        expect=413,
    )
    assert code(body) == "payload_too_large"


# --- /api/v1 card generation, drafts and jobs --------------------------------------------------------------

FIXTURES = ROOT / "Tests" / "FlashcardsGenerationTests" / "Fixtures"
LECTURE = (FIXTURES / "corpus" / "de_zellbiologie.md").read_text(encoding="utf-8")


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def wait_for_job(api: Api, token: str, job_id: str, timeout: float = 60) -> dict:
    """Polls the job (every answer checked against the document) until it has finished."""
    deadline = time.monotonic() + timeout
    while True:
        _, job = api.call("GET", JOB, path={"jobId": job_id}, token=token, expect=200)
        if job["status"] in FINISHED:
            return job
        assert time.monotonic() < deadline, f"job {job_id} did not finish within {timeout} s: {job}"
        time.sleep(0.1)


def test_v1_generation_story(api: Api):
    # Public: which generator runs, before anyone signs in.
    _, info = api.call("GET", GENERATION_INFO, expect=200)
    assert info == {"generator": "offline", "model": None, "topics": False, "maxUploadBytes": 10 * 1024 * 1024,
                    "topicBatchSize": 15}, info
    owner = api.signup()
    token = owner["token"]
    other = api.signup("Jonas Fremd")["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Zellbiologie", "color": "#059669"}, expect=201)
    at = {"stackId": stack["id"]}

    # Pasted text: a job that is queued at once and makes drafts, not cards.
    _, job = api.call(
        "POST", GENERATIONS, path=at, token=token, json_body={"text": LECTURE, "customInstructions": ""}, expect=202
    )
    assert job["kind"] == "generation" and job["status"] in ("queued", "running")
    assert job["result"] is None and job["error"] is None
    done = wait_for_job(api, token, job["id"])
    assert done["status"] == "succeeded" and done["progress"]["stage"] == "done", done
    outcome = json.loads(done["result"])
    assert outcome["drafts"] >= 3 and outcome["cardsCreated"] == 0 and outcome["language"] == "de"
    assert outcome["generator"] == "offline" and outcome["model"] is None and outcome["pages"] is None
    assert outcome["duplicates"] == 0 and done["errorCode"] is None
    assert done["progress"]["cardsCreated"] == outcome["drafts"]
    _, got = api.call("GET", STACK, path=at, token=token, expect=200)
    assert got["cardCount"] == 0, "drafts are not cards until accepted"

    # The job: read, streamed, cancelled after it has finished (answered unchanged).
    job_at = {"jobId": job["id"]}
    for missing in (str(uuid.uuid4()), "kein-auftrag"):
        _, body = api.call("GET", JOB, path={"jobId": missing}, token=token, expect=404)
        assert code(body) == "job_not_found"
    _, body = api.call("GET", JOB, path=job_at, token=other, expect=404)
    assert code(body) == "job_not_found", "another user's job is nobody's"
    api.call("GET", JOB, path=job_at, expect=401)
    response, events = api.call("GET", JOB_EVENTS, path=job_at, token=token, expect=200)
    assert response.headers["Cache-Control"] == "no-cache"
    assert [event["event"] for event in events] == ["progress"], "a finished job is sent once, then the stream ends"
    assert events[-1]["data"] == done
    api.call("GET", JOB_EVENTS, path=job_at, token=other, expect=404)
    api.call("GET", JOB_EVENTS, path={"jobId": str(uuid.uuid4())}, token=token, expect=404)
    api.call("GET", JOB_EVENTS, path=job_at, expect=401)
    _, unchanged = api.call("POST", JOB_CANCEL, path=job_at, token=token, expect=200)
    assert unchanged == done, "cancelling a finished job changes nothing"
    _, body = api.call("POST", JOB_CANCEL, path=job_at, token=other, expect=404)
    assert code(body) == "job_not_found"
    api.call("POST", JOB_CANCEL, path={"jobId": str(uuid.uuid4())}, token=token, expect=404)
    api.call("POST", JOB_CANCEL, path=job_at, expect=401)

    # Drafts: pending ones, in the order they were made; filtered by job.
    _, drafts = api.call("GET", DRAFTS, path=at, token=token, expect=200)
    assert len(drafts) == outcome["drafts"]
    assert all(d["status"] == "pending" and d["jobId"] == job["id"] for d in drafts)
    assert any("Einheit" in d["answer"] for d in drafts), drafts
    _, same = api.call("GET", DRAFTS, path=at, token=token, params={"jobId": job["id"]}, expect=200)
    assert same == drafts
    _, none = api.call("GET", DRAFTS, path=at, token=token, params={"jobId": str(uuid.uuid4())}, expect=200)
    assert none == []
    _, body = api.call("GET", DRAFTS, path=at, token=token, params={"jobId": "kein-auftrag"}, expect=400)
    assert code(body) == "validation_failed"
    _, body = api.call("GET", DRAFTS, path=at, token=other, expect=404)
    assert code(body) == "stack_not_found"
    api.call("GET", DRAFTS, path={"stackId": str(uuid.uuid4())}, token=token, expect=404)
    api.call("GET", DRAFTS, path=at, expect=401)

    # Editing a draft.
    first, second = drafts[0], drafts[1]
    draft_at = {**at, "draftId": first["id"]}
    _, edited = api.call(
        "PATCH",
        DRAFT,
        path=draft_at,
        token=token,
        json_body={"question": "Was ist eine Zelle? (bearbeitet)"},
        expect=200,
    )
    assert edited == {**first, "question": "Was ist eine Zelle? (bearbeitet)"}
    _, same = api.call("PATCH", DRAFT, path=draft_at, token=token, json_body={}, expect=200)
    assert same == edited
    for bad in ({"question": "  "}, {"answer": ""}, {"answer": "A" * 20_001}):
        _, body = api.call("PATCH", DRAFT, path=draft_at, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed", bad
    for raw in (b"", b"{", b'{"question": 5}'):
        _, body = api.call("PATCH", DRAFT, path=draft_at, token=token, data=raw, expect=400)
        assert code(body) == "malformed_json", raw
    _, body = api.call("PATCH", DRAFT, path=draft_at, token=token, json_body={"question": "Q" * 1_100_000}, expect=413)
    assert code(body) == "payload_too_large"
    for missing in (str(uuid.uuid4()), "kein-entwurf"):
        _, body = api.call(
            "PATCH", DRAFT, path={**at, "draftId": missing}, token=token, json_body={"question": "Q"}, expect=404
        )
        assert code(body) == "draft_not_found"
    _, body = api.call("PATCH", DRAFT, path=draft_at, token=other, json_body={"question": "Meins"}, expect=404)
    assert code(body) == "stack_not_found"
    api.call("PATCH", DRAFT, path=draft_at, json_body={"question": "Q"}, expect=401)

    # Discarding a draft: gone from the list, not editable, not acceptable.
    second_at = {**at, "draftId": second["id"]}
    api.call("DELETE", DRAFT, path=second_at, expect=401)
    api.call("DELETE", DRAFT, path=second_at, token=other, expect=404)
    _, body = api.call("DELETE", DRAFT, path=second_at, token=token, expect=204)
    assert body is None
    _, body = api.call("DELETE", DRAFT, path=second_at, token=token, expect=404)
    assert code(body) == "draft_not_found"
    api.call("PATCH", DRAFT, path=second_at, token=token, json_body={"question": "Q"}, expect=404)
    _, remaining = api.call("GET", DRAFTS, path=at, token=token, expect=200)
    assert [d["id"] for d in remaining] == [d["id"] for d in drafts if d["id"] != second["id"]]

    # Accepting: unknown or discarded ids refuse the whole request; then one, then all the rest.
    for ids in ([str(uuid.uuid4())], [second["id"]], [first["id"], str(uuid.uuid4())]):
        _, body = api.call("POST", ACCEPT, path=at, token=token, json_body={"ids": ids}, expect=404)
        assert code(body) == "draft_not_found", ids
    for raw in (b"{", b'{"ids": "alle"}', b'{"ids": ["kein-entwurf"]}'):
        _, body = api.call("POST", ACCEPT, path=at, token=token, data=raw, expect=400)
        assert code(body) == "malformed_json", raw
    _, body = api.call("POST", ACCEPT, path=at, token=other, json_body={}, expect=404)
    assert code(body) == "stack_not_found"
    api.call("POST", ACCEPT, path=at, json_body={}, expect=401)
    _, body = api.call("POST", ACCEPT, path=at, token=token, json_body={"ids": ["x" * 40] * 30_000}, expect=413)
    assert code(body) == "payload_too_large"
    _, got = api.call("GET", STACK, path=at, token=token, expect=200)
    assert got["cardCount"] == 0, "a refused accept makes no card"
    _, accepted = api.call("POST", ACCEPT, path=at, token=token, json_body={"ids": [first["id"]]}, expect=200)
    assert accepted == {"accepted": 1}
    _, page = api.call("GET", CARDS, path=at, token=token, expect=200)
    assert [c["question"] for c in page["items"]] == ["Was ist eine Zelle? (bearbeitet)"]
    _, accepted = api.call("POST", ACCEPT, path=at, token=token, expect=200)
    assert accepted == {"accepted": len(drafts) - 2}, "no body accepts every pending draft"
    _, accepted = api.call("POST", ACCEPT, path=at, token=token, json_body={"jobId": job["id"]}, expect=200)
    assert accepted == {"accepted": 0}
    _, left = api.call("GET", DRAFTS, path=at, token=token, expect=200)
    assert left == []
    _, got = api.call("GET", STACK, path=at, token=token, expect=200)
    assert got["cardCount"] == len(drafts) - 1

    # Uploads: a PDF (with its pages) and a text file; the type comes from the content, not the name.
    _, pdf_job = api.call(
        "POST",
        GENERATIONS,
        path=at,
        token=token,
        files={"file": ("skript.txt", fixture("corpus/en_algorithms.pdf"), "text/plain")},
        form={"customInstructions": "Kurze Antworten, bitte."},
        expect=202,
    )
    pdf_job = wait_for_job(api, token, pdf_job["id"])
    assert pdf_job["status"] == "succeeded", pdf_job
    _, pdf_drafts = api.call("GET", DRAFTS, path=at, token=token, params={"jobId": pdf_job["id"]}, expect=200)
    assert pdf_drafts and any(d["sourcePage"] is not None for d in pdf_drafts), "PDF drafts name their page"
    _, text_job = api.call(
        "POST",
        GENERATIONS,
        path=at,
        token=token,
        files={"file": ("notizen.pdf", (FIXTURES / "corpus" / "de_vwl.md").read_bytes())},
        form={"custom-instructions": ""},
        expect=202,
    )
    assert wait_for_job(api, token, text_job["id"])["status"] == "succeeded"

    # Material the generator cannot use ends the job as failed, with a German message.
    for source in ({"json_body": {"text": "hallo"}}, {"files": {"file": ("a.pdf", fixture("encrypted.pdf"))}}):
        _, failing = api.call("POST", GENERATIONS, path=at, token=token, expect=202, **source)
        failed = wait_for_job(api, token, failing["id"])
        assert failed["status"] == "failed" and failed["result"] is None, failed
        assert failed["error"] and failed["progress"]["stage"] == "failed"
        assert failed["errorCode"] in ("nothing_generated", "no_text_found", "encrypted_pdf"), failed

    # Request errors: 400, 413, 415, 404 and 401.
    for bad in (
        {},
        {"text": "   "},
        {"text": None, "topic": "  "},
        {"text": "Die Zelle ist eine Einheit.", "customInstructions": "x" * 2_001},
    ):
        _, body = api.call("POST", GENERATIONS, path=at, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed", bad
    # A topic needs a language model, and the tests run offline: how the server is set up decides (409).
    _, body = api.call("POST", GENERATIONS, path=at, token=token, json_body={"topic": "Zellbiologie"}, expect=409)
    assert code(body) == "topic_needs_model"
    for raw in (b"", b"{", b'{"text": 5}', b"text=hallo"):
        _, body = api.call("POST", GENERATIONS, path=at, token=token, data=raw, expect=400)
        assert code(body) == "malformed_json", raw
    _, body = api.call(
        "POST", GENERATIONS, path=at, token=token, files={"other": ("a.txt", b"Die Zelle ist klein.")}, expect=400
    )
    assert code(body) == "validation_failed" and body["message"]
    _, body = api.call("POST", GENERATIONS, path=at, token=token, files={"file": ("a.txt", b"")}, expect=400)
    assert code(body) == "validation_failed"
    _, body = api.call(
        "POST", GENERATIONS, path=at, token=token, files={"file": ("a.pdf", bytes(range(256)) * 8)}, expect=415
    )
    assert code(body) == "unsupported_media_type" and body["message"]
    _, body = api.call(
        "POST", GENERATIONS, path=at, token=token, files={"file": ("a.txt", b"a" * (10 * 1024 * 1024 + 1))}, expect=413
    )
    assert code(body) == "payload_too_large"
    # The oversized upload was read to its end: the same connection serves the next request.
    api.call("GET", V1 + "/me", token=token, expect=200)
    _, body = api.call(
        "POST", GENERATIONS, path=at, token=token, json_body={"text": "a" * (4 * 1024 * 1024 + 1)}, expect=413
    )
    assert code(body) == "payload_too_large"
    _, body = api.call("POST", GENERATIONS, path=at, token=other, json_body={"text": LECTURE}, expect=404)
    assert code(body) == "stack_not_found"
    api.call("POST", GENERATIONS, path={"stackId": "kaputt"}, token=token, json_body={"text": LECTURE}, expect=404)
    api.call("POST", GENERATIONS, path=at, json_body={"text": LECTURE}, expect=401)
    api.call("POST", GENERATIONS, path=at, files={"file": ("a.txt", b"Die Zelle ist klein.")}, expect=401)


def test_v1_jobs_are_cancelled_and_streamed(idle_server, checker):
    """Without workers, jobs stay queued: cancelling one ends it at once, and its event stream, open
    while it waits, sends the change and then ends."""
    api = Api(idle_server, checker)
    token = api.signup()["token"]
    _, stack = api.call(
        "POST", STACKS, token=token, json_body={"name": "Warteschlange", "color": "#7C3AED"}, expect=201
    )
    # With a language model configured, a topic is accepted (offline it is a 400).
    _, job = api.call(
        "POST", GENERATIONS, path={"stackId": stack["id"]}, token=token, json_body={"topic": "Zellbiologie"}, expect=202
    )
    job_at = {"jobId": job["id"]}
    time.sleep(0.5)
    _, waiting = api.call("GET", JOB, path=job_at, token=token, expect=200)
    assert waiting == job, "nothing runs it"

    def cancel_soon():
        time.sleep(1.0)
        requests.post(
            f"{idle_server.base_url}{V1}/jobs/{job['id']}/cancel",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )

    canceller = threading.Thread(target=cancel_soon)
    canceller.start()
    started = time.monotonic()
    _, events = api.call("GET", JOB_EVENTS, path=job_at, token=token, expect=200)
    canceller.join()
    assert time.monotonic() - started < 15
    assert [e["data"]["status"] for e in events] == ["queued", "cancelled"], events
    assert events[-1]["data"]["progress"]["stage"] == "cancelled" and events[-1]["data"]["error"] is None

    # Cancelling through the API: a queued optimization ends at once; a second cancel changes nothing.
    _, optimize = api.call("POST", OPTIMIZE, token=token, expect=202)
    assert optimize["kind"] == "optimize" and optimize["status"] == "queued"
    _, cancelled = api.call("POST", JOB_CANCEL, path={"jobId": optimize["id"]}, token=token, expect=200)
    assert cancelled["status"] == "cancelled" and cancelled["progress"]["stage"] == "cancelled"
    _, again = api.call("POST", JOB_CANCEL, path={"jobId": optimize["id"]}, token=token, expect=200)
    assert again == cancelled
    _, got = api.call("GET", JOB, path={"jobId": optimize["id"]}, token=token, expect=200)
    assert got == cancelled


def test_compat_create_from_file_without_its_language_model(idle_server, checker):
    """Route 13 runs its job in the request, also without workers; when the configured language model
    does not answer it says so with 503, and nothing is written."""
    api = Api(idle_server, checker)
    _, login = api.call(
        "POST",
        "/signup",
        json_body={"name": "Lena Alt", "mail": unique_mail("magic"), "password": PASSWORD},
        expect=200,
    )
    token = login["token"]
    _, stack = api.call("POST", "/stack", json_body={"name": "Zellen", "color": "red"}, token=token, expect=200)
    _, body = api.call(
        "POST",
        C_CREATE,
        path={"stackId": stack["uniqueId"]},
        token=token,
        raw_token=True,
        files={"file": ("skript.pdf", fixture("corpus/de_zellbiologie.pdf"))},
        form={"custom-instructions": "Nur Definitionen."},
        expect=503,
    )
    assert code(body) == "model_unavailable" and body["message"]
    _, got = api.call("GET", C_STACK, path={"stackId": stack["uniqueId"]}, token=token, raw_token=True, expect=200)
    assert got["cards"] == []


# --- compatibility route 13 ----------------------------------------------------------------------------


def test_compat_create_from_file_story(api: Api):
    _, login = api.call(
        "POST",
        "/signup",
        json_body={"name": "Lena Alt", "mail": unique_mail("magic"), "password": PASSWORD},
        expect=200,
    )
    token = login["token"]
    other = api.signup("Jonas Fremd")["token"]
    _, stack = api.call(
        "POST",
        "/stack",
        json_body={"name": "Zellbiologie", "color": "#059669"},
        token=token,
        raw_token=True,
        expect=200,
    )
    at = {"stackId": stack["uniqueId"]}
    pdf = fixture("corpus/de_zellbiologie.pdf")

    # The Vue app's upload: a PDF and (possibly empty) custom instructions; 200 once the cards exist.
    _, result = api.call(
        "POST",
        C_CREATE,
        path=at,
        token=token,
        raw_token=True,
        files={"file": ("skript.pdf", pdf, "application/pdf")},
        form={"custom-instructions": ""},
        expect=200,
    )
    assert result["cardsCreated"] >= 3 and result["message"] == f"{result['cardsCreated']} Karten erstellt"
    _, got = api.call("GET", C_STACK, path=at, token=token, raw_token=True, expect=200)
    assert len(got["cards"]) == result["cardsCreated"]
    assert all(card["question"] and card["answer"] for card in got["cards"])
    # Without the instructions field, and with Bearer: works too.
    _, more = api.call(
        "POST", C_CREATE, path=at, token=token, files={"file": ("b.pdf", fixture("corpus/en_networks.pdf"))}, expect=200
    )
    assert more["cardsCreated"] >= 1

    # Nothing new in the same script again: 400 with a message, nothing written.
    _, body = api.call(
        "POST", C_CREATE, path=at, token=token, raw_token=True, files={"file": ("skript.pdf", pdf)}, expect=400
    )
    assert code(body) == "validation_failed" and body["message"]
    # Unusable PDFs: 400 with the reason.
    for name in ("encrypted.pdf", "broken.pdf"):
        _, body = api.call(
            "POST", C_CREATE, path=at, token=token, raw_token=True, files={"file": (name, fixture(name))}, expect=400
        )
        assert code(body) == "validation_failed" and "PDF" in body["message"], body
    # Only PDFs, judged by content.
    for name, content in (("notizen.pdf", fixture("notes.png")), ("text.pdf", b"Die Zelle ist klein.")):
        _, body = api.call(
            "POST", C_CREATE, path=at, token=token, raw_token=True, files={"file": (name, content)}, expect=415
        )
        assert code(body) == "unsupported_media_type" and "PDF" in body["message"]
    # No file, an empty one, no multipart at all.
    for files in ({"other": ("a.pdf", pdf)}, {"file": ("a.pdf", b"")}):
        _, body = api.call("POST", C_CREATE, path=at, token=token, raw_token=True, files=files, expect=400)
        assert code(body) == "validation_failed" and body["message"]
    _, body = api.call("POST", C_CREATE, path=at, token=token, raw_token=True, json_body={"file": "x"}, expect=400)
    assert code(body) == "validation_failed"
    # Over 10 MB: 413, and the connection goes on.
    _, body = api.call(
        "POST",
        C_CREATE,
        path=at,
        token=token,
        raw_token=True,
        files={"file": ("gross.pdf", b"%PDF-1.4\n" + b" " * (10 * 1024 * 1024))},
        expect=413,
    )
    assert code(body) == "payload_too_large"
    _, got = api.call("GET", C_STACK, path=at, token=token, raw_token=True, expect=200)
    assert len(got["cards"]) == result["cardsCreated"] + more["cardsCreated"], "refused uploads write nothing"
    # Unknown and foreign stacks, no token.
    for stack_id in (str(uuid.uuid4()), "kaputt"):
        _, body = api.call(
            "POST",
            C_CREATE,
            path={"stackId": stack_id},
            token=token,
            raw_token=True,
            files={"file": ("a.pdf", pdf)},
            expect=404,
        )
        assert body["message"] == "Stack not found"
    _, body = api.call(
        "POST", C_CREATE, path=at, token=other, raw_token=True, files={"file": ("a.pdf", pdf)}, expect=404
    )
    assert body["message"] == "Stack not found"
    api.call("POST", C_CREATE, path=at, files={"file": ("a.pdf", pdf)}, expect=401)


# --- /api/v1 review history, statistics and the scheduler ----------------------------------------------------


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


#: When the cards that get a synced history of the past were made: offline, 60 days ago (a review
#: may not be older than its card).
MADE_OFFLINE = iso(datetime.now(timezone.utc) - timedelta(days=60))


def history(card_ids: list[str], days_ago=(30, 27, 20, 10, 2), ratings=("good", "good", "again", "good", "easy")):
    """Reviews of each card on the given days before now, as an offline client would upload them."""
    now = datetime.now(timezone.utc)
    return [
        {
            "id": str(uuid.uuid4()),
            "cardId": card_id,
            "rating": rating,
            "reviewedAt": iso(now - timedelta(days=days)),
            "durationMs": 4_000,
        }
        for card_id in card_ids
        for days, rating in zip(days_ago, ratings)
    ]


def test_v1_reviews_undo_and_stats_story(api: Api):
    owner = api.signup(time_zone="Europe/Berlin")
    token = owner["token"]
    other = api.signup("Jonas Fremd")["token"]
    _, fsrs = api.call("POST", STACKS, token=token, json_body={"name": "FSRS", "color": "#0EA5E9"}, expect=201)
    _, ladder = api.call(
        "POST", STACKS, token=token, json_body={"name": "Leiter", "color": "#22C55E", "scheduler": "ladder"}, expect=201
    )
    at = {"stackId": fsrs["id"]}
    cards = [
        api.call(
            "POST",
            CARDS,
            path=at,
            token=token,
            json_body={"question": f"Frage {i}", "answer": f"Antwort {i}", "createdAt": MADE_OFFLINE},
            expect=201,
        )[1]
        for i in range(4)
    ]
    _, ladder_card = api.call(
        "POST",
        CARDS,
        path={"stackId": ladder["id"]},
        token=token,
        json_body={"question": "Hund", "answer": "dog", "createdAt": MADE_OFFLINE},
        expect=201,
    )
    _, foreign_stack = api.call(
        "POST", STACKS, token=other, json_body={"name": "Fremd", "color": "#000000"}, expect=201
    )
    _, foreign_card = api.call(
        "POST",
        CARDS,
        path={"stackId": foreign_stack["id"]},
        token=other,
        json_body={"question": "Q", "answer": "A"},
        expect=201,
    )

    # Offline sync: three FSRS cards with a month of history, one ladder review; the fourth card stays new.
    reviews = history([c["id"] for c in cards[:3]]) + history([ladder_card["id"]], days_ago=(3,), ratings=("medium",))
    shuffled = reviews[::-1]
    _, synced = api.call("POST", REVIEWS, token=token, json_body={"reviews": shuffled}, expect=200)
    assert synced["inserted"] == 16 and synced["duplicates"] == 0
    by_id = {c["id"]: c for c in synced["cards"]}
    assert sorted(by_id) == sorted([c["id"] for c in cards[:3]] + [ladder_card["id"]]), "each named card once"
    for card in cards[:3]:
        state = by_id[card["id"]]
        assert state["reviewCount"] == 5 and state["state"] == "review" and state["stability"] > 0
        assert state["lastReviewedAt"] == max(r["reviewedAt"] for r in reviews if r["cardId"] == card["id"])
    assert by_id[ladder_card["id"]]["reviewCount"] == 1 and by_id[ladder_card["id"]]["stability"] is None
    # The same batch again, and repeats inside a batch, change nothing.
    _, again = api.call("POST", REVIEWS, token=token, json_body={"reviews": reviews + reviews[:2]}, expect=200)
    assert again["inserted"] == 0 and again["duplicates"] == 18
    assert [without_hint(c) for c in again["cards"]] == [without_hint(c) for c in synced["cards"]]
    _, empty = api.call("POST", REVIEWS, token=token, json_body={"reviews": []}, expect=200)
    assert empty == {"inserted": 0, "duplicates": 0, "cards": []}

    # All or nothing: one bad review refuses the batch.
    fresh = history([cards[3]["id"]], days_ago=(1,), ratings=("good",))[0]
    for bad, status, expected in (
        ({**fresh, "rating": "medium"}, 409, "rating_not_for_scheduler"),  # a ladder rating on an FSRS card
        ({**fresh, "durationMs": -1}, 400, "validation_failed"),
        ({**fresh, "durationMs": 86_400_001}, 400, "validation_failed"),
        ({**fresh, "reviewedAt": iso(datetime.now(timezone.utc) + timedelta(days=2))}, 409, "reviewed_in_future"),
        ({**fresh, "reviewedAt": "1999-12-31T12:00:00Z"}, 400, "validation_failed"),
    ):
        _, body = api.call(
            "POST", REVIEWS, token=token, json_body={"reviews": [fresh, bad | {"id": str(uuid.uuid4())}]}, expect=status
        )
        assert code(body) == expected, bad
    _, body = api.call(
        "POST", REVIEWS, token=token, json_body={"reviews": [{**fresh, "id": str(uuid.uuid4())}] * 1_001}, expect=400
    )
    assert code(body) == "validation_failed"
    unknown = str(uuid.uuid4())
    _, body = api.call(
        "POST",
        REVIEWS,
        token=token,
        json_body={"reviews": [fresh, {**fresh, "id": str(uuid.uuid4()), "cardId": unknown}]},
        expect=404,
    )
    assert code(body) == "card_not_found" and unknown in body["message"]
    _, body = api.call(
        "POST", REVIEWS, token=token, json_body={"reviews": [{**fresh, "cardId": foreign_card["id"]}]}, expect=404
    )
    assert code(body) == "card_not_found", "another user's card is nobody's"
    _, body = api.call(
        "POST",
        REVIEWS,
        token=token,
        json_body={"reviews": [fresh, {**reviews[0], "cardId": cards[3]["id"]}]},
        expect=409,
    )
    assert code(body) == "conflict", "a review id of another card"
    for raw in (b"", b"{}", b'{"reviews": "x"}', b'{"reviews": [{"id": "kaputt"}]}'):
        _, body = api.call("POST", REVIEWS, token=token, data=raw, expect=400)
        assert code(body) == "malformed_json", raw
    _, body = api.call(
        "POST", REVIEWS, token=token, json_body={"reviews": [{**fresh, "reviewedAt": "gestern"}]}, expect=400
    )
    assert code(body) == "malformed_json"
    _, body = api.call(
        "POST", REVIEWS, token=token, json_body={"reviews": [{**fresh, "rating": "x" * 1_100_000}]}, expect=413
    )
    assert code(body) == "payload_too_large"
    api.call("POST", REVIEWS, json_body={"reviews": [fresh]}, expect=401)
    _, untouched = api.call("GET", CARD, path={**at, "cardId": cards[3]["id"]}, token=token, expect=200)
    assert untouched["reviewCount"] == 0 and untouched["state"] == "new", "refused batches stored nothing"

    # Undo: appends an entry for the last counted review; an id makes a retry harmless.
    undo_at = {**at, "cardId": cards[0]["id"]}
    _, undone = api.call("POST", UNDO, path=undo_at, token=token, expect=200)
    assert undone["undoneReviewId"] == reviews[4]["id"] and undone["card"]["reviewCount"] == 4
    undo_id = str(uuid.uuid4())
    _, undone = api.call("POST", UNDO, path=undo_at, token=token, json_body={"id": undo_id}, expect=200)
    assert undone["undoneReviewId"] == reviews[3]["id"] and undone["card"]["reviewCount"] == 3
    _, retried = api.call("POST", UNDO, path=undo_at, token=token, json_body={"id": undo_id}, expect=200)
    assert retried["undoneReviewId"] == undone["undoneReviewId"] and retried["card"]["reviewCount"] == 3
    _, body = api.call("POST", UNDO, path=undo_at, token=token, json_body={"id": reviews[0]["id"]}, expect=409)
    assert code(body) == "conflict", "an id that belongs to a review"
    _, body = api.call("POST", UNDO, path={**at, "cardId": cards[3]["id"]}, token=token, json_body={}, expect=409)
    assert code(body) == "conflict", "a new card has nothing to undo"
    _, body = api.call("POST", UNDO, path=undo_at, token=token, data=b'{"id": "kaputt"}', expect=400)
    assert code(body) == "malformed_json"
    _, body = api.call("POST", UNDO, path=undo_at, token=token, data=b"{", expect=400)
    assert code(body) == "malformed_json"
    _, body = api.call("POST", UNDO, path=undo_at, token=token, json_body={"pad": "x" * 1_100_000}, expect=413)
    assert code(body) == "payload_too_large"
    for path, expected in (
        ({**at, "cardId": str(uuid.uuid4())}, "card_not_found"),
        ({**at, "cardId": "kaputt"}, "card_not_found"),
        ({"stackId": ladder["id"], "cardId": cards[0]["id"]}, "card_not_found"),
        ({"stackId": str(uuid.uuid4()), "cardId": cards[0]["id"]}, "stack_not_found"),
    ):
        _, body = api.call("POST", UNDO, path=path, token=token, expect=404)
        assert code(body) == expected, path
    api.call("POST", UNDO, path=undo_at, token=other, expect=404)
    api.call("POST", UNDO, path=undo_at, expect=401)

    # Statistics of the stack: 365 days, 52 weeks, 30 forecast days; undone reviews count nowhere.
    _, stats = api.call("GET", STATS, path=at, token=token, expect=200)
    assert stats["timeZone"] == "Europe/Berlin" and stats["dayStartHour"] == 4
    assert sum(day["count"] for day in stats["reviewsPerDay"]) == 15 - 2
    weeks = stats["retentionPerWeek"]
    assert all(w["retention"] is None for w in weeks if w["reviews"] == 0)
    assert all(w["retention"] == w["recalled"] / w["reviews"] for w in weeks if w["reviews"])
    assert sum(w["reviews"] for w in weeks) > 0
    assert stats["forecast"][0]["count"] >= 1, "the card whose reviews were undone is overdue: it counts today"
    _, body = api.call("GET", STATS, path=at, token=other, expect=404)
    assert code(body) == "stack_not_found"
    api.call("GET", STATS, path={"stackId": "kaputt"}, token=token, expect=404)
    api.call("GET", STATS, path=at, expect=401)
    _, mine = api.call("GET", ME_STATS, token=token, expect=200)
    assert sum(day["count"] for day in mine["reviewsPerDay"]) == 15 - 2 + 1
    assert sum(mine["cardsByState"].values()) == 5
    api.call("GET", ME_STATS, expect=401)

    # Retrievability, paged in creation order.
    _, page = api.call("GET", RETRIEVABILITY, path=at, token=token, expect=200)
    assert page["page"] == 1 and page["perPage"] == 50 and page["total"] == 4
    assert [item["cardId"] for item in page["items"]] == [c["id"] for c in cards]
    assert all(0 < item["retrievability"] <= 1 for item in page["items"][:3])
    assert page["items"][3]["state"] == "new" and page["items"][3]["retrievability"] is None
    states = [item["state"] for item in page["items"]]
    assert stats["cardsByState"] == {
        state: states.count(state) for state in ("new", "learning", "review", "relearning")
    }
    _, second = api.call("GET", RETRIEVABILITY, path=at, token=token, params={"page": 2, "perPage": 3}, expect=200)
    assert [item["cardId"] for item in second["items"]] == [cards[3]["id"]] and second["total"] == 4
    for bad in ({"perPage": 0}, {"perPage": 201}, {"page": 0}, {"page": "x"}):
        _, body = api.call("GET", RETRIEVABILITY, path=at, token=token, params=bad, expect=400)
        assert code(body) == "validation_failed", bad
    api.call("GET", RETRIEVABILITY, path=at, token=other, expect=404)
    api.call("GET", RETRIEVABILITY, path=at, expect=401)
    _, everything = api.call("GET", ME_RETRIEVABILITY, token=token, params={"perPage": 200}, expect=200)
    assert everything["total"] == 5
    ladder_item = next(item for item in everything["items"] if item["cardId"] == ladder_card["id"])
    assert ladder_item["stackId"] == ladder["id"] and ladder_item["retrievability"] is None
    _, body = api.call("GET", ME_RETRIEVABILITY, token=token, params={"perPage": "viele"}, expect=400)
    assert code(body) == "validation_failed"
    api.call("GET", ME_RETRIEVABILITY, expect=401)


def test_v1_scheduler_story(api: Api):
    token = api.signup()["token"]
    _, params = api.call("GET", SCHEDULER, token=token, expect=200)
    assert params["isDefault"] is True and len(params["parameters"]) == 21 and params["optimizedAt"] is None
    api.call("GET", SCHEDULER, expect=401)

    # Without a history the optimization fails, saying why.
    _, job = api.call("POST", OPTIMIZE, token=token, expect=202)
    assert job["kind"] == "optimize" and job["status"] in ("queued", "running")
    failed = wait_for_job(api, token, job["id"])
    assert failed["status"] == "failed" and "Wiederholungen" in failed["error"], failed
    api.call("POST", OPTIMIZE, expect=401)

    # With a month of reviews it fits and stores the parameters; they are the user's from then on.
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Verlauf", "color": "#0EA5E9"}, expect=201)
    card_ids = [
        api.call(
            "POST",
            CARDS,
            path={"stackId": stack["id"]},
            token=token,
            json_body={"question": f"F{i}", "answer": f"A{i}", "createdAt": MADE_OFFLINE},
            expect=201,
        )[1]["id"]
        for i in range(4)
    ]
    api.call("POST", REVIEWS, token=token, json_body={"reviews": history(card_ids)}, expect=200)
    _, job = api.call("POST", OPTIMIZE, token=token, expect=202)
    done = wait_for_job(api, token, job["id"])
    assert done["status"] == "succeeded", done
    fitted = json.loads(done["result"])
    checker = api.checker
    checker.validate_instance("/components/schemas/SchedulerParameters", fitted, "the optimize job's result")
    _, params = api.call("GET", SCHEDULER, token=token, expect=200)
    assert params == fitted and params["isDefault"] is False and 0 < params["reviews"] <= 20
    # Cancelling the finished job changes nothing.
    _, unchanged = api.call("POST", JOB_CANCEL, path={"jobId": job["id"]}, token=token, expect=200)
    assert unchanged == done

    # Reset: back to the defaults (also when already there).
    api.call("DELETE", SCHEDULER, expect=401)
    _, body = api.call("DELETE", SCHEDULER, token=token, expect=204)
    assert body is None
    _, params = api.call("GET", SCHEDULER, token=token, expect=200)
    assert params["isDefault"] is True and params["logLoss"] is None
    api.call("DELETE", SCHEDULER, token=token, expect=204)


# --- /api/v1 progress without pressure (issue 18): guests, settings, progress, leaderboard, push ----------

GUEST_NAME = re.compile(r"^[A-Z][a-zäöüß]+er[A-Z][a-z]+[0-9]{3}$")
ENGLISH_GUEST_NAME = re.compile(r"^[A-Z][a-z]+[A-Z][a-z]+[0-9]{3}$")
DEFAULT_SETTINGS = {
    "language": "de",
    "dailyGoal": 20,
    "focusMode": False,
    "gameElements": True,
    "remindersEnabled": False,
    "reminderTime": "18:00",
    "leaderboardOptIn": False,
    "theme": None,
    "unlockedThemes": [],
    "onboarding": {"done": False, "purpose": None, "minutesPerDay": None, "interests": []},
}
#: The user agent's key pair of RFC 8291, section 5 (a published test vector), for when `cryptography` is
#: not installed.
RFC8291_KEYS = {
    "p256dh": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
    "auth": "BTBZMqHH6r4Tts7J_aSIgg",
}


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def browser_push_keys() -> dict:
    """What a browser's PushSubscription.toJSON() carries as `keys`: a fresh P-256 public key and auth secret."""
    try:
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    except ImportError:
        return dict(RFC8291_KEYS)
    public_key = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return {"p256dh": b64url(point), "auth": b64url(os.urandom(16))}


def learner_day(text: str, days: int = 0) -> str:
    return (date.fromisoformat(text) + timedelta(days=days)).isoformat()


def study(api: Api, token: str, stack_id: str, count: int, rating: str, prefix: str = "Frage") -> list[str]:
    """Adds `count` cards to the stack and rates each once; returns their ids."""
    at = {"stackId": stack_id}
    ids = []
    for i in range(count):
        _, card = api.call(
            "POST", CARDS, path=at, token=token, json_body={"question": f"{prefix} {i}", "answer": f"A{i}"}, expect=201
        )
        api.call("POST", RATE, path=at, token=token, json_body={"cardId": card["id"], "rating": rating}, expect=200)
        ids.append(card["id"])
    return ids


def test_v1_guest_upgrade_and_logout_story(api: Api):
    # A guest: no body, an empty body, a time zone, a null time zone.
    _, guest = api.call("POST", GUEST, expect=201)
    assert guest["user"]["isGuest"] is True and guest["user"]["mail"] == ""
    assert GUEST_NAME.match(guest["user"]["name"]), guest["user"]["name"]
    expires = parse_date(guest["expiresAt"]) - datetime.now(timezone.utc)
    assert timedelta(days=6, hours=23) < expires <= timedelta(days=7, minutes=1)
    _, me = api.call("GET", V1 + "/me", token=guest["token"], expect=200)
    assert me == guest["user"]
    _, empty = api.call("POST", GUEST, data=b"", expect=201)
    assert empty["user"]["isGuest"] is True and empty["user"]["id"] != guest["user"]["id"]
    # A stale token is ignored, as at signup.
    _, tokyo = api.call("POST", GUEST, token="garbage", json_body={"timeZone": "Asia/Tokyo"}, expect=201)
    assert tokyo["user"]["timeZone"] == "Asia/Tokyo" and tokyo["user"]["mail"] == ""
    _, default_zone = api.call("POST", GUEST, json_body={"timeZone": None}, expect=201)
    assert default_zone["user"]["timeZone"] == guest["user"]["timeZone"]
    _, body = api.call("POST", GUEST, json_body={"timeZone": "Mars/Olympus"}, expect=400)
    assert code(body) == "unknown_time_zone"
    for raw in (b"{", b"[]", b'{"timeZone": 5}', b"null", b'{"language": 1}'):
        _, body = api.call("POST", GUEST, data=raw, expect=400)
        assert code(body) == "malformed_json", raw
    # In the interface language: an English name, and the account's language is English.
    _, english = api.call("POST", GUEST, json_body={"language": "en"}, expect=201)
    assert ENGLISH_GUEST_NAME.match(english["user"]["name"]), english["user"]["name"]
    _, english_settings = api.call("GET", SETTINGS, token=english["token"], expect=200)
    assert english_settings["language"] == "en"
    _, body = api.call("POST", GUEST, json_body={"language": "fr"}, expect=400)
    assert code(body) == "validation_failed" and body["message"]

    # A guest studies like anyone: a stack of its own.
    token = tokyo["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Gaststapel", "color": "#10B981"}, expect=201)

    # Upgrade errors: no token, bad fields, a missing field, a taken mail (in any case).
    taken = api.signup("Vergeben")
    mail = unique_mail("gast")
    good = {"name": "Gerda Gast", "mail": mail, "password": PASSWORD}
    api.call("POST", UPGRADE, json_body=good, expect=401)
    for bad in (
        {**good, "mail": "keine-adresse"},
        {**good, "password": "kurz"},
        {**good, "name": "   "},
        {**good, "name": "x" * 101},
    ):
        _, body = api.call("POST", UPGRADE, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed", bad
    _, body = api.call("POST", UPGRADE, token=token, json_body={"mail": mail}, expect=400)
    assert code(body) == "malformed_json"
    _, body = api.call("POST", UPGRADE, token=token, json_body={**good, "mail": taken["mail"].upper()}, expect=409)
    assert code(body) == "user_already_exists"
    api.call("GET", V1 + "/me", token=token, expect=200)  # nothing changed

    # The upgrade: same account and stack, a new token; the guest's token is refused from now on.
    _, upgraded = api.call("POST", UPGRADE, token=token, json_body=good, expect=200)
    user = upgraded["user"]
    assert user["id"] == tokyo["user"]["id"] and user["isGuest"] is False
    assert (user["mail"], user["name"], user["timeZone"]) == (mail, "Gerda Gast", "Asia/Tokyo")
    assert user["createdAt"] == tokyo["user"]["createdAt"]
    _, body = api.call("GET", V1 + "/me", token=token, expect=401)
    assert code(body) == "unauthorized"
    first = upgraded["token"]
    _, stacks = api.call("GET", STACKS, token=first, expect=200)
    assert [s["id"] for s in stacks] == [stack["id"]]
    _, body = api.call("POST", UPGRADE, token=first, json_body={**good, "mail": unique_mail("nochmal")}, expect=409)
    assert code(body) == "not_a_guest" and body["message"]
    _, body = api.call("POST", UPGRADE, token=taken["token"], json_body={**good, "mail": unique_mail()}, expect=409)
    assert code(body) == "not_a_guest"
    # The guest name stays when no name is sent.
    _, kept = api.call(
        "POST", UPGRADE, token=empty["token"], json_body={"mail": unique_mail("gast"), "password": PASSWORD}, expect=200
    )
    assert kept["user"]["name"] == empty["user"]["name"] and kept["user"]["isGuest"] is False

    # Logout revokes only the token it was sent with; the mail and password now sign in.
    _, login = api.call("POST", V1 + "/auth/login", json_body={"mail": mail, "password": PASSWORD}, expect=200)
    second = login["token"]
    assert login["user"]["id"] == user["id"] and login["user"]["isGuest"] is False
    api.call("POST", LOGOUT, expect=401)
    _, body = api.call("POST", LOGOUT, token=first, expect=204)
    assert body is None
    api.call("GET", V1 + "/me", token=first, expect=401)
    api.call("GET", STACKS, token=first, expect=401)
    api.call("POST", LOGOUT, token=first, expect=401)
    _, me = api.call("GET", V1 + "/me", token=second, expect=200)
    assert me["id"] == user["id"] and me["mail"] == mail
    # The upgraded account needs its password to be deleted, like any account.
    _, body = api.call("DELETE", V1 + "/me", token=second, json_body={}, expect=403)
    assert code(body) == "wrong_password"

    # A guest account is deleted without a password.
    _, body = api.call("DELETE", V1 + "/me", token=guest["token"], expect=400)
    assert code(body) == "malformed_json"
    api.call("DELETE", V1 + "/me", token=guest["token"], json_body={}, expect=204)
    api.call("GET", V1 + "/me", token=guest["token"], expect=401)
    api.call("DELETE", V1 + "/me", token=default_zone["token"], json_body={"password": ""}, expect=204)
    api.call("GET", V1 + "/me", token=default_zone["token"], expect=401)


def test_v1_settings_story(api: Api):
    token = api.signup()["token"]
    _, settings = api.call("GET", SETTINGS, token=token, expect=200)
    assert settings == DEFAULT_SETTINGS
    api.call("GET", SETTINGS, expect=401)

    # A partial change keeps everything else; an empty one changes nothing.
    _, settings = api.call("PATCH", SETTINGS, token=token, json_body={"language": "en", "focusMode": True}, expect=200)
    assert settings == {**DEFAULT_SETTINGS, "language": "en", "focusMode": True}
    _, same = api.call("PATCH", SETTINGS, token=token, json_body={}, expect=200)
    assert same == settings
    # Null means "keep" (except for the theme).
    _, same = api.call(
        "PATCH", SETTINGS, token=token, json_body={"language": None, "dailyGoal": None, "onboarding": None}, expect=200
    )
    assert same == settings

    # Onboarding: minutes a day set the goal to 2 cards a minute, unless the request names a goal.
    _, settings = api.call("PATCH", SETTINGS, token=token, json_body={"onboarding": {"minutesPerDay": 15}}, expect=200)
    assert settings["dailyGoal"] == 30 and settings["onboarding"]["minutesPerDay"] == 15
    _, settings = api.call(
        "PATCH", SETTINGS, token=token, json_body={"dailyGoal": 7, "onboarding": {"minutesPerDay": 5}}, expect=200
    )
    assert settings["dailyGoal"] == 7 and settings["onboarding"]["minutesPerDay"] == 5
    _, settings = api.call(
        "PATCH",
        SETTINGS,
        token=token,
        json_body={"onboarding": {"purpose": "exam", "interests": [" Biologie ", "Geschichte", "biologie"]}},
        expect=200,
    )
    assert settings["onboarding"] == {
        "done": False,
        "purpose": "exam",
        "minutesPerDay": 5,
        "interests": ["Biologie", "Geschichte"],
    }
    assert settings["dailyGoal"] == 7
    _, settings = api.call(
        "PATCH",
        SETTINGS,
        token=token,
        json_body={"onboarding": {"done": True, "purpose": None, "minutesPerDay": None}},
        expect=200,
    )
    assert settings["onboarding"] == {
        "done": True,
        "purpose": None,
        "minutesPerDay": None,
        "interests": ["Biologie", "Geschichte"],
    }
    assert settings["dailyGoal"] == 7

    # Reminders, leaderboard, goal bounds, the standard theme.
    change = {
        "remindersEnabled": True,
        "reminderTime": "07:30",
        "leaderboardOptIn": True,
        "dailyGoal": 500,
        "theme": None,
        "focusMode": False,
        "gameElements": False,
    }
    _, settings = api.call("PATCH", SETTINGS, token=token, json_body=change, expect=200)
    assert {key: settings[key] for key in change} == change
    _, settings = api.call(
        "PATCH", SETTINGS, token=token, json_body={"dailyGoal": 1, "reminderTime": "23:59"}, expect=200
    )
    assert settings["dailyGoal"] == 1 and settings["reminderTime"] == "23:59"
    _, stored = api.call("GET", SETTINGS, token=token, expect=200)
    assert stored == settings

    # Invalid values: 400 with a message, and nothing is written (not even the valid part of the request).
    for bad in (
        {"dailyGoal": 0},
        {"dailyGoal": 501},
        {"reminderTime": "24:00"},
        {"reminderTime": "7:30"},
        {"reminderTime": "07:60"},
        {"language": "fr"},
        {"theme": "lila"},
        {"onboarding": {"purpose": "spass"}},
        {"onboarding": {"minutesPerDay": 7}},
        {"onboarding": {"interests": ["x" * 41]}},
        {"onboarding": {"interests": ["   "]}},
        {"onboarding": {"interests": [f"Thema {i}" for i in range(13)]}},
        {"language": "en", "dailyGoal": 1000},
    ):
        _, body = api.call("PATCH", SETTINGS, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed" and body["message"], bad
    # A theme of the boxes, but not won yet: well formed, refused as things stand.
    _, body = api.call("PATCH", SETTINGS, token=token, json_body={"theme": "gold"}, expect=409)
    assert code(body) == "theme_locked"
    for bad in ({"dailyGoal": "5"}, {"focusMode": "ja"}, {"gameElements": 1}, {"onboarding": {"interests": "Biologie"}}, {"theme": 3}):
        _, body = api.call("PATCH", SETTINGS, token=token, json_body=bad, expect=400)
        assert code(body) == "malformed_json", bad
    _, body = api.call("PATCH", SETTINGS, token=token, expect=400)
    assert code(body) == "malformed_json"
    _, unchanged = api.call("GET", SETTINGS, token=token, expect=200)
    assert unchanged == settings
    api.call("PATCH", SETTINGS, json_body={"dailyGoal": 5}, expect=401)


def test_v1_progress_rest_days_and_mystery_box_story(api: Api):
    token = api.signup(time_zone="Europe/Berlin")["token"]
    _, progress = api.call("GET", PROGRESS, token=token, expect=200)
    today = progress["today"]
    assert progress["level"] == {"level": 1, "totalXP": 0, "xpIntoLevel": 0, "xpForNextLevel": 100}
    assert progress["streak"] == {"current": 0, "longest": 0, "freezes": 0, "activeToday": False, "restToday": False}
    assert (progress["cardsToday"], progress["xpToday"], progress["dueCount"], progress["dailyGoal"]) == (0, 0, 0, 20)
    assert [(c["kind"], c["target"], c["progress"], c["done"]) for c in progress["challenges"]] == [
        ("cardsStudied", 20, 0, False),
        ("perfectRun", 10, 0, False),
        ("newTopic", 1, 0, False),
    ]
    assert progress["mysteryBox"] == {"available": False, "opened": None}
    assert progress["calendar"] == [] and progress["restDays"] == [] and progress["achievements"] == []
    assert progress["focusMode"] is False and progress["gameElements"] is True
    api.call("GET", PROGRESS, expect=401)

    # The box stays shut until the challenges are done.
    _, body = api.call("POST", MYSTERY_BOX, token=token, expect=409)
    assert code(body) == "challenges_open" and body["message"]
    api.call("POST", MYSTERY_BOX, expect=401)

    # Rest days: today up to 60 days ahead, marked twice is marked once; past, far and impossible days are 400.
    last = learner_day(today, 60)
    for day in (today, today, last):
        _, body = api.call("PUT", REST_DAY, path={"date": day}, token=token, expect=204)
        assert body is None
    _, progress = api.call("GET", PROGRESS, token=token, expect=200)
    assert progress["restDays"] == [today, last]
    assert progress["streak"]["restToday"] is True
    assert {"date": today, "kind": "rest"} in progress["calendar"]
    year = today[:4]
    for method in ("PUT", "DELETE"):
        for day in (f"{year}-02-30", f"{year}-13-01", "heute", "2026-1-5"):
            _, body = api.call(method, REST_DAY, path={"date": day}, token=token, expect=400)
            assert code(body) == "validation_failed", (method, day)
        # A well-formed day outside today … today + 60: which days these are depends on the moment.
        for day in (learner_day(today, -1), learner_day(today, 61)):
            _, body = api.call(method, REST_DAY, path={"date": day}, token=token, expect=409)
            assert code(body) == "rest_day_out_of_range", (method, day)
        api.call(method, REST_DAY, path={"date": today}, expect=401)
    for day in (today, last, today):
        api.call("DELETE", REST_DAY, path={"date": day}, token=token, expect=204)
    _, progress = api.call("GET", PROGRESS, token=token, expect=200)
    assert progress["restDays"] == [] and progress["streak"]["restToday"] is False and progress["calendar"] == []

    # With a goal of 5, five cards of a new stack rated easy do all three challenges.
    api.call("PATCH", SETTINGS, token=token, json_body={"dailyGoal": 5}, expect=200)
    _, stack = api.call(
        "POST", STACKS, token=token, json_body={"name": "Box", "color": "#F59E0B", "scheduler": "ladder"}, expect=201
    )
    study(api, token, stack["id"], 5, "easy")
    _, progress = api.call("GET", PROGRESS, token=token, expect=200)
    assert progress["today"] == today
    assert progress["cardsToday"] == 5 and progress["dailyGoal"] == 5 and progress["xpToday"] > 0
    assert [(c["kind"], c["target"], c["progress"], c["done"]) for c in progress["challenges"]] == [
        ("cardsStudied", 5, 5, True),
        ("perfectRun", 5, 5, True),
        ("newTopic", 1, 1, True),
    ]
    assert progress["streak"]["current"] == 1 and progress["streak"]["activeToday"] is True
    assert progress["calendar"][-1] == {"date": today, "kind": "active"}
    assert [a["kind"] for a in progress["achievements"]] == ["firstSteps"]
    assert progress["level"]["totalXP"] >= progress["xpToday"] and progress["level"]["level"] > 1
    assert progress["mysteryBox"] == {"available": True, "opened": None}
    _, stacks = api.call("GET", STACKS, token=token, expect=200)
    assert progress["dueCount"] == sum(s["dueCount"] for s in stacks)

    # The box: XP or a theme; opening it again answers the same box.
    _, opened = api.call("POST", MYSTERY_BOX, token=token, expect=200)
    box = opened["box"]
    assert opened["level"]["totalXP"] == progress["level"]["totalXP"] + (box["xp"] or 0)
    _, again = api.call("POST", MYSTERY_BOX, token=token, expect=200)
    assert again == opened
    _, after = api.call("GET", PROGRESS, token=token, expect=200)
    assert after["mysteryBox"] == {"available": True, "opened": box}
    assert after["level"] == opened["level"]
    _, settings = api.call("GET", SETTINGS, token=token, expect=200)
    assert settings["unlockedThemes"] == ([box["theme"]] if box["theme"] else [])
    if box["theme"]:
        _, settings = api.call("PATCH", SETTINGS, token=token, json_body={"theme": box["theme"]}, expect=200)
        assert settings["theme"] == box["theme"]

    # Focus mode hides the game in the app; the API still sends it.
    api.call("PATCH", SETTINGS, token=token, json_body={"focusMode": True}, expect=200)
    _, focused = api.call("GET", PROGRESS, token=token, expect=200)
    assert focused["focusMode"] is True and focused["level"] == after["level"]


def test_v1_daily_leaderboard_story(api: Api):
    suffix = uuid.uuid4().hex[:6]
    mia = api.signup(f"Mia {suffix}")["token"]
    ben = api.signup(f"Ben {suffix}")["token"]
    zoe = api.signup(f"Zoe {suffix}")["token"]
    for token in (mia, ben):
        api.call("PATCH", SETTINGS, token=token, json_body={"leaderboardOptIn": True}, expect=200)

    # Opted in, nothing studied: no place.
    _, board = api.call("GET", LEADERBOARD, token=mia, expect=200)
    assert board["metric"] == "cards" and board["optedIn"] is True and board["me"] is None
    assert all(not entry["isMe"] for entry in board["entries"])

    # Mia: 3 cards of one stack; Ben: 1 card in each of two stacks; Zoe (not opted in): 4 cards.
    def new_stack(token: str, name: str) -> str:
        return api.call("POST", STACKS, token=token, json_body={"name": name, "color": "#6366F1"}, expect=201)[1]["id"]

    study(api, mia, new_stack(mia, "Mia 1"), 3, "good")
    study(api, ben, new_stack(ben, "Ben 1"), 1, "good")
    study(api, ben, new_stack(ben, "Ben 2"), 1, "easy")
    study(api, zoe, new_stack(zoe, "Zoe 1"), 4, "good")

    def places(board: dict) -> dict:
        entries = board["entries"]
        values = [entry["value"] for entry in entries]
        assert values == sorted(values, reverse=True), entries
        for entry in entries:
            assert entry["rank"] == 1 + sum(value > entry["value"] for value in values), entries
        return {entry["name"]: entry for entry in entries if entry["name"].endswith(suffix)}

    _, board = api.call("GET", LEADERBOARD, token=mia, expect=200)
    mine = places(board)
    assert set(mine) == {f"Mia {suffix}", f"Ben {suffix}"}, "only opted-in learners, by display name"
    assert (mine[f"Mia {suffix}"]["value"], mine[f"Mia {suffix}"]["isMe"]) == (3, True)
    assert (mine[f"Ben {suffix}"]["value"], mine[f"Ben {suffix}"]["isMe"]) == (2, False)
    assert mine[f"Mia {suffix}"]["rank"] < mine[f"Ben {suffix}"]["rank"]
    assert board["me"] == {"rank": mine[f"Mia {suffix}"]["rank"], "value": 3}
    assert board["date"] == api.call("GET", PROGRESS, token=mia, expect=200)[1]["today"]

    _, board = api.call("GET", LEADERBOARD, token=ben, params={"metric": "topics"}, expect=200)
    assert board["metric"] == "topics"
    mine = places(board)
    assert (mine[f"Ben {suffix}"]["value"], mine[f"Ben {suffix}"]["isMe"]) == (2, True)
    assert (mine[f"Mia {suffix}"]["value"], mine[f"Mia {suffix}"]["isMe"]) == (1, False)
    assert board["me"] == {"rank": mine[f"Ben {suffix}"]["rank"], "value": 2}
    _, cards = api.call("GET", LEADERBOARD, token=ben, params={"metric": "cards"}, expect=200)
    assert cards["metric"] == "cards" and cards["me"]["value"] == 2

    # Not opted in: the board without a place of one's own.
    _, board = api.call("GET", LEADERBOARD, token=zoe, expect=200)
    assert board["optedIn"] is False and board["me"] is None
    assert f"Zoe {suffix}" not in places(board) and not any(entry["isMe"] for entry in board["entries"])

    # Opting out takes Mia off the board.
    api.call("PATCH", SETTINGS, token=mia, json_body={"leaderboardOptIn": False}, expect=200)
    _, board = api.call("GET", LEADERBOARD, token=ben, expect=200)
    assert set(places(board)) == {f"Ben {suffix}"}
    _, board = api.call("GET", LEADERBOARD, token=mia, expect=200)
    assert board["optedIn"] is False and board["me"] is None

    for bad in ("points", "", "CARDS"):
        _, body = api.call("GET", LEADERBOARD, token=ben, params={"metric": bad}, expect=400)
        assert code(body) == "validation_failed", bad
    api.call("GET", LEADERBOARD, expect=401)


def test_v1_stack_library_fields_story(api: Api):
    token = api.signup()["token"]
    _, plain = api.call("POST", STACKS, token=token, json_body={"name": "Schlicht", "color": "#000000"}, expect=201)
    assert (plain["description"], plain["icon"], plain["favorite"]) == ("", None, False)
    assert plain["lastStudiedAt"] is None and plain["reviewShare"] == 0
    _, stack = api.call(
        "POST",
        STACKS,
        token=token,
        json_body={
            "name": "Chemie",
            "color": "#DC2626",
            "description": "  Säuren, Basen und Salze  ",
            "icon": "science",
            "favorite": True,
        },
        expect=201,
    )
    assert (stack["description"], stack["icon"], stack["favorite"]) == ("Säuren, Basen und Salze", "science", True)
    _, none = api.call(
        "POST",
        STACKS,
        token=token,
        json_body={"name": "Ohne", "color": "#000000", "description": None, "icon": None, "favorite": None},
        expect=201,
    )
    assert (none["description"], none["icon"], none["favorite"]) == ("", None, False)
    for bad in ({"icon": "rocket"}, {"icon": ""}, {"description": "x" * 501}):
        _, body = api.call("POST", STACKS, token=token, json_body={"name": "X", "color": "#000000", **bad}, expect=400)
        assert code(body) == "validation_failed", bad
    _, body = api.call(
        "POST", STACKS, token=token, json_body={"name": "X", "color": "#000000", "favorite": "ja"}, expect=400
    )
    assert code(body) == "malformed_json"

    at = {"stackId": stack["id"]}
    # PATCH: left out keeps, null keeps the description and the mark but removes the icon.
    _, same = api.call("PATCH", STACK, path=at, token=token, json_body={"name": "Chemie 1"}, expect=200)
    assert (same["description"], same["icon"], same["favorite"]) == ("Säuren, Basen und Salze", "science", True)
    _, same = api.call(
        "PATCH",
        STACK,
        path=at,
        token=token,
        json_body={"description": None, "favorite": None, "icon": "math"},
        expect=200,
    )
    assert (same["description"], same["icon"], same["favorite"]) == ("Säuren, Basen und Salze", "math", True)
    _, cleared = api.call("PATCH", STACK, path=at, token=token, json_body={"icon": None, "favorite": False}, expect=200)
    assert (cleared["icon"], cleared["favorite"]) == (None, False)
    # Stored trimmed; the limit counts the text as sent (code points, as the schema's maxLength).
    long_text = "y" * 498
    _, changed = api.call("PATCH", STACK, path=at, token=token, json_body={"description": f" {long_text} "}, expect=200)
    assert changed["description"] == long_text
    _, changed = api.call("PATCH", STACK, path=at, token=token, json_body={"description": ""}, expect=200)
    assert changed["description"] == ""
    for bad in ({"icon": "rocket"}, {"description": "z" * 501}, {"icon": "globe", "description": "z" * 501}):
        _, body = api.call("PATCH", STACK, path=at, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed", bad
    _, body = api.call("PATCH", STACK, path=at, token=token, json_body={"icon": 5}, expect=400)
    assert code(body) == "malformed_json"
    _, unchanged = api.call("GET", STACK, path=at, token=token, expect=200)
    assert (unchanged["icon"], unchanged["description"]) == (None, ""), "an invalid change writes nothing"

    # After a rating: when it was last studied and the share of its cards in review state.
    before = datetime.now(timezone.utc) - timedelta(seconds=5)
    api.call("POST", CARDS, path=at, token=token, json_body={"question": "pH 7?", "answer": "neutral"}, expect=201)
    study(api, token, stack["id"], 1, "easy")  # FSRS: a new card rated easy goes to review
    _, studied = api.call("GET", STACK, path=at, token=token, expect=200)
    assert studied["cardCount"] == 2 and studied["reviewShare"] == 0.5
    assert before <= parse_date(studied["lastStudiedAt"]) <= datetime.now(timezone.utc) + timedelta(seconds=5)
    _, listed = api.call("GET", STACKS, token=token, expect=200)
    by_id = {s["id"]: s for s in listed}
    assert by_id[stack["id"]]["lastStudiedAt"] == studied["lastStudiedAt"]
    assert by_id[stack["id"]]["reviewShare"] == 0.5
    assert by_id[plain["id"]]["lastStudiedAt"] is None and by_id[plain["id"]]["reviewShare"] == 0


def test_v1_web_push_story(api: Api):
    # The key needs no sign-in: a 65-byte uncompressed P-256 point, base64url without padding.
    _, key = api.call("GET", PUSH_KEY, expect=200)
    public_key = key["publicKey"]
    assert public_key.startswith("B") and len(public_key) == 87 and "=" not in public_key
    raw = b64url_decode(public_key)
    assert len(raw) == 65 and raw[0] == 4
    try:
        from cryptography.hazmat.primitives.asymmetric import ec
    except ImportError:
        pass
    else:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)  # raises when not on the curve
    assert api.call("GET", PUSH_KEY, token="garbage", expect=200)[1] == key, "one key for every caller"

    token = api.signup()["token"]
    keys = browser_push_keys()
    endpoint = f"https://push.example.org/send/{uuid.uuid4().hex}"
    subscription = {"endpoint": endpoint, "keys": keys, "expirationTime": None}
    for _ in range(2):  # subscribing again replaces the subscription
        _, body = api.call("POST", PUSH_SUBSCRIPTIONS, token=token, json_body=subscription, expect=201)
        assert body is None
    api.call("POST", PUSH_SUBSCRIPTIONS, json_body=subscription, expect=401)
    padded = {"p256dh": keys["p256dh"] + "=", "auth": keys["auth"] + "=="}
    api.call("POST", PUSH_SUBSCRIPTIONS, token=token, json_body={"endpoint": endpoint, "keys": padded}, expect=201)

    # Only https push services; keys must be a P-256 point and a 16-byte secret in base64url.
    off_curve = b64url(b"\x04" + b"\x01" * 64)
    for bad in (
        {"endpoint": endpoint.replace("https:", "http:"), "keys": keys},
        {"endpoint": "push.example.org/send/1", "keys": keys},
        {"endpoint": "https://user:secret@push.example.org/send/1", "keys": keys},
        {"endpoint": "https://push.example.org/" + "a" * 1000, "keys": keys},
        {"endpoint": "", "keys": keys},
    ):
        _, body = api.call("POST", PUSH_SUBSCRIPTIONS, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed", bad
    for bad in (
        {"endpoint": endpoint, "keys": {**keys, "p256dh": "AAAA"}},
        {"endpoint": endpoint, "keys": {**keys, "p256dh": off_curve}},
        {"endpoint": endpoint, "keys": {**keys, "p256dh": keys["p256dh"].replace("-", "+").replace("_", "/") + "+"}},
        {"endpoint": endpoint, "keys": {**keys, "auth": b64url(b"\x00" * 15)}},
        {"endpoint": endpoint, "keys": {**keys, "auth": "kein base64!"}},
    ):
        _, body = api.call("POST", PUSH_SUBSCRIPTIONS, token=token, json_body=bad, expect=400)
        assert code(body) == "invalid_push_keys", bad
    for bad in ({"endpoint": endpoint}, {"keys": keys}, {"endpoint": endpoint, "keys": {"p256dh": keys["p256dh"]}}):
        _, body = api.call("POST", PUSH_SUBSCRIPTIONS, token=token, json_body=bad, expect=400)
        assert code(body) == "malformed_json", bad

    # At most 10 browsers per account; the endpoint of one moves to the account that subscribes it.
    others = [f"https://push.example.org/send/{uuid.uuid4().hex}" for _ in range(9)]
    for other in others:
        api.call("POST", PUSH_SUBSCRIPTIONS, token=token, json_body={"endpoint": other, "keys": keys}, expect=201)
    eleventh = {"endpoint": f"https://push.example.org/send/{uuid.uuid4().hex}", "keys": keys}
    _, body = api.call("POST", PUSH_SUBSCRIPTIONS, token=token, json_body=eleventh, expect=400)
    assert code(body) == "validation_failed"
    api.call("POST", PUSH_SUBSCRIPTIONS, token=token, json_body=subscription, expect=201)  # a known one still
    second = api.signup("Zweitgerät")["token"]
    api.call("POST", PUSH_SUBSCRIPTIONS, token=second, json_body={"endpoint": others[0], "keys": keys}, expect=201)
    api.call("POST", PUSH_SUBSCRIPTIONS, token=token, json_body=eleventh, expect=201)

    # Unsubscribing: 204, also when there is nothing (left) to remove.
    for _ in range(2):
        _, body = api.call("DELETE", PUSH_SUBSCRIPTIONS, token=token, json_body={"endpoint": endpoint}, expect=204)
        assert body is None
    api.call("DELETE", PUSH_SUBSCRIPTIONS, token=token, json_body={"endpoint": "https://nie.example.org/x"}, expect=204)
    _, body = api.call("DELETE", PUSH_SUBSCRIPTIONS, token=token, json_body={}, expect=400)
    assert code(body) == "malformed_json"
    _, body = api.call("DELETE", PUSH_SUBSCRIPTIONS, token=token, expect=400)
    assert code(body) == "malformed_json"
    api.call("DELETE", PUSH_SUBSCRIPTIONS, json_body={"endpoint": endpoint}, expect=401)
    # The freed place takes a new browser.
    api.call("POST", PUSH_SUBSCRIPTIONS, token=token, json_body=subscription, expect=201)


# --- login limit -----------------------------------------------------------------------------------------


def test_login_limit_answers_429_with_retry_after(limited_server, checker):
    api = Api(limited_server, checker)
    account = api.signup()
    wrong = {"mail": account["mail"], "password": "falsch-falsch"}
    for _ in range(3):
        _, body = api.call("POST", V1 + "/auth/login", json_body=wrong, expect=401)
        assert code(body) == "wrong_password"
    for path in (V1 + "/auth/login", "/login"):
        for password in ("falsch-falsch", PASSWORD):
            response, body = api.call(
                "POST", path, json_body={"mail": account["mail"], "password": password}, expect=429
            )
            assert code(body) == "too_many_attempts"
            assert 1 <= int(response.headers["Retry-After"]) <= 900
    # The client address has a limit of its own, higher (5 on this server): another account still
    # signs in from it, until the address has failed five times in all.
    other = api.signup()
    api.call("POST", "/login", json_body={"mail": other["mail"], "password": PASSWORD}, expect=200)
    for _ in range(2):
        api.call("POST", V1 + "/auth/login", json_body={"mail": other["mail"], "password": "falsch"}, expect=401)
    third = api.signup()
    response, body = api.call("POST", "/login", json_body={"mail": third["mail"], "password": PASSWORD}, expect=429)
    assert code(body) == "too_many_attempts"
    # Signed-in work goes on.
    api.call("GET", V1 + "/me", token=account["token"], expect=200)


def test_guest_limit_answers_429_with_retry_after(limited_server, checker):
    """20 guest accounts an hour per client address; the 21st is refused until the hour has passed."""
    api = Api(limited_server, checker)
    made = 0
    while True:
        response, body = api.call("POST", GUEST)
        if response.status_code == 429:
            break
        assert response.status_code == 201 and made < 20, response.text
        made += 1
    assert made == 20
    assert code(body) == "too_many_attempts" and body["message"]
    assert 1 <= int(response.headers["Retry-After"]) <= 3600
    api.call("POST", GUEST, json_body={"timeZone": "Europe/Berlin"}, expect=429)
    # Signing up and in is not limited by it.
    account = api.signup()
    api.call("GET", V1 + "/me", token=account["token"], expect=200)


def test_signup_limit_answers_429_with_retry_after(limited_server, checker):
    """Six sign-ups an hour per client address on this server (the stories before used some of them);
    past that 429 with Retry-After, on both APIs."""
    api = Api(limited_server, checker)
    while True:
        body = {"name": "Viele Konten", "mail": unique_mail(), "password": PASSWORD}
        response, answer = api.call("POST", V1 + "/auth/signup", json_body=body)
        if response.status_code == 429:
            break
        assert response.status_code == 201, response.text
    assert code(answer) == "too_many_attempts" and answer["message"]
    assert 1 <= int(response.headers["Retry-After"]) <= 3600
    api.call("POST", "/signup", json_body=body, expect=429)


# --- password reset by mail -------------------------------------------------------------------------------


def test_v1_password_reset_story(mailing_server, server, checker, mail_sink):
    """A link by mail (read from the SMTP sink), used once; the same 202 for unknown addresses; the limit per
    address; a server without mail settings says the feature is unavailable."""
    api = Api(mailing_server, checker)
    _, body = api.call("GET", RESET, expect=200)
    assert body == {"available": True}
    account = api.signup()
    api.call("POST", RESET, json_body={"mail": account["mail"].upper(), "language": "en"}, expect=202)
    api.call("POST", RESET, json_body={"mail": unique_mail("niemand")}, expect=202)
    for bad in ({"mail": ""}, {"mail": account["mail"], "language": "fr"}, {"mail": 1}, {}):
        _, body = api.call("POST", RESET, json_body=bad, expect=400)
        assert code(body) in ("validation_failed", "malformed_json")

    message = email.message_from_bytes(mail_sink.wait_for(account["mail"]), policy=email.policy.default)
    assert message["Subject"] == "Reset your password – Smart Flashcards"
    text = message.get_content()
    assert "Hello Mara Beispiel," in text
    token = re.search(r"https://cards\.example\.org/app/reset\?token=([A-Za-z0-9_-]{43})", text).group(1)

    _, body = api.call("POST", RESET_CONFIRM, json_body={"token": token, "newPassword": "kurz"}, expect=400)
    assert code(body) == "validation_failed"
    _, body = api.call("POST", RESET_CONFIRM, json_body={"token": token, "newPassword": "ganz-neu-42"}, expect=200)
    assert body["user"]["mail"] == account["mail"]
    api.call("GET", V1 + "/me", token=body["token"], expect=200)
    api.call("GET", V1 + "/me", token=account["token"], expect=401)
    for again in (token, "x" * 43, "kaputt"):
        _, body = api.call("POST", RESET_CONFIRM, json_body={"token": again, "newPassword": "ganz-neu-42"}, expect=401)
        assert code(body) == "invalid_reset_token"
    api.call("POST", V1 + "/auth/login", json_body={"mail": account["mail"], "password": "ganz-neu-42"}, expect=200)

    # Three requests per address within the hour, whether or not it has an account.
    for mail in (account["mail"], unique_mail("niemand")):
        while True:
            response, body = api.call("POST", RESET, json_body={"mail": mail})
            if response.status_code == 429:
                break
            assert response.status_code == 202
        assert code(body) == "too_many_attempts"
        assert 1 <= int(response.headers["Retry-After"]) <= 3600

    plain = Api(server, checker)
    _, body = plain.call("GET", RESET, expect=200)
    assert body == {"available": False}
    _, body = plain.call("POST", RESET, json_body={"mail": account["mail"]}, expect=503)
    assert code(body) == "password_reset_unavailable"


# --- coverage of the document by the stories ------------------------------------------------------------


def test_every_operation_was_exercised(server, limited_server, idle_server, mailing_server):
    """Runs last: fails when a documented operation was never called by the stories above."""
    document = load_document()
    exercised = server.exercised | limited_server.exercised | idle_server.exercised | mailing_server.exercised
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

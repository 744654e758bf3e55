"""The compatibility API (the original backend's routes), route 13 (createFromFile) included.

Every real response is checked against Public/openapi.json (conftest.SpecChecker).
"""

from __future__ import annotations

import uuid

from conftest import Api, PASSWORD, unique_mail
from openapi_helpers import (
    C_CARD,
    C_CREATE,
    C_NEXT,
    C_STACK,
    STACKS,
    check_compat_durations,
    code,
    fixture,
    without_hint,
)


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

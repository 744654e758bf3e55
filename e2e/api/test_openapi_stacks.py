"""Stacks and cards on /api/v1: rich cards, card kinds, share links, images, the catalogue (explore), the stack and card routes.

Every real response is checked against Public/openapi.json (conftest.SpecChecker).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone

from conftest import Api
from openapi_helpers import (
    BOOKMARK,
    CARD,
    CARDS,
    CHECK,
    C_CARD,
    EXPLORE,
    EXPLORE_COPY,
    EXPLORE_ENTRY,
    EXPLORE_REPORT,
    IMAGE,
    IMAGES,
    PUBLICATION,
    QUIZ,
    RENDER,
    SHARE,
    SHARED,
    SHARED_COPY,
    STACK,
    STACKS,
    code,
    fixture,
    parse_date,
    study,
)


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

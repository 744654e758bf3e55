"""Learning on /api/v1: study/next, rate, quiz, check and match, on ladder and FSRS stacks.

Every real response is checked against Public/openapi.json (conftest.SpecChecker).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone

from conftest import Api
from openapi_helpers import (
    CARDS,
    CHECK,
    C_NEXT,
    MATCH,
    NEXT,
    QUIZ,
    RATE,
    STACK,
    STACKS,
    check_compat_durations,
    code,
    parse_date,
    without_hint,
)


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

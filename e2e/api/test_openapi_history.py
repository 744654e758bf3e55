"""The review history, undo, statistics and the scheduler on /api/v1.

Every real response is checked against Public/openapi.json (conftest.SpecChecker).
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta, timezone

from conftest import Api
from openapi_helpers import (
    CARD,
    CARDS,
    JOB_CANCEL,
    MADE_OFFLINE,
    ME_RETRIEVABILITY,
    ME_STATS,
    OPTIMIZE,
    RETRIEVABILITY,
    REVIEWS,
    SCHEDULER,
    STACKS,
    STATS,
    UNDO,
    code,
    history,
    iso,
    wait_for_job,
    without_hint,
)


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
    # The job's result also says how the fit went: new parameters (not kept) and the simulated change of
    # the month's reviews; the stored parameters are the rest of it.
    assert fitted.pop("kept") is False and isinstance(fitted.pop("workloadChange"), (int, float))
    fitted.pop("check", None)  # a history this short has too few reviews to hold any out
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

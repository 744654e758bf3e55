"""The workload forecast, what-if simulations and the retention advice on /api/v1.

Every real response is checked against Public/openapi.json (conftest.SpecChecker).
"""

from __future__ import annotations

from conftest import Api
from openapi_helpers import CARDS, MADE_OFFLINE, REVIEWS, SETTINGS, STACKS, V1, code, history

WORKLOAD = STACKS + "/{stackId}/workload"
SIMULATE = WORKLOAD + "/simulate"
ADVICE = STACKS + "/{stackId}/retention-advice"
ME_WORKLOAD = V1 + "/me/workload"
ME_SIMULATE = ME_WORKLOAD + "/simulate"
ME_ADVICE = V1 + "/me/retention-advice"
MEMORY = STACKS + "/{stackId}/stats/memory"
ME_MEMORY = V1 + "/me/stats/memory"


def test_v1_workload_story(api: Api):
    token = api.signup(time_zone="Europe/Berlin")["token"]
    other = api.signup("Jonas Fremd")["token"]

    # Nothing studied yet: a calm, empty forecast and nothing to advise.
    _, empty = api.call("GET", ME_WORKLOAD, token=token, expect=200)
    assert empty["cards"] == 0 and all(day["reviews"] == 0 and day["newCards"] == 0 for day in empty["days"])
    _, idle = api.call("GET", ME_ADVICE, token=token, expect=200)
    assert idle["reason"] == "nothing_to_study"

    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Physik", "color": "#0EA5E9"}, expect=201)
    at = {"stackId": stack["id"]}
    cards = [
        api.call(
            "POST", CARDS, path=at, token=token,
            json_body={"question": f"Frage {i}", "answer": f"Antwort {i}", "createdAt": MADE_OFFLINE}, expect=201,
        )[1]
        for i in range(12)
    ]
    api.call("POST", REVIEWS, token=token, json_body={"reviews": history([c["id"] for c in cards[:6]])}, expect=200)

    _, forecast = api.call("GET", WORKLOAD, path=at, token=token, params={"days": 14}, expect=200)
    assert len(forecast["days"]) == 14 and forecast["cards"] == 12
    assert sum(day["newCards"] for day in forecast["days"]) == 6
    assert forecast["averageMinutes"] > 0 and forecast["minutesBudget"] is None
    _, everything = api.call("GET", ME_WORKLOAD, token=token, expect=200)
    assert len(everything["days"]) == 30 and everything["cards"] == 12

    _, what_if = api.call(
        "POST", SIMULATE, path=at, token=token, json_body={"days": 10, "newCardsPerDay": 2, "additionalNewCards": 50},
        expect=200,
    )
    assert [day["newCards"] for day in what_if["days"]] == [2] * 10 and what_if["cards"] == 62
    _, nothing_new = api.call("POST", ME_SIMULATE, token=token, json_body={"newCardsPerDay": 0}, expect=200)
    assert all(day["newCards"] == 0 for day in nothing_new["days"])

    api.call("PATCH", SETTINGS, token=token, json_body={"onboarding": {"minutesPerDay": 10}}, expect=200)
    _, advice = api.call("GET", ADVICE, path=at, token=token, expect=200)
    assert advice["minutesBudget"] == 10 and advice["days"] == 365 and advice["current"] == 0.9
    assert [o["desiredRetention"] for o in advice["options"]][0] == 0.7
    assert advice["recommended"] in [o["desiredRetention"] for o in advice["options"]]
    _, all_advice = api.call("GET", ME_ADVICE, token=token, expect=200)
    assert all_advice["reason"] in ("within_budget", "over_budget")

    # The FSRS figures: six studied cards, their reviews of the last month in the table.
    _, memory = api.call("GET", MEMORY, path=at, token=token, expect=200)
    assert memory["cards"] == 6 and sum(memory["retrievability"]) == 6 and 0 < memory["estimatedKnowledge"] <= 6
    assert [row["period"] for row in memory["trueRetention"]] == ["today", "yesterday", "week", "month", "year"]
    year = memory["trueRetention"][-1]
    assert year["young"]["reviews"] + year["mature"]["reviews"] > 0
    _, all_memory = api.call("GET", ME_MEMORY, token=token, expect=200)
    assert all_memory["cards"] == 6
    api.call("GET", MEMORY, path=at, token=other, expect=404)
    api.call("GET", ME_MEMORY, expect=401)

    # Bad input, a ladder stack, another learner's stack, no token.
    api.call("GET", WORKLOAD, path=at, token=token, params={"days": 0}, expect=400)
    for body, expected in (
        ({"days": 366}, "validation_failed"), ({"desiredRetention": 0.5}, "validation_failed"),
        ({"newCardsPerDay": -1}, "validation_failed"), ({"days": "viele"}, "malformed_json"),
    ):
        response, answer = api.call("POST", SIMULATE, path=at, token=token, json_body=body)
        assert response.status_code == 400 and code(answer) == expected, (body, answer)
    api.call("POST", ME_SIMULATE, token=token, data="{\"days\": ", headers={"Content-Type": "application/json"}, expect=400)
    api.call("POST", ME_SIMULATE, token=token, data="days=3", headers={"Content-Type": "text/plain"}, expect=415)
    _, ladder = api.call(
        "POST", STACKS, token=token, json_body={"name": "Leiter", "color": "#22C55E", "scheduler": "ladder"}, expect=201
    )
    for template, method in ((WORKLOAD, "GET"), (SIMULATE, "POST"), (ADVICE, "GET")):
        body = {} if method == "POST" else None
        _, answer = api.call(method, template, path={"stackId": ladder["id"]}, token=token, json_body=body, expect=409)
        assert code(answer) == "workload_needs_fsrs"
        _, answer = api.call(method, template, path=at, token=other, json_body=body, expect=404)
        assert code(answer) == "stack_not_found"
    for template, method in ((ME_WORKLOAD, "GET"), (ME_SIMULATE, "POST"), (ME_ADVICE, "GET")):
        api.call(method, template, expect=401)


BREAK = STACKS + "/{stackId}/schedule/break"
POSTPONE = STACKS + "/{stackId}/schedule/postpone"
ADVANCE = STACKS + "/{stackId}/schedule/advance"
ME_BREAK = V1 + "/me/schedule/break"
ME_POSTPONE = V1 + "/me/schedule/postpone"
ME_ADVANCE = V1 + "/me/schedule/advance"


def test_v1_breaks_postponing_and_advancing(api: Api):
    from datetime import datetime, timedelta, timezone

    token = api.signup(time_zone="Europe/Berlin")["token"]
    other = api.signup("Jonas Fremd")["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Physik", "color": "#0EA5E9"}, expect=201)
    at = {"stackId": stack["id"]}
    cards = [
        api.call("POST", CARDS, path=at, token=token,
                 json_body={"question": f"Frage {i}", "answer": f"Antwort {i}", "createdAt": MADE_OFFLINE}, expect=201)[1]
        for i in range(20)
    ]
    api.call("POST", REVIEWS, token=token, json_body={"reviews": history([c["id"] for c in cards])}, expect=200)
    _, listing = api.call("GET", CARDS, path=at, token=token, params={"perPage": 50}, expect=200)
    due_days = sorted(c["dueAt"][:10] for c in listing["items"] if c["state"] == "review")
    today = datetime.now(timezone.utc).date()
    start = max(today + timedelta(days=1), datetime.fromisoformat(due_days[len(due_days) // 2]).date())
    body = {"from": start.isoformat(), "to": (start + timedelta(days=4)).isoformat()}

    _, preview = api.call("POST", BREAK, path=at, token=token, json_body={**body, "preview": True}, expect=200)
    assert preview["preview"] is True and preview["days"]
    _, plan = api.call("POST", ME_BREAK, token=token, json_body={**body, "restDays": False}, expect=200)
    assert plan["preview"] is False and plan["advanced"] + plan["postponed"] == preview["advanced"] + preview["postponed"]
    away = {(start + timedelta(days=i)).isoformat() for i in range(5)}
    assert all(day["after"] == 0 for day in plan["days"] if day["date"] in away)

    _, moved = api.call("POST", POSTPONE, path=at, token=token, json_body={"count": 3, "preview": True}, expect=200)
    assert moved["advanced"] == 0 and moved["postponed"] <= 3
    _, advanced = api.call("POST", ME_ADVANCE, token=token, json_body={"count": 2}, expect=200)
    assert advanced["advanced"] == 2 and advanced["days"] and advanced["days"][0]["after"] >= 2

    # Bad input, another learner, a ladder stack, no token.
    _, answer = api.call("POST", BREAK, path=at, token=token, json_body={"from": "morgen", "to": body["to"]}, expect=400)
    assert code(answer) == "validation_failed", answer
    for payload in ({"from": body["to"], "to": body["from"]}, {"from": "2020-01-01", "to": "2020-01-02"},
                    {"from": body["from"], "to": (start + timedelta(days=90)).isoformat()}):
        _, answer = api.call("POST", BREAK, path=at, token=token, json_body=payload, expect=409)
        assert code(answer) == "break_out_of_range", answer
    api.call("POST", BREAK, path=at, token=token, json_body={"from": body["from"]}, expect=400)
    for template in (POSTPONE, ADVANCE):
        _, answer = api.call("POST", template, path=at, token=token, json_body={"count": 0}, expect=400)
        assert code(answer) == "validation_failed"
        _, answer = api.call("POST", template, path=at, token=other, json_body={"count": 1}, expect=404)
        assert code(answer) == "stack_not_found"
    _, ladder = api.call(
        "POST", STACKS, token=token, json_body={"name": "Leiter", "color": "#22C55E", "scheduler": "ladder"}, expect=201
    )
    _, answer = api.call("POST", BREAK, path={"stackId": ladder["id"]}, token=token, json_body=body, expect=409)
    assert code(answer) == "workload_needs_fsrs"
    for template in (ME_BREAK, ME_POSTPONE, ME_ADVANCE):
        api.call("POST", template, json_body={"count": 1}, expect=401)

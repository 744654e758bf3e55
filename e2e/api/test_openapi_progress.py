"""Progress without pressure (issue 18): settings, progress, rest days, the mystery box, the leaderboard, the stack library's fields, web push.

Every real response is checked against Public/openapi.json (conftest.SpecChecker).
"""

from __future__ import annotations

import uuid

from conftest import Api
from openapi_helpers import (
    DEFAULT_SETTINGS,
    LEADERBOARD,
    MYSTERY_BOX,
    PROGRESS,
    PUSH_KEY,
    PUSH_SUBSCRIPTIONS,
    REST_DAY,
    SETTINGS,
    STACKS,
    b64url,
    b64url_decode,
    browser_push_keys,
    code,
    learner_day,
    study,
)


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

    # Load balancing and easy days (docs/fsrs.md): seven weekdays, Monday first; anything else is refused.
    week = ["normal"] * 5 + ["reduced", "minimum"]
    _, changed = api.call("PATCH", SETTINGS, token=token, json_body={"loadBalancing": False, "easyDays": week}, expect=200)
    assert changed == {**settings, "loadBalancing": False, "easyDays": week}
    for wrong in (["normal"] * 6, ["normal"] * 6 + ["gar nicht"], "normal"):
        response, answer = api.call("PATCH", SETTINGS, token=token, json_body={"easyDays": wrong})
        assert response.status_code == 400, (wrong, answer)
    _, settings = api.call("PATCH", SETTINGS, token=token, json_body={"loadBalancing": True, "easyDays": ["normal"] * 7}, expect=200)
    assert settings == {**DEFAULT_SETTINGS, "language": "en", "focusMode": True}

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

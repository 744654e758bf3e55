"""Paths, constants and helpers shared by the OpenAPI story modules (test_openapi_*.py).

The stories walk every route of /api/v1 and of the compatibility API, good paths and errors, and
every real response is checked against the document (conftest.SpecChecker).
"""

from __future__ import annotations

import base64
import os
import re
import time
import uuid
from datetime import date, datetime, timedelta, timezone

from conftest import Api, ROOT


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
SUGGESTION = DRAFTS + "/suggestion"
SOURCE = GENERATIONS + "/{jobId}/source"
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


RENDER = V1 + "/render"

SHARE = STACK + "/share"
SHARED = V1 + "/shared/{token}"
SHARED_COPY = SHARED + "/copy"

IMAGES = V1 + "/images"
IMAGE = IMAGES + "/{imageId}"

PUBLICATION = STACK + "/publication"
EXPLORE = V1 + "/explore"
EXPLORE_ENTRY = EXPLORE + "/{entryId}"
EXPLORE_COPY = EXPLORE_ENTRY + "/copy"
EXPLORE_REPORT = EXPLORE_ENTRY + "/report"

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
    "loadBalancing": True,
    "easyDays": ["normal"] * 7,
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

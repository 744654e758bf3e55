"""Daily reminders by Web Push, end to end: the server encrypts (RFC 8291) and signs (VAPID,
RFC 8292) a push to a local receiver that plays the push service and the browser
(push_receiver.py, written from the RFCs with the `cryptography` package) and decrypts it.

Also: several server instances on one database. Reminders are claimed per day with a conditional
update, so two instances send one push; XP and the leaderboard are computed from the database
only, so both instances answer the same.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import requests

from conftest import PASSWORD, POSTGRES_URL, start_server, unique_mail

HERE = Path(__file__).resolve().parent
V1 = "/api/v1"


class Receiver:
    """One push_receiver.py process: one subscription and the messages it got."""

    def __init__(self, tmp: Path, name: str):
        self.sub_path = tmp / f"{name}-sub.json"
        self.msgs_path = tmp / f"{name}-msgs.jsonl"
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "push_receiver.py"), "--port", "0", "--subscription-out",
             str(self.sub_path), "--messages-out", str(self.msgs_path)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 15
        while not self.sub_path.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"push receiver did not start: {self.process.stderr.read().decode()}")
            time.sleep(0.05)
        time.sleep(0.05)
        self.subscription = json.loads(self.sub_path.read_text())

    def messages(self) -> list[dict]:
        if not self.msgs_path.exists():
            return []
        return [json.loads(line) for line in self.msgs_path.read_text().splitlines() if line.strip()]

    def wait(self, count: int, timeout: float = 20) -> list[dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.messages()
            if len(found) >= count:
                return found
            time.sleep(0.1)
        return self.messages()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def receivers(tmp_path):
    made: list[Receiver] = []

    def make(name: str) -> Receiver:
        receiver = Receiver(tmp_path, name)
        made.append(receiver)
        return receiver

    yield make
    for receiver in made:
        receiver.stop()


def signup(base: str, name: str) -> dict:
    response = requests.post(base + V1 + "/auth/signup", json={
        "name": name, "mail": unique_mail(name.lower()), "password": PASSWORD, "timeZone": "Europe/Berlin"})
    assert response.status_code == 201, response.text
    return {"Authorization": "Bearer " + response.json()["token"]}


def subscribe(base: str, auth: dict, receiver: Receiver, language: str = "de", enabled: bool = True):
    response = requests.post(base + V1 + "/me/push-subscriptions", json=receiver.subscription, headers=auth)
    assert response.status_code == 201, response.text
    # 00:00 has always passed today: the reminder is due at the next look.
    response = requests.patch(base + V1 + "/me/settings", headers=auth, json={
        "remindersEnabled": enabled, "reminderTime": "00:00", "language": language})
    assert response.status_code == 200, response.text


def study_one_card(base: str, auth: dict):
    stack = requests.post(base + V1 + "/stacks", headers=auth, json={"name": "S", "color": "#000000"}).json()
    card = requests.post(base + V1 + f"/stacks/{stack['id']}/cards", headers=auth,
                         json={"question": "Q", "answer": "A"}).json()
    response = requests.post(base + V1 + f"/stacks/{stack['id']}/study/rate", headers=auth,
                             json={"cardId": card["id"], "rating": "good"})
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("backend", ["sqlite"] + (["postgres"] if POSTGRES_URL else []))
def test_reminders_are_pushed_encrypted_once_a_day_and_only_when_wanted(backend, receivers):
    server = start_server(backend, "reminders", {
        "FLASHCARDS_PUSH_ALLOW_HTTP": "1", "FLASHCARDS_REMINDER_INTERVAL_SECONDS": "1",
        "FLASHCARDS_VAPID_SUBJECT": "mailto:ops@example.org"})
    try:
        base = server.base_url
        key = requests.get(base + V1 + "/push/key").json()["publicKey"]
        assert key.startswith("B") and len(key) == 87

        due, english, studied, resting, off = (receivers(n) for n in ("due", "english", "studied", "resting", "off"))
        subscribe(base, signup(base, "Due"), due)
        subscribe(base, signup(base, "English"), english, language="en")
        studier = signup(base, "Studied")
        study_one_card(base, studier)
        subscribe(base, studier, studied)
        rester = signup(base, "Resting")
        today = requests.get(base + V1 + "/me/progress", headers=rester).json()["today"]
        assert requests.put(base + V1 + f"/me/rest-days/{today}", headers=rester).status_code == 204
        subscribe(base, rester, resting)
        subscribe(base, signup(base, "Off"), off, enabled=False)

        got = due.wait(1)
        assert len(got) == 1, got
        message = got[0]
        assert message["status"] == 201 and message["vapidOk"] is True, message
        payload = json.loads(message["payload"])
        assert payload == {
            "title": "Smart Flashcards", "body": "Lust auf ein paar Karten? Ein paar Minuten reichen schon.",
            "url": "/app/home", "tag": "daily-reminder"}
        assert message["headers"].get("Content-Encoding") == "aes128gcm"
        assert int(message["headers"].get("TTL")) > 0
        english_got = english.wait(1)
        assert json.loads(english_got[0]["payload"])["body"] == "Fancy a few cards? A few minutes are enough."

        # Several more looks (one a second) send nothing more today, and nothing to the others.
        time.sleep(3.5)
        assert len(due.messages()) == 1
        assert studied.messages() == [] and resting.messages() == [] and off.messages() == []
    finally:
        server.stop()


def test_a_subscription_must_be_https_with_valid_keys(receivers):
    server = start_server("sqlite", "push-checks")  # http endpoints not allowed here
    try:
        base = server.base_url
        auth = signup(base, "Checker")
        receiver = receivers("refused")
        response = requests.post(base + V1 + "/me/push-subscriptions", json=receiver.subscription, headers=auth)
        assert response.status_code == 400 and response.json()["code"] == "validation_failed"
        bad = {"endpoint": "https://push.example.org/x", "keys": {"p256dh": "AAAA", "auth": "BBBB"}}
        response = requests.post(base + V1 + "/me/push-subscriptions", json=bad, headers=auth)
        assert response.status_code == 400 and "Schlüssel" in response.json()["message"]
        good = dict(receiver.subscription, endpoint="https://push.example.org/" + uuid.uuid4().hex)
        assert requests.post(base + V1 + "/me/push-subscriptions", json=good, headers=auth).status_code == 201
        response = requests.delete(base + V1 + "/me/push-subscriptions", json={"endpoint": good["endpoint"]},
                                   headers=auth)
        assert response.status_code == 204
    finally:
        server.stop()


@pytest.mark.skipif(not POSTGRES_URL, reason="two instances share a PostgreSQL database")
def test_two_instances_on_one_postgres_agree_and_remind_once(receivers):
    schema = f"api_two_{uuid.uuid4().hex[:10]}"
    shared = {"DATABASE_SCHEMA": schema, "FLASHCARDS_PUSH_ALLOW_HTTP": "1",
              "FLASHCARDS_REMINDER_INTERVAL_SECONDS": "1", "FLASHCARDS_JWT_SECRET": "x" * 40}
    first = start_server("postgres", "two-a", shared)
    second = start_server("postgres", "two-b", shared)
    try:
        receiver = receivers("shared")
        auth = signup(first.base_url, "Shared")
        other = signup(second.base_url, "Other")
        for headers in (auth, other):
            assert requests.patch(first.base_url + V1 + "/me/settings", headers=headers,
                                  json={"leaderboardOptIn": True}).status_code == 200
        study_one_card(first.base_url, auth)
        study_one_card(second.base_url, other)
        study_one_card(second.base_url, auth)
        a = requests.get(first.base_url + V1 + "/me/progress", headers=auth).json()
        b = requests.get(second.base_url + V1 + "/me/progress", headers=auth).json()
        assert a == b and a["cardsToday"] == 2
        board_a = requests.get(first.base_url + V1 + "/leaderboards/daily", headers=other).json()
        board_b = requests.get(second.base_url + V1 + "/leaderboards/daily", headers=other).json()
        assert board_a == board_b
        assert [(e["name"], e["value"]) for e in board_a["entries"]] == [("Shared", 2), ("Other", 1)]

        # Both instances look every second; the day is claimed once, so one push arrives.
        fresh = signup(first.base_url, "Fresh")
        subscribe(second.base_url, fresh, receiver)
        assert len(receiver.wait(1)) == 1
        time.sleep(3.5)
        assert len(receiver.messages()) == 1
    finally:
        first.stop()
        second.stop()

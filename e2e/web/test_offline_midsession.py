"""Offline in the middle of a session (issue 33): a session opens online, then the connection drops
at each point of it (a card on screen before it is revealed or answered, between a rating and the
next card, while a rating request is in flight: cut before it reaches the server, or its answer lost
after the server stored it, during an undo), in every mode (flashcards, quiz, write, feed), on a
stack made a moment ago and on one just copied from Explore (neither is in the last refresh of the
local copy). The learner never sees an error and never waits long; back online, the server has
every rating exactly once (read from its SQLite file: the ids the browser sent, no more rows) and
every undo once, and the browser's schedules equal the server's."""

from __future__ import annotations

import os
import re
import sqlite3
import time
import uuid
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from conftest import METRICS, api, make_stack, shot, signup_via_api
from learning import start_session
from test_offline import go_online_first, local, pending, wait_until

DATA_DIR = os.environ.get("FLASHCARDS_TEST_DATA_DIR", "")
RATE = re.compile(r"/api/v1/stacks/[^/]+/study/rate$")
UNDO = re.compile(r"/api/v1/stacks/[^/]+/cards/[^/]+/undo$")
LABELS = {"flashcards": "Karteikarten", "quiz": "Quiz", "write": "Schreiben", "feed": "Feed"}
SCHEDULE_TIMES = ("dueAt", "lastReviewedAt", "firstReviewedAt")
SCHEDULE_VALUES = ("state", "step", "level", "reviewCount")


# --- the network --------------------------------------------------------------------------------

def cut_once(page: Page, url: re.Pattern) -> dict:
    """The next POST to `url` never reaches the server (the connection breaks as it is sent)."""
    state = {"hit": 0}

    def handler(route):
        if route.request.method == "POST" and not state["hit"]:
            state["hit"] += 1
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(url, handler)
    return state


def lose_answer_once(page: Page, url: re.Pattern) -> dict:
    """The next POST to `url` reaches the server, which stores it, but its answer is lost."""
    state = {"status": None}

    def handler(route):
        if route.request.method == "POST" and state["status"] is None:
            state["status"] = route.fetch().status
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(url, handler)
    return state


# --- the server's side ----------------------------------------------------------------------------

def _uuid(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        return str(uuid.UUID(bytes=value))
    return str(value).lower()


def server_log(stack_id: str) -> list[dict]:
    """Every review-log row of the stack, read from the server's SQLite file (read-only)."""
    assert DATA_DIR, "scripts/test-web sets FLASHCARDS_TEST_DATA_DIR"
    db = sqlite3.connect(f"file:{Path(DATA_DIR) / 'flashcards.sqlite'}?mode=ro", uri=True, timeout=10)
    try:
        rows = db.execute(
            "SELECT r.id, r.kind, r.undoes, c.unique_id FROM review_logs r JOIN stacks s ON s.id = r.stack_id "
            "JOIN cards c ON c.id = r.card_id WHERE upper(s.unique_id) = upper(?) ORDER BY r.seq",
            (stack_id,)).fetchall()
    finally:
        db.close()
    return [{"id": _uuid(a), "kind": k, "undoes": _uuid(u), "card": _uuid(c)} for a, k, u, c in rows]


def server_cards(page: Page, token: str, stack_id: str) -> dict:
    _, body = api(page, "GET", f"/stacks/{stack_id}/cards?perPage=200", token=token)
    return {c["id"]: c for c in body["items"]}


def _moment(value):
    return None if value is None else datetime.fromisoformat(value.replace("Z", "+00:00"))


def assert_same_schedules(mine: dict, server: dict) -> None:
    """The browser's cards (`mine`, id → card) have the server's schedules."""
    assert set(mine) == set(server)
    for card_id, card in mine.items():
        theirs = server[card_id]
        for field in SCHEDULE_VALUES:
            assert card.get(field) == theirs.get(field), (field, card, theirs)
        for field in SCHEDULE_TIMES:
            a, b = _moment(card.get(field)), _moment(theirs.get(field))
            assert (a is None) == (b is None), (field, card, theirs)
            if a is not None:
                assert abs((a - b).total_seconds()) < 0.002, (field, card, theirs)
        for field in ("stability", "difficulty"):
            a, b = card.get(field), theirs.get(field)
            assert (a is None) == (b is None), (field, card, theirs)
            if a is not None:
                assert abs(a - b) <= 1e-9 * max(1, abs(b)), (field, card, theirs)


def stored_cards(page: Page, stack_id: str) -> dict:
    return {c["id"]: c for c in local(page, "return store.cards(arg);", stack_id)}


# --- the learner ----------------------------------------------------------------------------------

class Learner:
    """Drives one session in `mode` and keeps the books: which cards were rated and undone, and
    every review id the browser sent to the server (a rating request, a sync batch)."""

    def __init__(self, page: Page, mode: str):
        self.page = page
        self.mode = mode
        self.rated: list[str] = []  # the question of each rating, in order
        self.undone: list[str] = []
        self.sent: set[str] = set()
        self.slowest = 0.0
        page.on("request", self._note)

    def _note(self, request):
        if request.method != "POST":
            return
        try:
            body = request.post_data_json
        except Exception:  # noqa: BLE001 - not JSON: not ours
            return
        if RATE.search(request.url):
            self.sent.add(body["reviewId"])
        elif request.url.endswith("/api/v1/reviews"):
            self.sent.update(r["id"] for r in body["reviews"])

    @property
    def counted(self) -> int:
        return len(self.rated) - len(self.undone)

    def question(self) -> str:
        selector = "#feed-question" if self.mode == "feed" else "flip-card [data-question]"
        return self.page.locator(selector).inner_text()

    def expect_counted(self, timeout: float = 5000) -> None:
        if self.mode == "feed":
            text = re.compile(rf"^{self.counted} verstanden")
        else:
            text = re.compile(rf"(^|\D){self.counted} Wiederholung")
        expect(self.page.locator("#counter")).to_have_text(text, timeout=timeout)

    def expect_no_error(self) -> None:
        expect(self.page.locator("#feed-error" if self.mode == "feed" else "#rate-error")).to_be_hidden()

    def answer(self, proceed: bool = True, timeout: float = 5000) -> str:
        """Answers the card on screen as a learner would in the mode and waits until the rating
        counts (quiz: and the next question, unless `proceed` is false). Returns its question."""
        page = self.page
        question = self.question()
        self.rated.append(question)
        started = time.perf_counter()
        if self.mode == "flashcards":
            page.get_by_role("button", name="Antwort zeigen").click()
            page.locator("#ratings button").nth(3).click()  # Einfach
        elif self.mode == "quiz":
            page.locator("#choices .choice").first.click()
        elif self.mode == "write":
            page.get_by_label("Deine Antwort").fill("Keine Ahnung")
            page.get_by_role("button", name="Prüfen").click()
            expect(page.locator("#write-result")).to_be_visible()
            page.get_by_role("button", name="Weiter", exact=True).click()
        else:
            page.get_by_role("button", name="Verstanden").click()
        self.expect_counted(timeout)
        self.slowest = max(self.slowest, time.perf_counter() - started)
        self.expect_no_error()
        if self.mode == "quiz" and proceed:
            self.proceed()
        return question

    def proceed(self) -> None:
        """Quiz: "Weiter" to the next question."""
        self.page.get_by_role("button", name="Weiter", exact=True).click()
        expect(self.page.locator("#after-answer")).to_be_hidden()
        expect(self.page.locator("#choices .choice").first).to_be_enabled()
        self.expect_no_error()

    def undo(self) -> None:
        """Takes back the last rating ("Rückgängig"); it counts no more."""
        self.undone.append(self.rated[-1])
        self.page.locator("#undo").click()
        expect(self.page.locator("#toasts")).to_contain_text("Letzte Bewertung zurückgenommen.")
        self.expect_counted()
        self.expect_no_error()


def offline(learner: Learner) -> None:
    learner.page.context.set_offline(True)
    expect(learner.page.locator("#net-status")).to_contain_text("Offline")


def back_online(learner: Learner) -> None:
    """The connection is back: the offline bar sends the outbox by itself."""
    learner.page.context.set_offline(False)
    wait_until(lambda: pending(learner.page) == 0, what="the outbox sent")


def sync_by_hand(learner: Learner) -> None:
    """The browser never was offline (a request failed): "Jetzt abgleichen" sends the outbox."""
    page = learner.page
    expect(page.locator("#net-status")).to_contain_text("Änderung")
    page.get_by_role("button", name="Jetzt abgleichen").click()
    wait_until(lambda: pending(page) == 0, what="the outbox sent")


# --- the scenarios --------------------------------------------------------------------------------

def open_new_stack(page: Page, account: dict, mode: str) -> tuple[str, int]:
    """A stack made a moment ago (after the local copy was refreshed), opened from its page."""
    stack = make_stack(page, account["token"], f"Neu {mode}", 14)
    page.goto(f"/app/stacks/{stack['id']}")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Neu {mode}")
    return stack["id"], 14


def open_explore_copy(page: Page, account: dict, mode: str) -> tuple[str, int]:
    """A starter deck just copied from Explore."""
    page.goto("/app/explore")
    page.get_by_role("link", name="Europäische Hauptstädte").first.click()
    page.get_by_role("button", name="In meine Bibliothek kopieren").click()
    expect(page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Europäische Hauptstädte")
    return page.url.rsplit("/", 1)[1], 15


@pytest.mark.parametrize("origin", ["new", "explore"])
@pytest.mark.parametrize("mode", ["flashcards", "quiz", "write", "feed"])
def test_connection_drops_mid_session(make_page, mode, origin):
    page = make_page()
    account = signup_via_api(page)
    token = account["token"]
    make_stack(page, token, "Alt", 2)
    go_online_first(page, account, cards=2)  # the copy is refreshed, then the new stack comes
    stack_id, size = (open_new_stack if origin == "new" else open_explore_copy)(page, account, mode)
    assert local(page, "return (await store.cards(arg)).length;", stack_id) == 0

    page.get_by_role("link", name="Jetzt lernen").click()
    start_session(page, LABELS[mode])
    learner = Learner(page, mode)
    expect(page.locator("#feed-question" if mode == "feed" else "flip-card [data-question]")).not_to_be_empty()
    # Opening the session put every card of the stack into the local copy.
    assert len(stored_cards(page, stack_id)) == size

    # 1. The connection drops while the first card is on screen, before it is revealed/answered:
    # the ratings go to the outbox, the next cards come from the local copy, no error.
    offline(learner)
    learner.answer()
    learner.answer()
    expect(page.locator("#net-status")).to_contain_text("Offline – 2 Änderungen warten")
    shot(page, f"offline-midsession-{mode}-{origin}")
    back_online(learner)

    # 2. Between a rating and the next card. Quiz: the answer counted online, "Weiter" offline.
    # The others get the next card with the rating: its answer is lost after the server stored it.
    if mode == "quiz":
        learner.answer(proceed=False)
        offline(learner)
        learner.proceed()
        learner.answer()
        back_online(learner)
    else:
        lost = lose_answer_once(page, RATE)
        learner.answer()
        assert lost["status"] == 200
        learner.answer()
        page.unroute(RATE)
        sync_by_hand(learner)

    # 3. A rating request that never reaches the server.
    cut = cut_once(page, RATE)
    learner.answer()
    assert cut["hit"] == 1
    page.unroute(RATE)
    sync_by_hand(learner)

    # 4. During an undo (the feed has none): offline before the undo is sent; the undo's answer
    # lost after the server applied it; an undo of a rating whose answer was lost.
    if mode != "feed":
        learner.answer()
        offline(learner)
        learner.undo()
        learner.answer()
        back_online(learner)

        learner.answer()
        lost = lose_answer_once(page, UNDO)
        learner.undo()
        assert lost["status"] == 200
        page.unroute(UNDO)
        learner.answer()
        sync_by_hand(learner)

        lost = lose_answer_once(page, RATE)
        learner.answer()
        assert lost["status"] == 200
        page.unroute(RATE)
        learner.undo()
        learner.answer()
        sync_by_hand(learner)

    # Offline once more: what the browser computes is what the server computes from the reviews.
    offline(learner)
    learner.answer()
    mine = stored_cards(page, stack_id)
    back_online(learner)
    assert learner.slowest < 4, f"an answer took {learner.slowest:.1f} s"

    # The server has each rating once: the ids the browser sent, no other row; each undo once.
    log = server_log(stack_id)
    reviews = [row for row in log if row["kind"] == "review"]
    undos = [row for row in log if row["kind"] == "undo"]
    assert len(reviews) == len(learner.rated)
    assert {row["id"] for row in reviews} == learner.sent
    assert len(undos) == len(learner.undone)
    assert len({row["undoes"] for row in undos}) == len(undos)
    assert {row["undoes"] for row in undos} <= {row["id"] for row in reviews}
    server = server_cards(page, token, stack_id)
    expected = Counter(learner.rated)
    expected.subtract(learner.undone)
    assert {c["question"]: c["reviewCount"] or 0 for c in server.values() if c["reviewCount"]} == \
        {q: n for q, n in expected.items() if n}
    # The browser's schedules: computed offline, and after the sync.
    assert_same_schedules(mine, server)
    wait_until(lambda: _equal(stored_cards(page, stack_id), server), what="the copy refreshed")
    expect(page.locator("#net-status-text")).to_have_text("")


def _equal(mine: dict, server: dict) -> bool:
    try:
        assert_same_schedules(mine, server)
    except AssertionError:
        return False
    return True


def test_rating_without_an_answer_gives_up_quickly(make_page):
    """A rating request that gets no answer at all (the connection hangs) gives up after a few
    seconds: the rating goes to the outbox and the next card shows, without an error."""
    page = make_page()
    account = signup_via_api(page)
    make_stack(page, account["token"], "Alt", 1)
    go_online_first(page, account, cards=1)
    stack = make_stack(page, account["token"], "Hängt", 4)
    page.goto(f"/app/stacks/{stack['id']}/study")
    start_session(page, "Karteikarten")
    learner = Learner(page, "flashcards")
    expect(page.locator("flip-card [data-question]")).not_to_be_empty()
    held = []
    page.route(RATE, lambda route: held.append(route), times=1)  # never answered
    started = time.perf_counter()
    learner.answer(timeout=10_000)
    waited = time.perf_counter() - started
    METRICS.setdefault("offline", {})["ratingWithoutAnswerMs"] = round(waited * 1000)
    assert held and 4.5 < waited < 7, waited
    assert pending(page) == 1
    learner.answer()  # the session goes on from the local copy at once
    assert learner.slowest < 7
    sync_by_hand(learner)
    reviews = [row for row in server_log(stack["id"]) if row["kind"] == "review"]
    assert len(reviews) == 2 and {row["id"] for row in reviews} == learner.sent

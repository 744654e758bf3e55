"""Offline study in Chromium (Playwright's offline mode): the local copy in IndexedDB, studying
without a connection in every mode that rates, the outbox surviving a closed tab, the sync when
back online (reviews through `POST /api/v1/reviews`, checked against the server through the API),
two devices rating the same card offline, an offline card edit against a newer one (last writer
wins, with a notice), reviews of a card deleted meanwhile, signing out, and the empty state."""

from __future__ import annotations

import re
import time
from datetime import datetime, timezone

from playwright.sync_api import BrowserContext, Page, expect

from conftest import METRICS, _watch, api, make_stack, shot, sign_in_storage, signup_via_api
from learning import reveal

STORE = "/assets/js/offline/store.js"
LOCAL = "/assets/js/offline/local-study.js"


def local(page: Page, body: str, arg=None):
    """Runs `body` (an async function body with `store`, the signed-in user's local copy, and `arg`)."""
    return page.evaluate(
        f"async (arg) => {{ const store = await (await import('{STORE}')).currentStore(); {body} }}", arg)


def pending(page: Page) -> int:
    return local(page, "return store ? store.pendingCount() : -1;")


def outbox(page: Page) -> list:
    return local(page, "return (await store.outbox()).map(({before, ...e}) => e);")


def wait_until(check, timeout: float = 15, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def go_online_first(page: Page, account: dict, cards: int) -> None:
    """Opens the library with a connection: the service worker takes over and the local copy is
    refreshed (the library does that a moment after it is shown) with `cards` cards."""
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    expect(page.get_by_role("heading", level=1)).to_have_text("Deine Stapel")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    wait_until(lambda: page.evaluate("Boolean(navigator.serviceWorker.controller)"), what="service worker")
    wait_until(lambda: local(page, "return store && (await store.meta('refreshedAt')) ? "
                                   "(await store.outbox(), (await store.stacks()).length) : 0") and
               local(page, "let n = 0; for (const s of await store.stacks()) n += (await store.cards(s.id)).length; "
                           "return n;") == cards, what="the local copy")


def rate_offline(page: Page, index: int) -> str:
    """Reveals the card on screen, rates it with option `index` and waits for the next one (the
    session's counter moves on); returns the rated card's question."""
    question = page.locator("flip-card [data-question]").inner_text()
    counter = page.locator("#counter").inner_text()
    reveal(page)
    page.locator("#ratings button").nth(index).click()
    expect(page.locator("#counter")).not_to_have_text(counter)
    return question


def test_study_offline_close_the_tab_and_sync(make_page):
    page = make_page()
    account = signup_via_api(page)
    token = account["token"]
    stack = make_stack(page, token, "Vokabeln", 4)
    go_online_first(page, account, cards=4)

    context = page.context
    context.set_offline(True)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=flashcards&size=all")
    expect(page.locator("flip-card [data-question]")).to_have_text("Vokabeln Frage 1")
    bar = page.locator("#net-status")
    expect(bar).to_contain_text("Offline – du kannst trotzdem weiterlernen.")
    # The buttons name the intervals the server would (FSRS: 1 minute, 6 minutes, 10 minutes, days).
    reveal(page)
    expect(page.locator("#ratings button")).to_have_count(4)
    expect(page.locator("#ratings .rate-interval").first).to_have_text("(1 Minute)")
    page.locator("#ratings button").nth(2).click()  # Gut
    expect(page.locator("flip-card [data-question]")).to_have_text("Vokabeln Frage 2")
    expect(page.locator("#counter")).to_contain_text("1 Karte")
    rate_offline(page, 3)  # Einfach
    rate_offline(page, 0)  # Nochmal
    expect(bar).to_contain_text("Offline – 3 Änderungen warten")
    expect(page.locator("#position")).to_contain_text("Karte 4")
    shot(page, "80-offline-learning")
    assert pending(page) == 3
    entries = outbox(page)
    assert [e["rating"] for e in entries] == ["good", "easy", "again"]
    assert all(e["mode"] == "flashcards" and e["kind"] == "review" for e in entries)
    computed = {c["id"]: c for c in local(page, "return Promise.all(arg.map((id) => store.card(id)));",
                                          [e["cardId"] for e in entries])}

    # The tab is closed offline; a new one (same browser, still offline) finds everything.
    page.close()
    again = context.new_page()
    watch = _watch(context, again)
    again.goto("/app/stacks")
    expect(again.get_by_role("heading", level=1)).to_have_text("Deine Stapel")
    expect(again.locator("#net-status")).to_contain_text("Offline – 3 Änderungen warten")
    expect(again.locator(".offline-stacks .stack-card")).to_have_count(1)
    expect(again.locator(".offline-stacks")).to_contain_text("Vokabeln")
    shot(again, "81-offline-library")
    assert pending(again) == 3

    # Back online: the outbox goes to the server by itself.
    started = time.perf_counter()
    context.set_offline(False)
    expect(again.locator("#toasts")).to_contain_text("3 Offline-Änderungen sind jetzt gespeichert.")
    wait_until(lambda: pending(again) == 0, what="an empty outbox")
    METRICS.setdefault("offline", {})["syncThreeReviewsMs"] = round((time.perf_counter() - started) * 1000)
    expect(again.locator("#net-status")).to_be_hidden()

    # The server has exactly those reviews: the same ids again are duplicates, and each card's
    # schedule is the one the browser computed offline.
    status, body = api(again, "POST", "/reviews", {"reviews": [
        {k: e[k] for k in ("id", "cardId", "rating", "reviewedAt", "mode")} for e in entries]}, token=token)
    assert status == 200 and body["inserted"] == 0 and body["duplicates"] == 3
    _, listing = api(again, "GET", f"/stacks/{stack['id']}/cards?perPage=50", token=token)
    server = {c["id"]: c for c in listing["items"]}
    assert sum(c.get("reviewCount") or 0 for c in server.values()) == 3
    for card_id, mine in computed.items():
        for field in ("dueAt", "state", "step", "level", "reviewCount", "lastReviewedAt"):
            assert server[card_id].get(field) == mine.get(field), (field, server[card_id], mine)
        assert abs(server[card_id]["stability"] - mine["stability"]) <= 1e-9 * mine["stability"]
    assert not watch.errors

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


def expect_idle(page: Page) -> None:
    """The offline bar has nothing to say: online, nothing waiting, no notice (it takes no room)."""
    expect(page.locator("#net-status")).to_have_class(re.compile(r"\bis-idle\b"))
    expect(page.locator("#net-status-text")).to_have_text("")
    assert page.locator("#net-status").bounding_box()["height"] < 2


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
    expect_idle(again)

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


REPLAY = """
async ([stack, zone, card, reviews]) => {
  const { CardScheduler } = await import('/assets/js/offline/scheduler.js');
  const scheduler = new CardScheduler(stack, { zone });
  let state = card;
  for (const r of reviews) state = scheduler.apply(state, r.rating, new Date(r.reviewedAt).getTime(), arg_number);
  return state;
}
"""


def replay(page: Page, stack: dict, zone: str, card: dict, reviews: list, number: int) -> dict:
    """The browser scheduler's replay of `reviews` (in time order) from `card` as it was created."""
    return page.evaluate(REPLAY.replace("arg_number", str(number)), [stack, zone, card, reviews])


def test_two_devices_rate_the_same_card_offline(make_page):
    phone = make_page()
    account = signup_via_api(phone)
    token = account["token"]
    stack = make_stack(phone, token, "Geteilt", 2)
    laptop = make_page()
    go_online_first(phone, account, cards=2)
    go_online_first(laptop, account, cards=2)
    first = stack["cards"][0]

    for device in (phone, laptop):
        device.context.set_offline(True)
        device.goto(f"/app/stacks/{stack['id']}/learn?mode=flashcards&size=all")
        expect(device.locator("flip-card [data-question]")).to_have_text("Geteilt Frage 1")
    rate_offline(phone, 2)  # Gut
    time.sleep(1.1)  # a second later on the other device
    rate_offline(laptop, 0)  # Nochmal
    reviews = sorted(outbox(phone) + outbox(laptop), key=lambda e: e["reviewedAt"])
    assert [(e["cardId"], e["rating"]) for e in reviews] == [(first["id"], "good"), (first["id"], "again")]
    expect(phone.locator("#net-status")).to_contain_text("Offline – 1 Änderung wartet")

    # The later review reaches the server first: the server merges by time, not by arrival.
    laptop.context.set_offline(False)
    wait_until(lambda: pending(laptop) == 0, what="the laptop's outbox")
    phone.context.set_offline(False)
    wait_until(lambda: pending(phone) == 0, what="the phone's outbox")

    _, server = api(phone, "GET", f"/stacks/{stack['id']}/cards/{first['id']}", token=token)
    assert server["reviewCount"] == 2
    number = local(phone, "return (await store.card(arg)).number;", first["id"])
    expected = replay(phone, stack, account["user"]["timeZone"], first, reviews, number)
    for field in ("dueAt", "state", "step", "level", "reviewCount", "lastReviewedAt", "firstReviewedAt"):
        assert server.get(field) == expected.get(field), (field, server, expected)
    assert abs(server["stability"] - expected["stability"]) <= 1e-9 * expected["stability"]
    # Both devices hold the server's schedule once they refresh: the phone did after its sync; the
    # laptop synced first and refreshes the next time it opens the library or home.
    laptop.evaluate("import('/assets/js/offline/sync.js').then((m) => m.refresh({ force: true }))")
    for device in (phone, laptop):
        wait_until(lambda d=device: local(d, "return (await store.card(arg)).reviewCount;", first["id"]) == 2,
                   what="the refreshed local copy")
        mine = local(device, "return store.card(arg);", first["id"])
        assert mine["dueAt"] == server["dueAt"] and mine["state"] == server["state"]


def edit_offline(page: Page, stack: dict, card: dict, question: str) -> None:
    page.context.set_offline(True)
    page.goto(f"/app/stacks/{stack['id']}/cards/{card['id']}")
    expect(page.get_by_label("Vorderseite")).to_have_value(card["question"])
    page.get_by_label("Vorderseite").fill(question)
    page.get_by_role("button", name="Speichern").click()
    expect(page.locator("#saved")).to_contain_text("Offline gespeichert")


def test_offline_edit_against_a_later_edit_elsewhere_keeps_the_later(make_page):
    page = make_page()
    account = signup_via_api(page)
    token = account["token"]
    stack = make_stack(page, token, "Bearbeiten", 2)
    card = stack["cards"][0]
    go_online_first(page, account, cards=2)
    edit_offline(page, stack, card, "Offline geändert")
    assert pending(page) == 1
    expect(page.locator("#net-status")).to_contain_text("Offline – 1 Änderung wartet")
    time.sleep(0.05)
    # Another device changes the same card later, with a connection.
    status, _ = api(page, "PATCH", f"/stacks/{stack['id']}/cards/{card['id']}", {"question": "Am Laptop geändert"},
                    token=token)
    assert status == 200

    page.context.set_offline(False)
    notice = page.locator("#net-status .net-notice")
    expect(notice).to_have_text(re.compile(
        "„Am Laptop geändert“ wurde auf einem anderen Gerät später geändert. Diese neuere Fassung gilt, "
        "deine Offline-Änderung wurde verworfen."))
    shot(page, "82-offline-edit-conflict")
    _, server = api(page, "GET", f"/stacks/{stack['id']}/cards/{card['id']}", token=token)
    assert server["question"] == "Am Laptop geändert"
    assert pending(page) == 0
    wait_until(lambda: local(page, "return (await store.card(arg)).question;", card["id"]) == "Am Laptop geändert",
               what="the local copy")
    # The notice stays until the learner dismisses it (keyboard: the button is a button).
    notice.get_by_role("button", name="Verstanden").focus()
    page.keyboard.press("Enter")
    expect_idle(page)


def test_offline_edit_that_is_later_wins_with_a_notice(make_page):
    page = make_page(locale="en-US")
    account = signup_via_api(page)
    token = account["token"]
    stack = make_stack(page, token, "Edits", 2)
    card = stack["cards"][1]
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your stacks")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    wait_until(lambda: local(page, "return store && store.meta('refreshedAt');"), what="the local copy")
    # The other device's change comes first; the offline edit here is made afterwards.
    api(page, "PATCH", f"/stacks/{stack['id']}/cards/{card['id']}", {"answer": "Vom Tablet"}, token=token)
    time.sleep(0.05)
    page.context.set_offline(True)
    page.goto(f"/app/stacks/{stack['id']}/cards/{card['id']}")
    page.get_by_label("Front").fill("Offline and later")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#saved")).to_contain_text("Saved offline")
    expect(page.locator("#net-status")).to_contain_text("Offline – 1 change waiting")
    page.context.set_offline(False)
    expect(page.locator("#net-status .net-notice")).to_contain_text(
        "“Offline and later” was also changed on another device, but earlier. Your offline edit is the newer one and stays.")
    _, server = api(page, "GET", f"/stacks/{stack['id']}/cards/{card['id']}", token=token)
    # Last writer wins: the offline edit's fields (question and answer of the form) are the card's now.
    assert server["question"] == "Offline and later" and server["answer"] == card["answer"]


def test_reviews_of_a_card_deleted_meanwhile_are_dropped_with_a_notice(make_page):
    page = make_page()
    account = signup_via_api(page)
    token = account["token"]
    stack = make_stack(page, token, "Löschen", 3)
    go_online_first(page, account, cards=3)
    page.context.set_offline(True)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=flashcards&size=all")
    expect(page.locator("flip-card [data-question]")).to_have_text("Löschen Frage 1")
    rate_offline(page, 2)
    rate_offline(page, 2)
    assert pending(page) == 2
    status, _ = api(page, "DELETE", f"/stacks/{stack['id']}/cards/{stack['cards'][0]['id']}", token=token)
    assert status == 204
    page.context.set_offline(False)
    expect(page.locator("#net-status .net-notice")).to_contain_text(
        "1 Offline-Bewertung gehörte zu einer inzwischen gelöschten Karte und wurde verworfen.")
    wait_until(lambda: pending(page) == 0, what="an empty outbox")
    _, kept = api(page, "GET", f"/stacks/{stack['id']}/cards/{stack['cards'][1]['id']}", token=token)
    assert kept["reviewCount"] == 1


def databases(page: Page) -> list:
    return page.evaluate("indexedDB.databases().then((list) => list.map((d) => d.name))")


def test_sign_out_clears_the_local_copy(make_page):
    page = make_page()
    account = signup_via_api(page, name="Erste")
    stack = make_stack(page, account["token"], "Privat", 2)
    go_online_first(page, account, cards=2)
    name = f"fc-offline-{account['user']['id']}"
    assert name in databases(page)

    # With a change waiting (offline), signing out asks first; staying keeps everything.
    page.context.set_offline(True)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=flashcards&size=all")
    rate_offline(page, 2)
    page.get_by_role("button", name="Abmelden").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("1 Offline-Änderung ist noch nicht beim Server.")
    dialog.get_by_role("button", name="Abbrechen").click()
    assert pending(page) == 1

    page.context.set_offline(False)
    wait_until(lambda: pending(page) == 0, what="an empty outbox")
    page.get_by_role("button", name="Abmelden").click()
    expect(page).to_have_url(re.compile(r"/app/login"))
    wait_until(lambda: name not in databases(page), what="the deleted database")

    # Another learner on the same browser never sees the first one's cards.
    other = signup_via_api(page, name="Zweite")
    sign_in_storage(page, other)
    page.goto("/app/stacks")
    expect(page.get_by_role("heading", level=1)).to_have_text("Deine Stapel")
    assert local(page, "return (await store.stacks()).length;") == 0
    assert name not in databases(page)


def test_offline_with_nothing_stored_says_so(make_page):
    page = make_page()
    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.goto("/app/home")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    wait_until(lambda: page.evaluate("Boolean(navigator.serviceWorker.controller)"), what="service worker")
    page.evaluate(f"import('{STORE}').then((m) => m.dropUser({account['user']['id']!r}))")
    page.context.set_offline(True)
    page.goto("/app/home")
    expect(page.get_by_role("heading", level=1)).to_have_text("Du bist offline")
    expect(page.get_by_role("status").filter(has_text="noch nichts gespeichert")).to_contain_text(
        "Offline – auf diesem Gerät ist noch nichts gespeichert")
    expect(page.locator("#net-status")).to_contain_text("Offline – du kannst trotzdem weiterlernen.")
    shot(page, "83-offline-empty")


CAPITALS = [("Hauptstadt von Frankreich?", "Paris"), ("Hauptstadt von Italien?", "Rom"),
            ("Hauptstadt von Spanien?", "Madrid"), ("Hauptstadt von Portugal?", "Lissabon"),
            ("Hauptstadt von Polen?", "Warschau")]


def capitals(page: Page, token: str) -> dict:
    _, stack = api(page, "POST", "/stacks", {"name": "Hauptstädte", "color": "#2563EB"}, token=token)
    stack["cards"] = []
    for question, answer in CAPITALS:
        _, card = api(page, "POST", f"/stacks/{stack['id']}/cards", {"question": question, "answer": answer},
                      token=token)
        stack["cards"].append(card)
    return stack


def test_quiz_write_and_feed_rate_offline(make_page):
    page = make_page()
    account = signup_via_api(page)
    token = account["token"]
    stack = capitals(page, token)
    go_online_first(page, account, cards=5)
    _, server_quiz = api(page, "GET", f"/stacks/{stack['id']}/study/quiz", token=token)
    page.context.set_offline(True)

    # Quiz: the same question as the server's (the choices in the same order), the answer counts.
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=quiz&size=all")
    expect(page.locator("flip-card [data-question]")).to_have_text(server_quiz["card"]["question"])
    expect(page.locator("#choices .choice-text")).to_have_text(server_quiz["choices"])
    page.locator("#choices .choice").nth(server_quiz["correctIndex"]).click()
    expect(page.locator("#feedback")).to_have_text("Richtig!")
    page.get_by_role("button", name="Weiter").click()

    # Write: checked in the browser as the server checks.
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=write&size=all")
    question = page.locator("flip-card [data-question]").inner_text()
    answer = dict(CAPITALS)[question]
    page.get_by_label("Deine Antwort").fill(answer[:-1] + answer[-1] * 2)  # a typo
    page.keyboard.press("Enter")
    expect(page.locator(".verdict")).to_contain_text("Fast richtig")
    page.get_by_role("button", name="Weiter").click()
    wait_until(lambda: pending(page) == 2, what="the write rating in the outbox")  # before leaving

    # Feed: "verstanden" by keyboard.
    page.goto(f"/app/stacks/{stack['id']}/feed?size=all")
    expect(page.locator("#feed-card")).to_be_visible()
    page.keyboard.press("ArrowRight")
    wait_until(lambda: pending(page) == 3, what="three reviews in the outbox")
    entries = outbox(page)
    assert [(e["mode"], e["rating"]) for e in entries] == [("quiz", "good"), ("write", "hard"), ("feed", "good")]

    page.context.set_offline(False)
    wait_until(lambda: pending(page) == 0, what="an empty outbox")
    _, listing = api(page, "GET", f"/stacks/{stack['id']}/cards?perPage=50", token=token)
    assert sum(c.get("reviewCount") or 0 for c in listing["items"]) == 3


CHECKS = [("Paris", "paris"), ("Paris", "Pariss"), ("Paris", "Lyon"), ("Lissabon", "Lisabon"), ("1789", "1788"),
          ("Übung macht den Meister", "Ubung macht den meister"), ("Straße", "strasse"), ("a + b", "a+b"),
          ("🧬 DNA", "dna"), ("Vive la France!", "vive la franse")]

CHECK_HERE = """
async ([pairs, ignore]) => {
  const { checkAnswer } = await import('/assets/js/offline/answers.js');
  return pairs.map(([expected, typed]) => checkAnswer(typed, expected, ignore));
}
"""


def test_write_checks_match_the_server(page: Page):
    account = signup_via_api(page)
    token = account["token"]
    _, stack = api(page, "POST", "/stacks", {"name": "Prüfen", "color": "#2563EB"}, token=token)
    cards = {}
    for expected, _ in CHECKS:
        if expected not in cards:
            _, cards[expected] = api(page, "POST", f"/stacks/{stack['id']}/cards",
                                     {"question": f"Frage zu {expected}", "answer": expected}, token=token)
    page.goto("/")
    for ignore in (False, True):
        mine = page.evaluate(CHECK_HERE, [CHECKS, ignore])
        for (expected, typed), here in zip(CHECKS, mine):
            _, server = api(page, "POST", f"/stacks/{stack['id']}/study/check",
                            {"cardId": cards[expected]["id"], "answer": typed, "ignoreDiacritics": ignore}, token=token)
            assert (server["verdict"], server["diff"]) == (here["verdict"], here["diff"]), (expected, typed, ignore)


def test_sync_of_many_offline_reviews(make_page):
    page = make_page()
    account = signup_via_api(page)
    token = account["token"]
    stack = make_stack(page, token, "Viele", 50)
    go_online_first(page, account, cards=50)
    page.context.set_offline(True)
    count = 1200  # more than one batch of 1,000
    started = time.perf_counter()
    page.evaluate(f"""async () => {{
      const local = await import('{LOCAL}');
      const ids = {[c["id"] for c in stack["cards"]]!r};
      const ratings = ['again', 'hard', 'good', 'easy'];
      for (let i = 0; i < {count}; i += 1) {{
        await local.rate({stack["id"]!r}, ids[i % ids.length], ratings[(i * 7) % 4], {{ reviewId: crypto.randomUUID(), durationMs: 1000 }});
      }}
    }}""")
    rating_ms = (time.perf_counter() - started) * 1000
    assert pending(page) == count
    here = {c["id"]: c for c in local(page, "return store.cards(arg);", stack["id"])}

    started = time.perf_counter()
    page.context.set_offline(False)
    wait_until(lambda: pending(page) == 0, timeout=120, what="an empty outbox")
    sync_ms = (time.perf_counter() - started) * 1000
    METRICS.setdefault("offline", {}).update({
        "reviews": count, "localRatingMsEach": round(rating_ms / count, 2), "syncMs": round(sync_ms)})
    print(f"{count} offline reviews: {rating_ms / count:.1f} ms each in the browser, synced in {sync_ms:.0f} ms")

    # The server replayed every card's log to the schedule the browser computed.
    _, listing = api(page, "GET", f"/stacks/{stack['id']}/cards?perPage=200", token=token)
    assert sum(c["reviewCount"] for c in listing["items"]) == count
    for card in listing["items"]:
        mine = here[card["id"]]
        assert (card["dueAt"], card["state"], card.get("step"), card["reviewCount"]) == \
            (mine["dueAt"], mine["state"], mine.get("step"), mine["reviewCount"])


def test_undo_an_offline_rating(make_page):
    page = make_page()
    account = signup_via_api(page)
    stack = make_stack(page, account["token"], "Zurück", 2, scheduler="ladder")
    go_online_first(page, account, cards=2)
    page.context.set_offline(True)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=flashcards&size=all")
    expect(page.locator("flip-card [data-question]")).to_have_text("Zurück Frage 1")
    reveal(page)
    # A ladder stack: Schwer, Mittel, Einfach with the ladder's intervals.
    expect(page.locator("#ratings .rate-interval")).to_have_text(["(1 Minute)", "(2 Minuten)", "(10 Minuten)"])
    rate_offline(page, 2)
    assert pending(page) == 1
    assert local(page, "return (await store.card(arg)).level;", stack["cards"][0]["id"]) == 1
    page.keyboard.press("u")
    expect(page.locator("#toasts")).to_contain_text("Letzte Bewertung zurückgenommen.")
    expect(page.locator("flip-card [data-question]")).to_have_text("Zurück Frage 1")
    assert pending(page) == 0
    card = local(page, "return store.card(arg);", stack["cards"][0]["id"])
    assert card["level"] == 0 and (card.get("reviewCount") or 0) == 0
    expect(page.locator("#net-status-text")).to_have_text("Offline – du kannst trotzdem weiterlernen.")


def test_a_failed_sync_is_tried_again_from_the_bar(make_page):
    page = make_page()
    account = signup_via_api(page)
    stack = make_stack(page, account["token"], "Wackelig", 2)
    go_online_first(page, account, cards=2)
    page.context.set_offline(True)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=flashcards&size=all")
    rate_offline(page, 2)
    expect(page.locator("#net-status [data-sync]")).to_be_hidden()  # no network: nothing to try
    # The network is back, but the server cannot be reached yet.
    page.context.route("**/api/v1/reviews", lambda route: route.abort())
    page.context.set_offline(False)
    expect(page.locator("#net-status-text")).to_have_text("Offline – 1 Änderung wartet")
    button = page.locator("#net-status").get_by_role("button", name="Jetzt abgleichen")
    expect(button).to_be_visible()
    page.context.unroute("**/api/v1/reviews")
    button.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#toasts")).to_contain_text("1 Offline-Änderung ist jetzt gespeichert.")
    wait_until(lambda: pending(page) == 0, what="an empty outbox")
    expect_idle(page)

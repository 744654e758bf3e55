"""Study modes end to end in Chromium: the setup page, flashcards with the "3 of 20" counter and
undo, quiz, write, the swipe feed (touch emulation), the match game, sessions over every stack
and a session size. What each rating wrote is checked through the API (the card's schedule) and in
the review log (its mode and answer time, which the API does not show)."""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

from playwright.sync_api import Page, expect

from conftest import api, fail_once, shot, sign_in_storage, signup_via_api
from learning import reveal, start_session

DATA_DIR = os.environ.get("FLASHCARDS_TEST_DATA_DIR", "")

CAPITALS = [
    ("Hauptstadt von Frankreich?", "Paris"),
    ("Hauptstadt von Italien?", "Rom"),
    ("Hauptstadt von Spanien?", "Madrid"),
    ("Hauptstadt von Portugal?", "Lissabon"),
    ("Hauptstadt von Polen?", "Warschau"),
    ("Hauptstadt von Ungarn?", "Budapest"),
    ("Hauptstadt von Irland?", "Dublin"),
]


def new_stack(page: Page, token: str, cards, name="Hauptstädte", scheduler="fsrs") -> dict:
    _, stack = api(page, "POST", "/stacks", {"name": name, "color": "#2563EB", "scheduler": scheduler}, token=token)
    for question, answer in cards:
        status, _ = api(page, "POST", f"/stacks/{stack['id']}/cards", {"question": question, "answer": answer},
                        token=token)
        assert status == 201
    return stack


def cards_by_question(page: Page, token: str, stack_id: str) -> dict:
    _, body = api(page, "GET", f"/stacks/{stack_id}/cards?perPage=200", token=token)
    return {c["question"]: c for c in body["items"]}


def review_log(card: dict) -> list[tuple]:
    """(kind, mode, rating, duration_ms) of every log entry of `card` (as the API shows it),
    oldest first, read from the server's SQLite file (read-only)."""
    assert DATA_DIR, "scripts/test-web sets FLASHCARDS_TEST_DATA_DIR"
    db = sqlite3.connect(f"file:{Path(DATA_DIR) / 'flashcards.sqlite'}?mode=ro", uri=True, timeout=10)
    try:
        return db.execute(
            "SELECT r.kind, r.mode, r.rating, r.duration_ms FROM review_logs r JOIN cards c ON c.id = r.card_id "
            "WHERE upper(c.unique_id) = upper(?) ORDER BY r.seq",
            (card["id"],),
        ).fetchall()
    finally:
        db.close()


def log_of(page: Page, account: dict, stack: dict, question: str) -> list[tuple]:
    """The review log of the card with `question` in `stack`."""
    return review_log(cards_by_question(page, account["token"], stack["id"])[question])


def rate_with_key(page: Page, key: str, reviews: int) -> None:
    """Reveals the card, rates it with `key` and waits until the session has counted `reviews`."""
    reveal(page)
    page.keyboard.press(key)
    expect(page.locator("#counter")).to_contain_text(f"{reviews} Wiederholung")


def open_stack(page: Page, account: dict, stack: dict) -> None:
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}")
    expect(page.get_by_role("heading", level=1)).to_have_text(stack["name"])


def test_setup_then_flashcards_with_counter_undo_and_timing(page: Page):
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], CAPITALS[:3])
    open_stack(page, account, stack)
    page.get_by_role("link", name="Jetzt lernen").click()

    # The setup page: five modes, three sizes; the start button has the focus.
    expect(page).to_have_url(re.compile(r"/study$"))
    expect(page.locator("#study-lead")).to_contain_text("heute 3 Karten fällig")
    for name in ("Karteikarten", "Quiz", "Schreiben", "Feed", "Zuordnen"):
        expect(page.get_by_role("radio", name=re.compile(f"^{name}"))).to_be_enabled()
    expect(page.get_by_role("button", name="Los geht’s")).to_be_focused()
    shot(page, "50-study-setup")
    start_session(page, size="10 Karten")
    expect(page).to_have_url(re.compile(r"/learn\?mode=flashcards&size=10$"))

    first = page.locator("flip-card [data-question]").inner_text()
    expect(page.locator("#position")).to_have_text("Karte 1 von 3")
    expect(page.locator("#undo")).to_be_hidden()
    page.wait_for_timeout(300)  # a measurable answer time
    reveal(page)
    # FSRS: four buttons, the worst on the left and on key 1.
    labels = [b.inner_text().split("\n")[0].split(" (")[0] for b in page.locator("#ratings button").all()]
    assert labels == ["Nochmal", "Schwer", "Gut", "Einfach"], labels
    page.keyboard.press("1")
    expect(page.locator("#counter")).to_have_text("1 Karte, 1 Wiederholung")
    expect(page.locator("#position")).to_contain_text("Karte 2 von")
    cards = cards_by_question(page, account["token"], stack["id"])
    assert cards[first]["reviewCount"] == 1

    # Undo: the rating is taken back, the card is new again and shown again.
    page.get_by_role("button", name="Rückgängig").click()
    expect(page.locator("#counter")).to_have_text("0 Karten, 0 Wiederholungen")
    expect(page.locator("flip-card [data-question]")).to_have_text(first)
    expect(page.locator("#undo")).to_be_hidden()
    cards = cards_by_question(page, account["token"], stack["id"])
    assert cards[first]["reviewCount"] == 0 and cards[first]["state"] == "new"

    # Rate it "Einfach" now: it leaves today's session.
    reveal(page)
    page.keyboard.press("4")
    expect(page.locator("#counter")).to_have_text("1 Karte, 1 Wiederholung")
    # The undo key "u" works too.
    page.keyboard.press("u")
    expect(page.locator("#counter")).to_have_text("0 Karten, 0 Wiederholungen")
    reveal(page)
    page.keyboard.press("4")
    expect(page.locator("#counter")).to_have_text("1 Karte, 1 Wiederholung")
    cards = cards_by_question(page, account["token"], stack["id"])
    assert cards[first]["state"] == "review" and cards[first]["reviewCount"] == 1

    log = review_log(cards[first])
    kinds = [row[0] for row in log]
    assert kinds == ["review", "undo", "review", "undo", "review"], log
    counted = log[-1]
    assert counted[1] == "flashcards" and counted[2] == 4  # FSRS Easy
    assert all(row[1] == "flashcards" for row in log)
    assert log[0][3] is not None and 300 <= log[0][3] <= 60_000, log[0]


def test_rating_buttons_on_a_phone_form_a_two_by_two_grid(make_page):
    page = make_page(viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True)
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], CAPITALS[:1])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/learn")
    page.locator("flip-card").tap()
    buttons = page.locator("#ratings button")
    expect(buttons).to_have_count(4)
    boxes = [b.bounding_box() for b in buttons.all()]
    rows = sorted({round(b["y"]) for b in boxes})
    assert len(rows) == 2, boxes
    assert round(boxes[0]["y"]) == round(boxes[1]["y"]) and round(boxes[2]["y"]) == round(boxes[3]["y"])
    assert all(b["x"] >= 0 and b["x"] + b["width"] <= 375 for b in boxes)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    shot(page, "51-phone-ratings-2x2")


def test_quiz_right_and_wrong_answers_rate_good_and_again(page: Page):
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], CAPITALS)
    open_stack(page, account, stack)
    page.get_by_role("link", name="Jetzt lernen").click()
    start_session(page, mode=re.compile(r"^Quiz"))
    expect(page).to_have_url(re.compile(r"mode=quiz"))

    answers = dict(CAPITALS)
    choices = page.locator("#choices .choice")
    expect(choices).to_have_count(4)
    question = page.locator("flip-card [data-question]").inner_text()
    texts = [c.locator(".choice-text").inner_text() for c in choices.all()]
    assert answers[question] in texts and len(set(texts)) == 4, texts
    shot(page, "52-quiz-question")

    # A wrong answer: a calm mark on it, green on the right one, the right answer said; rated Again.
    wrong = next(i for i, text in enumerate(texts) if text != answers[question])
    right = texts.index(answers[question])
    choices.nth(wrong).click()
    expect(page.locator("#feedback")).to_have_text(f"Noch nicht ganz – das war’s: {answers[question]}")
    expect(choices.nth(wrong)).to_have_class(re.compile("is-wrong"))
    expect(choices.nth(right)).to_have_class(re.compile("is-correct"))
    expect(page.get_by_role("button", name="Weiter")).to_be_focused()
    shot(page, "53-quiz-wrong")
    expect(page.locator("#counter")).to_have_text("1 Karte, 1 Wiederholung")
    page.keyboard.press("Enter")

    # The next question, answered right with its number key: rated Good.
    expect(page.locator("flip-card [data-question]")).not_to_have_text(question)
    second = page.locator("flip-card [data-question]").inner_text()
    texts = [c.locator(".choice-text").inner_text() for c in choices.all()]
    page.keyboard.press(str(texts.index(answers[second]) + 1))
    expect(page.locator("#feedback")).to_have_text("Richtig!")
    expect(page.locator("#counter")).to_have_text("2 Karten, 2 Wiederholungen")

    assert [(r[0], r[1], r[2]) for r in log_of(page, account, stack, question)] == [("review", "quiz", 1)]
    assert [(r[0], r[1], r[2]) for r in log_of(page, account, stack, second)] == [("review", "quiz", 3)]
    cards = cards_by_question(page, account["token"], stack["id"])
    assert cards[question]["reviewCount"] == 1 and cards[second]["reviewCount"] == 1


def test_quiz_on_a_small_stack_says_it_has_fewer_choices(page: Page):
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], CAPITALS[:2])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=quiz&size=all")
    expect(page.locator("#choices .choice")).to_have_count(2)
    expect(page.locator("#fewer")).to_have_text("Nur 2 Antworten: Der Stapel hat zu wenige andere Karten.")


def test_write_mode_with_diff_and_override(page: Page):
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], [("Größte Stadt Bayerns?", "München"), ("Hauptstadt von Frankreich?", "Paris")])
    open_stack(page, account, stack)
    page.get_by_role("link", name="Jetzt lernen").click()
    start_session(page, mode=re.compile(r"^Schreiben"))

    box = page.get_by_label("Deine Antwort")
    expect(box).to_be_focused()
    # An empty answer is not sent.
    page.keyboard.press("Enter")
    expect(page.get_by_text("Tippe eine Antwort ein oder wähle „Weiß ich nicht“.")).to_be_visible()
    expect(box).to_have_attribute("aria-invalid", "true")

    question = page.locator("flip-card [data-question]").inner_text()
    if question.startswith("Größte"):
        # "Munchen": one letter off, accents count (the box is unchecked): close, shown as a diff.
        box.fill("Munchen")
        page.keyboard.press("Enter")
        expect(page.locator(".verdict")).to_have_text("Fast richtig – zählt als „schwer“.")
        expect(page.locator(".diff .diff-extra")).to_contain_text("u")
        expect(page.locator(".diff .diff-missing")).to_contain_text("ü")
        expect(page.locator(".expected")).to_have_text("München")
        shot(page, "54-write-close")
        page.get_by_role("button", name="Ich hatte recht").click()
        expected_rating = 3  # "I was right" sends Good
        other = "Hauptstadt von Frankreich?"
        typed = " paris. "
    else:
        box.fill(" paris. ")
        page.keyboard.press("Enter")
        expect(page.locator(".verdict")).to_have_text("Richtig!")
        expect(page.get_by_role("button", name="Ich hatte recht")).to_be_hidden()
        page.keyboard.press("Enter")
        expected_rating = 3
        other = "Größte Stadt Bayerns?"
        typed = "Munchen"
        page.get_by_label("Akzente und Umlaute ignorieren (ä = a)").check()
    expect(page.locator("flip-card [data-question]")).to_have_text(other)
    expect(page.locator("#counter")).to_have_text("1 Karte, 1 Wiederholung")
    assert [(r[1], r[2]) for r in log_of(page, account, stack, question)] == [("write", expected_rating)]

    # The second card.
    box.fill(typed)
    page.keyboard.press("Enter")
    expect(page.locator(".verdict")).to_have_text("Richtig!")  # "Munchen" right with accents ignored
    page.get_by_role("button", name="Weiter").click()
    # Both were known (Good): FSRS brings new cards back after a learning step, so the session goes on.
    expect(page.locator("#counter")).to_have_text("2 Karten, 2 Wiederholungen")
    assert [(r[1], r[2]) for r in log_of(page, account, stack, other)] == [("write", 3)]


def test_write_mode_i_dont_know_rates_again(page: Page):
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], [("Hauptstadt von Ungarn?", "Budapest")])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=write&size=all")
    page.get_by_role("button", name="Weiß ich nicht").click()
    expect(page.locator(".verdict")).to_have_text("Noch nicht ganz.")
    expect(page.locator(".expected")).to_have_text("Budapest")
    page.get_by_role("button", name="Weiter").click()
    expect(page.locator("#counter")).to_have_text("1 Karte, 1 Wiederholung")
    assert [(r[1], r[2]) for r in log_of(page, account, stack, "Hauptstadt von Ungarn?")] == [("write", 1)]


def swipe(page: Page, cdp, dx: int, dy: int) -> None:
    """A one-finger swipe over the feed card, as touch events (Chromium turns them into the pointer
    events the feed listens to)."""
    box = page.locator("#feed-card").bounding_box()
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for step in range(1, 6):
        cdp.send("Input.dispatchTouchEvent",
                 {"type": "touchMove", "touchPoints": [{"x": x0 + dx * step / 5, "y": y0 + dy * step / 5}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_feed_by_touch_swipes(make_page):
    page = make_page(viewport={"width": 390, "height": 800}, has_touch=True, is_mobile=True)
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], CAPITALS[:3])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/study")
    page.get_by_role("radio", name=re.compile(r"^Feed")).check()
    page.get_by_role("button", name="Los geht’s").tap()
    expect(page).to_have_url(re.compile(r"/feed\?size=all$"))
    cdp = page.context.new_cdp_session(page)

    expect(page.locator("#position")).to_have_text("Karte 1 von 3")
    expect(page.locator("#feed-question")).to_have_text(CAPITALS[0][0])
    page.locator("#feed-card").tap()  # tap flips
    expect(page.locator("#feed-answer")).to_have_text(CAPITALS[0][1])
    shot(page, "55-feed-phone")

    swipe(page, cdp, 0, -200)  # up: next
    expect(page.locator("#position")).to_have_text("Karte 2 von 3")
    expect(page.locator("#feed-answer")).to_be_hidden()
    swipe(page, cdp, 0, 200)  # down: previous
    expect(page.locator("#feed-question")).to_have_text(CAPITALS[0][0])

    swipe(page, cdp, -200, 0)  # left: bookmark
    expect(page.locator("#mark-bookmark")).to_be_visible()
    expect(page.locator("#announce")).to_have_text("Karte gemerkt.")
    swipe(page, cdp, 200, 0)  # right: understood, rated Good, on to the next card
    expect(page.locator("#position")).to_have_text("Karte 2 von 3")
    expect(page.locator("#counter")).to_have_text("1 verstanden · 1 gemerkt")

    cards = cards_by_question(page, account["token"], stack["id"])
    first = cards[CAPITALS[0][0]]
    assert first["bookmarked"] is True and first["reviewCount"] == 1
    assert cards[CAPITALS[1][0]]["reviewCount"] == 0 and cards[CAPITALS[1][0]]["bookmarked"] is False
    assert [(r[1], r[2]) for r in log_of(page, account, stack, CAPITALS[0][0])] == [("feed", 3)]
    _, marked = api(page, "GET", f"/stacks/{stack['id']}/cards?bookmarked=true", token=account["token"])
    assert [c["question"] for c in marked["items"]] == [CAPITALS[0][0]]

    # A short drag is neither a swipe nor a tap: nothing happens.
    swipe(page, cdp, 30, 0)
    expect(page.locator("#position")).to_have_text("Karte 2 von 3")
    expect(page.locator("#feed-answer")).to_be_hidden()
    swipe(page, cdp, 0, -200)
    swipe(page, cdp, 0, -200)
    expect(page.get_by_role("heading", name="Du bist durch!")).to_be_visible()
    expect(page.locator("#feed-end")).to_contain_text("3 Karten angesehen, 1 verstanden, 1 gemerkt.")


def test_feed_by_keyboard(page: Page):
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], CAPITALS[:2], scheduler="ladder")
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/feed?size=all")
    expect(page.locator("#feed-card")).to_be_focused()
    page.keyboard.press("Space")
    expect(page.locator("#feed-answer")).to_be_visible()
    page.keyboard.press("ArrowDown")
    expect(page.locator("#feed-question")).to_have_text(CAPITALS[1][0])
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")  # understood: on a ladder stack that is Einfach (stored 0)
    expect(page.locator("#feed-question")).to_have_text(CAPITALS[1][0])
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_role("button", name="Nicht mehr merken")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_role("button", name="Merken", exact=True)).to_have_attribute("aria-pressed", "false")
    assert [(r[1], r[2]) for r in log_of(page, account, stack, CAPITALS[0][0])] == [("feed", 0)]
    cards = cards_by_question(page, account["token"], stack["id"])
    assert cards[CAPITALS[1][0]]["bookmarked"] is False


def test_match_game_keeps_the_best_time_and_leaves_the_schedule(page: Page):
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], CAPITALS)
    open_stack(page, account, stack)
    page.get_by_role("link", name="Jetzt lernen").click()
    start_session(page, mode=re.compile(r"^Zuordnen"))
    expect(page).to_have_url(re.compile(r"/match$"))
    expect(page.get_by_text("Noch keine Bestzeit – das erste Spiel setzt sie.")).to_be_visible()
    page.get_by_role("button", name="Start").click()

    tiles = page.locator("#board .tile")
    expect(tiles).to_have_count(12)
    answers = dict(CAPITALS)
    labels = [t.get_attribute("aria-label") for t in tiles.all()]
    questions = [label.removeprefix("Frage: ") for label in labels if label.startswith("Frage: ")]
    assert len(questions) == 6
    shot(page, "56-match-board")

    # A wrong pair first: both flash, nothing is matched.
    wrong_answer = next(a for q, a in CAPITALS if q != questions[0] and a in [answers[x] for x in questions])
    page.get_by_role("button", name=f"Frage: {questions[0]}", exact=True).click()
    page.get_by_role("button", name=f"Antwort: {wrong_answer}", exact=True).click()
    expect(page.locator("#announce")).to_have_text("Noch kein Paar – probier ein anderes.")
    page.wait_for_timeout(500)

    for i, question in enumerate(questions):
        q_tile = page.get_by_role("button", name=f"Frage: {question}", exact=True)
        a_tile = page.get_by_role("button", name=f"Antwort: {answers[question]}", exact=True)
        if i % 2:  # every other pair by keyboard
            q_tile.focus()
            page.keyboard.press("Enter")
            expect(q_tile).to_have_attribute("aria-pressed", "true")
            a_tile.focus()
            page.keyboard.press("Space")
        else:
            q_tile.click()
            a_tile.click()
        if i < len(questions) - 1:  # the last pair ends the game and the board goes
            expect(q_tile).to_be_disabled()
    expect(page.locator("#match-time")).to_have_text(re.compile(r"^Geschafft in \d+:\d\d,\d$"))
    expect(page.locator("#match-best")).to_have_text("Neue Bestzeit!")
    shot(page, "57-match-done")

    _, fresh = api(page, "GET", f"/stacks/{stack['id']}", token=account["token"])
    assert isinstance(fresh["matchBestMs"], int) and fresh["matchBestMs"] >= 500
    cards = cards_by_question(page, account["token"], stack["id"])
    assert all(c["reviewCount"] == 0 and c["state"] == "new" for c in cards.values())

    page.get_by_role("button", name="Nochmal spielen").click()
    expect(page.locator("#best")).to_contain_text("Deine Bestzeit:")


def test_match_needs_two_cards(page: Page):
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], CAPITALS[:1])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/study")
    expect(page.get_by_role("radio", name=re.compile(r"^Zuordnen"))).to_be_disabled()
    expect(page.get_by_text("Dafür braucht der Stapel mindestens zwei Karten.").first).to_be_visible()
    page.goto(f"/app/stacks/{stack['id']}/match")
    expect(page.get_by_text("Zu wenige Karten zum Zuordnen")).to_be_visible()


# Counts the page's active intervals and their ticks, so a test can see a timer that outlives its page.
COUNT_INTERVALS = """
(() => {
  const active = new Set();
  let ticks = 0;
  const set = window.setInterval;
  const clear = window.clearInterval;
  window.setInterval = function (callback, ...rest) {
    const id = set.call(this, (...args) => { ticks += 1; return callback(...args); }, ...rest);
    active.add(id);
    return id;
  };
  window.clearInterval = function (id) { active.delete(id); return clear.call(this, id); };
  window.__intervals = () => ({ active: active.size, ticks });
})();
"""


def test_match_after_retry_stops_its_clock_when_left(page: Page):
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], CAPITALS)
    page.add_init_script(COUNT_INTERVALS)
    open_stack(page, account, stack)
    page.get_by_role("link", name="Jetzt lernen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Wie möchtest du lernen?")
    before = page.evaluate("__intervals()")["active"]

    # The game's first request for the cards fails; "Erneut versuchen" mounts the page again.
    failing = fail_once(page, re.compile(rf".*/api/v1/stacks/{stack['id']}/cards\?.*"))
    start_session(page, mode=re.compile(r"^Zuordnen"))
    expect(page).to_have_url(re.compile(r"/match$"))
    page.get_by_role("button", name="Erneut versuchen").click()
    assert not failing["left"]
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#board .tile")).to_have_count(12)
    expect(page.locator("#clock")).not_to_have_text("0:00,0")
    assert page.evaluate("__intervals()")["active"] == before + 1

    # Leaving the page ends the clock of the retried game: no interval left, no tick any more.
    page.get_by_role("navigation", name="Breadcrumb").get_by_role("link", name=stack["name"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(stack["name"])
    left = page.evaluate("__intervals()")
    assert left["active"] == before
    page.wait_for_timeout(500)
    assert page.evaluate("__intervals()")["ticks"] == left["ticks"]


def test_all_stacks_session_and_session_size(page: Page):
    account = signup_via_api(page)
    bio = new_stack(page, account["token"], [("Zellkraftwerk?", "Mitochondrium")], name="Biologie")
    geo = new_stack(page, account["token"], CAPITALS[:3], name="Geografie")
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    page.get_by_role("link", name="Alle Stapel lernen").click()
    expect(page).to_have_url(re.compile(r"/app/study$"))
    expect(page.locator("#study-lead")).to_contain_text("Alle Stapel · heute 4 Karten fällig")
    expect(page.get_by_role("radio", name=re.compile(r"^Zuordnen"))).to_be_disabled()
    page.get_by_role("radio", name=re.compile(r"^Karteikarten")).check()
    page.get_by_role("radio", name="10 Karten").check()
    page.get_by_role("button", name="Los geht’s").click()
    expect(page).to_have_url(re.compile(r"/app/learn\?mode=flashcards&size=10$"))

    seen = []
    for n in range(1, 5):
        expect(page.locator("#from-stack")).to_be_visible()
        seen.append((page.locator("#from-stack").inner_text(), page.locator("flip-card [data-question]").inner_text()))
        rate_with_key(page, "4", n)  # Einfach: each card leaves today
    expect(page.get_by_role("dialog")).to_be_visible()
    assert {s for s, _ in seen} == {"Stapel: Biologie", "Stapel: Geografie"}, seen
    expect(page.locator("#summary-cards")).to_have_text("4")
    for stack in (bio, geo):
        for card in cards_by_question(page, account["token"], stack["id"]).values():
            assert card["reviewCount"] == 1

    # A session of 2 cards stops after two and offers the rest.
    more = new_stack(page, account["token"], CAPITALS[3:6], name="Mehr")
    page.goto(f"/app/stacks/{more['id']}/learn?mode=flashcards&size=2")
    expect(page.locator("#position")).to_have_text("Karte 1 von 2")
    for n in (1, 2):
        rate_with_key(page, "4", n)
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading")).to_have_text("Sitzung geschafft!")
    expect(dialog).to_contain_text("Es ist noch 1 Karte fällig")
    shot(page, "58-session-size-done")
    dialog.get_by_role("button", name="Noch 1 Karte lernen").click()
    expect(page.locator("#position")).to_have_text("Karte 3 von 3")
    rate_with_key(page, "4", 3)
    expect(page.get_by_role("dialog").get_by_role("heading")).to_have_text("Toll gemacht!")


def test_study_modes_in_english(make_page):
    page = make_page(locale="en-US")
    account = signup_via_api(page)
    stack = new_stack(page, account["token"], CAPITALS[:4])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/study")
    expect(page.get_by_role("heading", level=1)).to_have_text("How do you want to learn?")
    page.get_by_role("radio", name=re.compile(r"^Write")).check()
    page.get_by_role("button", name="Let’s go").click()
    question = page.locator("flip-card [data-question]").inner_text()
    page.get_by_label("Your answer").fill(dict(CAPITALS)[question])
    page.keyboard.press("Enter")
    expect(page.locator(".verdict")).to_have_text("Right!")
    page.keyboard.press("Enter")  # the rating is sent when the learner goes on
    expect(page.locator("#counter")).to_have_text("1 card, 1 review")
    page.goto(f"/app/stacks/{stack['id']}/match")
    expect(page.get_by_role("heading", level=1)).to_have_text("Match")

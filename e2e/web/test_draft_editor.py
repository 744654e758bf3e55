"""Generated cards a student keeps (issue 17), with the server's built-in (offline) generator:
honest wording, topics that explain themselves without a model, real progress, and the draft
editor — source sentences, growing text fields, select all/none with a live count, the switch to a
draft's alternative card type, duplicates of cards already in the stack, the keyboard path, empty,
error and accept-error states, PDF and photo sources, English, a phone in dark mode.

One test stubs the job API (page.route) to step through progress states deterministically; every
other test runs against the real server."""

from __future__ import annotations

import json
import re
from playwright.sync_api import Page, expect

from conftest import ROOT, api, fail_once, shot, sign_in_storage, signup_via_api
from test_mobile import PHONE, assert_touch_targets

FIXTURES = ROOT / "Tests" / "FlashcardsGenerationTests" / "Fixtures"
ZELL_TEXT = (FIXTURES / "corpus" / "de_zellbiologie.md").read_text(encoding="utf-8")
EXTRA_TEXT = (
    "\n\nEnzyme sind Proteine, die chemische Reaktionen im Stoffwechsel beschleunigen.\n\n"
    "Das Zytoskelett ist ein Netz aus Proteinfasern, das der Zelle ihre Form gibt.\n"
)
AI_WORDS = re.compile(r"künstliche[nr]? Intelligenz|\bKI\b|magisch|Sprachmodell|\bAI\b|artificial intelligence", re.I)
LEAD = ("Lade eine Datei hoch oder füge Text ein. Daraus werden automatisch Karteikarten erstellt – "
        "du prüfst sie, bevor sie in deinen Stapel kommen.")
TOPIC_OFF = ("Themen brauchen ein Sprachmodell, das auf diesem Server nicht eingerichtet ist. Füge stattdessen "
             "einen Text ein oder lade eine Datei hoch.")


# --- helpers ------------------------------------------------------------------------------------



def record_progress_announcements(page: Page) -> None:
    """Collects every text the progress live region announces into window.__spoken."""
    page.evaluate("""() => {
        window.__spoken = [];
        const live = document.getElementById('progress-live');
        new MutationObserver(() => live.textContent && window.__spoken.push(live.textContent))
            .observe(live, {childList: true, characterData: true, subtree: true});
    }""")

def new_stack(page: Page, name: str = "Zellbiologie"):
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": name, "color": "#D97706"}, token=account["token"])
    assert status == 201, stack
    sign_in_storage(page, account)
    return account, stack


def generate_from_text(page: Page, stack: dict, text: str, *, english: bool = False) -> int:
    """Opens the create page, generates from `text` and waits until the job is done; returns
    the number of drafts shown."""
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.get_by_role("radio", name="Text").check()
    page.get_by_label("Text *").fill(text)
    page.get_by_role("button", name="Create cards" if english else "Karten erstellen").click()
    expect(page.get_by_role("heading", name="Review suggestions" if english else "Vorschläge prüfen")).to_be_visible(
        timeout=60_000)
    expect(page.locator("#gen-summary")).to_be_visible(timeout=60_000)  # the job has finished
    expect(page.locator("#progress-area")).to_be_hidden()
    return page.locator(".draft").count()


def cards_of(page: Page, account: dict, stack: dict) -> list[dict]:
    status, body = api(page, "GET", f"/stacks/{stack['id']}/cards?perPage=200", token=account["token"])
    assert status == 200, body
    return body["items"]


def drafts_of(page: Page, account: dict, stack: dict) -> list[dict]:
    status, body = api(page, "GET", f"/stacks/{stack['id']}/drafts", token=account["token"])
    assert status == 200, body
    return body


def no_inner_scrolling(page: Page) -> list[str]:
    """Text fields of the review list whose text does not fit (would scroll or be cut off)."""
    return page.evaluate("""() => [...document.querySelectorAll('.draft textarea')]
        .filter((el) => el.scrollHeight > el.clientHeight + 1)
        .map((el) => `${el.getAttribute('aria-label')}: ${el.scrollHeight} > ${el.clientHeight}`)""")


# --- wording ------------------------------------------------------------------------------------


def test_offline_generator_is_worded_honestly_everywhere(page: Page):
    status, info = api(page, "GET", "/generation")
    assert status == 200, info
    assert info["generator"] == "offline" and info["topics"] is False and info["model"] is None
    assert info["maxUploadBytes"] == 10 * 1024 * 1024

    page.goto("/")
    landing = page.evaluate("document.body.innerText")
    assert not AI_WORDS.search(landing), landing
    account, stack = new_stack(page)
    page.goto(f"/app/stacks/{stack['id']}")
    expect(page.get_by_role("link", name="Automatisch erstellen")).to_be_visible()
    assert not AI_WORDS.search(page.evaluate("document.body.innerText"))
    page.get_by_role("link", name="Automatisch erstellen").click()
    expect(page.locator("#magic-lead")).to_have_text(LEAD)
    expect(page.get_by_text("Es werden ausschließlich PDF-Dateien bis 10 MB angenommen.")).to_be_visible()
    text = page.evaluate("document.body.innerText")
    assert not AI_WORDS.search(text), text
    assert "10MB" not in text and "PDF Dateien" not in text


def test_topic_without_a_model_explains_itself_and_switches_source(page: Page):
    account, stack = new_stack(page)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/generations" in r.url else None)
    page.goto(f"/app/stacks/{stack['id']}/create")
    expect(page.get_by_role("radio", name="Thema")).to_be_visible()  # the source stays visible
    page.get_by_role("radio", name="Thema").check()
    expect(page.locator("#topic-off p")).to_have_text(TOPIC_OFF)
    # No form that would fail: no topic field, no instructions, no submit button.
    expect(page.locator("#topic")).to_have_count(0)
    expect(page.get_by_role("button", name="Karten erstellen")).to_be_hidden()
    shot(page, "73-magic-topic-off")

    page.get_by_role("button", name="Text einfügen").click()
    expect(page.get_by_role("radio", name="Text")).to_be_checked()
    expect(page.get_by_label("Text *")).to_be_visible()
    expect(page.get_by_label("Text *")).to_be_focused()
    expect(page.get_by_role("button", name="Karten erstellen")).to_be_visible()

    page.get_by_role("radio", name="Thema").check()
    page.get_by_role("button", name="PDF hochladen").click()
    expect(page.get_by_role("radio", name="PDF")).to_be_checked()
    expect(page.locator("#pdf")).to_be_focused()
    expect(page.locator("#topic-off")).to_be_hidden()
    assert posts == []  # nothing was sent


# --- the draft editor ---------------------------------------------------------------------------


def test_text_drafts_show_their_source_sentence_and_grow_with_their_text(page: Page):
    account, stack = new_stack(page)
    count = generate_from_text(page, stack, ZELL_TEXT)
    assert count >= 5
    # Focus went to the list heading when the drafts appeared.
    expect(page.locator("#drafts-title")).to_be_focused()
    server = drafts_of(page, account, stack)
    assert len(server) == count
    expect(page.locator("#gen-summary")).to_have_text(f"{count} Vorschläge.")

    # Each draft: its source sentence as a quotation (with the page where known), in the server's order.
    for i, draft in enumerate(server):
        item = page.locator(".draft").nth(i)
        expect(item.get_by_label(f"Vorschlag {i + 1}: Vorderseite")).to_have_value(draft["question"])
        expect(item.get_by_label(f"Vorschlag {i + 1}: Rückseite")).to_have_value(draft["answer"])
        if draft.get("source"):
            expect(item.locator(".draft-source blockquote")).to_have_text(f"„{draft['source']}“")
    assert any(d.get("source") for d in server)
    membrane = page.locator(".draft", has_text="Was ist die Zellmembran?")
    expect(membrane.locator("blockquote")).to_contain_text("Die Zellmembran ist eine Doppelschicht aus Phospholipiden")
    # The quotation describes the front for screen readers.
    described = membrane.locator("[data-field=question]").get_attribute("aria-describedby")
    assert described and membrane.locator(f"#{described.split()[-1]}").count() == 1

    # Front and back are multi-line fields that fit their text: nothing scrolls, nothing is cut off.
    assert page.locator(".draft textarea[data-field=question]").count() == count
    assert no_inner_scrolling(page) == []
    first = page.get_by_label("Vorschlag 1: Vorderseite")
    single = first.evaluate("el => el.clientHeight")
    long_cloze = "Ergänze die Lücke: " + " ".join(["Die _____ ist ein langer Satz über Zellen und Membranen."] * 8)
    first.fill(long_cloze)
    heights = first.evaluate("el => [el.scrollHeight, el.clientHeight]")
    assert abs(heights[0] - heights[1]) <= 1, heights
    assert heights[1] > 2 * single, (heights, single)
    assert no_inner_scrolling(page) == []
    shot(page, "74-magic-draft-editor")


def test_select_none_and_all_with_a_live_count(page: Page):
    account, stack = new_stack(page)
    count = generate_from_text(page, stack, ZELL_TEXT)
    accept = page.locator("#accept")
    expect(accept).to_have_text(f"{count} Karten übernehmen")
    boxes = page.locator(".draft input[type=checkbox]")
    expect(boxes).to_have_count(count)

    page.get_by_role("button", name="Keine auswählen").click()
    for i in range(count):
        expect(boxes.nth(i)).not_to_be_checked()
    expect(accept).to_have_text("Ausgewählte übernehmen")
    expect(page.locator("#announce")).to_have_text(f"0 von {count} Vorschlägen ausgewählt.")
    accept.click(force=True)  # aria-disabled, still clickable: a hint, and the list stays
    expect(page.locator("#accept-error")).to_have_text("Wähle mindestens einen Vorschlag aus, um ihn zu übernehmen.")
    expect(page.locator(".draft")).to_have_count(count)

    page.get_by_role("button", name="Alle auswählen").click()
    expect(accept).to_have_text(f"{count} Karten übernehmen")
    expect(page.locator("#announce")).to_have_text(f"{count} von {count} Vorschlägen ausgewählt.")
    page.get_by_role("checkbox", name="Vorschlag 2 übernehmen").uncheck()
    expect(accept).to_have_text(f"{count - 1} Karten übernehmen")
    expect(page.locator(".draft").nth(1)).to_have_class(re.compile(r"\bis-off\b"))
    unchecked = page.get_by_label("Vorschlag 2: Vorderseite").input_value()
    accept.click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    cards = cards_of(page, account, stack)
    assert len(cards) == count - 1
    assert unchecked not in {c["question"] for c in cards}
    assert drafts_of(page, account, stack) == []  # the unchecked one was discarded


def test_duplicates_of_cards_in_the_stack_are_marked_and_discarded_at_once(page: Page):
    account, stack = new_stack(page)
    first = generate_from_text(page, stack, ZELL_TEXT)
    page.locator("#accept").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    assert len(cards_of(page, account, stack)) == first

    # The same material again, plus two new facts: the known facts come marked.
    count = generate_from_text(page, stack, ZELL_TEXT + EXTRA_TEXT)
    server = drafts_of(page, account, stack)
    duplicates = [d for d in server if d.get("duplicateOf")]
    fresh = [d for d in server if not d.get("duplicateOf")]
    assert duplicates, server
    assert fresh, server
    badges = page.locator(".draft .pill-duplicate")
    expect(badges).to_have_count(len(duplicates))
    expect(badges.first).to_contain_text("Schon im Stapel")
    # The existing card's question: a tooltip, and text for screen readers.
    existing = duplicates[0]["duplicateOf"]
    expect(badges.first).to_have_attribute("title", f"Im Stapel steht schon: {existing}")
    expect(badges.first.locator(".visually-hidden")).to_contain_text(existing)
    expect(page.locator("#gen-summary")).to_have_text(
        f"{count} Vorschläge, davon {len(duplicates)} schon im Stapel.")
    shot(page, "75-magic-duplicates")

    drop = page.get_by_role("button", name=f"Duplikate verwerfen ({len(duplicates)})")
    drop.click()
    expect(page.locator("#announce")).to_have_text(
        f"{len(duplicates)} Duplikate abgewählt: Sie werden beim Übernehmen verworfen."
        if len(duplicates) != 1 else "1 Duplikat abgewählt: Es wird beim Übernehmen verworfen.")
    expect(page.locator("#drop-duplicates")).to_have_text("Duplikate verwerfen (0)")
    for item in page.locator(".draft:has(.pill-duplicate)").all():
        expect(item.get_by_role("checkbox")).not_to_be_checked()
    expect(page.locator("#accept")).to_have_text(
        f"{len(fresh)} Karten übernehmen" if len(fresh) != 1 else "1 Karte übernehmen")
    page.locator("#accept").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    cards = cards_of(page, account, stack)
    assert len(cards) == first + len(fresh)
    questions = [c["question"] for c in cards]
    assert len(questions) == len(set(questions)), questions
    assert drafts_of(page, account, stack) == []


def test_switching_to_the_alternative_card_type_is_what_gets_accepted(page: Page):
    account, stack = new_stack(page)
    generate_from_text(page, stack, ZELL_TEXT)
    server = drafts_of(page, account, stack)
    index, draft = next((i, d) for i, d in enumerate(server) if d.get("alternative"))
    alternative = draft["alternative"]
    n = index + 1
    item = page.locator(".draft").nth(index)
    question = item.get_by_label(f"Vorschlag {n}: Vorderseite")
    answer = item.get_by_label(f"Vorschlag {n}: Rückseite")
    labels = {"cloze": "Als Lückentext", "fact": "Als Lückentext", "definition": "Als Definition",
              "list": "Als Aufzählung", "enumeration": "Als Aufzählung"}
    to_alt = labels.get(alternative["kind"], "Als Frage")
    back = labels.get(draft["kind"], "Als Frage")
    swap = item.get_by_role("button", name=f"Vorschlag {n}: {to_alt}")
    expect(swap).to_have_text(to_alt)

    kind_pill = item.locator(".pill-kind")
    expect(kind_pill).to_be_hidden()
    swap.click()
    expect(question).to_have_value(alternative["question"])
    expect(answer).to_have_value(alternative["answer"])
    if alternative["kind"] == "cloze":
        assert "_____" in alternative["question"]
        # A sentence with a blank becomes a fill-in-the-blank card, and says so.
        expect(kind_pill).to_have_text("Ergänzen")
    swap_back = item.get_by_role("button", name=f"Vorschlag {n}: {back}")
    expect(swap_back).to_have_text(back)
    expect(page.locator("#announce")).to_contain_text(f"Vorschlag {n} geändert")
    assert no_inner_scrolling(page) == []

    # An edit of the alternative survives switching back and forth.
    answer.fill(alternative["answer"] + " (bearbeitet)")
    swap_back.click()
    expect(question).to_have_value(draft["question"])
    expect(answer).to_have_value(draft["answer"])
    item.get_by_role("button", name=f"Vorschlag {n}: {to_alt}").click()
    expect(answer).to_have_value(alternative["answer"] + " (bearbeitet)")

    # Keep only this one: the card has the switched text.
    page.get_by_role("button", name="Keine auswählen").click()
    item.get_by_role("checkbox").check()
    expect(page.locator("#accept")).to_have_text("1 Karte übernehmen")
    page.locator("#accept").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    cards = cards_of(page, account, stack)
    assert [(c["question"], c["answer"]) for c in cards] == [
        (alternative["question"], alternative["answer"] + " (bearbeitet)")]
    assert cards[0]["kind"] == ("fillBlank" if "___" in alternative["question"] else "basic"), cards


def test_keyboard_only_review_and_accept(page: Page):
    account, stack = new_stack(page)
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.get_by_role("radio", name="Text").focus()
    page.keyboard.press("Space")
    page.get_by_label("Text *").fill(ZELL_TEXT)
    page.get_by_role("button", name="Karten erstellen").focus()
    page.keyboard.press("Enter")
    heading = page.get_by_role("heading", name="Vorschläge prüfen")
    expect(heading).to_be_focused(timeout=60_000)
    expect(page.locator("#gen-summary")).to_be_visible(timeout=60_000)
    count = page.locator(".draft").count()
    server = drafts_of(page, account, stack)

    focused = lambda: page.evaluate(  # noqa: E731
        "() => document.activeElement.getAttribute('aria-label') || document.activeElement.textContent.trim()")
    page.keyboard.press("Tab")
    assert focused() == "Alle auswählen"
    page.keyboard.press("Tab")
    assert focused() == "Keine auswählen"
    page.keyboard.press("Tab")
    # Per draft: front → back → checkbox (→ the switch, when the draft has an alternative).
    assert focused() == "Vorschlag 1: Vorderseite"
    page.keyboard.press("End")
    page.keyboard.type(" (Tastatur)")
    page.keyboard.press("Tab")
    assert focused() == "Vorschlag 1: Rückseite"
    page.keyboard.press("Tab")
    assert focused() == "Vorschlag 1 übernehmen"
    page.keyboard.press("Tab")
    if server[0].get("alternative"):
        assert focused().startswith("Vorschlag 1: Als ")
        page.keyboard.press("Tab")
    assert focused() == "Vorschlag 2: Vorderseite"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert focused() == "Vorschlag 2 übernehmen"
    page.keyboard.press("Space")  # Space unchecks it
    expect(page.get_by_role("checkbox", name="Vorschlag 2 übernehmen")).not_to_be_checked()
    expect(page.locator("#accept")).to_have_text(f"{count - 1} Karten übernehmen")
    page.keyboard.press("Control+Enter")
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    cards = cards_of(page, account, stack)
    assert len(cards) == count - 1
    assert any(c["question"] == server[0]["question"] + " (Tastatur)" for c in cards)
    assert server[1]["question"] not in {c["question"] for c in cards}


# --- progress -----------------------------------------------------------------------------------


def _draft(job_id: str, n: int, **extra) -> dict:
    return {"id": f"00000000-0000-4000-8000-{n:012d}", "jobId": job_id, "question": f"Was ist Begriff {n}?",
            "answer": f"Erklärung {n}", "sourcePage": n, "kind": "definition", "status": "pending",
            "source": f"Begriff {n} ist Erklärung {n}.", "alternative": None, "duplicateOf": None, **extra}


def test_progress_shows_real_pages_cards_and_drafts_while_the_job_runs(page: Page):
    """The job API stubbed: each step is held until the page shows it."""
    account, stack = new_stack(page)
    job_id = "11111111-1111-4111-8111-111111111111"
    drafts = [_draft(job_id, n) for n in range(1, 6)]
    drafts[4]["duplicateOf"] = "Was ist Begriff 5 eigentlich?"
    result = {"drafts": 5, "cardsCreated": 0, "language": "de", "pages": 12, "duplicates": 1,
              "warnings": ["Die Seiten 4 und 5 enthielten keinen lesbaren Text."], "generator": "offline",
              "model": None}
    steps = [  # (status, progress, drafts saved so far)
        ("queued", {"stage": "queued", "current": None, "total": None, "cardsCreated": 0}, 0),
        ("running", {"stage": "reading", "current": 3, "total": 12, "cardsCreated": 0}, 0),
        ("running", {"stage": "generating", "current": 1, "total": 3, "cardsCreated": 2}, 2),
        ("running", {"stage": "generating", "current": 2, "total": 3, "cardsCreated": 4}, 4),
        ("succeeded", {"stage": "done", "current": None, "total": None, "cardsCreated": 5}, 5),
    ]
    state = {"step": 0, "polls": 0}

    def job_json():
        status, progress, _ = steps[state["step"]]
        return {"id": job_id, "kind": "generation", "status": status,
                "progress": {**progress, "message": "…"}, "error": None,
                "result": json.dumps(result) if status == "succeeded" else None,
                "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}

    def on_generations(route):
        route.fulfill(status=202, content_type="application/json", body=json.dumps(job_json()))

    def on_job(route):
        state["polls"] += 1
        route.fulfill(status=200, content_type="application/json", body=json.dumps(job_json()))

    def on_drafts(route):
        saved = steps[state["step"]][2]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(drafts[:saved]))

    page.route(re.compile(r".*/api/v1/stacks/[^/]+/generations$"), on_generations)
    page.route(re.compile(rf".*/api/v1/jobs/{job_id}$"), on_job)
    page.route(re.compile(r".*/api/v1/stacks/[^/]+/drafts\?jobId=.*"), on_drafts)

    page.goto(f"/app/stacks/{stack['id']}/create")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    record_progress_announcements(page)
    page.get_by_role("radio", name="Text").check()
    page.get_by_label("Text *").fill("Irgendein Text.")
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.locator("#progress-text")).to_have_text("Wartet auf den Start…")
    bar = page.get_by_role("progressbar", name="Fortschritt")
    expect(bar).not_to_have_attribute("aria-valuenow", re.compile(".*"))  # indeterminate

    state["step"] = 1
    expect(page.locator("#progress-text")).to_have_text("Seite 3 von 12 gelesen")
    expect(bar).to_have_attribute("aria-valuenow", "25")
    polls = state["polls"]
    page.wait_for_timeout(3_000)  # several polls in the same stage…
    assert state["polls"] >= polls + 3
    spoken = page.evaluate("window.__spoken")
    assert sum("Seite" in s for s in spoken) == 1, spoken  # …announced once, not every poll

    state["step"] = 2
    expect(page.locator("#progress-text")).to_have_text("Abschnitt 1 von 3 wird verarbeitet")
    expect(page.locator("#progress-found")).to_have_text("2 Vorschläge gefunden")
    expect(page.locator(".draft")).to_have_count(2)  # drafts shown while the job still runs
    expect(page.locator("#drafts-title")).to_be_focused()
    expect(page.locator("#progress-area")).to_be_visible()
    page.get_by_label("Vorschlag 1: Vorderseite").fill("Was ist Begriff 1 genau?")
    page.get_by_role("checkbox", name="Vorschlag 2 übernehmen").uncheck()
    expect(page.get_by_role("button", name="Abbrechen")).to_be_visible()

    state["step"] = 3
    expect(page.locator("#progress-found")).to_have_text("4 Vorschläge gefunden")
    expect(page.locator(".draft")).to_have_count(4)
    expect(bar).to_have_attribute("aria-valuenow", "33")
    # Drafts shown before are not rendered again: the edit and the unchecked box stay.
    expect(page.get_by_label("Vorschlag 1: Vorderseite")).to_have_value("Was ist Begriff 1 genau?")
    expect(page.get_by_role("checkbox", name="Vorschlag 2 übernehmen")).not_to_be_checked()

    state["step"] = 4
    expect(page.locator("#gen-summary")).to_have_text("5 Vorschläge, davon 1 schon im Stapel.")
    expect(page.locator("#progress-area")).to_be_hidden()
    expect(page.locator(".draft")).to_have_count(5)
    expect(page.locator("#gen-warnings li")).to_have_text(["Die Seiten 4 und 5 enthielten keinen lesbaren Text."])
    expect(page.get_by_label("Vorschlag 1: Vorderseite")).to_have_value("Was ist Begriff 1 genau?")
    expect(page.locator(".draft").nth(4).locator(".pill-duplicate")).to_have_count(1)
    expect(page.locator("#accept")).to_have_text("4 Karten übernehmen")
    expect(page.locator("#progress-live")).to_have_text("5 Vorschläge, davon 1 schon im Stapel.")
    # No timed texts of the past: every line the page showed came from the job.
    spoken = page.evaluate("window.__spoken")
    assert not any("importiert" in s or "Sprachmodell" in s or "Einen Moment" in s for s in spoken), spoken


def test_pdf_source_reports_its_pages(page: Page):
    account, stack = new_stack(page)
    page.goto(f"/app/stacks/{stack['id']}/create")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.evaluate("""() => {
        window.__progress = [];
        const el = document.getElementById('progress-text');
        new MutationObserver(() => window.__progress.push(el.textContent))
            .observe(el, {childList: true, characterData: true, subtree: true});
    }""")
    page.locator("#pdf").set_input_files(str(FIXTURES / "corpus" / "de_zellbiologie.pdf"))
    expect(page.get_by_text("Ausgewählt: de_zellbiologie.pdf")).to_be_visible()
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.locator("#gen-summary")).to_have_text(re.compile(r"^\d+ Vorschläge aus 2 Seiten\.$"), timeout=60_000)
    count = page.locator(".draft").count()
    assert count >= 3
    assert page.locator("#gen-summary").inner_text().startswith(f"{count} ")
    # Page numbers beside the source sentences.
    captions = page.locator(".draft-source figcaption").all_inner_texts()
    assert captions and set(captions) <= {"Seite 1", "Seite 2"}, captions
    # Only real progress: every line matches a job stage.
    allowed = re.compile(r"^(Wird an den Server gesendet…|Wartet auf den Start…|Seite \d+ von 2 gelesen|"
                         r"Die Datei wird gelesen…|Abschnitt \d+ von \d+ wird verarbeitet|Karten werden erstellt…|"
                         r"Die Vorschläge werden gespeichert…|Fertig\.)$")
    lines = page.evaluate("window.__progress")
    assert lines and all(allowed.match(line) for line in lines), lines
    page.locator("#accept").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    assert len(cards_of(page, account, stack)) == count


def test_photo_source_makes_drafts_from_recognised_text(page: Page):
    account, stack = new_stack(page, "Biologie")
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.get_by_role("radio", name="Foto").check()
    page.locator("#photo").set_input_files(str(FIXTURES / "notes.png"))
    expect(page.get_by_text("Ausgewählt: notes.png")).to_be_visible()
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.locator("#gen-summary")).to_have_text(re.compile(r"^\d+ Vorschl(ag|äge)( aus 1 Seite)?\.$"),
                                                      timeout=90_000)
    texts = " ".join(page.locator(".draft textarea").evaluate_all("els => els.map((e) => e.value)"))
    assert re.search(r"Chlorophyll|Photosynthese", texts), texts


# --- states -------------------------------------------------------------------------------------


def test_empty_result_explains_what_to_try(page: Page):
    account, stack = new_stack(page)
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.get_by_role("radio", name="Text").check()
    page.get_by_label("Text *").fill("Hallo du. Wie geht es dir? Gut, danke.")
    page.get_by_role("button", name="Karten erstellen").click()
    title = page.get_by_role("heading", name="Aus diesem Material konnten keine Karten erstellt werden.")
    expect(title).to_be_visible(timeout=60_000)
    expect(title).to_be_focused()
    expect(page.locator("#drafts-empty")).to_contain_text("Definitionen")
    expect(page.locator("#drafts")).to_be_hidden()
    page.get_by_role("button", name="Andere Quelle wählen").click()
    expect(page.get_by_role("radio", name="Text")).to_be_focused()


def test_a_failed_start_offers_a_retry(page: Page):
    account, stack = new_stack(page)
    failing = fail_once(page, re.compile(r".*/api/v1/stacks/[^/]+/generations$"))
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.get_by_role("radio", name="Text").check()
    page.get_by_label("Text *").fill(ZELL_TEXT)
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.locator("#gen-error [role=alert]")).to_contain_text(
        "Beim Erstellen der Karten aus deinem Text ist ein Fehler aufgetreten.")
    assert "magisch" not in page.locator("#gen-error").inner_text()
    page.get_by_role("button", name="Erneut versuchen").click()
    expect(page.locator("#gen-summary")).to_be_visible(timeout=60_000)
    expect(page.locator("#gen-error")).to_be_hidden()
    assert page.locator(".draft").count() >= 5


def test_an_accept_error_keeps_the_list_and_the_edits(page: Page):
    account, stack = new_stack(page)
    count = generate_from_text(page, stack, ZELL_TEXT)
    page.get_by_label("Vorschlag 1: Vorderseite").fill("Meine eigene Frage?")
    page.get_by_role("checkbox", name="Vorschlag 3 übernehmen").uncheck()
    fail_once(page, re.compile(r".*/api/v1/stacks/[^/]+/drafts/accept$"), status=503, code="database_busy", message="x")
    page.locator("#accept").click()
    expect(page.locator("#accept-error")).to_have_text(
        "Die Karten konnten nicht übernommen werden. Deine Auswahl und Änderungen sind noch da – "
        "bitte versuche es erneut.")
    expect(page.locator(".draft")).to_have_count(count)
    expect(page.get_by_label("Vorschlag 1: Vorderseite")).to_have_value("Meine eigene Frage?")
    expect(page.get_by_role("checkbox", name="Vorschlag 3 übernehmen")).not_to_be_checked()
    expect(page.locator("#accept")).to_be_focused()
    page.locator("#accept").click()  # the unchecked draft was discarded by the first try already
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"), timeout=15_000)
    cards = cards_of(page, account, stack)
    assert len(cards) == count - 1
    assert "Meine eigene Frage?" in {c["question"] for c in cards}


def test_a_kept_draft_with_an_empty_side_blocks_accept_and_nothing_is_sent(page: Page):
    account, stack = new_stack(page)
    count = generate_from_text(page, stack, ZELL_TEXT)
    assert count >= 3
    sent = []
    page.on("request", lambda r: sent.append(f"{r.method} {r.url}") if r.method != "GET" else None)
    front = page.get_by_label("Vorschlag 2: Vorderseite")
    described = front.get_attribute("aria-describedby")
    front.fill("   ")
    page.locator("#accept").click()
    # The empty side is marked at the field and focused; nothing is patched, deleted or accepted.
    expect(front).to_be_focused()
    expect(front).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#draft-2-q-error")).to_have_text("Vorder- und Rückseite dürfen nicht leer sein.")
    assert "draft-2-q-error" in front.get_attribute("aria-describedby")
    page.keyboard.press("Control+Enter")  # the keyboard path is blocked the same way
    page.wait_for_timeout(500)
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}/create$"))
    assert sent == [], sent
    assert len(drafts_of(page, account, stack)) == count  # the emptied draft still exists
    assert cards_of(page, account, stack) == []

    # Text again takes the mark off (the source sentence still describes the field).
    front.fill("Was ist meine eigene Frage?")
    expect(page.locator("#draft-2-q-error")).to_have_count(0)
    expect(front).not_to_have_attribute("aria-invalid", "true")
    if described:
        expect(front).to_have_attribute("aria-describedby", described)
    # An emptied draft that is unticked is simply discarded.
    page.get_by_label("Vorschlag 3: Rückseite").fill("")
    page.get_by_role("checkbox", name="Vorschlag 3 übernehmen").uncheck()
    page.locator("#accept").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    questions = {c["question"] for c in cards_of(page, account, stack)}
    assert len(questions) == count - 1 and "Was ist meine eigene Frage?" in questions
    assert drafts_of(page, account, stack) == []


def test_files_dropped_on_the_dropzones_are_chosen(page: Page):
    account, stack = new_stack(page)
    page.goto(f"/app/stacks/{stack['id']}/create")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    pdf = page.evaluate_handle("""() => {
        const data = new DataTransfer();
        data.items.add(new File(['%PDF-1.4\\n'], 'skript.pdf', { type: 'application/pdf' }));
        return data;
    }""")
    zone = page.locator("label.dropzone[for=pdf]")
    zone.dispatch_event("dragover", {"dataTransfer": pdf})
    expect(zone).to_have_class(re.compile(r"\bis-dragover\b"))
    zone.dispatch_event("drop", {"dataTransfer": pdf})
    expect(zone).not_to_have_class(re.compile(r"\bis-dragover\b"))
    expect(page.get_by_text("Ausgewählt: skript.pdf")).to_be_visible()
    assert page.locator("#pdf").evaluate("(el) => el.files[0]?.name") == "skript.pdf"

    # A photo, too; the page keeps the browser from opening the dropped file.
    page.get_by_role("radio", name="Foto").check()
    prevented = page.evaluate("""() => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array([137, 80, 78, 71])], 'tafel.png', { type: 'image/png' }));
        const drop = new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
        document.querySelector('label.dropzone[for=photo]').dispatchEvent(drop);
        return drop.defaultPrevented;
    }""")
    assert prevented
    expect(page.get_by_text("Ausgewählt: tafel.png")).to_be_visible()


def test_a_failed_poll_is_tried_again_and_the_run_completes(page: Page):
    account, stack = new_stack(page)
    cancels = []
    page.on("request", lambda r: cancels.append(r.url) if r.method == "POST" and r.url.endswith("/cancel") else None)
    failing = fail_once(page, re.compile(r".*/api/v1/jobs/[^/]+$"), status=503, code="unavailable", message="x",
                        method="GET")
    count = generate_from_text(page, stack, ZELL_TEXT)
    assert failing["left"] == 0  # the first poll did fail…
    assert count >= 5  # …and the run went on to the end
    expect(page.locator("#gen-error")).to_be_hidden()
    assert cancels == []
    assert len(drafts_of(page, account, stack)) == count


def test_leaving_during_a_generation_stops_its_polling_and_cancels_the_job(page: Page):
    """The router's clean-up contract, with the job API stubbed to run for ever: once the learner
    leaves "Automatisch erstellen" (here by the breadcrumb, after a retry of the page), the page polls
    no more, shows nothing more, and cancels the job on the server (nobody waits for its drafts)."""
    account, stack = new_stack(page)
    job_id = "33333333-3333-4333-8333-333333333333"
    polls: list[str] = []
    cancels: list[str] = []
    job = {"id": job_id, "kind": "generation", "status": "running",
           "progress": {"stage": "reading", "current": 1, "total": 9, "cardsCreated": 0, "message": "…"},
           "error": None, "result": None, "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}

    def on_job(route):
        if route.request.method == "POST":
            cancels.append(route.request.url)
            route.fulfill(status=200, content_type="application/json", body=json.dumps({**job, "status": "cancelled"}))
            return
        polls.append(route.request.url)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(job))

    page.route(re.compile(r".*/api/v1/stacks/[^/]+/generations$"), lambda route: route.fulfill(
        status=202, content_type="application/json", body=json.dumps(job)))
    page.route(re.compile(rf".*/api/v1/jobs/{job_id}(/cancel)?$"), on_job)
    page.route(re.compile(r".*/api/v1/stacks/[^/]+/drafts\?jobId=.*"), lambda route: route.fulfill(
        status=200, content_type="application/json", body="[]"))
    # The page's first load fails: "Erneut versuchen" mounts it again.
    fail_once(page, re.compile(rf".*/api/v1/stacks/{stack['id']}$"), method="GET")
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.get_by_role("button", name="Erneut versuchen").click()
    page.get_by_role("radio", name="Text").check()
    page.get_by_label("Text *").fill("Irgendein Text.")
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.locator("#progress-text")).to_have_text("Seite 1 von 9 gelesen")
    for _ in range(40):
        if len(polls) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(polls) >= 2, polls
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/cancel")):
        page.locator(".breadcrumb a", has_text="Zellbiologie").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    page.wait_for_timeout(300)  # a poll already sent may still arrive
    seen = len(polls)
    page.wait_for_timeout(2500)  # more than three poll intervals
    assert len(polls) == seen, f"still polling after the page was left: {polls[seen:]}"
    assert len(cancels) == 1
    expect(page.locator("#progress-area")).to_have_count(0)


def test_a_job_that_cannot_be_followed_is_cancelled(page: Page):
    account, stack = new_stack(page)
    polls = {"count": 0}

    def failing(route):
        if route.request.method == "GET":
            polls["count"] += 1
            route.fulfill(status=503, content_type="application/json", body='{"message": "x", "code": "unavailable"}')
        else:
            route.continue_()

    page.route(re.compile(r".*/api/v1/jobs/[^/]+$"), failing)
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.get_by_role("radio", name="Text").check()
    page.get_by_label("Text *").fill(ZELL_TEXT)
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/cancel"), timeout=20_000):
        page.get_by_role("button", name="Karten erstellen").click()
    assert polls["count"] == 5  # five tries, then the page gives up on the job and cancels it
    expect(page.locator("#gen-error [role=alert]")).to_contain_text(
        "Beim Erstellen der Karten aus deinem Text ist ein Fehler aufgetreten.")
    expect(page.locator("#gen-error [data-retry]")).to_be_focused()


def test_a_failed_job_is_not_announced_as_making_cards(page: Page):
    """The job API stubbed: the job fails while it is generating."""
    account, stack = new_stack(page)
    job_id = "22222222-2222-4222-8222-222222222222"

    def job_json(status, stage):
        failed = status == "failed"
        return {"id": job_id, "kind": "generation", "status": status,
                "progress": {"stage": stage, "current": None, "total": None, "cardsCreated": 0, "message": "…"},
                "error": "Die Erstellung ist fehlgeschlagen." if failed else None,
                "errorCode": "generation_failed" if failed else None, "result": None,
                "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}

    page.route(re.compile(r".*/api/v1/stacks/[^/]+/generations$"), lambda route: route.fulfill(
        status=202, content_type="application/json", body=json.dumps(job_json("queued", "queued"))))
    page.route(re.compile(rf".*/api/v1/jobs/{job_id}$"), lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(job_json("failed", "generating"))))
    page.goto(f"/app/stacks/{stack['id']}/create")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    record_progress_announcements(page)
    page.get_by_role("radio", name="Text").check()
    page.get_by_label("Text *").fill("Irgendein Text.")
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.locator("#gen-error [role=alert]")).to_contain_text("Die Erstellung ist fehlgeschlagen.")
    spoken = page.evaluate("window.__spoken")
    assert spoken and not any("Karten werden erstellt" in s for s in spoken), spoken


# --- English, phone, dark -----------------------------------------------------------------------


def test_english_wording_and_editor(make_page):
    page = make_page(locale="en-US")
    account, stack = new_stack(page, "Cells")
    page.goto(f"/app/stacks/{stack['id']}/create")
    expect(page.get_by_role("heading", level=1)).to_have_text("Create cards automatically.")
    expect(page.locator("#magic-lead")).to_have_text(
        "Upload a file or paste some text. Flashcards are made from it automatically – you check them before "
        "they go into your stack.")
    expect(page.get_by_text("Only PDF files up to 10 MB are accepted.")).to_be_visible()
    page.get_by_role("radio", name="Topic").check()
    expect(page.locator("#topic-off p")).to_have_text(
        "Topics need a language model, and none is set up on this server. Paste some text or upload a file instead.")
    expect(page.get_by_role("button", name="Upload a PDF")).to_be_visible()
    page.get_by_role("button", name="Paste text").click()
    expect(page.get_by_role("radio", name="Text")).to_be_checked()
    assert not AI_WORDS.search(page.evaluate("document.body.innerText"))

    text = (FIXTURES / "corpus" / "en_databases.md").read_text(encoding="utf-8")
    count = generate_from_text(page, stack, text, english=True)
    assert count >= 3
    expect(page.locator("#gen-summary")).to_have_text(f"{count} suggestions.")
    expect(page.get_by_role("button", name="Select all")).to_be_visible()
    expect(page.get_by_role("button", name="Select none")).to_be_visible()
    expect(page.get_by_label("Suggestion 1: front")).to_be_visible()
    expect(page.get_by_label("Suggestion 1: back")).to_be_visible()
    expect(page.locator("#accept")).to_have_text(f"Add {count} cards")
    expect(page.get_by_text("Ctrl+Enter adds the selected cards.")).to_be_visible()
    page.get_by_role("button", name="Select none").click()
    expect(page.locator("#accept")).to_have_text("Add selected")
    expect(page.locator("#announce")).to_have_text(f"0 of {count} suggestions selected.")


def test_phone_in_dark_mode(make_page):
    page = make_page(color_scheme="dark", **PHONE)
    account, stack = new_stack(page)
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.get_by_role("radio", name="Thema").check()
    expect(page.locator("#topic-off")).to_be_visible()
    assert_touch_targets(page)
    first = generate_from_text(page, stack, ZELL_TEXT)
    page.locator("#accept").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    generate_from_text(page, stack, ZELL_TEXT + EXTRA_TEXT)  # with duplicate badges
    assert page.locator(".pill-duplicate").count() > 0 and first > 0
    # Nothing wider than the phone, every control big enough to tap.
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert_touch_targets(page)
    # The dark theme's surfaces, not the light ones.
    background = page.locator(".draft").first.evaluate("el => getComputedStyle(el).backgroundColor")
    assert background not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), background
    text = page.get_by_label("Vorschlag 1: Vorderseite").evaluate("el => getComputedStyle(el).color")
    assert text != "rgb(17, 24, 39)", text  # not the light theme's near-black
    assert no_inner_scrolling(page) == []
    shot(page, "76-magic-drafts-dark-phone")

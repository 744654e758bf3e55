"""The gaps made visible (issue 37): the source text beside the drafts of "Automatisch erstellen".

After a job from pasted text (or a PDF) has drafts, the review shows what the generator read: the
sentences that became drafts marked (underlined, described as "Hat eine Karte"), the paragraphs
and sections without any named in words ("Keine Karte zu diesem Abschnitt"), and the job summary
names the sections without cards. A marked sentence leads to its draft; any passage (a selection,
or a sentence by keyboard) becomes a card through "Karte daraus machen", which adds the draft to
the list and marks the passage. German and English, a phone (the toggle "Quelltext" above the
list) in dark mode, axe, a topic job (no source), loading, error and retry.

Runs against the real server (the offline rules), the topic test against a second one with the
fake language model of test_topic_feed.py."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import api, fail_once, shot
from test_accessibility import _axe
from test_draft_editor import drafts_of, generate_from_text, new_stack
from test_mobile import PHONE
from test_topic_feed import _signed_in, fake_llm, model_server  # noqa: F401 (fixtures)

# Two sections the rules make cards from, two they make nothing of, and a paragraph without a
# card inside a section with one.
TEXT = """# Nachfrage

Die Nachfrage ist die Menge eines Gutes, die Käufer zu einem bestimmten Preis erwerben wollen.

Wir warteten lange und sahen zu, wie es draußen langsam dunkel wurde.

# Ein Spaziergang

Am Morgen gingen wir lange am Ufer entlang und sahen den Booten zu, bis die Sonne hoch stand und alle müde wurden.

Danach ruhten wir uns im Schatten aus und erzählten uns Geschichten von früher.

# Angebot

Das Angebot ist die Menge eines Gutes, die Verkäufer zu einem bestimmten Preis verkaufen wollen.

# Der Heimweg

Später liefen wir gemeinsam zurück ins Dorf, wo schon das Essen auf uns wartete und alle lachten.
"""
DEMAND = "Die Nachfrage ist die Menge eines Gutes, die Käufer zu einem bestimmten Preis erwerben wollen."
WAITING = "Wir warteten lange und sahen zu, wie es draußen langsam dunkel wurde."
MORNING = ("Am Morgen gingen wir lange am Ufer entlang und sahen den Booten zu, bis die Sonne hoch stand "
           "und alle müde wurden.")
HOME = "Später liefen wir gemeinsam zurück ins Dorf, wo schon das Essen auf uns wartete und alle lachten."
GAPS_DE = "Zu 2 Abschnitten wurden keine Karten erstellt: Ein Spaziergang, Der Heimweg."
GAPS_EN = "No cards were made for 2 sections: Ein Spaziergang, Der Heimweg."
SOURCE_URL = re.compile(r".*/api/v1/stacks/[^/]+/generations/[^/]+/source$")


# --- helpers ------------------------------------------------------------------------------------


def job_of(page: Page, account: dict, stack: dict) -> str:
    return drafts_of(page, account, stack)[0]["jobId"]


def source_of(page: Page, account: dict, stack: dict, job_id: str) -> dict:
    status, body = api(page, "GET", f"/stacks/{stack['id']}/generations/{job_id}/source", token=account["token"])
    assert status == 200, body
    return body


def sentence(page: Page, text: str):
    return page.locator("#source-doc .src-s", has_text=text)


def select_text(page: Page, locator) -> None:
    """Selects the element's text with a mouse drag from its first to its last character."""
    locator.scroll_into_view_if_needed()
    start, end = locator.evaluate("""el => {
        const rects = el.getClientRects();
        const first = rects[0], last = rects[rects.length - 1];
        return [[first.left + 1, first.top + first.height / 2], [last.right - 1, last.top + last.height / 2]];
    }""")
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def make_card_dialog(page: Page, english: bool = False):
    dialog = page.get_by_role("dialog", name="Make a card from it" if english else "Karte daraus machen")
    expect(dialog).to_be_visible()
    # The rules' suggestion has arrived once the fields can be edited.
    expect(dialog.get_by_label("Front" if english else "Vorderseite")).to_be_enabled()
    return dialog


def focused_sentence(page: Page) -> str:
    return page.evaluate("() => document.activeElement.closest('[data-s]')?.textContent ?? ''")


def tab_to_source(page: Page) -> str:
    """Presses Tab until a sentence of the source has the focus; returns its text."""
    for _ in range(80):
        page.keyboard.press("Tab")
        if focused_sentence(page):
            break
    return focused_sentence(page)


def no_horizontal_overflow(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


# Visible targets under 44 px on a phone, except the sentences (inline targets in running text,
# WCAG 2.5.5's exception, like links in a sentence).
SMALL_TARGETS = """
() => [...document.querySelectorAll('button, a, input, textarea, select, [role=button]')]
  .filter((el) => el.offsetParent !== null && !el.closest('p') && !el.classList.contains('src-s'))
  .filter((el) => !el.closest('.draft-check'))
  .map((el) => ({el, r: el.getBoundingClientRect()}))
  .filter(({r}) => r.width > 0 && (r.height < 43.5 || r.width < 43.5))
  .map(({el, r}) => `${el.tagName} ${el.textContent.trim().slice(0, 30)} ${Math.round(r.width)}x${Math.round(r.height)}`)
"""


# --- the source beside the drafts ---------------------------------------------------------------


def test_marks_gaps_and_the_way_to_a_draft(page: Page):
    account, stack = new_stack(page, "Volkswirtschaft")
    count = generate_from_text(page, stack, TEXT)
    job_id = job_of(page, account, stack)
    source = source_of(page, account, stack, job_id)
    assert source["sectionsWithoutDrafts"] == ["Ein Spaziergang", "Der Heimweg"], source["sectionsWithoutDrafts"]

    # The summary names the sections without cards once: the German warning saying the same is left out.
    expect(page.locator("#gen-gaps")).to_have_text(GAPS_DE)
    expect(page.locator("#gen-warnings")).to_be_hidden()
    summary = page.locator("#gen-summary").inner_text()
    expect(page.locator("#progress-live")).to_have_text(f"{summary} {GAPS_DE}")  # spoken too

    panel = page.get_by_role("region", name="Quelltext")
    expect(panel).to_be_visible()
    expect(page.locator("#source-toggle")).to_be_hidden()  # wide: beside the list, no toggle
    list_box = page.locator("#draft-list").bounding_box()
    panel_box = panel.bounding_box()
    assert panel_box["x"] > list_box["x"] + list_box["width"] - 1, (panel_box, list_box)

    # Every covered sentence of the API is marked, and only those.
    covered = [s["text"] for sec in source["sections"] for b in sec["blocks"] for s in b["sentences"] if s["covered"]]
    marked = page.locator("#source-doc .src-s.is-covered")
    expect(marked).to_have_count(len(covered))
    assert sorted(marked.all_inner_texts()) == sorted(covered)
    demand = sentence(page, DEMAND)
    expect(demand).to_have_class(re.compile(r"\bis-covered\b"))
    expect(demand).to_have_accessible_description(re.compile(r"^Hat eine Karte\. Enter springt zu ihr"))
    # Not by colour alone: underlined.
    assert demand.evaluate("el => getComputedStyle(el).textDecorationLine") == "underline"
    expect(sentence(page, MORNING)).to_have_accessible_description("Noch keine Karte. Enter macht eine daraus.")

    # The two sections without a card say so in words; so does the paragraph without one.
    gap_sections = page.locator("#source-doc .src-section.is-gap")
    expect(gap_sections).to_have_count(2)
    expect(gap_sections.nth(0)).to_contain_text("Ein Spaziergang")
    expect(gap_sections.nth(0).locator(".src-gap")).to_have_text("Keine Karte zu diesem Abschnitt")
    expect(gap_sections.nth(1)).to_contain_text("Der Heimweg")
    waiting = page.locator("#source-doc .src-block.is-gap", has_text=WAITING)
    expect(waiting).to_contain_text("Keine Karte zu diesem Absatz")
    expect(page.locator("#source-doc .src-block.is-gap")).to_have_count(1)
    shot(page, "120-source-beside-drafts")

    # A click on a marked sentence leads to its draft: scrolled to and its front focused.
    draft_id = next(s["draftIds"][0] for sec in source["sections"] for b in sec["blocks"]
                    for s in b["sentences"] if s["text"] == DEMAND)
    demand.click()
    front = page.locator(f".draft[data-id='{draft_id}'] [data-field=question]")
    expect(front).to_be_focused()
    expect(front).to_be_in_viewport()
    assert page.locator(".draft").count() == count


def test_a_selected_passage_becomes_a_draft_and_is_marked(page: Page):
    account, stack = new_stack(page, "Volkswirtschaft")
    count = generate_from_text(page, stack, TEXT)
    job_id = job_of(page, account, stack)
    status, suggestion = api(page, "POST", f"/stacks/{stack['id']}/drafts/suggestion",
                             {"passage": MORNING, "jobId": job_id}, token=account["token"])
    assert status == 200, suggestion

    morning = sentence(page, MORNING)
    select_text(page, morning)
    make = page.get_by_role("button", name="Karte daraus machen")
    expect(make).to_be_visible()
    # Near the selection: just below its last line.
    selection_bottom = morning.evaluate("el => [...el.getClientRects()].at(-1).bottom")
    button_top = make.bounding_box()["y"]
    assert 0 <= button_top - selection_bottom <= 24, (button_top, selection_bottom)
    shot(page, "121-source-selection")
    make.click()

    dialog = make_card_dialog(page)
    expect(dialog.locator("blockquote")).to_have_text(f"„{MORNING}“")
    question = dialog.get_by_label("Vorderseite")
    answer = dialog.get_by_label("Rückseite")
    if suggestion["kind"] == "manual":
        expect(question).to_have_value("")
        expect(question).to_be_focused()
        expect(answer).to_have_value(MORNING)
    else:
        expect(question).to_have_value(suggestion["question"])
        expect(answer).to_have_value(suggestion["answer"])
    # Both sides are needed.
    question.fill("")
    dialog.get_by_role("button", name="Als Entwurf hinzufügen").click()
    expect(question).to_have_attribute("aria-invalid", "true")
    expect(dialog).to_contain_text("Vorder- und Rückseite dürfen nicht leer sein.")
    question.fill("Was taten wir am Morgen?")
    answer.fill("Wir gingen am Ufer entlang und sahen den Booten zu.")
    shot(page, "122-source-make-card")
    dialog.get_by_role("button", name="Als Entwurf hinzufügen").click()
    expect(dialog).to_be_hidden()

    # Appended to the list, selected like the other drafts; the passage is marked, its section no gap.
    expect(page.locator(".draft")).to_have_count(count + 1)
    last = page.locator(".draft").last
    expect(last.get_by_label(f"Vorschlag {count + 1}: Vorderseite")).to_have_value("Was taten wir am Morgen?")
    expect(last.get_by_role("checkbox")).to_be_checked()
    expect(last.locator("blockquote")).to_have_text(f"„{MORNING}“")
    expect(page.locator("#accept")).to_have_text(f"{count + 1} Karten übernehmen")
    expect(page.locator("#announce")).to_have_text("Als Entwurf hinzugefügt: Was taten wir am Morgen?")
    expect(morning).to_have_class(re.compile(r"\bis-covered\b"))
    expect(page.locator("#source-doc .src-section.is-gap")).to_have_count(1)
    expect(page.locator("#source-doc .src-section.is-gap")).to_contain_text("Der Heimweg")

    # The server has it: a pending draft of the job from that passage, and the passage marked there too.
    drafts = drafts_of(page, account, stack)
    mine = next(d for d in drafts if d["question"] == "Was taten wir am Morgen?")
    assert mine["jobId"] == job_id and mine["status"] == "pending" and mine["source"] == MORNING, mine
    source = source_of(page, account, stack, job_id)
    assert "Ein Spaziergang" not in source["sectionsWithoutDrafts"], source["sectionsWithoutDrafts"]

    # The new mark leads to the new draft.
    morning.click()
    expect(last.locator("[data-field=question]")).to_be_focused()

    page.locator("#accept").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    status, cards = api(page, "GET", f"/stacks/{stack['id']}/cards?perPage=100", token=account["token"])
    assert status == 200 and "Was taten wir am Morgen?" in {c["question"] for c in cards["items"]}


def test_the_keyboard_path_without_a_mouse(page: Page):
    account, stack = new_stack(page, "Volkswirtschaft")
    count = generate_from_text(page, stack, TEXT)
    expect(page.locator("#source-doc")).to_be_visible()
    expect(page.locator("#source-keys")).to_have_text(
        "Pfeiltasten wechseln den Satz. Enter springt zu seiner Karte oder macht eine daraus, "
        "Umschalt+Enter macht immer eine neue.")

    # From the list's heading, Tab reaches the source's sentences: one tab stop for all of them.
    expect(page.locator("#drafts-title")).to_be_focused()
    assert tab_to_source(page) == "Nachfrage"
    expect(page.locator("#source-doc [data-s][tabindex='0']")).to_have_count(1)

    # Arrows move; Enter on a marked sentence leads to its draft.
    page.keyboard.press("ArrowDown")
    assert focused_sentence(page) == DEMAND
    page.keyboard.press("Enter")
    expect(page.locator(".draft [data-field=question]:focus")).to_have_count(1)
    # Back in the source, its tab stop is the sentence left last.
    assert tab_to_source(page) == DEMAND

    # End, then Enter on a sentence without a card: the form, the front focused (or filled).
    page.keyboard.press("End")
    assert focused_sentence(page) == HOME
    page.keyboard.press("Enter")
    dialog = make_card_dialog(page)
    question = dialog.get_by_label("Vorderseite")
    expect(question).to_be_focused()
    page.keyboard.press("Control+a")
    page.keyboard.type("Wohin liefen wir später?")
    page.keyboard.press("Tab")
    expect(dialog.get_by_label("Rückseite")).to_be_focused()
    page.keyboard.press("Control+a")
    page.keyboard.type("Zurück ins Dorf.")
    page.keyboard.press("Control+Enter")  # adds it (the dialog's hint says so)
    expect(dialog).to_be_hidden()
    expect(page.locator(".draft")).to_have_count(count + 1)

    # The focus is back on the sentence, now marked; Enter leads to the new draft.
    assert focused_sentence(page) == HOME
    expect(sentence(page, HOME)).to_have_class(re.compile(r"\bis-covered\b"))
    expect(sentence(page, HOME)).to_have_accessible_description(re.compile(r"^Hat eine Karte"))
    page.keyboard.press("Enter")
    expect(page.get_by_label(f"Vorschlag {count + 1}: Vorderseite")).to_be_focused()
    expect(page.get_by_label(f"Vorschlag {count + 1}: Vorderseite")).to_have_value("Wohin liefen wir später?")

    # Shift+Enter makes a card even from a marked sentence; Escape closes the form, nothing added.
    assert tab_to_source(page) == HOME
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Shift+Enter")
    dialog = make_card_dialog(page)
    expect(dialog.locator("blockquote")).to_have_text(f"„{DEMAND}“")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert focused_sentence(page) == DEMAND
    expect(page.locator(".draft")).to_have_count(count + 1)

    # Ctrl+Enter in the source still accepts the selection.
    page.keyboard.press("Control+Enter")
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    status, cards = api(page, "GET", f"/stacks/{stack['id']}/cards?perPage=100", token=account["token"])
    assert status == 200 and cards["total"] == count + 1, cards["total"]


# --- English, phone, dark, axe ------------------------------------------------------------------


def test_english_on_a_dark_phone_behind_the_toggle(make_page):
    page = make_page(locale="en-US", color_scheme="dark", **PHONE)
    account, stack = new_stack(page, "Economics")
    count = generate_from_text(page, stack, TEXT, english=True)
    expect(page.locator("#gen-gaps")).to_have_text(GAPS_EN)

    # The source waits behind "Source text" above the list.
    toggle = page.get_by_role("button", name="Source text")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#source-panel")).to_be_hidden()
    assert toggle.bounding_box()["y"] < page.locator("#draft-list").bounding_box()["y"]
    toggle.tap()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    panel = page.get_by_role("region", name="Source text")
    expect(panel).to_be_visible()
    assert panel.bounding_box()["y"] < page.locator("#draft-list").bounding_box()["y"]
    expect(page.locator("#source-doc .src-section.is-gap .src-gap").first).to_have_text("No card from this section")
    # The German text says it is German; our English words in it say they are English.
    expect(page.locator("#source-doc")).to_have_attribute("lang", "de")
    expect(page.locator("#source-doc .src-gap").first).to_have_attribute("lang", "en")
    expect(page.locator("#source-doc .src-block.is-gap")).to_contain_text("No card from this paragraph")
    expect(sentence(page, DEMAND)).to_have_accessible_description(re.compile(r"^Has a card\. Enter jumps to it"))
    # The dark theme's surfaces.
    background = panel.evaluate("el => getComputedStyle(el).backgroundColor")
    assert sum(int(v) for v in re.findall(r"\d+", background)[:3]) < 150, background

    # A tap on a sentence offers the button under it (the selection of a phone works the same way).
    sentence(page, HOME).tap()
    make = page.get_by_role("button", name="Make a card from it")
    expect(make).to_be_visible()
    no_horizontal_overflow(page)
    small = page.evaluate(SMALL_TARGETS)
    assert small == [], small
    shot(page, "123-source-phone-dark")
    make.tap()
    dialog = make_card_dialog(page, english=True)
    expect(dialog.locator("blockquote")).to_have_text(f"“{HOME}”")
    dialog.get_by_label("Front").fill("Where did we go later?")
    dialog.get_by_label("Back").fill("Back to the village.")
    no_horizontal_overflow(page)
    dialog.get_by_role("button", name="Add as draft").tap()
    expect(dialog).to_be_hidden()
    expect(page.locator(".draft")).to_have_count(count + 1)
    expect(page.locator("#announce")).to_have_text("Added as a draft: Where did we go later?")
    expect(sentence(page, HOME)).to_have_class(re.compile(r"\bis-covered\b"))
    # "Der Heimweg" has a card now: one section without is left.
    expect(page.locator("#source-doc .src-section.is-gap")).to_have_count(1)
    no_horizontal_overflow(page)


def test_axe_finds_nothing_serious_with_the_source_shown(make_page):
    for viewport, scheme in (({"width": 1280, "height": 860}, "light"), ({"width": 390, "height": 844}, "dark")):
        page = make_page(viewport=viewport, color_scheme=scheme)
        _account, stack = new_stack(page, "Volkswirtschaft")
        generate_from_text(page, stack, TEXT)
        if viewport["width"] < 1024:
            page.get_by_role("button", name="Quelltext").click()
        expect(page.locator("#source-doc")).to_be_visible()
        sentence(page, MORNING).focus()  # the button "Karte daraus machen" is shown too
        expect(page.get_by_role("button", name="Karte daraus machen")).to_be_visible()
        result = _axe(page)
        assert result["blocking"] == [], result["blocking"]
        # And with the form open.
        page.get_by_role("button", name="Karte daraus machen").click()
        make_card_dialog(page)
        page.wait_for_timeout(300)  # the dialog's opening animation (its colours fade in) is over
        result = _axe(page)
        assert result["blocking"] == [], result["blocking"]


# --- no source, loading, errors -----------------------------------------------------------------


def test_a_topic_job_has_no_source_panel(make_page, model_server):
    page, account, stack = _signed_in(make_page, model_server)
    asked = []
    page.on("request", lambda r: asked.append(r.url) if SOURCE_URL.match(r.url) else None)
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.get_by_role("radio", name="Thema").check()
    page.get_by_label("Thema *").fill("Zellatmung")
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.locator("#gen-summary")).to_have_text("15 Vorschläge.", timeout=60_000)
    expect(page.locator("#source-panel")).to_be_hidden()
    expect(page.locator("#source-toggle")).to_be_hidden()
    expect(page.locator("#gen-gaps")).to_be_hidden()
    assert asked == []
    # The server has none either; reviewed through ?job= the page asks, hears 404 and shows none.
    status, drafts = api(page, "GET", f"/stacks/{stack['id']}/drafts", token=account["token"], base_url=model_server)
    job_id = drafts[0]["jobId"]
    status, body = api(page, "GET", f"/stacks/{stack['id']}/generations/{job_id}/source", token=account["token"],
                       base_url=model_server)
    assert status == 404 and body["code"] == "source_not_found", body
    page.goto(f"/app/stacks/{stack['id']}/create?job={job_id}")
    expect(page.locator(".draft")).to_have_count(15, timeout=30_000)
    expect(page.locator("#gen-summary")).to_be_visible()
    page.wait_for_timeout(300)
    assert len(asked) == 1
    expect(page.locator("#source-panel")).to_be_hidden()
    assert page.evaluate("document.querySelector('.magic-page').classList.contains('has-source')") is False


def test_loading_error_and_retry(page: Page):
    account, stack = new_stack(page, "Volkswirtschaft")
    # The first answer fails, the second is held until the loading state has been seen.
    failing = fail_once(page, SOURCE_URL, status=500, method="GET")
    held = []
    generate_from_text(page, stack, TEXT)
    panel = page.get_by_role("region", name="Quelltext")
    expect(panel.get_by_role("alert")).to_contain_text("Der Quelltext konnte nicht geladen werden.")
    assert failing["left"] == 0
    expect(page.locator("#draft-list .draft").first).to_be_visible()  # the drafts are not affected
    shot(page, "124-source-error")

    page.unroute(SOURCE_URL)
    page.route(SOURCE_URL, lambda route: held.append(route))
    panel.get_by_role("button", name="Erneut versuchen").click()
    expect(panel.get_by_role("status")).to_contain_text("Der Quelltext wird geladen…")
    expect(page.locator("#source-doc")).to_have_count(0)
    page.wait_for_timeout(100)
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("#source-doc")).to_be_visible()
    expect(sentence(page, DEMAND)).to_have_class(re.compile(r"\bis-covered\b"))
    page.unroute(SOURCE_URL)

    # The same job reviewed again through ?job= shows its source too.
    job_id = job_of(page, account, stack)
    page.goto(f"/app/stacks/{stack['id']}/create?job={job_id}")
    expect(page.locator("#source-doc .src-section.is-gap")).to_have_count(2, timeout=30_000)
    expect(page.locator("#gen-gaps")).to_have_text(GAPS_DE)


def test_a_pdf_source_shows_its_pages(page: Page):
    from test_draft_editor import FIXTURES

    _account, stack = new_stack(page, "Zellbiologie")
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.locator("#pdf").set_input_files(str(FIXTURES / "corpus" / "de_zellbiologie.pdf"))
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.locator("#gen-summary")).to_be_visible(timeout=60_000)
    expect(page.locator("#source-doc")).to_be_visible()
    pages = page.locator("#source-doc .src-page")
    expect(pages.first).to_have_text(re.compile(r"^Seite 1$", re.I))
    assert page.locator("#source-doc .src-s.is-covered").count() > 0
    shot(page, "125-source-pdf")

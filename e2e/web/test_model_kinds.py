"""Every kind of card from a language model, in the draft review of "Automatisch erstellen".

A second server runs against the fake OpenAI-compatible model (fake_llm.py, the fixtures of
test_topic_feed.py). Asked for cards from a text, the server's schema names four kinds (basic,
cloze, multipleChoice, trueFalse, each with a `quote` of the text); the fake answers one card of
each kind, quoting a sentence of the text verbatim. The review shows each kind as what it becomes:
a badge ("Multiple Choice", "Wahr/Falsch", "Ergänzen"), a multiple-choice draft's right answer and
its wrong options ("Falsche Antworten"), a true/false draft's statement with "Wahr"/"Falsch" in a
select instead of the raw `true`/`false`; a basic draft as before. The source beside the list marks
the quoted sentences. Accepted, the drafts are cards of their kinds, with the right answer and the
wrong options (checked through the API). German and English, a dark phone, axe, and markup in a
model's text shown as text.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import api, shot, sign_in_storage, signup_via_api
from test_accessibility import _axe
from test_draft_editor import generate_from_text
from test_mobile import PHONE, assert_touch_targets
from test_topic_feed import fake_llm, model_server  # noqa: F401 (fixtures: the fake model and its server)

TEXT_DE = """# Die Zelle

Die Mitochondrien erzeugen in der Zelle den größten Teil der Energie.

Der Zellkern enthält die Erbinformation der Zelle.

Die Zellmembran grenzt die Zelle nach außen ab.

Ribosomen stellen in der Zelle die Proteine her.

Danach sahen wir uns die Bilder im Mikroskop noch lange gemeinsam an.
"""
QUOTED_DE = [
    "Die Mitochondrien erzeugen in der Zelle den größten Teil der Energie.",
    "Der Zellkern enthält die Erbinformation der Zelle.",
    "Die Zellmembran grenzt die Zelle nach außen ab.",
    "Ribosomen stellen in der Zelle die Proteine her.",
]
UNQUOTED_DE = "Danach sahen wir uns die Bilder im Mikroskop noch lange gemeinsam an."

TEXT_EN = """# The cell

Mitochondria produce most of the energy in the cell.

The nucleus holds the genetic information of the cell.

The membrane separates the cell from its surroundings.

Ribosomes build the proteins of the cell.
"""
QUOTED_EN = [
    "Mitochondria produce most of the energy in the cell.",
    "The nucleus holds the genetic information of the cell.",
    "The membrane separates the cell from its surroundings.",
    "Ribosomes build the proteins of the cell.",
]

KINDS = {"basic", "fillBlank", "multipleChoice", "trueFalse"}
DRAFTS_URL = re.compile(r".*/api/v1/stacks/[^/]+/drafts(\?.*)?$")


# --- helpers ------------------------------------------------------------------------------------


def signed_in(make_page, base: str, locale: str = "de-DE", **options):
    page = make_page(locale=locale, base_url=base, **options)
    account = signup_via_api(page, base_url=base)
    status, stack = api(page, "POST", "/stacks", {"name": "Zellbiologie", "color": "#059669"},
                        token=account["token"], base_url=base)
    assert status == 201, stack
    sign_in_storage(page, account)
    return page, account, stack


def drafts_by_kind(page: Page, account: dict, stack: dict, base: str) -> dict[str, dict]:
    """The pending drafts by card kind (one of each), each with its number `n` in the list."""
    status, drafts = api(page, "GET", f"/stacks/{stack['id']}/drafts", token=account["token"], base_url=base)
    assert status == 200, drafts
    assert all(d["kind"] == "model" for d in drafts), [d["kind"] for d in drafts]
    by_kind = {d["cardKind"]: {**d, "n": i + 1} for i, d in enumerate(drafts)}
    assert set(by_kind) == KINDS and len(drafts) == 4, [(d["cardKind"], d["question"]) for d in drafts]
    return by_kind


def item_of(page: Page, draft: dict):
    return page.locator(f".draft[data-id='{draft['id']}']")


def no_horizontal_overflow(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def generate(page: Page, stack: dict, text: str, *, english: bool = False) -> None:
    count = generate_from_text(page, stack, text, english=english)
    assert count == 4, count


# --- German, on a desktop -----------------------------------------------------------------------


def test_each_kind_is_shown_as_what_it_becomes_and_accepted_as_such(make_page, model_server, fake_llm):
    page, account, stack = signed_in(make_page, model_server)
    before = len(fake_llm.card_requests())
    generate(page, stack, TEXT_DE)

    # The server asked for every kind, each with a quote; the fake answered one card of each.
    request = fake_llm.card_requests()[before]
    items = request["response_format"]["json_schema"]["schema"]["properties"]["cards"]["items"]["anyOf"]
    assert {o["properties"]["kind"]["enum"][0] for o in items} == {"basic", "cloze", "multipleChoice", "trueFalse"}
    assert all("quote" in o["required"] for o in items)
    drafts = drafts_by_kind(page, account, stack, model_server)
    assert sorted(d["source"] for d in drafts.values()) == sorted(QUOTED_DE)

    # Multiple choice: badge, the question, the right answer labelled, the wrong ones listed.
    mc = drafts["multipleChoice"]
    n = mc["n"]
    item = item_of(page, mc)
    expect(item.locator(".pill-kind")).to_have_text("Multiple Choice")
    expect(item.locator(".pill-kind")).to_be_visible()
    expect(item.get_by_label(f"Vorschlag {n}: Vorderseite")).to_have_value(mc["question"])
    right = item.get_by_label(f"Vorschlag {n}: Richtige Antwort")
    expect(right).to_have_value(mc["answer"])
    expect(item.locator("label.draft-label")).to_have_text("Richtige Antwort")
    assert len(mc["choices"]) == 3 and mc["answer"] not in mc["choices"], mc["choices"]
    wrong = item.get_by_role("list", name="Falsche Antworten")
    expect(wrong).to_be_visible()
    expect(wrong.get_by_role("listitem")).to_have_text(mc["choices"])
    expect(item.locator("[data-swap]")).to_have_count(0)
    expect(item.locator("blockquote")).to_have_text(f"„{mc['source']}“")

    # True/false: the statement, "Wahr" in a select (not the raw "true"), the badge.
    tf = drafts["trueFalse"]
    n = tf["n"]
    item = item_of(page, tf)
    expect(item.locator(".pill-kind")).to_have_text("Wahr/Falsch")
    expect(item.get_by_label(f"Vorschlag {n}: Aussage")).to_have_value(tf["question"])
    truth = item.get_by_label(f"Vorschlag {n}: Die Aussage ist")
    assert truth.evaluate("el => el.tagName") == "SELECT"
    assert tf["answer"] == "true"
    expect(truth).to_have_value("true")
    assert truth.evaluate("el => el.selectedOptions[0].textContent.trim()") == "Wahr"
    assert truth.locator("option").all_inner_texts() == ["Wahr", "Falsch"]
    assert "true" not in item.inner_text()
    expect(item.get_by_text("Die Aussage ist", exact=True)).to_be_visible()

    # Fill in the blank, as before: the sentence with its gap, the word, "Ergänzen".
    fb = drafts["fillBlank"]
    item = item_of(page, fb)
    assert "_____" in fb["question"]
    expect(item.locator(".pill-kind")).to_have_text("Ergänzen")
    expect(item.locator(".pill-kind")).to_be_visible()
    expect(item.get_by_label(f"Vorschlag {fb['n']}: Vorderseite")).to_have_value(fb["question"])
    expect(item.get_by_label(f"Vorschlag {fb['n']}: Rückseite")).to_have_value(fb["answer"])

    # Basic: front and back, no badge, no wrong answers.
    basic = drafts["basic"]
    item = item_of(page, basic)
    expect(item.locator(".pill-kind")).to_be_hidden()
    expect(item.get_by_label(f"Vorschlag {basic['n']}: Rückseite")).to_have_value(basic["answer"])
    expect(item.locator(".draft-choices, select")).to_have_count(0)

    # The source beside the list marks the four quoted sentences, and only those.
    expect(page.get_by_role("region", name="Quelltext")).to_be_visible()
    marked = page.locator("#source-doc .src-s.is-covered")
    expect(marked).to_have_count(4)
    assert sorted(marked.all_inner_texts()) == sorted(QUOTED_DE)
    unquoted = page.locator("#source-doc .src-s", has_text=UNQUOTED_DE)
    expect(unquoted).not_to_have_class(re.compile(r"\bis-covered\b"))
    # A marked sentence leads to its draft.
    page.locator("#source-doc .src-s", has_text=tf["question"]).click()
    expect(item_of(page, tf).locator("[data-field=question]")).to_be_focused()
    shot(page, "130-model-kinds")

    result = _axe(page)
    assert result["blocking"] == [], result["blocking"]

    # Edits go through PATCH (question and answer only): the statement is false now, the
    # multiple-choice question reworded; its wrong options stay.
    item_of(page, tf).get_by_label(f"Vorschlag {tf['n']}: Die Aussage ist").select_option(label="Falsch")
    mc_question = "Welche Membran grenzt die Zelle nach außen ab?"
    item_of(page, mc).get_by_label(f"Vorschlag {mc['n']}: Vorderseite").fill(mc_question)
    expect(page.locator("#accept")).to_have_text("4 Karten übernehmen")
    page.locator("#accept").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"), timeout=30_000)

    status, body = api(page, "GET", f"/stacks/{stack['id']}/cards?perPage=100", token=account["token"],
                       base_url=model_server)
    assert status == 200, body
    cards = {c["kind"]: c for c in body["items"]}
    assert set(cards) == KINDS and body["total"] == 4, [(c["kind"], c["question"]) for c in body["items"]]
    assert cards["multipleChoice"]["question"] == mc_question
    assert cards["multipleChoice"]["answer"] == mc["answer"]
    assert sorted(cards["multipleChoice"]["choices"]) == sorted(mc["choices"])
    assert cards["trueFalse"]["question"] == tf["question"] and cards["trueFalse"]["answer"] == "false"
    assert cards["trueFalse"]["choices"] is None
    assert cards["fillBlank"]["question"] == fb["question"] and cards["fillBlank"]["answer"] == fb["answer"]
    assert (cards["basic"]["question"], cards["basic"]["answer"]) == (basic["question"], basic["answer"])
    # The stack page names the kinds too.
    expect(page.locator(".pill-kind", has_text="Multiple Choice")).to_be_visible()
    expect(page.locator(".pill-kind", has_text="Wahr/Falsch")).to_be_visible()


# --- English, on a dark phone -------------------------------------------------------------------


def test_english_on_a_dark_phone(make_page, model_server):
    page, account, stack = signed_in(make_page, model_server, locale="en-US", color_scheme="dark", **PHONE)
    # An English learner: the model is asked in English.
    status, body = api(page, "PATCH", "/me/settings", {"language": "en"}, token=account["token"],
                       base_url=model_server)
    assert status == 200, body
    generate(page, stack, TEXT_EN, english=True)
    drafts = drafts_by_kind(page, account, stack, model_server)
    assert sorted(d["source"] for d in drafts.values()) == sorted(QUOTED_EN)
    assert drafts["basic"]["question"].startswith("What "), drafts["basic"]["question"]

    mc = drafts["multipleChoice"]
    item = item_of(page, mc)
    expect(item.locator(".pill-kind")).to_have_text("Multiple choice")
    expect(item.get_by_label(f"Suggestion {mc['n']}: right answer")).to_have_value(mc["answer"])
    expect(item.locator("label.draft-label")).to_have_text("Right answer")
    expect(item.get_by_role("list", name="Wrong answers").get_by_role("listitem")).to_have_text(mc["choices"])

    tf = drafts["trueFalse"]
    item = item_of(page, tf)
    expect(item.locator(".pill-kind")).to_have_text("True/false")
    expect(item.get_by_label(f"Suggestion {tf['n']}: statement")).to_have_value(tf["question"])
    truth = item.get_by_label(f"Suggestion {tf['n']}: the statement is")
    expect(truth).to_have_value("true")
    assert truth.locator("option").all_inner_texts() == ["True", "False"]
    expect(item.get_by_text("The statement is", exact=True)).to_be_visible()

    fb = drafts["fillBlank"]
    expect(item_of(page, fb).locator(".pill-kind")).to_have_text("Fill in")
    expect(item_of(page, drafts["basic"]).locator(".pill-kind")).to_be_hidden()

    # Dark surfaces, nothing wider than the phone, every target 44 px.
    background = item_of(page, mc).evaluate("el => getComputedStyle(el).backgroundColor")
    assert sum(int(v) for v in re.findall(r"\d+", background)[:3]) < 150, background
    select_background = truth.evaluate("el => getComputedStyle(el).backgroundColor")
    assert sum(int(v) for v in re.findall(r"\d+", select_background)[:3]) < 150, select_background
    no_horizontal_overflow(page)
    assert_touch_targets(page)
    truth.scroll_into_view_if_needed()
    shot(page, "131-model-kinds-phone-dark")
    result = _axe(page)
    assert result["blocking"] == [], result["blocking"]

    # The source behind its toggle marks the quoted sentences.
    page.get_by_role("button", name="Source text").tap()
    marked = page.locator("#source-doc .src-s.is-covered")
    expect(marked).to_have_count(4)
    assert sorted(marked.all_inner_texts()) == sorted(QUOTED_EN)
    no_horizontal_overflow(page)

    # Unticked, a true/false draft is discarded; the rest become cards of their kinds.
    item.get_by_role("checkbox", name=f"Keep suggestion {tf['n']}").uncheck()
    expect(page.locator("#accept")).to_have_text("Add 3 cards")
    page.locator("#accept").tap()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"), timeout=30_000)
    status, body = api(page, "GET", f"/stacks/{stack['id']}/cards?perPage=100", token=account["token"],
                       base_url=model_server)
    assert status == 200, body
    cards = {c["kind"]: c for c in body["items"]}
    assert set(cards) == {"basic", "fillBlank", "multipleChoice"}, list(cards)
    assert cards["multipleChoice"]["answer"] == mc["answer"]
    assert sorted(cards["multipleChoice"]["choices"]) == sorted(mc["choices"])


# --- a model's text is text ---------------------------------------------------------------------


def test_markup_in_a_models_draft_is_shown_as_text(make_page, model_server):
    """A model's wrong options, statement and quote arrive as they are (the server screens them,
    but the page must not rely on it): markup in them is shown, never run."""
    page, _account, stack = signed_in(make_page, model_server)
    evil = '<img src=x onerror="window.__xss=1"><b>fett</b>'

    def tamper(route):
        response = route.fetch()
        drafts = response.json()
        for d in drafts:
            if d.get("cardKind") == "multipleChoice":
                d["choices"] = [*d["choices"][:2], evil]
                d["source"] = evil
            if d.get("cardKind") == "trueFalse":
                d["question"] = evil + " ist eine Aussage."
        route.fulfill(response=response, json=drafts)

    page.route(DRAFTS_URL, lambda route: tamper(route) if route.request.method == "GET" else route.continue_())
    generate(page, stack, TEXT_DE)
    mc_item = page.locator(".draft", has=page.locator(".draft-choices"))
    expect(mc_item.get_by_role("listitem").last).to_have_text(evil)
    expect(mc_item.locator("blockquote")).to_have_text(f"„{evil}“")
    tf_front = page.locator(".draft", has=page.locator("select")).locator("[data-field=question]")
    expect(tf_front).to_have_value(evil + " ist eine Aussage.")
    expect(page.locator(".draft img, .draft b")).to_have_count(0)
    assert page.evaluate("window.__xss") is None

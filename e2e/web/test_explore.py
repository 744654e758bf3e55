"""Explore, the public catalogue (issue 20): a stack published from its share dialog by keyboard
appears for others (its texts escaped, nothing runs), is searched, filtered, opened, copied and
reported; a private stack never appears; the starter decks are there from the first start."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from conftest import api, make_stack, shot, sign_in_storage, signup_via_api

EVIL = '<img src=x onerror="window.__pwned=1">'


def _publish_by_keyboard(page: Page, stack: dict) -> None:
    page.goto(f"/app/stacks/{stack['id']}")
    share = page.get_by_role("button", name="Teilen")
    share.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading", name="Im Katalog veröffentlichen")).to_be_visible()
    dialog.get_by_label("Kategorie").select_option("languages")
    dialog.get_by_label("Sprache der Karten").select_option("de")
    dialog.get_by_role("button", name="Veröffentlichen").focus()
    page.keyboard.press("Enter")
    expect(dialog.locator("#publish-status")).to_have_text("Der Stapel ist veröffentlicht.")
    expect(dialog.get_by_role("link", name="Im Katalog ansehen")).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)


def test_publish_browse_copy_and_report(make_page):
    tag = uuid.uuid4().hex[:8]
    owner_page = make_page()
    owner = signup_via_api(owner_page, name="Ada " + EVIL)
    stack = make_stack(owner_page, owner["token"], f"Latein {tag} {EVIL}", cards=4, colour="#7C3AED")
    secret = make_stack(owner_page, owner["token"], f"Geheim {tag}", cards=2)
    empty = make_stack(owner_page, owner["token"], f"Leer {tag}")
    sign_in_storage(owner_page, owner)

    # An empty stack cannot be published: the dialog says why.
    owner_page.goto(f"/app/stacks/{empty['id']}")
    owner_page.get_by_role("button", name="Teilen").click()
    owner_page.get_by_role("dialog").get_by_role("button", name="Veröffentlichen").click()
    expect(owner_page.locator("#publish-status")).to_contain_text("leerer Stapel")
    owner_page.keyboard.press("Escape")

    _publish_by_keyboard(owner_page, stack)

    learner_page = make_page()
    learner = signup_via_api(learner_page, name="Jonas")
    sign_in_storage(learner_page, learner)
    learner_page.goto("/app/home")
    learner_page.get_by_role("navigation", name="Hauptnavigation").get_by_role("link", name="Entdecken").click()
    expect(learner_page.get_by_role("heading", level=1)).to_have_text("Entdecken")
    # The starter decks are there, ours first.
    expect(learner_page.get_by_role("link", name="Europäische Hauptstädte")).to_be_visible()
    expect(learner_page.locator(".explore-card").first).to_contain_text("Von Smart Flashcards")

    search = learner_page.get_by_label("Stapel suchen")
    search.fill(f"latein {tag}")
    search.press("Enter")
    cards = learner_page.locator(".explore-card")
    expect(cards).to_have_count(1)
    expect(cards.get_by_role("heading")).to_have_text(f"Latein {tag} {EVIL}")
    expect(cards).to_contain_text("4 Karten · von Ada " + EVIL)
    expect(cards.locator(".explore-preview li")).to_have_text([f"Latein {tag} {EVIL} Frage {i}" for i in (1, 2, 3)])
    expect(learner_page).to_have_url(re.compile(r"/app/explore\?q=latein"))
    shot(learner_page, "explore")

    # Category pills filter; the private stack never appears.
    learner_page.get_by_role("button", name="Medizin").click()
    expect(learner_page.get_by_text("Kein Stapel passt zu deiner Suche.")).to_be_visible()
    learner_page.get_by_role("button", name="Sprachen", exact=True).click()
    expect(cards).to_have_count(1)
    expect(learner_page.get_by_role("button", name="Sprachen", exact=True)).to_have_attribute("aria-pressed", "true")
    search.fill(f"geheim {tag}")
    search.press("Enter")
    learner_page.get_by_role("button", name="Alle", exact=True).click()
    expect(learner_page.get_by_text("Kein Stapel passt zu deiner Suche.")).to_be_visible()
    assert learner_page.evaluate("window.__pwned") is None

    # Open, page through the cards, copy: the learner's own stack.
    search.fill(f"latein {tag}")
    search.press("Enter")
    cards.get_by_role("link").click()
    expect(learner_page.get_by_role("heading", level=1)).to_have_text(f"Latein {tag} {EVIL}")
    expect(learner_page.locator(".shared-question")).to_have_count(4)
    learner_page.get_by_role("button", name="In meine Bibliothek kopieren").click()
    expect(learner_page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}$"))
    expect(learner_page.locator(".cards-table tbody tr")).to_have_count(4)
    _, stacks = api(learner_page, "GET", "/stacks", token=learner["token"])
    assert [(s["name"], s["cardCount"], s["dueCount"]) for s in stacks] == [(f"Latein {tag} {EVIL}", 4, 4)]

    # Report it by keyboard: gone for the learner at once, still there for the owner.
    learner_page.go_back()
    expect(learner_page.get_by_role("heading", level=1)).to_have_text(f"Latein {tag} {EVIL}")
    learner_page.get_by_role("button", name="Melden", exact=True).click()
    report = learner_page.get_by_role("dialog")
    expect(report.get_by_role("radio").first).to_be_focused()
    report.get_by_label("Werbung oder Unsinn").check()
    report.get_by_label("Was stimmt nicht? (optional)").fill("Test " + EVIL)
    report.get_by_role("button", name="Melden", exact=True).press("Enter")
    expect(learner_page.get_by_text("Danke! Der Stapel ist für dich ausgeblendet und wird geprüft.")).to_be_visible()
    expect(learner_page).to_have_url(re.compile(r"/app/explore"))
    _, found = api(learner_page, "GET", f"/explore?q=latein%20{tag}", token=learner["token"])
    assert found["total"] == 0
    _, mine = api(owner_page, "GET", f"/explore?q=latein%20{tag}", token=owner["token"])
    assert mine["total"] == 1 and mine["items"][0]["mine"] is True
    _, _secret = api(owner_page, "GET", f"/explore?q=geheim%20{tag}", token=owner["token"])
    assert _secret["total"] == 0

    # Taken back: the entry page says so.
    status, entry = api(owner_page, "GET", f"/stacks/{stack['id']}/publication", token=owner["token"])
    assert status == 200
    status, _ = api(owner_page, "DELETE", f"/stacks/{stack['id']}/publication", token=owner["token"])
    assert status == 204
    other = make_page()
    sign_in_storage(other, signup_via_api(other, name="Cleo"))
    other.goto(entry["path"])
    expect(other.get_by_role("heading", level=1)).to_have_text("Diesen Stapel gibt es im Katalog nicht (mehr)")
    assert secret["id"] != stack["id"]


def test_explore_in_english_with_rich_starter_deck(make_page):
    page = make_page(locale="en-US")
    sign_in_storage(page, signup_via_api(page, name="Sam"))
    page.goto("/app/explore?language=en&category=science")
    expect(page.get_by_role("heading", level=1)).to_have_text("Explore")
    expect(page.locator("#explore-language")).to_have_value("en")
    expect(page.get_by_role("button", name="Science")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("link", name="Physics Formulas").click()
    expect(page.get_by_text("By Smart Flashcards")).to_be_visible()
    # The formulas are typeset (MathML from KaTeX), the rest is text.
    expect(page.locator(".shared-answer math").first).to_be_attached()
    expect(page.get_by_role("button", name="Copy to my library")).to_be_visible()

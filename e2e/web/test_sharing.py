"""Sharing a stack by link (issue 20): the owner makes, copies and revokes the link by keyboard;
anyone with it sees the cards as text (no script from a card runs), a learner copies the stack
into their library, and a revoked link says so at once."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import api, shot, sign_in_storage, signup_via_api

EVIL = '<img src=x onerror="window.__pwned=1">'


def _shared_stack(page: Page, token: str) -> dict:
    status, stack = api(page, "POST", "/stacks", {"name": "Latein " + EVIL, "color": "#7C3AED"}, token=token)
    assert status == 201
    for card in ({"question": "amo", "answer": "ich liebe"}, {"question": EVIL, "answer": "**sein** $x^2$",
                                                              "format": "markdown"}):
        status, _ = api(page, "POST", f"/stacks/{stack['id']}/cards", card, token=token)
        assert status == 201
    return stack


def test_share_view_copy_and_revoke(make_page):
    owner_page = make_page()
    owner = signup_via_api(owner_page)
    stack = _shared_stack(owner_page, owner["token"])
    sign_in_storage(owner_page, owner)
    owner_page.goto(f"/app/stacks/{stack['id']}")
    share = owner_page.get_by_role("button", name="Teilen")
    share.focus()
    owner_page.keyboard.press("Enter")
    dialog = owner_page.get_by_role("dialog")
    expect(dialog.get_by_role("heading", level=2)).to_contain_text("teilen")
    expect(dialog.get_by_role("button", name="Link erstellen")).to_be_focused()
    owner_page.keyboard.press("Enter")
    link_input = dialog.get_by_label("Link zum Stapel")
    expect(link_input).to_have_value(re.compile(r"/app/shared/[A-Za-z0-9_-]{43}$"))
    expect(dialog.locator("#share-status")).to_have_text("Der Link ist erstellt.")
    url = link_input.input_value()
    dialog.get_by_role("button", name="Kopieren").click()
    expect(dialog.locator("#share-status")).to_have_text(
        re.compile("Der Link ist (kopiert|markiert: Kopiere ihn mit Strg\\+C)."))
    shot(owner_page, "share-dialog")
    owner_page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(share).to_be_focused()

    # Anyone with the link, without an account: the cards, as text; nothing runs.
    visitor = make_page()
    visitor.goto(url)
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Latein " + EVIL)
    expect(visitor.locator(".shared-question")).to_have_text(["amo", EVIL])
    expect(visitor.locator(".shared-answer strong")).to_have_text("sein")
    expect(visitor.get_by_role("link", name="In meine Bibliothek kopieren")).to_be_visible()
    assert visitor.evaluate("window.__pwned") is None
    assert visitor.locator("main img").count() == 0

    # A learner copies it: their own stack, new progress.
    learner_page = make_page()
    learner = signup_via_api(learner_page, name="Jonas")
    sign_in_storage(learner_page, learner)
    learner_page.goto(url)
    learner_page.get_by_role("button", name="In meine Bibliothek kopieren").click()
    expect(learner_page.get_by_role("heading", level=1)).to_have_text("Latein " + EVIL)
    expect(learner_page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}$"))
    expect(learner_page.locator(".cards-table tbody tr")).to_have_count(2)
    _, stacks = api(learner_page, "GET", "/stacks", token=learner["token"])
    assert [(s["name"], s["cardCount"], s["dueCount"]) for s in stacks] == [("Latein " + EVIL, 2, 2)]

    # Revoked: the link says so at once.
    owner_page.get_by_role("button", name="Teilen").click()
    owner_page.get_by_role("button", name="Link widerrufen").click()
    expect(owner_page.get_by_role("dialog").locator("#share-status")).to_have_text("Der Link ist widerrufen.")
    expect(owner_page.get_by_role("button", name="Link erstellen")).to_be_focused()
    visitor.reload()
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Dieser Link gilt nicht (mehr)")
    expect(visitor.get_by_role("alert")).to_contain_text("nach einem neuen")
    shot(visitor, "shared-revoked")


def test_shared_stack_in_english(make_page):
    owner_page = make_page()
    owner = signup_via_api(owner_page)
    stack = _shared_stack(owner_page, owner["token"])
    status, link = api(owner_page, "POST", f"/stacks/{stack['id']}/share", token=owner["token"])
    assert status == 201
    visitor = make_page(locale="en-US")
    visitor.goto(link["path"])
    expect(visitor.get_by_text("A shared stack with 2 cards.")).to_be_visible()
    expect(visitor.get_by_text("Sign in or start as a guest to copy the stack.")).to_be_visible()
    visitor.goto("/app/shared/" + "A" * 43)
    expect(visitor.get_by_role("heading", level=1)).to_have_text("This link does not work (any more)")

"""The stack switch "Hinweise anzeigen": keyboard operable, saved with the stack, no hint button
while learning a stack with hints off, hints editable in the card form, and generated hints for
the cards without one once hints are switched on."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from conftest import api, shot, sign_in_storage, signup_via_api


def wait_for_hint(page: Page, token: str, stack_id: str, card_id: str, timeout: float = 20) -> str:
    """Polls the card until the server's hint job has written a hint."""
    deadline = time.monotonic() + timeout
    while True:
        status, card = api(page, "GET", f"/stacks/{stack_id}/cards/{card_id}", token=token)
        assert status == 200, card
        if card["hint"] or time.monotonic() > deadline:
            return card["hint"]
        page.wait_for_timeout(200)


def test_hints_switch(page: Page):
    account = signup_via_api(page)
    token = account["token"]
    sign_in_storage(page, account)

    # Create a stack with hints switched off, by keyboard.
    page.goto("/app/stacks/new")
    page.get_by_label("Name *").fill("Hauptstädte")
    switch = page.get_by_role("switch", name="Hinweise anzeigen")
    expect(switch).to_be_checked()
    expect(switch).to_have_accessible_description(re.compile("Hinweis"))
    switch.focus()
    page.keyboard.press("Space")
    expect(switch).not_to_be_checked()
    shot(page, "80-stack-hints-off")
    page.get_by_role("button", name="Speichern").click()
    expect(page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}$"))  # the new stack opens
    status, stacks = api(page, "GET", "/stacks", token=token)
    stack = next(s for s in stacks if s["name"] == "Hauptstädte")
    assert stack["hintsEnabled"] is False
    stack_id = stack["id"]

    status, hinted = api(page, "POST", f"/stacks/{stack_id}/cards",
                         {"question": "Hauptstadt von Frankreich?", "answer": "Paris", "hint": "Stadt der Liebe"},
                         token=token)
    assert status == 201, hinted
    status, blank = api(page, "POST", f"/stacks/{stack_id}/cards",
                        {"question": "Hauptstadt von Italien?", "answer": "Rom"}, token=token)
    assert status == 201, blank

    # Learning: no hint button although the card has a hint.
    page.goto(f"/app/stacks/{stack_id}/learn")
    expect(page.locator("flip-card [data-question]")).to_have_text("Hauptstadt von Frankreich?")
    expect(page.get_by_role("button", name="Hinweis anzeigen")).to_be_hidden()

    # The card form still shows and edits the hint, and says hints are off.
    page.goto(f"/app/stacks/{stack_id}/cards/{hinted['id']}")
    hint = page.get_by_label("Hinweis (optional)")
    expect(hint).to_have_value("Stadt der Liebe")
    expect(page.locator("[data-hints-off]")).to_be_visible()
    hint.fill("Stadt an der Seine")
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_text("Karteikarte gespeichert")).to_be_visible()
    status, card = api(page, "GET", f"/stacks/{stack_id}/cards/{hinted['id']}", token=token)
    assert card["hint"] == "Stadt an der Seine"
    # Hints off: nothing was generated for the other card.
    assert wait_for_hint(page, token, stack_id, blank["id"], timeout=0) is None

    # Switch hints on in the edit form, by keyboard again.
    page.goto(f"/app/stacks/{stack_id}/edit")
    switch = page.get_by_role("switch", name="Hinweise anzeigen")
    expect(switch).not_to_be_checked()
    switch.focus()
    page.keyboard.press("Space")
    expect(switch).to_be_checked()
    page.get_by_role("button", name="Speichern").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack_id}$"))
    status, stack = api(page, "GET", f"/stacks/{stack_id}", token=token)
    assert stack["hintsEnabled"] is True
    # The card without a hint gets one from the hint job; the user's hint stays.
    generated = wait_for_hint(page, token, stack_id, blank["id"])
    assert generated and "Rom" not in generated
    status, card = api(page, "GET", f"/stacks/{stack_id}/cards/{hinted['id']}", token=token)
    assert card["hint"] == "Stadt an der Seine"

    # Learning shows the hint button again, and the hint on request.
    page.goto(f"/app/stacks/{stack_id}/learn")
    expect(page.locator("flip-card [data-question]")).to_have_text("Hauptstadt von Frankreich?")
    button = page.get_by_role("button", name="Hinweis anzeigen")
    expect(button).to_be_visible()
    button.click()
    expect(page.locator("flip-card [data-hint-text]")).to_have_text("Stadt an der Seine")
    shot(page, "81-learn-hint")


def test_hints_switch_english(make_page):
    page = make_page(locale="en-US")
    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.goto("/app/stacks/new")
    switch = page.get_by_role("switch", name="Show hints")
    expect(switch).to_be_checked()
    # The whole row is the label: a click on its text toggles the switch.
    page.locator("#stack-hints-help").click()
    expect(switch).not_to_be_checked()

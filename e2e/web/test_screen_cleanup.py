"""The router's mount/clean-up contract, seen from the learner: a screen's key handlers, listeners
and dialogs end when it is left, also after a retry. Left and opened again (or retried after an
error), a study session or the feed answers one key press with one rating, never two."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import api, fail_once, make_stack, sign_in_storage, signup_via_api


def count_ratings(page: Page) -> list:
    """The rating POSTs the page sends from now on."""
    sent = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" and "/study/rate" in r.url else None)
    return sent


def leave_and_return(page: Page, stack: dict) -> None:
    """Leaves the page by its breadcrumb (in-app navigation) and comes back by the history."""
    page.get_by_role("navigation", name="Breadcrumb").get_by_role("link", name=stack["name"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(stack["name"])
    page.go_back()


def test_a_session_left_and_opened_again_rates_once_per_key(page: Page):
    account = signup_via_api(page)
    stack = make_stack(page, account["token"], "Aufräumen", cards=3)
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/learn?size=all")
    expect(page.locator("#position")).to_have_text("Karte 1 von 3")
    for _ in range(2):
        leave_and_return(page, stack)
        expect(page.locator("#position")).to_have_text("Karte 1 von 3")
    sent = count_ratings(page)
    page.keyboard.press("Space")
    expect(page.locator("#ratings")).to_be_visible()
    page.keyboard.press("4")  # "Einfach": the card does not come again in this session
    expect(page.locator("#position")).to_have_text("Karte 2 von 3")
    page.wait_for_timeout(300)  # a second (stale) handler would have sent its rating by now
    assert len(sent) == 1
    expect(page.locator("#counter")).to_contain_text("1 Wiederholung")


def test_a_session_retried_after_an_error_has_one_key_handler(page: Page):
    account = signup_via_api(page)
    stack = make_stack(page, account["token"], "Wiederholt", cards=3)
    sign_in_storage(page, account)
    failing = fail_once(page, re.compile(rf".*/api/v1/stacks/{stack['id']}$"), method="GET")
    page.goto(f"/app/stacks/{stack['id']}/learn?size=all")
    page.get_by_role("button", name="Erneut versuchen").click()
    assert not failing["left"]
    expect(page.locator("#position")).to_have_text("Karte 1 von 3")
    # The undo after a rating, then leaving: the retried session's handler ends with it.
    sent = count_ratings(page)
    page.keyboard.press("Space")
    page.keyboard.press("4")
    expect(page.locator("#position")).to_have_text("Karte 2 von 3")
    leave_and_return(page, stack)
    expect(page.locator("#position")).to_have_text("Karte 1 von 2")
    page.keyboard.press("Space")
    expect(page.locator("#ratings")).to_be_visible()
    page.keyboard.press("4")
    page.wait_for_timeout(300)
    assert len(sent) == 2


def test_leaving_a_finished_session_closes_its_dialog(page: Page):
    account = signup_via_api(page)
    stack = make_stack(page, account["token"], "Fertig", cards=1)
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/learn?size=all")
    expect(page.locator("#position")).to_have_text("Karte 1 von 1")
    page.keyboard.press("Space")
    page.keyboard.press("4")
    expect(page.locator("#done")).to_be_visible()
    page.get_by_role("dialog").get_by_role("link", name="Zurück zum Stapel").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(stack["name"])
    expect(page.locator("dialog[open]")).to_have_count(0)
    # Back in the session: nothing left to rate, the keys rate nothing.
    sent = count_ratings(page)
    page.go_back()
    expect(page.locator("#done")).to_be_visible()
    page.keyboard.press("Escape")
    page.keyboard.press("Space")
    page.keyboard.press("1")
    page.wait_for_timeout(300)
    assert sent == []


def test_the_feed_left_and_opened_again_rates_once_per_key(page: Page):
    account = signup_via_api(page)
    stack = make_stack(page, account["token"], "Wischen", cards=3)
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/feed?size=all")
    expect(page.locator("#feed-card")).to_be_focused()
    leave_and_return(page, stack)
    expect(page.locator("#feed-question")).to_have_text("Wischen Frage 1")
    sent = count_ratings(page)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#feed-question")).to_have_text("Wischen Frage 2")
    page.wait_for_timeout(300)
    assert len(sent) == 1


def test_a_dialog_goes_with_its_answer_and_leaves_nothing_behind(page: Page):
    """<modal-dialog>: Escape and "Abbrechen" close the account's delete dialog without a request,
    remove it from the page and give the focus back; a wrong password keeps it open."""
    account = signup_via_api(page)
    sign_in_storage(page, account)
    deletes = []
    page.on("request", lambda r: deletes.append(r.url) if r.method == "DELETE" else None)
    page.goto("/app/settings")
    opener = page.get_by_role("button", name="Konto löschen")
    for close in ("Escape", "Abbrechen"):
        opener.click()
        dialog = page.get_by_role("dialog", name="Konto endgültig löschen?")
        expect(dialog).to_be_visible()
        expect(dialog.get_by_label("Passwort")).to_be_focused()
        if close == "Escape":
            page.keyboard.press("Escape")
        else:
            dialog.get_by_role("button", name="Abbrechen").click()
        expect(page.locator("modal-dialog, dialog")).to_have_count(0)
        expect(opener).to_be_focused()
    assert deletes == []

    opener.click()
    dialog = page.get_by_role("dialog", name="Konto endgültig löschen?")
    dialog.get_by_label("Passwort").fill("falsch-falsch")
    dialog.get_by_role("button", name="Konto löschen").click()
    expect(dialog.get_by_text("Das Passwort stimmt nicht")).to_be_visible()
    expect(page.locator("modal-dialog")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator("modal-dialog")).to_have_count(0)
    status, _ = api(page, "GET", "/me", token=account["token"])
    assert status == 200

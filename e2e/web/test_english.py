"""English: chosen from the browser's preference, switchable, remembered; Intl formatting."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import PASSWORD, api, shot, sign_in_storage, signup_via_api, unique_mail


def test_english_browser_gets_english(make_page):
    page = make_page(locale="en-US")
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Learning, reimagined.")
    assert page.evaluate("document.documentElement.lang") == "en"
    shot(page, "40-en-landing")
    page.get_by_role("link", name="Get started").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Create your account")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("Enter your name")).to_be_visible()
    page.get_by_label("Name").fill("Alex Example")
    page.get_by_label("Email address").fill(unique_mail())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    # The onboarding first (skipped), then home; the library is in the header's navigation.
    expect(page.get_by_role("heading", level=1)).to_have_text("Learning that lasts")
    page.get_by_role("button", name="Skip").click()
    expect(page).to_have_url(re.compile(r"/app/home$"))
    page.get_by_role("navigation", name="Main navigation").get_by_role("link", name="Stacks").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your stacks")
    expect(page.get_by_text("Create your first stack")).to_be_visible()

    page.get_by_role("link", name="Create", exact=True).click()
    page.get_by_label("Name *").fill("Vocabulary")
    page.get_by_role("radio", name=re.compile(r"^Classic")).check()
    page.get_by_role("button", name="Save").click()
    # The new stack opens, its next steps in English.
    expect(page.get_by_role("heading", level=1)).to_have_text("Vocabulary")
    expect(page.locator("#next-steps").get_by_role("link", name="Add cards")).to_be_visible()
    expect(page.locator("#next-steps").get_by_role("link", name="Create automatically")).to_be_visible()
    page.get_by_role("link", name="Create card").first.click()
    page.get_by_label("Front *").fill("la mesa")
    page.get_by_label("Back *").fill("the table")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Flashcard saved")).to_be_visible()
    page.get_by_role("link", name="View stack").click()
    expect(page.get_by_text("1–1 of 1")).to_be_visible()
    shot(page, "41-en-stack")

    page.get_by_role("link", name="Learn now").click()
    page.get_by_role("button", name="Let’s go").click()
    expect(page.locator("flip-card [data-question]")).to_have_text("la mesa")
    page.keyboard.press("Enter")
    buttons = page.locator("#ratings button")
    expect(buttons.nth(0)).to_contain_text("Hard (1 minute)")
    expect(buttons.nth(1)).to_contain_text("Medium (2 minutes)")
    expect(buttons.nth(2)).to_contain_text("Easy (10 minutes)")
    page.wait_for_timeout(600)
    shot(page, "42-en-learn")
    page.keyboard.press("1")
    expect(page.locator("#counter")).to_have_text("1 card, 1 review")


def test_language_switch_is_remembered(page: Page):
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": "Mathe", "color": "#059669"}, token=account["token"])
    for i in range(1, 4):
        api(page, "POST", f"/stacks/{stack['id']}/cards", {"question": f"{i} + {i}", "answer": str(2 * i)},
            token=account["token"])
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    expect(page.get_by_role("heading", level=1)).to_have_text("Deine Stapel")
    page.get_by_role("button", name="Sprache wechseln: English").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your stacks")
    expect(page.locator("a.stack-card")).to_contain_text("3 cards")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your stacks")
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Learning, reimagined.")
    page.get_by_role("button", name="Switch language: Deutsch").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lernen neu gedacht.")
    page.goto("/app/stacks")
    expect(page.get_by_role("heading", level=1)).to_have_text("Deine Stapel")


def test_dates_follow_locale_and_time_zone(make_page):
    page = make_page(locale="en-US", timezone_id="America/New_York")
    account = signup_via_api(page, tz="America/New_York")
    status, stack = api(page, "POST", "/stacks", {"name": "Dates", "color": "#2563EB"}, token=account["token"])
    status, card = api(page, "POST", f"/stacks/{stack['id']}/cards", {"question": "Q", "answer": "A"},
                       token=account["token"])
    # Rate it so its due date lies in the future and the table shows a date, not "due".
    api(page, "POST", f"/stacks/{stack['id']}/study/rate", {"cardId": card["id"], "rating": "easy"},
        token=account["token"])
    status, card = api(page, "GET", f"/stacks/{stack['id']}/cards/{card['id']}", token=account["token"])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}")
    expected = page.evaluate(
        "iso => new Intl.DateTimeFormat('en-US', {dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/New_York'}).format(new Date(iso))",
        card["dueAt"])
    expect(page.locator(".cards-table td.col-due")).to_have_text(expected)
    assert re.search(r"(AM|PM)$", expected)

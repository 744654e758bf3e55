"""A phone-sized viewport with touch: one-column grid, tap to reveal, 44 px touch targets."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import PASSWORD, shot, unique_mail

PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)

# Every interactive element that is visible must be at least 44 × 44 CSS pixels (WCAG 2.5.5),
# except links inside running text.
SMALL_TARGETS = """
() => [...document.querySelectorAll('button, a, input, textarea, select, [role=button]')]
  .filter((el) => el.offsetParent !== null && !el.closest('p') && !el.classList.contains('skip-link'))
  .filter((el) => !(el.type === 'radio' || el.type === 'checkbox') || el.closest('.swatch, .segment'))
  .map((el) => ({el, r: (el.type === 'radio' ? el.closest('.swatch, .segment') : el).getBoundingClientRect()}))
  .filter(({r}) => r.width > 0 && (r.height < 43.5 || r.width < 43.5))
  .map(({el, r}) => `${el.tagName} ${el.textContent.trim().slice(0, 30)} ${Math.round(r.width)}x${Math.round(r.height)}`)
"""


def assert_touch_targets(page: Page) -> None:
    small = page.evaluate(SMALL_TARGETS)
    assert small == [], f"touch targets under 44 px on {page.url}: {small}"


def test_phone_flow(make_page):
    page = make_page(**PHONE)
    page.goto("/")
    shot(page, "30-phone-landing")
    assert_touch_targets(page)
    page.get_by_role("link", name="Jetzt loslegen").tap()
    page.get_by_label("Name").fill("Jonas")
    page.get_by_label("E-Mail-Adresse").fill(unique_mail())
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Registrieren").tap()
    # The onboarding first (skipped), then home; the library is in the header's navigation.
    page.get_by_role("button", name="Überspringen").tap()
    expect(page).to_have_url(re.compile(r"/app/home$"))
    assert_touch_targets(page)
    page.get_by_role("navigation", name="Hauptnavigation").get_by_role("link", name="Stapel").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deine Stapel")
    assert_touch_targets(page)

    for name, colour in (("Spanisch", "#DC2626"), ("Geschichte", "#7C3AED")):
        page.get_by_role("link", name="Erstellen").tap()
        page.get_by_label("Name *").fill(name)
        page.get_by_role("radio", name=f"Farbe {colour}").check()
        page.get_by_role("radio", name=re.compile(r"^Klassisch")).check()
        if name == "Spanisch":
            shot(page, "31-phone-stack-create")
            assert_touch_targets(page)
        page.get_by_role("button", name="Speichern").tap()
        # The new stack opens with its next steps; Back is the library (the form was replaced).
        expect(page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}$"))
        expect(page.locator("#next-steps").get_by_role("link", name="Karten hinzufügen")).to_be_visible()
        if name == "Spanisch":
            shot(page, "31b-phone-new-stack")
            assert_touch_targets(page)
        page.go_back()
        expect(page).to_have_url(re.compile(r"/app/stacks$"))
        expect(page.locator("a.stack-card", has_text=name)).to_be_visible()

    # One column on a phone: both cards share the same left edge.
    boxes = [c.bounding_box() for c in page.locator("a.stack-card").all()]
    assert len(boxes) == 2 and boxes[0]["x"] == boxes[1]["x"] and boxes[1]["y"] > boxes[0]["y"]
    assert boxes[0]["width"] > 300
    shot(page, "32-phone-dashboard")

    page.locator("a.stack-card", has_text="Spanisch").tap()
    page.get_by_role("link", name="Karte erstellen").first.tap()
    page.get_by_label("Vorderseite *").fill("el perro")
    page.get_by_label("Rückseite *").fill("der Hund")
    page.get_by_role("button", name="Speichern").tap()
    expect(page.get_by_text("Karteikarte gespeichert")).to_be_visible()
    shot(page, "33-phone-card-saved")
    page.get_by_role("link", name="Stapel ansehen").tap()
    expect(page.locator(".cards-table tbody tr")).to_have_count(1)
    # Phones show each card as a block: front, back and due date.
    row = page.locator(".cards-table tbody tr")
    expect(row.get_by_text("el perro", exact=True)).to_be_visible()
    expect(row.get_by_text("der Hund", exact=True)).to_be_visible()
    expect(row.locator(".col-due")).to_have_text("fällig")
    shot(page, "34-phone-stack")
    assert_touch_targets(page)

    page.get_by_role("link", name="Jetzt lernen").tap()
    page.get_by_role("button", name="Los geht’s").tap()
    expect(page.locator("flip-card [data-question]")).to_have_text("el perro")
    shot(page, "35-phone-learn-question")
    page.locator("flip-card").tap()  # tap the card itself to reveal
    expect(page.locator("flip-card [data-answer]")).to_have_text("der Hund")
    expect(page.locator("#ratings")).to_be_visible()
    page.wait_for_timeout(600)
    shot(page, "36-phone-learn-answer")
    assert_touch_targets(page)
    page.get_by_role("button", name=re.compile(r"^Einfach \(10 Minuten\)")).tap()
    # The only card comes straight back (due in 10 minutes, before the end of the day).
    expect(page.locator("#counter")).to_have_text("1 Karte, 1 Wiederholung")
    expect(page.locator("flip-card [data-question]")).to_have_text("el perro")
    expect(page.locator("#ratings")).to_be_hidden()


def test_grid_columns_follow_the_screen_width(page: Page):
    from conftest import api, sign_in_storage, signup_via_api

    account = signup_via_api(page)
    for i in range(5):
        api(page, "POST", "/stacks", {"name": f"Stapel {i + 1}", "color": "#059669"}, token=account["token"])
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    expect(page.locator("a.stack-card")).to_have_count(5)
    for width, columns in ((390, 1), (800, 2), (1280, 4)):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(50)
        xs = {round(c.bounding_box()["x"]) for c in page.locator("a.stack-card").all()}
        assert len(xs) == columns, (width, xs)
        if width == 800:
            shot(page, "37-tablet-dashboard")

"""Issue 16, "Review controls and session polish": the FSRS settings of a stack (daily limits,
target retention) saved and read back, the warning before a stack changes its learning method,
the address bar and Back after each finishing action, the stack page on a 375 × 667 phone, the
bookmark filter of the card list, and the German wording."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import PASSWORD, api, shot, sign_in_storage, signup_via_api, unique_mail
from test_mobile import assert_touch_targets

PHONE = dict(viewport={"width": 375, "height": 667}, device_scale_factor=2, is_mobile=True, has_touch=True)

NO_OVERFLOW = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def stack_with_cards(page: Page, token: str, name: str = "Spanisch", n: int = 3, **settings) -> tuple[dict, list]:
    status, stack = api(page, "POST", "/stacks", {"name": name, "color": "#2563EB", **settings}, token=token)
    assert status == 201, stack
    cards = []
    for i in range(n):
        status, card = api(page, "POST", f"/stacks/{stack['id']}/cards",
                           {"question": f"Frage {i + 1}", "answer": f"Antwort {i + 1}"}, token=token)
        assert status == 201, card
        cards.append(card)
    return stack, cards


def get_stack(page: Page, token: str, stack_id: str) -> dict:
    status, stack = api(page, "GET", f"/stacks/{stack_id}", token=token)
    assert status == 200, stack
    return stack


# 1. Stack settings ------------------------------------------------------------------------------

def test_fsrs_settings_are_validated_saved_and_read_back(page: Page):
    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.goto("/app/stacks/new")
    page.get_by_label("Name *").fill("Latein")
    expect(page.get_by_role("radio", name=re.compile(r"^FSRS"))).to_be_checked()
    new_cards = page.get_by_label("Neue Karten pro Tag")
    reviews = page.get_by_label("Wiederholungen pro Tag")
    retention = page.get_by_label("Erinnerungsziel in %")
    # A new stack starts with the server's defaults.
    expect(new_cards).to_have_value("20")
    expect(reviews).to_have_value("200")
    expect(retention).to_have_value("90")
    expect(page.get_by_text("Wie sicher du dich an eine Karte erinnern sollst, wenn sie wieder drankommt. "
                            "Höher = öfter wiederholen.")).to_be_visible()

    # Out of range: a German message under each field, nothing is sent.
    new_cards.fill("10000")
    reviews.fill("0")
    retention.fill("60")
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_text("Gib eine ganze Zahl von 0 bis 9999 ein")).to_be_visible()
    expect(page.get_by_text("Gib eine ganze Zahl von 1 bis 99999 ein")).to_be_visible()
    expect(page.get_by_text("Gib eine ganze Zahl von 70 bis 99 ein")).to_be_visible()
    expect(page.locator("#form-error")).to_have_text("Bitte prüfe die markierten Einstellungen.")
    for field in (new_cards, reviews, retention):
        expect(field).to_have_attribute("aria-invalid", "true")
    expect(new_cards).to_be_focused()
    shot(page, "90-stack-settings-invalid")
    status, stacks = api(page, "GET", "/stacks", token=account["token"])
    assert stacks == []

    new_cards.fill("15")
    reviews.fill("150")
    retention.fill("85")
    page.get_by_role("button", name="Speichern").click()
    expect(page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}$"))  # the new stack opens
    status, stacks = api(page, "GET", "/stacks", token=account["token"])
    (stack,) = stacks
    assert (stack["scheduler"], stack["newCardsPerDay"], stack["reviewsPerDay"]) == ("fsrs", 15, 150)
    assert abs(stack["desiredRetention"] - 0.85) < 1e-9

    # The edit form reads them back; a change of one sends only that one.
    page.goto(f"/app/stacks/{stack['id']}/edit")
    expect(page.get_by_label("Neue Karten pro Tag")).to_have_value("15")
    expect(page.get_by_label("Wiederholungen pro Tag")).to_have_value("150")
    expect(page.get_by_label("Erinnerungsziel in %")).to_have_value("85")
    page.get_by_label("Erinnerungsziel in %").fill("95")
    page.get_by_label("Neue Karten pro Tag").fill("0")  # 0 is allowed: no new cards
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Latein")
    stack = get_stack(page, account["token"], stack["id"])
    assert (stack["newCardsPerDay"], stack["reviewsPerDay"]) == (0, 150)
    assert abs(stack["desiredRetention"] - 0.95) < 1e-9


def test_ladder_stacks_show_what_they_do_instead_of_limits(page: Page):
    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.goto("/app/stacks/new")
    page.get_by_label("Name *").fill("Klassiker")
    ladder_note = page.get_by_text("Bei „Klassisch“ gibt es keine Tageslimits und kein Erinnerungsziel")
    expect(ladder_note).to_be_hidden()
    page.get_by_role("radio", name=re.compile(r"^Klassisch")).check()
    # The limits and the retention are FSRS settings: hidden for the ladder, which says why.
    expect(page.get_by_label("Neue Karten pro Tag")).to_be_hidden()
    expect(page.get_by_label("Erinnerungsziel in %")).to_be_hidden()
    expect(ladder_note).to_be_visible()
    shot(page, "91-stack-settings-ladder")
    # A hidden field's invalid value does not block saving.
    page.get_by_role("radio", name=re.compile(r"^FSRS")).check()
    page.get_by_label("Neue Karten pro Tag").fill("-3")
    page.get_by_role("radio", name=re.compile(r"^Klassisch")).check()
    page.get_by_role("button", name="Speichern").click()
    expect(page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}$"))  # the new stack opens
    status, (stack,) = api(page, "GET", "/stacks", token=account["token"])
    assert stack["scheduler"] == "ladder" and stack["newCardsPerDay"] == 20

    page.goto(f"/app/stacks/{stack['id']}/edit")
    expect(ladder_note).to_be_visible()
    expect(page.get_by_label("Wiederholungen pro Tag")).to_be_hidden()


def test_english_settings_labels(make_page):
    page = make_page(locale="en-US")
    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.goto("/app/stacks/new")
    expect(page.get_by_label("New cards per day")).to_have_value("20")
    expect(page.get_by_label("Reviews per day")).to_have_value("200")
    expect(page.get_by_label("Target retention in %")).to_have_value("90")
    page.get_by_role("radio", name=re.compile(r"^Classic")).check()
    expect(page.get_by_text("With “Classic” there are no daily limits")).to_be_visible()


# 2. Switching the learning method warns first ----------------------------------------------------

def test_switching_the_scheduler_warns_and_cancel_keeps_it(page: Page):
    account = signup_via_api(page)
    token = account["token"]
    stack, cards = stack_with_cards(page, token, "Wechsel")
    status, _ = api(page, "POST", f"/stacks/{stack['id']}/study/rate", {"cardId": cards[0]["id"], "rating": "good"},
                    token=token)
    assert status == 200
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/edit")

    page.get_by_role("radio", name=re.compile(r"^Klassisch")).check()
    page.get_by_label("Name *").fill("Wechsel 2")
    page.get_by_role("button", name="Speichern").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading")).to_have_text("Lernverfahren wechseln?")
    expect(dialog).to_contain_text("Die Fälligkeitsdaten aller Karten in diesem Stapel werden neu berechnet")
    expect(dialog).to_contain_text("als hättest du sie immer mit „Klassisch“ gelernt")
    shot(page, "92-scheduler-switch-warning")
    dialog.get_by_role("button", name="Abbrechen").click()
    expect(dialog).to_be_hidden()
    # Cancel: nothing saved, the form shows the stack's method again.
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}/edit$"))
    expect(page.get_by_role("radio", name=re.compile(r"^FSRS"))).to_be_checked()
    after = get_stack(page, token, stack["id"])
    assert (after["scheduler"], after["name"]) == ("fsrs", "Wechsel")

    page.get_by_role("radio", name=re.compile(r"^Klassisch")).check()
    page.get_by_role("button", name="Speichern").click()
    page.get_by_role("dialog").get_by_role("button", name="Wechseln und speichern").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Wechsel 2")
    assert get_stack(page, token, stack["id"])["scheduler"] == "ladder"
    # The rated card was replayed under the ladder: FSRS's memory state is gone.
    status, card = api(page, "GET", f"/stacks/{stack['id']}/cards/{cards[0]['id']}", token=token)
    assert card["stability"] is None and card["reviewCount"] == 1


def test_no_warning_without_a_switch_or_without_cards(page: Page):
    account = signup_via_api(page)
    status, empty = api(page, "POST", "/stacks", {"name": "Leer", "color": "#2563EB"}, token=account["token"])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{empty['id']}/edit")
    page.get_by_role("radio", name=re.compile(r"^Klassisch")).check()
    page.get_by_role("button", name="Speichern").click()  # no cards, nothing to recompute
    expect(page.get_by_role("heading", level=1)).to_have_text("Leer")
    assert get_stack(page, account["token"], empty["id"])["scheduler"] == "ladder"


# 3. The address bar follows the page, Back works ------------------------------------------------

def test_register_replaces_the_form_in_history(page: Page):
    page.goto("/")
    page.get_by_role("link", name="Jetzt loslegen").click()
    expect(page).to_have_url(re.compile(r"/app/register$"))
    page.get_by_label("Name").fill("Mara Beispiel")
    page.get_by_label("E-Mail-Adresse").fill(unique_mail())
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Registrieren").click()
    # A new account starts with the onboarding; skipping it leads home.
    expect(page).to_have_url(re.compile(r"/app/welcome$"))
    page.get_by_role("button", name="Überspringen").click()
    expect(page).to_have_url(re.compile(r"/app/home$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Mara Beispiel")
    page.go_back()
    # Back skips the sign-up form and the onboarding: the landing page it was opened from.
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Lernen neu gedacht.")


def test_login_returns_to_the_page_and_back_skips_the_form(page: Page):
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": "Ziel", "color": "#2563EB"}, token=account["token"])
    page.goto("/")
    page.goto(f"/app/stacks/{stack['id']}")
    expect(page).to_have_url(re.compile(r"/app/login\?next="))
    page.get_by_label("E-Mail-Adresse").fill(account["mail"])
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Ziel")
    page.go_back()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator("#auth-form")).to_have_count(0)


def test_finished_pages_leave_history(page: Page):
    """Saving settings, deleting a card and deleting a stack show the parent page in the address
    bar, and Back then goes where it went before the finished page, never to it."""
    account = signup_via_api(page)
    stack, cards = stack_with_cards(page, account["token"], "Verlauf")
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    page.locator("a.stack-card", has_text="Verlauf").click()
    stack_url = re.compile(rf"/app/stacks/{stack['id']}$")
    expect(page).to_have_url(stack_url)

    # Save the settings: the stack page, and Back → the dashboard (not the form).
    page.get_by_role("link", name="Bearbeiten", exact=True).click()
    expect(page).to_have_url(re.compile(r"/edit$"))
    page.get_by_label("Wiederholungen pro Tag").fill("120")
    page.get_by_role("button", name="Speichern").click()
    expect(page).to_have_url(stack_url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Verlauf")
    assert get_stack(page, account["token"], stack["id"])["reviewsPerDay"] == 120
    page.go_back()
    expect(page).to_have_url(re.compile(r"/app/stacks$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Deine Stapel")
    page.go_forward()
    expect(page).to_have_url(stack_url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Verlauf")

    # Delete a card (the list was searched first: the search comes back with the page).
    page.get_by_role("searchbox").fill("Frage 2")
    expect(page).to_have_url(re.compile(r"\?q=Frage\+2$"))
    expect(page.locator(".cards-table tbody tr")).to_have_count(1)
    page.get_by_role("link", name="Karte „Frage 2“ bearbeiten").click()
    expect(page).to_have_url(re.compile(rf"/cards/{cards[1]['id']}$"))
    page.get_by_role("button", name="Löschen").click()
    page.get_by_role("dialog").get_by_role("button", name="Löschen").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}\?q=Frage\+2$"))
    expect(page.get_by_text("Keine Karten gefunden für „Frage 2“.")).to_be_visible()
    page.go_back()
    expect(page).to_have_url(re.compile(r"/app/stacks$"))
    page.go_forward()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}\?q=Frage\+2$"))

    # A page opened directly (no page it came from in this tab): its entry is replaced.
    page.goto(f"/app/stacks/{stack['id']}/cards/{cards[0]['id']}")
    page.get_by_role("button", name="Löschen").click()
    page.get_by_role("dialog").get_by_role("button", name="Löschen").click()
    expect(page).to_have_url(stack_url)
    expect(page.locator(".cards-table tbody tr")).to_have_count(1)
    page.go_back()
    expect(page).not_to_have_url(re.compile(r"/cards/"))

    # Delete a stack: the dashboard, and Back does not open the deleted stack.
    other, _ = stack_with_cards(page, account["token"], "Zweiter", n=1)
    page.goto("/app/stacks")
    page.locator("a.stack-card", has_text="Zweiter").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Zweiter")
    page.get_by_role("button", name="Löschen").click()
    page.get_by_role("dialog").get_by_role("button", name="Löschen").click()
    expect(page).to_have_url(re.compile(r"/app/stacks$"))
    expect(page.locator("a.stack-card", has_text="Zweiter")).to_have_count(0)
    page.go_back()
    expect(page).not_to_have_url(re.compile(rf"/app/stacks/{other['id']}"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Verlauf")


def test_accepting_drafts_goes_to_the_stack_and_back_skips_the_review(page: Page):
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": "Entwürfe", "color": "#D97706"}, token=account["token"])
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    page.locator("a.stack-card", has_text="Entwürfe").click()
    page.get_by_role("link", name="Automatisch erstellen").click()
    expect(page).to_have_url(re.compile(r"/create$"))
    page.get_by_role("radio", name="Text").check()
    page.get_by_label("Text *").fill(
        "Mitochondrien sind Organellen, die durch Zellatmung ATP erzeugen. "
        "Der Zellkern ist das Organell, das die Erbinformation der Zelle enthält.")
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.get_by_role("heading", name="Vorschläge prüfen")).to_be_visible(timeout=60_000)
    page.get_by_role("button", name=re.compile(r"übernehmen$")).click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Entwürfe")
    expect(page.locator(".cards-table tbody tr").first).to_be_visible()
    page.go_back()
    expect(page).to_have_url(re.compile(r"/app/stacks$"))


# 4. Phone ---------------------------------------------------------------------------------------

def test_phone_stack_page_shows_front_back_and_due_date(make_page):
    page = make_page(**PHONE)
    account = signup_via_api(page, name="Jonas")
    token = account["token"]
    stack, cards = stack_with_cards(page, token, "Vokabeln")
    # Rated: due in the future, so the list shows a date rather than "fällig".
    api(page, "POST", f"/stacks/{stack['id']}/study/rate", {"cardId": cards[0]["id"], "rating": "easy"}, token=token)
    api(page, "PUT", f"/stacks/{stack['id']}/cards/{cards[2]['id']}/bookmark", token=token)
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}")
    rows = page.locator(".cards-table tbody tr")
    expect(rows).to_have_count(3)
    for i, row in enumerate(rows.all()):
        expect(row.get_by_text(f"Frage {i + 1}", exact=True)).to_be_visible()
        expect(row.get_by_text(f"Antwort {i + 1}", exact=True)).to_be_visible()
        expect(row.locator(".col-due")).to_be_visible()
        box, edit = row.bounding_box(), row.get_by_role("link").bounding_box()
        assert edit["x"] + edit["width"] <= box["x"] + box["width"] + 0.5
    expect(rows.nth(0).locator(".col-due")).to_contain_text(re.compile(r"\d{4}"))  # a date with the year
    expect(rows.nth(1).locator(".col-due")).to_have_text("fällig")
    expect(rows.nth(2).locator(".bookmark-mark")).to_be_visible()
    # No card id anywhere: neither the original's six hex digits nor a UUID.
    text = page.evaluate("document.body.innerText")
    ids = [c["id"] for c in cards]
    assert not re.search(r"\b[0-9A-F]{6}\b", text), text
    assert not any(i in text or i.replace("-", "")[:6].upper() in text for i in ids)
    labels = page.evaluate("[...document.querySelectorAll('[aria-label],[title]')].map(e => e.getAttribute('aria-label') + ' ' + e.getAttribute('title')).join(' ')")
    assert not any(i.replace("-", "")[:6].upper() in labels for i in ids)
    assert page.evaluate(NO_OVERFLOW)
    assert_touch_targets(page)
    shot(page, "93-phone-stack-cards")

    # The header's logout: an icon and the visible label.
    logout = page.get_by_role("button", name="Abmelden")
    expect(logout).to_be_visible()
    expect(logout.locator("span", has_text="Abmelden")).to_be_visible()
    expect(logout.locator("svg")).to_be_visible()
    assert logout.bounding_box()["x"] + logout.bounding_box()["width"] <= 375

    for path in ("/app/stacks", f"/app/stacks/{stack['id']}/edit", f"/app/stacks/{stack['id']}/cards/new",
                 f"/app/stacks/{stack['id']}/cards/{cards[0]['id']}", "/app/stacks/new"):
        page.goto(path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        expect(page.get_by_role("button", name="Abmelden")).to_be_visible()
        assert page.evaluate(NO_OVERFLOW), path
        assert_touch_targets(page)
    shot(page, "94-phone-stack-new")
    logout = page.get_by_role("button", name="Abmelden")
    logout.tap()
    expect(page).to_have_url(re.compile(r"/app/login$"))


# 5. Bookmarks -----------------------------------------------------------------------------------

def test_bookmark_filter_keeps_its_state_in_the_url(page: Page):
    account = signup_via_api(page)
    token = account["token"]
    stack, cards = stack_with_cards(page, token, "Merkliste")
    status, card = api(page, "PUT", f"/stacks/{stack['id']}/cards/{cards[1]['id']}/bookmark", token=token)
    assert status == 200 and card["bookmarked"] is True
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}")
    rows = page.locator(".cards-table tbody tr")
    expect(rows).to_have_count(3)
    expect(page.locator(".bookmark-mark")).to_have_count(1)
    expect(rows.nth(1).locator(".bookmark-mark")).to_be_visible()
    expect(page.get_by_role("radio", name="Alle")).to_be_checked()

    page.get_by_role("radio", name="Gemerkt").check()
    expect(page).to_have_url(re.compile(r"\?filter=bookmarked$"))
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Frage 2")
    shot(page, "95-bookmark-filter")
    page.reload()
    expect(page.get_by_role("radio", name="Gemerkt")).to_be_checked()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Frage 2")

    # The client's setBookmark and cards({bookmarked}) (what the feed uses).
    result = page.evaluate("""async ([s, c]) => {
        const { api } = await import('/assets/js/api/client.js');
        const card = await api.setBookmark(s, c, true);
        const list = await api.cards(s, { bookmarked: true });
        const rest = await api.cards(s, { bookmarked: false });
        return { bookmarked: card.bookmarked, listed: list.items.map((x) => x.id), rest: rest.total };
    }""", [stack["id"], cards[2]["id"]])
    assert result == {"bookmarked": True, "listed": [cards[1]["id"], cards[2]["id"]], "rest": 1}
    page.reload()
    expect(rows).to_have_count(2)

    # Search within the bookmarked cards keeps both in the URL.
    page.get_by_role("searchbox").fill("Frage 3")
    expect(page).to_have_url(re.compile(r"\?(?=.*\bq=Frage\+3)(?=.*\bfilter=bookmarked)"))
    expect(rows).to_have_count(1)
    page.get_by_role("searchbox").fill("")
    expect(rows).to_have_count(2)

    # No bookmarks left: the empty state tells how to make one.
    page.evaluate("""async ([s, a, b]) => {
        const { api } = await import('/assets/js/api/client.js');
        await api.setBookmark(s, a, false);
        await api.setBookmark(s, b, false);
    }""", [stack["id"], cards[1]["id"], cards[2]["id"]])
    page.reload()
    expect(page.get_by_text("Noch keine gemerkten Karten.")).to_be_visible()
    expect(page.get_by_text("Wische im Feed nach links, um eine Karte zu merken.")).to_be_visible()
    shot(page, "96-bookmark-filter-empty")

    page.get_by_role("radio", name="Alle").check()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    expect(rows).to_have_count(3)
    expect(page.locator(".bookmark-mark")).to_have_count(0)


# 6. Wording -------------------------------------------------------------------------------------

def test_german_wording_and_one_back_arrow(page: Page):
    page.goto("/app/login")
    expect(page.get_by_label("E-Mail-Adresse")).to_be_visible()
    page.get_by_role("button", name="Anmelden").click()
    expect(page.get_by_text("Gib deine E-Mail-Adresse ein")).to_be_visible()
    expect(page.get_by_text("Gib dein Passwort ein")).to_be_visible()

    account = signup_via_api(page)
    stack, cards = stack_with_cards(page, account["token"], "Wörter", n=1)
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}")
    expect(page.get_by_text("Alle Karteikarten in diesem Stapel mit ihrem Fälligkeitsdatum.")).to_be_visible()
    body = page.evaluate("document.body.innerText")
    assert "Anbei" not in body
    # Every page's back link and "Zurück" button carry the same back arrow (ui.js icon 'back').
    back_arrow = page.evaluate("document.querySelector('.crumb-back svg path').getAttribute('d')")
    for path in (f"/app/stacks/{stack['id']}", f"/app/stacks/{stack['id']}/edit", "/app/stacks/new",
                 f"/app/stacks/{stack['id']}/cards/new", f"/app/stacks/{stack['id']}/cards/{cards[0]['id']}",
                 f"/app/stacks/{stack['id']}/create"):
        page.goto(path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        crumb = page.locator(".breadcrumb .crumb-back")
        expect(crumb).to_have_count(1)
        assert crumb.locator("svg path").get_attribute("d") == back_arrow, path
        for button in page.locator(".form-actions a", has_text="Zurück").all():
            assert button.locator("svg path").get_attribute("d") == back_arrow, path
        text = page.evaluate("document.body.innerText")
        assert not re.search(r"(?<!E-)\bMail\b|\bEmail\b|E-Mail(?!-Adresse)|\bSie\b|\bIhre?\b", text), (path, text)

"""The whole story of a learner, in German on a desktop browser:
register → create stack → three cards → learn until "Toll gemacht!" (a card comes back in the
same session) → learn ahead → edit and delete a card → delete the stack → logout → login."""

from __future__ import annotations

import re
import statistics

from playwright.sync_api import Page, expect

from conftest import METRICS, PASSWORD, shot, unique_mail
from learning import current_question, learn_until_done, rate_timed, reveal, start_session

CARDS = [
    ("Was ist die Hauptfunktion der Mitochondrien?", "Zellatmung: Sie erzeugen ATP.", "Hinweis: Kraftwerk"),
    ("Wo findet die Photosynthese statt?", "In den Chloroplasten.", ""),
    ("Was ist Osmose?", "Diffusion von Wasser durch eine\nsemipermeable Membran.", ""),
]


def test_full_journey(page: Page):
    # Landing page
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Lernen neu gedacht.")
    shot(page, "01-landing")
    page.get_by_role("link", name="Jetzt loslegen").click()

    # Registration
    expect(page).to_have_url(re.compile(r"/app/register$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Account erstellen")
    shot(page, "02-register")
    mail = unique_mail()
    page.get_by_label("Name").fill("Mara Beispiel")
    page.get_by_label("E-Mail-Adresse").fill(mail)
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Registrieren").click()

    # A new account starts with the onboarding (skipped here), then the home screen; the
    # library is one link away in the header.
    expect(page).to_have_url(re.compile(r"/app/welcome$"))
    page.get_by_role("button", name="Überspringen").click()
    expect(page).to_have_url(re.compile(r"/app/home$"))
    page.get_by_role("navigation", name="Hauptnavigation").get_by_role("link", name="Stapel").click()

    # Empty dashboard
    expect(page).to_have_url(re.compile(r"/app/stacks$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Deine Stapel")
    expect(page.get_by_text("Erstelle deinen ersten Stapel")).to_be_visible()
    expect(page.locator("app-header")).to_contain_text("Mara Beispiel")
    shot(page, "03-dashboard-empty")

    # Create a stack with a preset colour
    page.get_by_role("link", name="Erstellen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Neuen Stapel erstellen")
    page.get_by_label("Name *").fill("Biologie")
    page.get_by_role("radio", name="Farbe #2563EB").check()
    # The classic three-rating ladder of the original (new stacks default to FSRS).
    expect(page.get_by_role("radio", name=re.compile(r"^FSRS"))).to_be_checked()
    page.get_by_role("radio", name=re.compile(r"^Klassisch")).check()
    expect(page.locator("#preview-badge svg")).to_have_count(1)  # the standard icon, no letters
    shot(page, "04-stack-create")
    page.get_by_role("button", name="Speichern").click()
    # Saving opens the new, empty stack with its next steps.
    expect(page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Biologie")
    expect(page.get_by_text("Noch keine Karten in diesem Stapel")).to_be_visible()
    steps = page.locator("#next-steps")
    expect(steps.get_by_role("link", name="Karten hinzufügen")).to_be_visible()
    expect(steps.get_by_role("link", name="Automatisch erstellen")).to_be_visible()
    stack_url = page.url
    shot(page, "05-stack-empty")
    page.go_back()  # the form was replaced: back is the library
    expect(page).to_have_url(re.compile(r"/app/stacks$"))
    card = page.locator("a.stack-card", has_text="Biologie")
    expect(card.locator(".badge svg")).to_have_count(1)
    expect(card).to_contain_text("0 Karten")
    badge_bg = card.locator(".badge").evaluate("el => getComputedStyle(el).backgroundColor")
    assert badge_bg == "rgb(37, 99, 235)"
    card.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Biologie")

    # Three cards, the second and third via "Neue Karte erstellen"
    page.get_by_role("link", name="Karte erstellen").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Neue Karteikarte anlegen")
    for i, (question, answer, hint) in enumerate(CARDS):
        page.get_by_label("Vorderseite *").fill(question)
        page.get_by_label("Rückseite *").fill(answer)
        if hint:
            page.get_by_label("Hinweis (optional)").fill(hint)
        page.get_by_role("button", name="Speichern").click()
        expect(page.get_by_text("Karteikarte gespeichert")).to_be_visible()
        expect(page.get_by_text("Die Karteikarte wurde gespeichert und dem Stapel hinzugefügt.")).to_be_visible()
        if i == 0:
            shot(page, "06-card-saved")
        if i < len(CARDS) - 1:
            page.get_by_role("link", name="Neue Karte erstellen").click()
            expect(page.get_by_label("Vorderseite *")).to_have_value("")
    page.get_by_role("link", name="Stapel ansehen").click()

    # The table lists the three cards with front, back and due date (no ids)
    rows = page.locator(".cards-table tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text(CARDS[0][0])
    expect(rows.first).to_contain_text(CARDS[0][1])
    expect(rows.first.locator(".col-due")).to_have_text("fällig")
    expect(page.get_by_text("1–3 von 3")).to_be_visible()
    expect(page.locator("#stack-stats")).to_contain_text("3 Karten")
    shot(page, "07-stack-cards")

    # Learning: the setup page offers the modes, flashcards and every due card preselected
    page.get_by_role("link", name="Jetzt lernen").click()
    expect(page.get_by_role("radio", name=re.compile(r"^Karteikarten"))).to_be_checked()
    expect(page.get_by_role("radio", name="Alle fälligen")).to_be_checked()
    start_session(page)
    expect(page).to_have_url(re.compile(r"/learn\?mode=flashcards&size=all$"))
    expect(page.locator("flip-card [data-question]")).to_have_text(CARDS[0][0])
    expect(page.locator("#counter")).to_have_text("0 Karten, 0 Wiederholungen")
    expect(page.locator("#position")).to_have_text("Karte 1 von 3")
    hint_button = page.get_by_role("button", name="Hinweis anzeigen")
    expect(hint_button).to_be_visible()
    hint_button.click()
    expect(page.locator("[data-hint-text]")).to_have_text("Kraftwerk")  # leading "Hinweis:" stripped
    shot(page, "08-learn-question")

    # Reveal with the keyboard: the answer is in a live region, the ratings show their intervals
    reveal(page)
    answer = page.locator("flip-card [data-answer]")
    expect(answer).to_have_text(CARDS[0][1])
    assert answer.get_attribute("aria-live") == "polite"
    buttons = page.locator("#ratings button")
    expect(buttons).to_have_count(3)
    # The worst answer on the left and on key 1, as in FSRS stacks.
    expect(buttons.nth(0)).to_contain_text("Schwer (1 Minute)")
    expect(buttons.nth(1)).to_contain_text("Mittel (2 Minuten)")
    expect(buttons.nth(2)).to_contain_text("Einfach (10 Minuten)")
    colors = [b.evaluate("el => getComputedStyle(el).backgroundColor") for b in buttons.all()]
    assert colors == ["rgb(239, 68, 68)", "rgb(249, 115, 22)", "rgb(34, 197, 94)"]
    page.wait_for_timeout(600)  # the flip animation
    shot(page, "09-learn-answer")

    latencies = []
    # Card 1: "Einfach" → due in 10 minutes, i.e. later today: it must come back this session.
    result = rate_timed(page, 2)
    assert result["kind"] == "card"
    latencies.append(result)
    expect(page.locator("#counter")).to_have_text("1 Karte, 1 Wiederholung")
    expect(page.locator("flip-card [data-question]")).to_have_text(CARDS[1][0])
    # Card 2 with the key "2" (Mittel), card 3 with a click on "Schwer".
    reveal(page)
    page.keyboard.press("2")
    expect(page.locator("flip-card [data-question]")).to_have_text(CARDS[2][0])
    reveal(page)
    page.get_by_role("button", name=re.compile(r"^Schwer \(1 Minute\)")).click()
    expect(page.locator("#counter")).to_have_text("3 Karten, 3 Wiederholungen")
    # Every card is due again today, so the session goes on; card 1 comes back.
    session = learn_until_done(page)
    latencies += session["latencies"]
    assert CARDS[0][0] in session["seen"], "the card rated Einfach did not come back in the same session"
    assert session["seen"][0] in {c[0] for c in CARDS}

    # Completion dialog
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading")).to_have_text("Toll gemacht!")
    expect(dialog).to_contain_text("Du bist für heute fertig, da das Fälligkeitsdatum aller Karten erst frühestens morgen ist.")
    expect(dialog.get_by_role("link", name="Zurück zum Stapel")).to_be_visible()
    # The summary counts cards and reviews apart (a card came back, so there were more reviews).
    reviews = 3 + len(session["seen"])
    expect(dialog.locator("#summary-cards")).to_have_text("3")
    expect(dialog.locator("#summary-reviews")).to_have_text(str(reviews))
    expect(page.locator("#counter")).to_have_text(f"3 Karten, {reviews} Wiederholungen")
    shot(page, "10-learn-done")

    # Learn ahead: the cards due in the next days come back.
    reviewed_before = int(re.search(r"(\d+) Wiederholungen", page.locator("#counter").inner_text()).group(1))
    dialog.get_by_label("Anzahl Tage zum Vorauslernen").fill("5")
    dialog.get_by_role("button", name="Los geht’s!").click()
    expect(page.locator("#done")).to_be_hidden()
    expect(page.locator("#ahead")).to_have_text("Vorauslernen: 5 Tage")
    expect(page.locator("flip-card [data-question]")).not_to_be_empty()
    shot(page, "11-learn-ahead")
    ahead = learn_until_done(page)
    latencies += ahead["latencies"]
    assert len(ahead["seen"]) >= 1
    expect(page.locator("#counter")).to_contain_text(f"{reviewed_before + len(ahead['seen'])} Wiederholungen")
    expect(page.get_by_role("dialog")).to_contain_text("Du hast auch alle Karten der nächsten 5 Tage gelernt.")
    page.get_by_role("dialog").get_by_role("link", name="Zurück zum Stapel").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Biologie")
    expect(page.locator("#stack-stats")).to_contain_text("3 Karten")

    totals = sorted(r["ms"] for r in latencies)
    requests = sorted(r["requestMs"] for r in latencies if r["requestMs"] is not None)
    METRICS["ratingToNextCardMs"] = {
        "samples": len(totals),
        "median": round(statistics.median(totals), 1),
        "p95": round(totals[max(0, int(len(totals) * 0.95) - 1)], 1),
        "max": round(totals[-1], 1),
        "medianOfWhichRequest": round(statistics.median(requests), 1) if requests else None,
    }
    print("rating click → next card visible (ms):", METRICS["ratingToNextCardMs"])
    # The target is 100 ms on loopback (reported in artifacts/web-metrics.json); the test
    # fails only above 150 ms so a loaded CI machine does not make it flaky.
    assert statistics.median(totals) < 150

    # Edit card 2
    page.goto(stack_url)
    page.get_by_role("link", name=f"Karte „{CARDS[1][0]}“ bearbeiten").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Karteikarte bearbeiten")
    expect(page.get_by_label("Vorderseite *")).to_have_value(CARDS[1][0])
    page.get_by_label("Vorderseite *").fill("Wo findet die Photosynthese in Pflanzenzellen statt?")
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_text("Karteikarte gespeichert")).to_be_visible()
    shot(page, "12-card-edit")
    page.get_by_role("link", name="Stapel ansehen").click()
    expect(page.locator(".cards-table")).to_contain_text("Wo findet die Photosynthese in Pflanzenzellen statt?")

    # Delete card 3 (with confirmation)
    page.get_by_role("link", name=re.compile(r"^Karte „.*“ bearbeiten$")).nth(2).click()
    expect(page.get_by_label("Vorderseite *")).to_have_value(CARDS[2][0])
    page.get_by_role("button", name="Löschen").click()
    confirm = page.get_by_role("dialog")
    expect(confirm).to_contain_text("Karteikarte löschen?")
    shot(page, "13-card-delete-confirm")
    confirm.get_by_role("button", name="Löschen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Biologie")
    expect(page.locator(".cards-table tbody tr")).to_have_count(2)
    expect(page.locator(".cards-table")).not_to_contain_text(CARDS[2][0])

    # Rename and recolour the stack
    page.get_by_role("link", name="Bearbeiten", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Stapel bearbeiten")
    page.get_by_label("Name *").fill("Zellbiologie")
    page.get_by_role("radio", name="Farbe #DB2777").check()
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Zellbiologie")
    badge = page.locator(".stack-title .badge")
    expect(badge.locator("svg")).to_have_count(1)
    assert badge.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(219, 39, 119)"

    # Delete the stack: cancel first, then confirm
    page.get_by_role("button", name="Löschen").click()
    confirm = page.get_by_role("dialog")
    expect(confirm).to_contain_text("Der Stapel „Zellbiologie“ und alle 2 Karten werden endgültig gelöscht.")
    shot(page, "14-stack-delete-confirm")
    confirm.get_by_role("button", name="Abbrechen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Zellbiologie")
    page.get_by_role("button", name="Löschen").click()
    page.get_by_role("dialog").get_by_role("button", name="Löschen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deine Stapel")
    expect(page.get_by_text("Erstelle deinen ersten Stapel")).to_be_visible()

    # Logout, then login again
    page.get_by_role("button", name="Abmelden").click()
    expect(page).to_have_url(re.compile(r"/app/login$"))
    assert page.evaluate("localStorage.getItem('fc.token')") is None
    page.goto("/app/stacks")
    expect(page).to_have_url(re.compile(r"/app/login\?next="))
    shot(page, "15-login")
    page.get_by_label("E-Mail-Adresse").fill(mail)
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()
    expect(page).to_have_url(re.compile(r"/app/stacks$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Deine Stapel")


def test_fsrs_stack_offers_four_ratings(page: Page):
    """New stacks use FSRS by default: four ratings, keys 1–4."""
    from conftest import api, sign_in_storage, signup_via_api

    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.goto("/app/stacks/new")
    page.get_by_label("Name *").fill("Anatomie")
    page.get_by_role("button", name="Speichern").click()
    expect(page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}$"))
    status, stacks = api(page, "GET", "/stacks", token=account["token"])
    assert stacks[0]["scheduler"] == "fsrs"
    for q in ("Wie viele Knochen hat ein Erwachsener?", "Größter Muskel?"):
        api(page, "POST", f"/stacks/{stacks[0]['id']}/cards", {"question": q, "answer": "…"}, token=account["token"])
    page.goto(f"/app/stacks/{stacks[0]['id']}/learn")
    expect(page.locator("flip-card [data-question]")).to_have_text("Wie viele Knochen hat ein Erwachsener?")
    reveal(page)
    buttons = page.locator("#ratings button")
    expect(buttons).to_have_count(4)
    labels = [b.inner_text().split("\n")[0] for b in buttons.all()]
    assert labels == ["Nochmal", "Schwer", "Gut", "Einfach"], labels
    # The client words intervals itself (so English works too); in German it must match the
    # server's own intervalText for every option.
    status, study = api(page, "GET", f"/stacks/{stacks[0]['id']}/study/next", token=account["token"])
    shown = [b.locator(".rate-interval").inner_text() for b in buttons.all()]
    assert shown == [f"({o['intervalText']})" for o in study["options"]], (shown, study["options"])
    expect(page.locator("#keys")).to_contain_text("1–4")
    shot(page, "16-learn-fsrs")
    page.keyboard.press("4")  # Einfach: the first card leaves today's session
    expect(page.locator("#counter")).to_have_text("1 Karte, 1 Wiederholung")
    expect(page.locator("flip-card [data-question]")).to_have_text("Größter Muskel?")

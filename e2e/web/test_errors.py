"""Error paths: empty fields, wrong password, taken mail, expired session, invalid forms."""

from __future__ import annotations

import base64
import json
import re
import time

import pytest
from playwright.sync_api import Page, expect

from conftest import PASSWORD, api, shot, sign_in_storage, signup_via_api, unique_mail


def test_login_empty_fields(page: Page):
    page.goto("/app/login")
    page.get_by_role("button", name="Anmelden").click()
    expect(page.get_by_text("Gib deine E-Mail-Adresse ein")).to_be_visible()
    expect(page.get_by_text("Gib dein Passwort ein")).to_be_visible()
    expect(page.get_by_label("E-Mail-Adresse")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("E-Mail-Adresse")).to_be_focused()
    shot(page, "20-login-empty")
    # Typing a mail clears only that message on the next submit
    page.get_by_label("E-Mail-Adresse").fill("jemand@example.org")
    page.get_by_role("button", name="Anmelden").click()
    expect(page.get_by_text("Gib deine E-Mail-Adresse ein")).to_have_count(0)
    expect(page.get_by_text("Gib dein Passwort ein")).to_be_visible()


def test_register_empty_fields(page: Page):
    page.goto("/app/register")
    page.get_by_role("button", name="Registrieren").click()
    for text in ("Gib deinen Namen ein", "Gib deine E-Mail-Adresse ein", "Gib dein Passwort ein"):
        expect(page.get_by_text(text)).to_be_visible()
    page.get_by_label("Name").fill("Ab")
    page.get_by_label("E-Mail-Adresse").fill("ab@example.org")
    page.get_by_label("Passwort").fill("kurz")
    page.get_by_role("button", name="Registrieren").click()
    expect(page.get_by_text("Das Passwort muss mindestens 8 Zeichen lang sein.")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/app/register$"))
    shot(page, "21-register-invalid")


def test_wrong_password_and_unknown_user(page: Page):
    account = signup_via_api(page)
    page.goto("/app/login")
    page.get_by_label("E-Mail-Adresse").fill(account["mail"])
    page.get_by_label("Passwort").fill("falsches-passwort")
    page.get_by_role("button", name="Anmelden").click()
    alert = page.get_by_role("alert").filter(has_text="Anmeldung")
    expect(alert).to_have_text("Anmeldung fehlgeschlagen. Überprüfe deine Eingaben.")
    expect(page).to_have_url(re.compile(r"/app/login$"))
    assert page.evaluate("localStorage.getItem('fc.token')") is None
    shot(page, "22-login-wrong-password")
    page.get_by_label("E-Mail-Adresse").fill(unique_mail("niemand"))
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()
    expect(alert).to_have_text("Anmeldung fehlgeschlagen. Überprüfe deine Eingaben.")


def test_taken_mail(page: Page):
    account = signup_via_api(page)
    page.goto("/app/register")
    page.get_by_label("Name").fill("Zweite Person")
    page.get_by_label("E-Mail-Adresse").fill(account["mail"].upper())  # compared case-insensitively
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Registrieren").click()
    expect(page.get_by_role("alert").filter(has_text="Registrierung")).to_have_text(
        "Registrierung fehlgeschlagen. Es existiert bereits ein Account mit dieser E-Mail-Adresse.")
    shot(page, "23-register-taken")


def _expired_jwt() -> str:
    """A well-formed HS256 JWT that expired an hour ago (signed with a key the server lacks)."""
    def part(obj):
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()
    now = int(time.time())
    return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part({'sub': 'x', 'exp': now - 3600, 'iat': now - 7200})}.{'A' * 43}"


@pytest.mark.parametrize("bad_token", ["garbage-token", _expired_jwt()], ids=["garbage", "expired-jwt"])
def test_expired_session_returns_after_login(page: Page, bad_token: str):
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": "Chemie", "color": "#7C3AED"}, token=account["token"])
    assert status == 201
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Chemie")
    # The stored token goes bad (expired or tampered with); the next request answers 401.
    page.evaluate("t => localStorage.setItem('fc.token', t)", bad_token)
    page.goto(f"/app/stacks/{stack['id']}?q=Atom")
    expect(page).to_have_url(re.compile(r"/app/login\?next="))
    expect(page.get_by_text("Deine Sitzung ist abgelaufen. Bitte melde dich erneut an.")).to_be_visible()
    assert page.evaluate("localStorage.getItem('fc.token')") is None
    shot(page, "24-session-expired")
    page.get_by_label("E-Mail-Adresse").fill(account["mail"])
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}\?q=Atom$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Chemie")
    expect(page.get_by_label("Karten durchsuchen")).to_have_value("Atom")


def test_stack_and_card_forms_reject_empty_input(page: Page):
    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.goto("/app/stacks/new")
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_role("alert")).to_have_text(
        "Beim Erstellen des Stapels ist ein Fehler aufgetreten. Bitte wähle einen Namen und eine Farbe für deinen Stapel.")
    page.get_by_label("Name *").fill("   ")
    page.get_by_role("button", name="Speichern").click()
    expect(page).to_have_url(re.compile(r"/app/stacks/new$"))
    status, stack = api(page, "POST", "/stacks", {"name": "Physik", "color": "#0891B2"}, token=account["token"])
    assert status == 201
    page.goto(f"/app/stacks/{stack['id']}/cards/new")
    page.get_by_label("Vorderseite *").fill("Nur eine Vorderseite")
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_role("alert")).to_have_text(
        "Beim Erstellen der Karte ist ein Fehler aufgetreten. Bitte fülle die Vorder- und Rückseite deiner Karte korrekt aus.")
    expect(page.get_by_label("Rückseite *")).to_be_focused()
    shot(page, "25-card-invalid")
    status, page_of_cards = api(page, "GET", f"/stacks/{stack['id']}/cards", token=account["token"])
    assert status == 200 and page_of_cards["total"] == 0


def test_unknown_stack_and_unknown_page(page: Page):
    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.goto("/app/stacks/00000000-0000-4000-8000-000000000000")
    expect(page.get_by_role("alert")).to_contain_text("Das haben wir nicht gefunden.")
    expect(page.get_by_role("button", name="Erneut versuchen")).to_be_visible()
    page.goto("/app/gibt-es-nicht")
    expect(page.get_by_role("heading", level=1)).to_have_text("Seite nicht gefunden")
    page.get_by_role("link", name="Zu deinen Stapeln").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deine Stapel")


def test_busy_database_says_so_and_retry_works(page: Page):
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": "Belegt", "color": "#336699"}, token=account["token"])
    assert status == 201, stack
    sign_in_storage(page, account)
    # The first load of the stack finds the database locked by another process (503 database_busy).
    answered = []

    def busy_once(route):
        if answered:
            route.continue_()
            return
        answered.append(route.request.url)
        route.fulfill(
            status=503,
            headers={"Content-Type": "application/json", "Retry-After": "1"},
            body=json.dumps({"message": "Die Datenbank ist gerade belegt.", "code": "database_busy"}),
        )

    page.route(re.compile(r".*/api/v1/stacks/" + stack["id"] + r"$"), busy_once)
    page.goto(f"/app/stacks/{stack['id']}")
    expect(page.get_by_role("alert")).to_contain_text("Der Server ist gerade belegt. Bitte versuche es gleich noch einmal.")
    page.get_by_role("button", name="Erneut versuchen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Belegt")
    assert answered

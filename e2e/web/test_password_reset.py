""""Passwort vergessen?": the whole flow in the browser, with the mail read from the local SMTP
sink that scripts/test-web starts (aiosmtpd writing a Maildir, FLASHCARDS_TEST_MAILDIR)."""

from __future__ import annotations

import email
import email.policy
import mailbox
import os
import re
import time

import pytest
from playwright.sync_api import Page, expect

from conftest import BASE_URL, PASSWORD, shot, signup_via_api, unique_mail

MAILDIR = os.environ.get("FLASHCARDS_TEST_MAILDIR", "")
SENT = "Wenn es ein Konto mit dieser E-Mail-Adresse gibt, haben wir dir einen Link geschickt."
NEW_PASSWORD = "ganz-neu-und-geheim"

needs_mail = pytest.mark.skipif(not MAILDIR, reason="no local SMTP sink (scripts/test-web starts one)")


def mails_to(address: str) -> list[email.message.EmailMessage]:
    """Every message the sink received for `address`, parsed with the standard library."""
    if not os.path.isdir(MAILDIR):
        return []
    found = []
    for raw in mailbox.Maildir(MAILDIR, create=False):
        message = email.message_from_bytes(raw.as_bytes(), policy=email.policy.default)
        if message["To"] and message["To"].addresses[0].addr_spec.lower() == address.lower():
            found.append(message)
    return found


def wait_for_mail(address: str, timeout: float = 20) -> email.message.EmailMessage:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = mails_to(address)
        if found:
            return found[-1]
        time.sleep(0.1)
    raise AssertionError(f"no mail to {address} within {timeout} s")


@needs_mail
def test_forgotten_password_by_mail(make_page):
    page = make_page()
    account = signup_via_api(page, name="Mara Müller")

    # From the login page to the form, by keyboard.
    page.goto("/app/login")
    link = page.get_by_role("link", name="Passwort vergessen?")
    expect(link).to_be_visible()
    link.focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/app/forgot$"))
    expect(page.get_by_role("heading", name="Passwort vergessen?")).to_be_visible()
    mail_field = page.get_by_label("E-Mail-Adresse")
    # The page puts the focus into its one field (the app keeps a focus the view placed).
    expect(mail_field).to_be_focused()
    page.get_by_role("button", name="Link senden").click()
    expect(page.get_by_text("Gib deine E-Mail-Adresse ein")).to_be_visible()
    shot(page, "90-forgot-password")
    mail_field.fill(account["mail"].upper())
    mail_field.press("Enter")
    sent = page.get_by_role("status").filter(has_text=SENT)
    expect(sent).to_be_visible()
    expect(sent).to_be_focused()
    shot(page, "91-forgot-password-sent")

    message = wait_for_mail(account["mail"])
    assert message["Subject"] == "Passwort zurücksetzen – Smart Flashcards"
    assert message["From"].addresses[0].display_name == "Smart Flashcards"
    body = message.get_content()
    assert "Hallo Mara Müller," in body
    match = re.search(r"(\S+/app/reset\?token=[A-Za-z0-9_-]{43})", body)
    assert match, body
    link_url = match.group(1)
    assert link_url.startswith(BASE_URL + "/app/reset?token=")

    # The link: two fields, a mismatch is caught before anything is sent.
    page.goto(link_url)
    expect(page.get_by_role("heading", name="Neues Passwort festlegen")).to_be_visible()
    new_field = page.get_by_label("Neues Passwort", exact=True)
    repeat_field = page.get_by_label("Passwort wiederholen")
    expect(new_field).to_be_focused()
    new_field.fill(NEW_PASSWORD)
    repeat_field.fill(NEW_PASSWORD + "x")
    page.get_by_role("button", name="Passwort speichern").click()
    expect(page.get_by_text("Die Passwörter stimmen nicht überein.")).to_be_visible()
    expect(repeat_field).to_be_focused()
    shot(page, "92-reset-password-mismatch")
    repeat_field.fill(NEW_PASSWORD)
    repeat_field.press("Enter")
    expect(page).to_have_url(re.compile(r"/app/home$"))  # signed in: the home screen
    expect(page.get_by_text("Dein Passwort ist geändert. Du bist angemeldet.")).to_be_visible()
    assert page.evaluate("localStorage.getItem('fc.token')")

    # The link works once.
    other = make_page()
    other.goto(link_url)
    other.get_by_label("Neues Passwort", exact=True).fill("noch-ein-passwort")
    other.get_by_label("Passwort wiederholen").fill("noch-ein-passwort")
    other.get_by_role("button", name="Passwort speichern").click()
    alert = other.get_by_role("alert").filter(has_text="ungültig")
    expect(alert).to_have_text("Der Link ist ungültig, abgelaufen oder wurde schon benutzt.")
    expect(alert).to_be_focused()
    expect(other.get_by_role("link", name="Neuen Link anfordern")).to_be_visible()
    shot(other, "93-reset-link-spent")

    # The old password is gone, the new one works.
    other.goto("/app/login")
    other.get_by_label("E-Mail-Adresse").fill(account["mail"])
    other.get_by_label("Passwort", exact=True).fill(PASSWORD)
    other.get_by_role("button", name="Anmelden").click()
    expect(other.get_by_role("alert").filter(has_text="Anmeldung fehlgeschlagen")).to_be_visible()
    other.get_by_label("Passwort", exact=True).fill(NEW_PASSWORD)
    other.get_by_role("button", name="Anmelden").click()
    expect(other).to_have_url(re.compile(r"/app/home$"))


@needs_mail
def test_unknown_address_gets_the_same_answer_and_no_mail(page: Page):
    nobody = unique_mail("niemand")
    page.goto("/app/forgot")
    page.get_by_label("E-Mail-Adresse").fill(nobody)
    page.get_by_role("button", name="Link senden").click()
    expect(page.get_by_role("status").filter(has_text=SENT)).to_be_visible()
    time.sleep(1.5)  # the job queue polls every 0.25 s: a mail would be there by now
    assert mails_to(nobody) == []


def test_without_mail_settings_the_page_says_so(page: Page):
    page.route(
        "**/api/v1/auth/password-reset",
        lambda route: route.fulfill(status=200, content_type="application/json", body='{"available":false}'),
    )
    page.goto("/app/forgot")
    expect(page.get_by_text("Passwort-Zurücksetzen ist auf diesem Server nicht eingerichtet.")).to_be_visible()
    expect(page.get_by_label("E-Mail-Adresse")).to_have_count(0)
    expect(page.get_by_role("link", name="Zurück zur Anmeldung")).to_be_visible()
    shot(page, "94-forgot-password-unavailable")


def test_incomplete_link_and_english(make_page):
    page = make_page()
    page.goto("/app/reset?token=abc")
    expect(page.get_by_role("alert")).to_have_text(
        "Dieser Link ist unvollständig. Öffne den Link aus der E-Mail noch einmal vollständig.")
    expect(page.get_by_label("Neues Passwort", exact=True)).to_have_count(0)
    english = make_page(locale="en-US")
    english.goto("/app/login")
    english.get_by_role("link", name="Forgot your password?").click()
    expect(english.get_by_role("heading", name="Forgot your password?")).to_be_visible()
    expect(english.get_by_label("Email address")).to_be_visible()

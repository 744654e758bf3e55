"""The "Automatisch erstellen" page: four sources, honest wording for the offline generator, input
validation, and a generation from text through the job API with the draft review list.
(The draft editor itself: test_draft_editor.py; topics with a language model: test_topic_feed.py.)"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import api, shot, sign_in_storage, signup_via_api


def test_generation_page_renders_and_validates(page: Page):
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": "Skript", "color": "#D97706"}, token=account["token"])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}")
    page.get_by_role("link", name="Automatisch erstellen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Automatisch Karten erstellen.")
    for source in ("PDF", "Foto", "Text", "Thema"):
        expect(page.get_by_role("radio", name=source)).to_be_visible()
    expect(page.get_by_text("Es werden ausschließlich PDF-Dateien bis 10 MB angenommen.")).to_be_visible()
    # The built-in generator follows rules and no instructions: no field that would do nothing.
    expect(page.get_by_label("Eigene Anweisungen (optional)")).to_have_count(0)
    shot(page, "70-magic")

    submit = page.get_by_role("button", name="Karten erstellen")
    submit.click()
    expect(page.locator("#form-error")).to_have_text("Wähle eine PDF-Datei aus, bevor du fortfährst.")
    expect(page.locator("#pdf")).to_be_focused()

    page.locator("#pdf").set_input_files({"name": "notizen.txt", "mimeType": "text/plain", "buffer": b"hallo"})
    expect(page.get_by_text("Ausgewählt: notizen.txt")).to_be_visible()
    submit.click()
    expect(page.locator("#form-error")).to_contain_text("Diese Datei ist kein PDF.")

    big = b"%PDF-1.4\n" + b"0" * (10 * 1024 * 1024 + 1)
    page.locator("#pdf").set_input_files({"name": "gross.pdf", "mimeType": "application/pdf", "buffer": big})
    submit.click()
    expect(page.locator("#form-error")).to_have_text("Die Datei ist größer als 10 MB.")

    page.get_by_role("radio", name="Foto").check()
    expect(page.locator("#photo")).to_have_attribute("capture", "environment")
    expect(page.locator("#photo")).to_have_attribute("accept", "image/png,image/jpeg")  # what the server reads
    expect(page.get_by_text("Bilder bis 10 MB.")).to_be_visible()
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.locator("#form-error")).to_have_text(
        "Nimm ein Foto auf oder wähle ein Bild aus, bevor du fortfährst.")

    page.get_by_role("radio", name="Text").check()
    submit.click()
    expect(page.locator("#form-error")).to_have_text("Füge einen Text ein, bevor du fortfährst.")
    status, cards = api(page, "GET", f"/stacks/{stack['id']}/cards", token=account["token"])
    assert cards["total"] == 0  # nothing was sent for invalid input


def test_generation_from_text_with_draft_review(page: Page):
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": "Zellbiologie", "color": "#D97706"}, token=account["token"])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.get_by_role("radio", name="Text").check()
    page.get_by_label("Text *").fill(
        "Mitochondrien sind Organellen, die durch Zellatmung ATP erzeugen. "
        "Ribosomen sind Komplexe aus RNA und Proteinen, an denen die Proteinbiosynthese stattfindet. "
        "Der Zellkern ist das Organell, das die Erbinformation der Zelle enthält. "
        "Chloroplasten sind Organellen, in denen die Photosynthese abläuft.")
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.get_by_role("heading", name="Vorschläge prüfen")).to_be_visible(timeout=60_000)
    drafts = page.locator(".draft")
    count = drafts.count()
    assert count >= 1
    shot(page, "72-magic-drafts")
    # Keep all but the last (when there are several), edit the first one's question.
    if count > 1:
        drafts.nth(count - 1).get_by_role("checkbox").uncheck()
    first_question = drafts.first.locator("[data-field=question]")
    first_question.fill(first_question.input_value() + " (bearbeitet)")
    keep = count - 1 if count > 1 else 1
    page.get_by_role("button", name=re.compile(r"übernehmen$")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Zellbiologie")
    expect(page.locator(".cards-table tbody tr")).to_have_count(keep)
    expect(page.locator(".cards-table")).to_contain_text("(bearbeitet)")
    status, pending = api(page, "GET", f"/stacks/{stack['id']}/drafts", token=account["token"])
    assert status == 200 and pending == []  # kept ones accepted, the rest discarded

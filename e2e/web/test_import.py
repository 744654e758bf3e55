"""Import and export (issue 19) in the browser: a Quizlet TSV into a new stack, the column mapping
swapped, a file with a bad row (refused in the preview; the job refuses it too and writes nothing),
an import into an existing stack from its page, English, unsupported and refused files, the CSV and
TSV export as real downloads, the keyboard path, and a 375 px phone in light and dark mode. Anki
packages (the fixtures of Tests/FlashcardsServerTests/Fixtures/anki, made with Anki and genanki):
each deck its own stack with its review history, everything into one stack, into an existing one,
refused and broken packages, a note that breaks a rule, English, and the phone."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import sqlite3
import tempfile
import zipfile
from pathlib import Path

from playwright.sync_api import Page, expect

from conftest import BASE_URL, api, make_stack, shot, sign_in_storage, signup_via_api
from test_motivation import NO_OVERFLOW, assert_touch_targets

ANKI = Path(__file__).resolve().parents[2] / "Tests" / "FlashcardsServerTests" / "Fixtures" / "anki"
DATA_DIR = os.environ.get("FLASHCARDS_TEST_DATA_DIR", "")
PHONE = dict(viewport={"width": 375, "height": 667}, device_scale_factor=2, is_mobile=True, has_touch=True)
QUIZLET = "dog\tHund\ncat\tKatze\nmouse\tMaus, die\n".encode()
BAD_ROW = "Frage;Antwort\nA;1\nB;\nC;3\n".encode()


def tsv(name: str, data: bytes = QUIZLET, mime: str = "text/plain") -> dict:
    return {"name": name, "mimeType": mime, "buffer": data}


def choose(page: Page, file: dict) -> None:
    page.locator("#import-file").set_input_files(file)


def stacks_of(page: Page, token: str) -> list:
    status, stacks = api(page, "GET", "/stacks", token=token)
    assert status == 200, stacks
    return stacks


def cards_of(page: Page, token: str, stack_id: str) -> list:
    status, body = api(page, "GET", f"/stacks/{stack_id}/cards?perPage=100", token=token)
    assert status == 200, body
    return body["items"]


def signed_in(page: Page, name: str = "Mara") -> dict:
    account = signup_via_api(page, name=name)
    sign_in_storage(page, account)
    return account



def show_saving_once(page, total: int, message: str, polls: int = 1) -> None:
    """Answers the first poll (or `polls` polls) of the import job with "saving" (the real job is too
    quick to be seen)."""
    seen = {"n": 0}

    def saving_once(route):
        seen["n"] += 1
        if seen["n"] > polls:
            route.continue_()
            return
        job = route.fetch().json()
        job.update(status="running", result=None,
                   progress={"stage": "saving", "current": 0, "total": total, "cardsCreated": 0, "message": message})
        route.fulfill(status=200, content_type="application/json", body=json.dumps(job))

    page.route("**/api/v1/jobs/*", saving_once)

def test_quizlet_tsv_into_a_new_stack(page: Page):
    account = signed_in(page)
    page.goto("/app/stacks")
    page.get_by_role("link", name="Importieren").click()
    expect(page).to_have_url(re.compile(r"/app/import$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Karten importieren")
    expect(page.get_by_role("heading", level=1)).to_be_focused()
    expect(page.get_by_text("So bekommst du deine Karten in eine Datei")).to_be_visible()  # the empty state
    shot(page, "i01-import-empty")

    choose(page, tsv("Vokabeln_Englisch.txt"))
    expect(page.get_by_text("Ausgewählt: Vokabeln_Englisch.txt")).to_be_visible()
    facts = page.locator(".import-facts")
    expect(facts).to_contain_text("UTF-8")
    expect(facts).to_contain_text("Tabulator")
    expect(facts).to_contain_text("nein")
    expect(page.get_by_label("Trennzeichen", exact=True)).to_have_value("")
    expect(page.get_by_label("Trennzeichen", exact=True).locator("option:checked")).to_have_text("Automatisch (Tabulator)")
    expect(page.get_by_label("Die erste Zeile enthält die Spaltennamen")).not_to_be_checked()
    expect(page.locator(".import-table tbody tr")).to_have_count(3)
    expect(page.locator(".import-table tbody tr").nth(2)).to_contain_text("Maus, die")
    expect(page.locator(".import-count")).to_have_text("3 Karten werden importiert")
    expect(page.locator("#import-live")).to_have_text("3 Karten werden importiert")
    expect(page.get_by_label("Name des neuen Stapels")).to_have_value("Vokabeln Englisch")
    expect(page.get_by_role("radio", name=re.compile("^Neuer Stapel"))).to_be_checked()
    expect(page.get_by_role("radio", name=re.compile("^Vorhandener Stapel"))).to_be_hidden()  # no stack yet
    assert stacks_of(page, account["token"]) == []  # the preview writes nothing
    shot(page, "i02-import-preview")

    # The first look at the job answers "saving" (the real job is too quick to be seen).
    show_saving_once(page, 3, "3 Karten werden gespeichert …")
    page.get_by_role("button", name="Importieren", exact=True).click()
    expect(page.locator("#progress")).to_be_focused()
    expect(page.locator("#progress-text")).to_have_text("3 Karten werden gespeichert…")
    expect(page.get_by_role("progressbar", name="Fortschritt des Imports")).to_be_visible()
    shot(page, "i03-import-progress")
    done = page.get_by_role("heading", name="3 Karten importiert")
    expect(done).to_be_focused()
    expect(page.get_by_text("Der neue Stapel „Vokabeln Englisch“ ist bereit.")).to_be_visible()
    shot(page, "i03-import-done")
    page.unroute("**/api/v1/jobs/*")
    [stack] = stacks_of(page, account["token"])
    assert stack["name"] == "Vokabeln Englisch" and stack["cardCount"] == 3

    page.get_by_role("link", name="Zum Stapel").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Vokabeln Englisch")
    rows = page.locator(".cards-table tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("dog")
    expect(rows.first).to_contain_text("Hund")
    # The finished import is not in the history: Back goes to the library.
    page.go_back()
    expect(page).to_have_url(re.compile(r"/app/stacks$"))


def test_changing_the_mapping_swaps_front_and_back(page: Page):
    account = signed_in(page)
    page.goto("/app/import")
    # Dropped on the dropzone (a DataTransfer made in the page, as a drag from the desktop brings).
    files = page.evaluate_handle("""() => {
        const data = new DataTransfer();
        data.items.add(new File(['Frage;Antwort\\nHund;dog\\nKatze;cat\\n'], 'Tiere.csv', { type: 'text/csv' }));
        return data;
    }""")
    page.dispatch_event(".dropzone", "dragover", {"dataTransfer": files})
    expect(page.locator(".dropzone")).to_have_class(re.compile("is-dragover"))
    page.dispatch_event(".dropzone", "drop", {"dataTransfer": files})
    expect(page.get_by_text("Ausgewählt: Tiere.csv")).to_be_visible()
    expect(page.locator(".import-facts")).to_contain_text("Semikolon")
    expect(page.get_by_label("Die erste Zeile enthält die Spaltennamen")).to_be_checked()
    front, back = page.get_by_label("Vorderseite", exact=True), page.get_by_label("Rückseite", exact=True)
    expect(front).to_have_value("0")
    expect(back).to_have_value("1")
    expect(front.locator("option")).to_have_text(["Frage (Spalte 1)", "Antwort (Spalte 2)"])
    expect(page.get_by_label("Hinweis", exact=True)).to_have_value("")
    expect(page.locator(".import-table thead th").first).to_contain_text("Vorderseite")

    front.focus()
    front.select_option("1")  # the back's column: the two swap
    expect(back).to_have_value("0")
    expect(front).to_have_value("1")
    expect(front).to_be_focused()  # the preview ran again and the focus stayed
    expect(page.locator(".import-table thead th").first).to_contain_text("Rückseite")
    expect(page.locator(".import-table thead th").nth(1)).to_contain_text("Vorderseite")
    expect(page.locator(".import-count")).to_have_text("2 Karten werden importiert")
    shot(page, "i04-import-mapping")

    # The header off: the first row becomes a card; the mapping chosen stays.
    page.get_by_label("Die erste Zeile enthält die Spaltennamen").uncheck()
    expect(page.locator(".import-count")).to_have_text("3 Karten werden importiert")
    expect(front).to_have_value("1")
    page.get_by_label("Die erste Zeile enthält die Spaltennamen").check()
    expect(page.locator(".import-count")).to_have_text("2 Karten werden importiert")

    page.get_by_role("button", name="Importieren", exact=True).click()
    expect(page.get_by_role("heading", name="2 Karten importiert")).to_be_visible()
    [stack] = stacks_of(page, account["token"])
    cards = cards_of(page, account["token"], stack["id"])
    assert [(c["question"], c["answer"]) for c in cards] == [("dog", "Hund"), ("cat", "Katze")]


def test_separator_choices_rerun_the_preview(page: Page):
    signed_in(page)
    page.goto("/app/import")
    choose(page, tsv("pipes.txt", "Haus|house\nBaum|tree\n".encode()))
    # No tab, semicolon or comma: one column, so every row lacks a back.
    expect(page.locator("#problems strong")).to_have_text("2 Zeilen können so nicht importiert werden")
    expect(page.locator("#problems li").first).to_have_text("Zeile 1: Die Zeile hat keine Spalte für Vorder- und Rückseite.")
    separator = page.get_by_label("Trennzeichen", exact=True)
    separator.select_option("custom")
    custom = page.get_by_label("Eigenes Trennzeichen")
    expect(custom).to_be_focused()
    custom.fill('"')
    expect(page.locator("#separator-custom-error")).to_have_text("Gib genau ein Zeichen ein (kein Anführungszeichen).")
    custom.fill("|")
    expect(page.locator(".import-count")).to_have_text("2 Karten werden importiert")
    expect(page.locator(".import-facts")).to_contain_text("„|“")
    expect(custom).to_have_value("|")
    separator.select_option(",")
    expect(page.locator("#problems strong")).to_have_text("2 Zeilen können so nicht importiert werden")
    expect(custom).to_be_hidden()


def test_a_bad_row_is_shown_and_the_import_refused(page: Page):
    account = signed_in(page)
    page.goto("/app/import")
    choose(page, tsv("Fehler.csv", BAD_ROW, "text/csv"))
    problems = page.locator("#problems")
    expect(problems).to_contain_text("1 Zeile kann so nicht importiert werden")
    expect(problems.locator("li")).to_have_text(["Zeile 3: Die Rückseite ist leer."])
    expect(problems).to_contain_text("Korrigiere die Datei oder die Zuordnung")
    expect(page.locator("#import-live")).to_have_text("1 Zeile kann so nicht importiert werden")
    submit = page.get_by_role("button", name="Importieren", exact=True)
    expect(submit).to_have_attribute("aria-disabled", "true")
    shot(page, "i05-import-problem")
    submit.click(force=True)  # aria-disabled: still focusable and clickable, it says why
    expect(page.get_by_text("Behebe zuerst die Probleme der Datei")).to_be_visible()
    expect(problems).to_be_focused()
    assert stacks_of(page, account["token"]) == []

    # Were the preview to miss it, the job refuses the file too: all or nothing.
    def hide_problems(route):
        response = route.fetch()
        preview = response.json()
        preview.update(problems=[], rejected=0)
        route.fulfill(response=response, body=json.dumps(preview))

    page.route("**/api/v1/imports/preview", hide_problems)
    page.get_by_label("Trennzeichen", exact=True).select_option(";")  # runs the preview again
    expect(page.locator(".import-count")).to_have_text("2 Karten werden importiert")
    expect(submit).to_have_attribute("aria-disabled", "false")
    submit.click()
    failure = page.locator("#import-error")
    expect(failure).to_be_focused()
    expect(failure).to_contain_text("Nichts importiert")
    expect(failure).to_contain_text("Zeile 3: Die Rückseite ist leer.")
    shot(page, "i06-import-failed")
    assert stacks_of(page, account["token"]) == []

    # "Neu beginnen" goes back to the empty page with the file button focused.
    page.get_by_role("button", name="Neu beginnen").click()
    expect(page.locator("#import-file")).to_be_focused()
    expect(page.locator("#preview")).to_be_hidden()
    expect(page.get_by_text("So bekommst du deine Karten in eine Datei")).to_be_visible()


def test_import_into_an_existing_stack_from_its_page(page: Page):
    account = signed_in(page)
    token = account["token"]
    stack = make_stack(page, token, "Spanisch", 1)
    make_stack(page, token, "Anderer Stapel")
    page.goto(f"/app/stacks/{stack['id']}")
    page.get_by_role("link", name="Karten importieren").click()
    expect(page).to_have_url(re.compile(rf"/app/import\?stack={stack['id']}$"))
    expect(page.get_by_role("navigation", name="Breadcrumb")).to_contain_text("Spanisch")

    choose(page, tsv("spanisch.txt", "perro\tHund\ngato\tKatze\n".encode()))
    expect(page.locator(".import-count")).to_have_text("2 Karten werden importiert")
    expect(page.get_by_role("radio", name=re.compile("^Vorhandener Stapel"))).to_be_checked()
    expect(page.get_by_label("Stapel", exact=True)).to_have_value(stack["id"])
    expect(page.get_by_label("Name des neuen Stapels")).to_be_hidden()
    shot(page, "i14-import-existing")
    page.get_by_role("button", name="Importieren", exact=True).click()
    expect(page.get_by_role("heading", name="2 Karten importiert")).to_be_visible()
    expect(page.get_by_text("Die Karten sind jetzt im Stapel „Spanisch“.")).to_be_visible()
    assert len(stacks_of(page, token)) == 2

    # "Zum Stapel" steps back to the stack's page it came from, now with three cards.
    page.get_by_role("link", name="Zum Stapel").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    expect(page.get_by_text("1–3 von 3")).to_be_visible()
    expect(page.locator(".cards-table")).to_contain_text("perro")
    assert [c["question"] for c in cards_of(page, token, stack["id"])] == ["Spanisch Frage 1", "perro", "gato"]


def test_english(make_page):
    page = make_page(locale="en-US")
    account = signed_in(page)
    page.goto("/app/stacks")
    page.get_by_role("link", name="Import", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Import cards")
    expect(page.get_by_text("How to get your cards into a file")).to_be_visible()
    choose(page, tsv("errors.csv", BAD_ROW, "text/csv"))
    expect(page.locator(".import-facts")).to_contain_text("Semicolon")
    expect(page.locator("#problems")).to_contain_text("1 row cannot be imported like this")
    expect(page.locator("#problems li")).to_have_text(["Line 3: The back is empty."])
    expect(page.get_by_label("Front", exact=True)).to_have_value("0")
    page.get_by_role("button", name="Start over").click()
    choose(page, tsv("animals.txt"))
    expect(page.locator(".import-count")).to_have_text("3 cards will be imported")
    expect(page.get_by_label("Separator", exact=True).locator("option:checked")).to_have_text("Automatic (Tab)")
    expect(page.get_by_label("Name of the new stack")).to_have_value("animals")
    shot(page, "i07-import-english")
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_role("heading", name="3 cards imported")).to_be_visible()
    expect(page.get_by_text("The new stack “animals” is ready.")).to_be_visible()
    [stack] = stacks_of(page, account["token"])
    page.goto(f"/app/stacks/{stack['id']}")
    expect(page.get_by_role("link", name="Import cards")).to_be_visible()
    expect(page.get_by_text("Export", exact=True)).to_be_visible()


def test_unsupported_and_refused_files(make_page):
    page = make_page()
    signed_in(page)
    page.goto("/app/import")
    error = page.locator("#file-error")
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"
    choose(page, {"name": "bild.png", "mimeType": "image/png", "buffer": png})
    expect(error).to_have_text("Diese Datei kann nicht importiert werden. Erlaubt sind CSV- und TSV-Dateien "
                               "(auch aus Quizlet), Anki-Pakete (.apkg) und Sicherungen von Smart Flashcards (.json).")  # the server's reason
    expect(page.locator("#preview")).to_be_hidden()
    shot(page, "i08-import-unsupported")
    apkg = b"PK\x03\x04" + b"\x00" * 40  # a zip's start, nothing readable after it
    choose(page, {"name": "Deck.apkg", "mimeType": "application/zip", "buffer": apkg})
    expect(error).to_have_text("Die Datei ist kein gültiges Anki-Paket (.apkg).")
    choose(page, tsv("leer.csv", b""))
    expect(error).to_have_text("Die Datei ist leer.")

    # Too large (the server's 413) and no connection: said, nothing shown as a preview.
    page.route("**/api/v1/imports/preview", lambda route: route.fulfill(
        status=413, content_type="application/json",
        body=json.dumps({"code": "payload_too_large", "message": "Die Datei ist zu groß."})))
    choose(page, tsv("gross.txt"))
    expect(error).to_have_text("Die Datei ist größer als 100 MB.")
    page.unroute("**/api/v1/imports/preview")
    page.route("**/api/v1/imports/preview", lambda route: route.abort())
    choose(page, tsv("netz.txt"))
    expect(error).to_contain_text("Keine Verbindung zum Server.")
    shot(page, "i15-import-offline")
    page.unroute("**/api/v1/imports/preview")
    error.get_by_role("button", name="Erneut versuchen").click()  # the same file, asked again
    expect(error).to_be_hidden()
    expect(page.locator(".import-count")).to_have_text("3 Karten werden importiert")
    expect(page.get_by_label("Name des neuen Stapels")).to_have_value("netz")

    english = make_page(locale="en-US")
    signed_in(english)
    english.goto("/app/import")
    english.locator("#import-file").set_input_files({"name": "Deck.apkg", "mimeType": "application/zip", "buffer": apkg})
    expect(english.locator("#file-error")).to_have_text(
        "This zip file is not an Anki package that can be read. Export the deck in Anki as “Anki Deck Package (.apkg)”.")
    english.locator("#import-file").set_input_files({"name": "bild.png", "mimeType": "image/png", "buffer": png})
    expect(english.locator("#file-error")).to_have_text(
        "This file cannot be imported. CSV and TSV files (also from Quizlet), Anki packages (.apkg) and Smart Flashcards "
        "backups (.json) are allowed.")


def test_export_downloads_csv_and_tsv(page: Page):
    account = signed_in(page)
    stack = make_stack(page, account["token"], "Über Zellen", 2)
    page.goto(f"/app/stacks/{stack['id']}")
    menu = page.locator("#export-menu")
    page.get_by_text("Exportieren", exact=True).click()
    expect(page.get_by_role("button", name="CSV (Excel)")).to_be_visible()
    shot(page, "i09-export-menu")
    with page.expect_download() as info:
        page.get_by_role("button", name="CSV (Excel)").click()
    download = info.value
    assert download.suggested_filename == "Über Zellen.csv"
    data = open(download.path(), "rb").read()
    assert data.startswith("\ufeffVorderseite,Rückseite,Hinweis,Schlagwörter\r\n".encode())
    assert "Über Zellen Frage 1,Antwort 1".encode() in data
    expect(menu).not_to_have_attribute("open", "")

    # TSV by keyboard: the menu opens with Enter and closes with Escape.
    summary = menu.locator("summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="TSV (Quizlet, Anki)")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="TSV (Quizlet, Anki)")).to_be_hidden()
    expect(summary).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="TSV (Quizlet, Anki)")).to_be_focused()
    with page.expect_download() as info:
        page.keyboard.press("Enter")
    assert info.value.suggested_filename == "Über Zellen.tsv"
    text = open(info.value.path(), "rb").read().decode()
    assert text.startswith("Über Zellen Frage 1\tAntwort 1")

    # An Anki package: a zip with the collection (the API tests open it with the real Anki).
    page.get_by_text("Exportieren", exact=True).click()
    with page.expect_download() as info:
        page.get_by_role("button", name="Anki (.apkg, mit Verlauf)").click()
    assert info.value.suggested_filename == "Über Zellen.apkg"
    package = zipfile.ZipFile(info.value.path())
    assert package.namelist() == ["collection.anki21", "media"]

    # A failed download says so.
    page.route("**/export?format=csv", lambda route: route.fulfill(
        status=500, content_type="application/json", body=json.dumps({"code": "internal", "message": "Fehler"})))
    page.get_by_text("Exportieren", exact=True).click()
    page.get_by_role("button", name="CSV (Excel)").click()
    expect(page.locator(".toast-error")).to_have_text("Der Export ist fehlgeschlagen. Bitte versuche es erneut.")


def test_keyboard_path(page: Page):
    # Chooser dialogs are intercepted from the start (enabling it races with the first key press).
    page.on("filechooser", lambda _chooser: None)
    account = signed_in(page)
    page.goto("/app/stacks")
    page.get_by_role("link", name="Importieren").focus()
    page.keyboard.press("Enter")
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Karten importieren")
    expect(heading).to_be_focused()
    page.keyboard.press("Tab")
    file_input = page.locator("#import-file")
    expect(file_input).to_be_focused()
    # The dropzone shows the focus ring of its input.
    outline = page.locator(".dropzone").evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline == "solid"
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Enter")
    chooser.value.set_files(tsv("Tastatur.txt"))
    expect(page.locator(".import-count")).to_have_text("3 Karten werden importiert")
    expect(file_input).to_be_focused()  # the preview does not take the focus
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Neu beginnen")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_label("Trennzeichen", exact=True)).to_be_focused()
    page.get_by_role("button", name="Importieren", exact=True).focus()
    page.keyboard.press("Enter")
    done = page.get_by_role("heading", name="3 Karten importiert")
    expect(done).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Zum Stapel")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Weitere Datei importieren")).to_be_focused()
    page.keyboard.press("Enter")
    expect(file_input).to_be_focused()
    expect(page.locator("#preview")).to_be_hidden()
    # The stack just made is offered as an existing one now.
    choose(page, tsv("Noch mehr.txt"))
    existing = page.get_by_role("radio", name=re.compile("^Vorhandener Stapel"))
    expect(existing).to_be_visible()
    [stack] = stacks_of(page, account["token"])
    existing.check()
    expect(page.get_by_label("Stapel", exact=True)).to_have_value(stack["id"])
    expect(page.get_by_label("Stapel", exact=True).locator("option:checked")).to_have_text("Tastatur")


def test_phone_light_and_dark(make_page):
    wide = ("Begriff;Bedeutung;Hinweis;Schlagwörter;Quelle;Kapitel\n" + "".join(
        f"Ein sehr langer Begriff Nummer {i} ohne Umbruch;Eine ebenso lange Erklärung, die nicht auf den Bildschirm passt {i};"
        f"Tipp {i};bio zelle;Lehrbuch Seite {i * 7};Kapitel {i}\n" for i in range(1, 26))).encode()
    for scheme in ("light", "dark"):
        page = make_page(**PHONE, color_scheme=scheme)
        account = signed_in(page, name="Handy")
        stack = make_stack(page, account["token"], "Unterwegs", 3)
        page.goto("/app/stacks")
        expect(page.get_by_role("link", name="Importieren")).to_be_visible()
        assert page.evaluate(NO_OVERFLOW)
        assert_touch_targets(page)
        shot(page, f"i10-phone-library-{scheme}")

        page.goto("/app/import")
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert page.evaluate(NO_OVERFLOW)
        assert_touch_targets(page)
        page.locator("#import-file").set_input_files(tsv("Biologie_Lehrbuch.csv", wide, "text/csv"))
        expect(page.locator(".import-count")).to_have_text("25 Karten werden importiert")
        expect(page.locator(".import-table tbody tr")).to_have_count(20)
        expect(page.locator(".import-table-wrap")).to_have_attribute("role", "region")
        page.wait_for_timeout(200)
        assert page.evaluate(NO_OVERFLOW), "the table scrolls in its box, not the page"
        assert page.locator(".import-table-wrap").evaluate("el => el.scrollWidth > el.clientWidth")
        assert_touch_targets(page)
        shot(page, f"i11-phone-import-{scheme}")
        page.get_by_role("button", name="Importieren", exact=True).tap()
        expect(page.get_by_role("heading", name="25 Karten importiert")).to_be_visible()
        assert page.evaluate(NO_OVERFLOW)
        assert_touch_targets(page)
        shot(page, f"i12-phone-import-done-{scheme}")

        page.goto(f"/app/stacks/{stack['id']}")
        page.get_by_text("Exportieren", exact=True).tap()
        expect(page.get_by_role("button", name="TSV (Quizlet, Anki)")).to_be_visible()
        assert page.evaluate(NO_OVERFLOW)
        assert_touch_targets(page)
        shot(page, f"i13-phone-stack-export-{scheme}")


# --- Anki packages --------------------------------------------------------------------------------

def anki(name: str) -> str:
    """The path of a fixture package (README.md next to them says what each holds)."""
    return str(ANKI / name)


def empty_back_package() -> dict:
    """legacy-genanki.apkg with the back of note 1709287200007 ("Ist das harmlos?") emptied: a note
    that breaks a rule, as a file for set_input_files."""
    with zipfile.ZipFile(anki("legacy-genanki.apkg")) as package:
        entries = {name: package.read(name) for name in package.namelist()}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "collection.anki2"
        path.write_bytes(entries["collection.anki2"])
        db = sqlite3.connect(path)
        db.execute("UPDATE notes SET flds = ? WHERE id = 1709287200007", ("Ist das <i>harmlos</i>?\x1f",))
        db.commit()
        db.close()
        entries["collection.anki2"] = path.read_bytes()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as package:
        for name, data in entries.items():
            package.writestr(name, data)
    return {"name": "Leere Rueckseite.apkg", "mimeType": "application/octet-stream", "buffer": out.getvalue()}


def drop(page: Page, name: str, data: bytes) -> None:
    """Drops a file on the dropzone, as a drag from the desktop brings it."""
    files = page.evaluate_handle("""([name, b64]) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], name, { type: '' }));
        return data;
    }""", [name, base64.b64encode(data).decode()])
    page.dispatch_event(".dropzone", "dragover", {"dataTransfer": files})
    page.dispatch_event(".dropzone", "drop", {"dataTransfer": files})


def imported_reviews(stack_ids: list[str]) -> int:
    """Review log entries of the stacks, read from the server's SQLite file (read-only)."""
    assert DATA_DIR, "scripts/test-web sets FLASHCARDS_TEST_DATA_DIR"
    db = sqlite3.connect(f"file:{Path(DATA_DIR) / 'flashcards.sqlite'}?mode=ro", uri=True, timeout=10)
    try:
        marks = ",".join("upper(?)" for _ in stack_ids)
        return db.execute(
            f"SELECT count(*) FROM review_logs r JOIN stacks s ON s.id = r.stack_id WHERE upper(s.unique_id) IN ({marks})",
            stack_ids).fetchone()[0]
    finally:
        db.close()


def test_anki_package_each_deck_its_own_stack(page: Page):
    account = signed_in(page)
    page.goto("/app/import")
    expect(page.locator("#import-file")).to_have_attribute("accept", re.compile(r"(^|,)\.apkg(,|$)"))
    tips = page.locator("#tips")
    expect(tips).to_contain_text("Anki (empfohlen): „Datei → Exportieren…“, als Format „Anki-Stapelpaket (.apkg)“")
    expect(tips).to_contain_text("„Einschließlich Zeitplanung“")

    choose(page, anki("modern.apkg"))
    expect(page.get_by_text("Ausgewählt: modern.apkg")).to_be_visible()
    facts = page.locator(".import-facts")
    expect(facts).to_contain_text("Anki-Paket (.apkg)")
    expect(facts.locator("div")).to_have_text(
        ["FormatAnki-Paket (.apkg)", "Notizen5", "Karten7", "Wiederholungen18"])
    # No separator, header or mapping for a package.
    for control in ("#separator", "#has-header", "#map-front", ".import-mapping"):
        expect(page.locator(control)).to_have_count(0)
    decks = page.locator(".import-decks")
    expect(decks.locator("caption")).to_have_text("Die 2 Decks im Paket")
    expect(decks.locator("thead th")).to_have_text(["Deck", "Karten", "Wiederholungen"])
    expect(decks.locator("tbody tr")).to_have_text(["Biologie 3 3", "Biologie::Zellen 4 15"], use_inner_text=True)
    notes = page.locator("#preview .import-notes li")
    expect(notes.first).to_have_text(
        "Der Lernverlauf (18 Wiederholungen) wird übernommen, damit die Planung dort weitermacht, wo Anki aufgehört hat.")
    expect(notes.nth(1)).to_have_text(
        "2 Mediendateien im Paket: Bilder (JPEG, PNG, GIF, WebP) kommen mit auf die Karten, Töne nicht.")
    qa = page.locator(".import-qa")
    expect(qa.locator("caption")).to_have_text("Alle 7 Karten des Pakets")
    expect(qa.locator("thead th")).to_have_text(["Vorderseite", "Rückseite"])
    expect(qa.locator("tbody tr")).to_have_count(7)
    expect(qa.locator("tbody tr").first).to_contain_text("Was ist die Mitochondrie?")
    expect(qa).to_contain_text("Nein, <script> ist gefährlich.")  # text, never markup
    expect(qa.locator("script")).to_have_count(0)
    expect(page.locator(".import-count")).to_have_text("7 Karten werden importiert")
    expect(page.locator("#import-live")).to_have_text("7 Karten werden importiert")

    each = page.get_by_role("radio", name=re.compile("^Jedes Deck wird ein eigener Stapel"))
    expect(each).to_be_checked()
    expect(page.get_by_text("2 neue Stapel, benannt wie die Decks")).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile("^Alles in einen neuen Stapel"))).not_to_be_checked()
    expect(page.get_by_label("Name des neuen Stapels")).to_be_hidden()
    expect(page.get_by_role("radio", name=re.compile("^Vorhandener Stapel"))).to_have_count(0)  # no stack yet
    assert stacks_of(page, account["token"]) == []  # the preview writes nothing
    shot(page, "i16-anki-preview")

    # The first look at the job answers "saving" (the real job is too quick to be seen).
    show_saving_once(page, 7, "7 Karten und 18 Wiederholungen werden gespeichert …")
    page.get_by_role("button", name="Importieren", exact=True).click()
    expect(page.locator("#progress-text")).to_have_text("7 Karten und ihr Lernverlauf werden gespeichert…")
    done = page.locator("#done")
    expect(page.get_by_role("heading", name="7 Karten importiert")).to_be_focused()
    page.unroute("**/api/v1/jobs/*")
    expect(done).to_contain_text("2 Stapel sind bereit:")
    expect(done.locator(".import-stacks li")).to_have_text(["Biologie 3 Karten", "Biologie::Zellen 4 Karten"],
                                                            use_inner_text=True)
    # Both media files are images the cards show: none is left out.
    expect(done.locator(".import-notes li")).to_have_text(
        ["18 Wiederholungen aus dem Lernverlauf übernommen", "2 Bilder auf die Karten übernommen"])
    expect(page.get_by_role("link", name="Zu deinen Stapeln")).to_have_attribute("href", "/app/stacks")
    shot(page, "i17-anki-done")

    stacks = {s["name"]: s for s in stacks_of(page, account["token"])}
    assert {name: s["cardCount"] for name, s in stacks.items()} == {"Biologie": 3, "Biologie::Zellen": 4}
    assert imported_reviews([s["id"] for s in stacks.values()]) == 18
    zellen = stacks["Biologie::Zellen"]
    page.get_by_role("link", name="Biologie::Zellen").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{zellen['id']}$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Biologie::Zellen")
    expect(page.locator(".cards-table tbody tr")).to_have_count(4)
    page.go_back()  # the finished import is not in the history
    expect(page).not_to_have_url(re.compile(r"/app/import"))


def test_anki_package_into_one_new_stack_by_drag_and_drop(page: Page):
    account = signed_in(page)
    page.goto("/app/import")
    drop(page, "legacy-genanki.apkg", Path(anki("legacy-genanki.apkg")).read_bytes())
    expect(page.get_by_text("Ausgewählt: legacy-genanki.apkg")).to_be_visible()
    expect(page.locator(".import-decks tbody tr")).to_have_text(["Biologie 3 0", "Biologie::Zellen 4 0"],
                                                                use_inner_text=True)
    expect(page.locator("#preview .import-notes li").first).to_have_text(
        "Das Paket enthält keinen Lernverlauf: Die Karten beginnen als neue Karten.")
    expect(page.locator(".import-count")).to_have_text("7 Karten werden importiert")

    page.get_by_role("radio", name=re.compile("^Alles in einen neuen Stapel")).check()
    name = page.get_by_label("Name des neuen Stapels")
    expect(name).to_be_visible()
    expect(name).to_have_value("legacy-genanki")
    name.fill("")
    page.get_by_role("button", name="Importieren", exact=True).click()
    expect(page.get_by_text("Gib dem Stapel einen Namen")).to_be_visible()
    expect(name).to_be_focused()
    name.fill("Biologie komplett")
    shot(page, "i18-anki-one-stack")
    page.get_by_role("button", name="Importieren", exact=True).click()
    expect(page.get_by_role("heading", name="7 Karten importiert")).to_be_focused()
    expect(page.get_by_text("Der neue Stapel „Biologie komplett“ ist bereit.")).to_be_visible()
    # No history to take over and no media file left out: both are images the cards now show.
    expect(page.locator("#done .import-notes li")).to_have_text(["2 Bilder auf die Karten übernommen"])
    [stack] = stacks_of(page, account["token"])
    assert stack["name"] == "Biologie komplett" and stack["cardCount"] == 7
    questions = [c["question"] for c in cards_of(page, account["token"], stack["id"])]
    assert "Was ist die Mitochondrie?" in questions and "Photosynthese" in questions
    assert imported_reviews([stack["id"]]) == 0
    page.get_by_role("link", name="Zum Stapel").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))


def test_anki_package_into_an_existing_stack(page: Page):
    account = signed_in(page)
    token = account["token"]
    stack = make_stack(page, token, "Biologie Kurs", 1)
    page.goto(f"/app/import?stack={stack['id']}")
    choose(page, anki("modern.apkg"))
    expect(page.locator(".import-count")).to_have_text("7 Karten werden importiert")
    # Opened from a stack's page: that stack is the target; the other two are offered.
    expect(page.get_by_role("radio", name=re.compile("^Vorhandener Stapel"))).to_be_checked()
    expect(page.get_by_role("radio", name=re.compile("^Jedes Deck wird ein eigener Stapel"))).not_to_be_checked()
    expect(page.get_by_label("Stapel", exact=True)).to_have_value(stack["id"])
    page.get_by_role("button", name="Importieren", exact=True).click()
    expect(page.get_by_role("heading", name="7 Karten importiert")).to_be_visible()
    expect(page.get_by_text("Die Karten sind jetzt im Stapel „Biologie Kurs“.")).to_be_visible()
    expect(page.get_by_text("18 Wiederholungen aus dem Lernverlauf übernommen")).to_be_visible()
    expect(page.get_by_text("2 Bilder auf die Karten übernommen")).to_be_visible()
    [only] = stacks_of(page, token)
    assert only["id"] == stack["id"] and only["cardCount"] == 8
    assert imported_reviews([stack["id"]]) == 18

    # Another package after that starts from "each deck" again only when no stack was given.
    page.get_by_role("button", name="Weitere Datei importieren").click()
    choose(page, tsv("liste.txt"))
    expect(page.get_by_role("radio", name=re.compile("^Jedes Deck"))).to_have_count(0)  # CSV: no decks
    expect(page.get_by_role("radio", name=re.compile("^Vorhandener Stapel"))).to_be_checked()


def test_refused_and_broken_anki_packages(page: Page):
    account = signed_in(page)
    page.goto("/app/import")
    error = page.locator("#file-error")
    # Refused at upload, with the server's reason.
    choose(page, anki("not-anki.zip"))
    expect(error).to_have_text(
        "Die Zip-Datei ist kein Anki-Paket: Es fehlt die Sammlung (collection.anki2, .anki21 oder .anki21b).")
    expect(page.locator("#preview")).to_be_hidden()
    shot(page, "i19-anki-not-a-package")
    choose(page, anki("traversal.apkg"))
    expect(error).to_have_text("Das Paket enthält einen unzulässigen Dateinamen: ../../evil.txt")
    expect(page.locator("#preview")).to_be_hidden()

    # Read, but not importable: the problem translated, the import refused.
    choose(page, anki("corrupt-collection.apkg"))
    expect(error).to_be_hidden()
    problems = page.locator("#problems")
    expect(problems.locator("strong")).to_have_text("Das Paket kann so nicht importiert werden")
    expect(problems.locator("li")).to_have_text(["Die Sammlung im Anki-Paket ist beschädigt und kann nicht gelesen werden."])
    expect(problems).to_contain_text("Exportiere den Stapel in Anki noch einmal")
    expect(page.locator(".import-facts")).to_have_text("FormatAnki-Paket (.apkg)")
    expect(page.locator(".import-decks")).to_have_count(0)
    submit = page.get_by_role("button", name="Importieren", exact=True)
    expect(submit).to_have_attribute("aria-disabled", "true")
    shot(page, "i20-anki-corrupt")
    submit.click(force=True)
    expect(page.get_by_text("Behebe zuerst die Probleme der Datei")).to_be_visible()
    expect(problems).to_be_focused()

    choose(page, anki("zip-bomb.apkg"))
    expect(problems.locator("li")).to_have_text(["Das Paket entpackt sich zu mehr als 512 MB und wird nicht gelesen."])

    # A note that breaks a rule: named by its id; the other cards are still shown.
    choose(page, empty_back_package())
    expect(problems.locator("strong")).to_have_text("1 Notiz kann so nicht importiert werden")
    expect(problems.locator("li")).to_have_text(["Notiz 1709287200007: Die Rückseite ist leer."])
    expect(problems).to_contain_text("Korrigiere die Notizen in Anki und exportiere das Paket erneut")
    expect(page.locator(".import-decks tbody tr")).to_have_text(["Biologie 3 0", "Biologie::Zellen 3 0"],
                                                                use_inner_text=True)
    expect(submit).to_have_attribute("aria-disabled", "true")
    shot(page, "i21-anki-note-problem")
    assert stacks_of(page, account["token"]) == []

    # Were the preview to miss it, the job refuses the package too (all or nothing), in its words.
    # (A sound package's preview stands in: an intercepted upload loses its binary body.)
    sound = page.request.post(
        f"{BASE_URL}/api/v1/imports/preview", headers={"Authorization": f"Bearer {account['token']}"},
        multipart={"file": {"name": "modern.apkg", "mimeType": "application/octet-stream",
                            "buffer": Path(anki("modern.apkg")).read_bytes()}, "options": "{}"})
    assert sound.status == 200, sound.text()
    page.route("**/api/v1/imports/preview", lambda route: route.fulfill(
        status=200, content_type="application/json", body=sound.text()))
    choose(page, anki("corrupt-collection.apkg"))
    expect(submit).to_have_attribute("aria-disabled", "false")
    submit.click()
    failure = page.locator("#import-error")
    expect(failure).to_be_focused()
    expect(failure).to_contain_text("Nichts importiert")
    expect(failure).to_contain_text("Die Sammlung im Anki-Paket ist beschädigt und kann nicht gelesen werden.")
    expect(failure).to_contain_text("Korrigiere das Paket in Anki")
    assert stacks_of(page, account["token"]) == []


def test_anki_package_in_english(make_page):
    page = make_page(locale="en-US")
    account = signed_in(page)
    page.goto("/app/import")
    expect(page.locator("#tips")).to_contain_text(
        "Anki (recommended): “File → Export…”, choose “Anki Deck Package (.apkg)” and tick “Include scheduling information”.")
    choose(page, anki("modern.apkg"))
    expect(page.locator(".import-facts div")).to_have_text(["FormatAnki package (.apkg)", "Notes5", "Cards7", "Reviews18"])
    expect(page.locator(".import-decks caption")).to_have_text("The 2 decks in the package")
    expect(page.locator("#preview .import-notes li")).to_have_text([
        "The review history (18 reviews) comes along, so scheduling carries on where Anki left off.",
        "2 media files in the package: images (JPEG, PNG, GIF, WebP) come along on the cards, sounds do not."])
    expect(page.locator(".import-qa thead th")).to_have_text(["Front", "Back"])
    expect(page.get_by_role("radio", name=re.compile("^Each deck becomes its own stack"))).to_be_checked()
    expect(page.get_by_role("radio", name=re.compile("^Everything into one new stack"))).to_be_visible()
    expect(page.locator(".import-count")).to_have_text("7 cards will be imported")
    shot(page, "i22-anki-english")
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_role("heading", name="7 cards imported")).to_be_visible()
    expect(page.get_by_text("2 stacks are ready:")).to_be_visible()
    expect(page.locator("#done .import-stacks li")).to_have_text(["Biologie 3 cards", "Biologie::Zellen 4 cards"],
                                                                 use_inner_text=True)
    expect(page.locator("#done .import-notes li")).to_have_text(
        ["18 reviews taken over from the history", "2 images brought onto the cards"])
    assert len(stacks_of(page, account["token"])) == 2

    page.get_by_role("button", name="Import another file").click()
    error = page.locator("#file-error")
    choose(page, anki("not-anki.zip"))
    expect(error).to_have_text(
        "This zip file is not an Anki package that can be read. Export the deck in Anki as “Anki Deck Package (.apkg)”.")
    choose(page, anki("traversal.apkg"))
    expect(error).to_have_text("The package contains a file name that is not allowed (../../evil.txt) and is not read.")
    choose(page, anki("corrupt-collection.apkg"))
    problems = page.locator("#problems")
    expect(problems.locator("strong")).to_have_text("The package cannot be imported like this")
    expect(problems.locator("li")).to_have_text(["The collection in the Anki package is damaged and cannot be read."])
    expect(page.get_by_role("button", name="Import", exact=True)).to_have_attribute("aria-disabled", "true")
    choose(page, anki("zip-bomb.apkg"))
    expect(problems.locator("li")).to_have_text(["The package unpacks to more than 512 MB and is not read."])
    choose(page, empty_back_package())
    expect(problems.locator("strong")).to_have_text("1 note cannot be imported like this")
    expect(problems.locator("li")).to_have_text(["Note 1709287200007: The back is empty."])


def test_anki_package_on_a_phone_light_and_dark(make_page):
    for scheme in ("light", "dark"):
        page = make_page(**PHONE, color_scheme=scheme)
        account = signed_in(page, name="Handy")
        make_stack(page, account["token"], "Unterwegs", 1)
        page.goto("/app/import")
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        choose(page, anki("modern.apkg"))
        expect(page.locator(".import-count")).to_have_text("7 Karten werden importiert")
        page.wait_for_timeout(200)
        assert page.evaluate(NO_OVERFLOW), "the package's tables fit the phone"
        assert_touch_targets(page)
        shot(page, f"i23-phone-anki-{scheme}")
        page.get_by_role("button", name="Importieren", exact=True).tap()
        expect(page.get_by_role("heading", name="7 Karten importiert")).to_be_visible()
        assert page.evaluate(NO_OVERFLOW)
        assert_touch_targets(page)
        shot(page, f"i24-phone-anki-done-{scheme}")


def test_leaving_the_import_mid_poll_stops_the_polling(page: Page):
    """The router's clean-up contract: an import whose job still runs polls GET /jobs/{id} until the
    learner leaves the page; then the polling ends (the job itself is not cancelled: it lands)."""
    signed_in(page)
    polls: list[str] = []
    cancels: list[str] = []

    def running_forever(route):
        if route.request.method == "POST":
            cancels.append(route.request.url)
            route.continue_()
            return
        polls.append(route.request.url)
        job = route.fetch().json()
        job.update(status="running", result=None,
                   progress={"stage": "saving", "current": 0, "total": 3, "cardsCreated": 0, "message": ""})
        route.fulfill(status=200, content_type="application/json", body=json.dumps(job))

    page.route("**/api/v1/jobs/**", running_forever)
    page.goto("/app/import")
    choose(page, tsv("vokabeln.tsv"))
    expect(page.locator(".import-count")).to_contain_text("3")
    page.locator("#submit").click()
    expect(page.locator("#progress-text")).to_have_text("3 Karten werden gespeichert…")
    for _ in range(40):
        if len(polls) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(polls) >= 2, polls
    page.locator(".breadcrumb a").first.click()
    expect(page).to_have_url(re.compile(r"/app/stacks$"))
    expect(page.get_by_role("heading", name="Deine Stapel")).to_be_visible()
    page.wait_for_timeout(300)  # a poll already sent may still arrive
    seen = len(polls)
    page.wait_for_timeout(2500)  # more than three poll intervals
    assert len(polls) == seen, f"still polling after the page was left: {polls[seen:]}"
    assert cancels == [], "leaving must not cancel the import"

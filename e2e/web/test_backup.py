"""Backup and restore (issue 19) in the browser: the whole account downloaded from the settings ("Daten
& Sicherung": a zip holding backup.json with every stack, never the mail address), restored through
the settings into a fresh account (keyboard only: the file chooser, the progress, the summary, the
restored name, the stacks in the library), the calm refusal while the account has stacks (and the
server's 409 when stacks appeared meanwhile), broken and wrong files with the server's German reason
(and English), a stack's JSON export imported back as a copy with its history, a whole backup's
stacks in the import, a backup the import refuses, and the panel on a phone in light and dark."""

from __future__ import annotations

import io
import json
import re
import zipfile

from playwright.sync_api import Page, expect

from conftest import BASE_URL, SCREENSHOTS, make_stack, shot, sign_in_storage, signup_via_api
from test_import import PHONE, cards_of, choose, show_saving_once, stacks_of
from test_motivation import NO_OVERFLOW, assert_touch_targets, rate

DATE = r"\d{4}-\d{2}-\d{2}"


# --- helpers ------------------------------------------------------------------------------------

def account_with_stacks(page: Page, name: str = "Mara Quelle") -> dict:
    """An account with "Englisch" (3 cards, one rated) and "Biologie <Zellen>" (2 cards)."""
    account = signup_via_api(page, name=name)
    token = account["token"]
    english = make_stack(page, token, "Englisch", 3)
    make_stack(page, token, "Biologie <Zellen>", 2)
    rate(page, token, english, english["cards"][0])
    return account


def download(page: Page, token: str, path: str) -> bytes:
    """A file from the API (a backup, a stack's export), fetched with the token."""
    response = page.request.get(f"{BASE_URL}/api/v1{path}", headers={"Authorization": f"Bearer {token}"})
    assert response.status == 200, response.text()
    return response.body()


def backup_document(data: bytes) -> dict:
    """The backup.json of a zipped account backup (the zip holds nothing else)."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.namelist() == ["backup.json"]
    return json.loads(archive.read("backup.json"))


def upload(name: str, data: bytes, mime: str = "application/json") -> dict:
    return {"name": name, "mimeType": mime, "buffer": data}


def panel_shot(page: Page, name: str) -> None:
    """Saves the "Daten & Sicherung" panel as artifacts/screenshots/<name>.png (cut from the full page
    scrolled to the top, so the sticky header does not cover it)."""
    page.wait_for_timeout(120)
    page.evaluate("scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, clip=page.locator("#backup").bounding_box())


def open_settings(page: Page, account: dict) -> None:
    sign_in_storage(page, account)
    page.goto("/app/settings")
    expect(page.get_by_role("heading", name="Daten & Sicherung")).to_be_visible()


def restore_file(page: Page, file: dict) -> None:
    """Chooses `file` in the restore and starts it."""
    page.locator("#restore-file").set_input_files(file)
    page.get_by_role("button", name="Sicherung wiederherstellen").click()


# --- download -----------------------------------------------------------------------------------

def test_backup_download_from_settings(page: Page):
    account = account_with_stacks(page)
    open_settings(page, account)
    panel = page.locator("#backup")
    expect(panel).to_contain_text("alle deine Stapel mit Karten und Lernverlauf")
    # The account has stacks: the restore says why it waits, calmly, and offers the import instead.
    note = panel.locator("#restore-not-empty")
    expect(note).to_contain_text("Eine Sicherung wird in ein Konto ohne Stapel wiederhergestellt")
    expect(note).to_contain_text("In deinem Konto sind schon 2 Stapel.")
    expect(panel.locator("#restore-file")).to_have_count(0)
    expect(panel.get_by_role("link", name="Karten importieren")).to_have_attribute("href", "/app/import")
    panel_shot(page, "b01-backup-panel-with-stacks")

    with page.expect_download() as info:
        page.get_by_role("button", name="Sicherung herunterladen").click()
    download_ = info.value
    assert re.fullmatch(rf"Smart Flashcards Sicherung {DATE}\.zip", download_.suggested_filename), download_.suggested_filename
    data = open(download_.path(), "rb").read()
    document = backup_document(data)
    assert document["format"] == "smart-flashcards-backup" and document["scope"] == "account"
    stacks = {s["name"]: s for s in document["stacks"]}
    assert {name: len(s["cards"]) for name, s in stacks.items()} == {"Englisch": 3, "Biologie <Zellen>": 2}
    assert len(stacks["Englisch"]["reviews"]) == 1
    assert document["account"]["name"] == "Mara Quelle"
    assert account["mail"] not in zipfile.ZipFile(io.BytesIO(data)).read("backup.json").decode()
    expect(page.locator(".toast")).to_have_text("Die Sicherung ist heruntergeladen.")

    # A failed download says so.
    page.route("**/api/v1/me/backup*", lambda route: route.fulfill(
        status=500, content_type="application/json", body=json.dumps({"code": "internal", "message": "Fehler"})))
    page.get_by_role("button", name="Sicherung herunterladen").click()
    expect(page.locator(".toast-error")).to_have_text(
        "Die Sicherung konnte nicht heruntergeladen werden. Bitte versuche es erneut.")


# --- restore ------------------------------------------------------------------------------------

def test_restore_into_a_fresh_account_by_keyboard(page: Page):
    # Chooser dialogs are intercepted from the start (enabling it races with the first key press).
    page.on("filechooser", lambda _chooser: None)
    source = account_with_stacks(page)
    data = download(page, source["token"], "/me/backup?format=zip")
    fresh = signup_via_api(page, name="Neues Konto")
    open_settings(page, fresh)
    panel = page.locator("#backup")
    expect(panel).to_contain_text("Hol deine Stapel mit Karten und Lernverlauf aus einer Sicherung zurück")
    expect(page.locator("#restore-file")).to_have_attribute("accept", re.compile(r"\.json,\.zip"))
    panel_shot(page, "b02-backup-panel-empty-account")

    download_button = page.get_by_role("button", name="Sicherung herunterladen")
    download_button.focus()
    page.keyboard.press("Tab")
    file_input = page.locator("#restore-file")
    expect(file_input).to_be_focused()
    # The dropzone shows the focus ring of its input.
    assert page.locator("#restore-form .dropzone").evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
    page.keyboard.press("Tab")
    submit = page.get_by_role("button", name="Sicherung wiederherstellen")
    expect(submit).to_be_focused()
    page.keyboard.press("Enter")  # no file yet
    expect(page.locator("#restore-file-error")).to_have_text("Wähle zuerst die Datei deiner Sicherung aus.")
    expect(file_input).to_be_focused()
    expect(file_input).to_have_attribute("aria-invalid", "true")
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Enter")
    chooser.value.set_files(upload("Sicherung.zip", data, "application/zip"))
    expect(panel.get_by_text("Ausgewählt: Sicherung.zip")).to_be_visible()
    expect(page.locator("#restore-file-error")).to_have_count(0)
    page.keyboard.press("Tab")
    expect(submit).to_be_focused()

    # The first looks at the job answer "saving" (the real job is too quick to be seen).
    show_saving_once(page, 5, "5 Karten werden gespeichert …", polls=3)
    page.keyboard.press("Enter")
    expect(page.locator("#restore-progress")).to_be_focused()
    expect(page.locator("#restore-progress-text")).to_have_text("5 Karten und ihr Lernverlauf werden wiederhergestellt…")
    expect(page.get_by_role("progressbar", name="Fortschritt der Wiederherstellung")).to_be_visible()
    panel_shot(page, "b03-restore-progress")
    done = page.get_by_role("heading", name="2 Stapel mit 5 Karten wiederhergestellt")
    expect(done).to_be_focused()
    page.unroute("**/api/v1/jobs/*")
    expect(page.locator("#restore-done")).to_contain_text(
        "Dazu 1 Wiederholung aus deinem Lernverlauf. Name, Zeitzone und Einstellungen stammen jetzt aus der Sicherung.")
    # The page was drawn again with what the backup brought: the name in the profile and the header.
    expect(page.get_by_label("Name", exact=True)).to_have_value("Mara Quelle")
    expect(page.locator("app-header")).to_contain_text("Mara Quelle")
    panel_shot(page, "b04-restore-done")

    stacks = {s["name"]: s for s in stacks_of(page, fresh["token"])}
    assert {name: s["cardCount"] for name, s in stacks.items()} == {"Englisch": 3, "Biologie <Zellen>": 2}

    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Zu deinen Stapeln")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/app/stacks$"))
    expect(page.get_by_role("link", name=re.compile("^Englisch"))).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("^Biologie <Zellen>"))).to_be_visible()  # text, never markup

    # Now the account has stacks: another restore waits.
    page.goto("/app/settings")
    expect(page.locator("#restore-not-empty")).to_contain_text("In deinem Konto sind schon 2 Stapel.")


def test_restore_refused_when_the_account_has_stacks(page: Page):
    account = signup_via_api(page, name="Mit Stapel")
    make_stack(page, account["token"], "Spanisch", 1)
    open_settings(page, account)
    note = page.locator("#restore-not-empty")
    expect(note.locator("p")).to_have_text([
        re.compile(r"ohne Stapel wiederhergestellt, damit nichts doppelt vorkommt.* In deinem Konto ist schon ein Stapel\.$"),
        "Einzelne Stapel aus einer Sicherung kannst du jederzeit als Kopie importieren, samt Lernverlauf."])
    page.get_by_role("link", name="Karten importieren").click()
    expect(page).to_have_url(re.compile(r"/app/import$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Karten importieren")

    # A stack made elsewhere after the page showed the restore: the server refuses, nothing changes.
    empty = signup_via_api(page, name="Leer")
    data = download(page, account["token"], "/me/backup?format=zip")
    open_settings(page, empty)
    expect(page.locator("#restore-form")).to_be_visible()
    make_stack(page, empty["token"], "Inzwischen", 1)
    restore_file(page, upload("Sicherung.zip", data, "application/zip"))
    failure = page.locator("#restore-error")
    expect(failure).to_be_focused()
    expect(failure).to_contain_text("Nichts wiederhergestellt")
    expect(failure).to_contain_text("Eine Sicherung lässt sich nur in ein Konto ohne Stapel wiederherstellen.")
    expect(failure).to_contain_text("Dein Konto ist unverändert.")
    expect(page.get_by_role("button", name="Sicherung wiederherstellen")).to_be_enabled()
    panel_shot(page, "b05-restore-refused")
    assert [s["name"] for s in stacks_of(page, empty["token"])] == ["Inzwischen"]


def test_broken_and_wrong_files_show_the_servers_reason(make_page):
    page = make_page()
    source = account_with_stacks(page)
    backup = backup_document(download(page, source["token"], "/me/backup?format=zip"))
    [english] = [s for s in stacks_of(page, source["token"]) if s["name"] == "Englisch"]
    stack_export = download(page, source["token"], f"/stacks/{english['id']}/export?format=json")
    too_new = json.dumps({**backup, "version": 99}).encode()
    empty_back = json.loads(json.dumps(backup))
    empty_back["stacks"][0]["cards"][0]["answer"] = ""

    fresh = signup_via_api(page, name="Neu")
    open_settings(page, fresh)
    failure = page.locator("#restore-error")
    # Broken JSON: the job fails with the server's German reason.
    restore_file(page, upload("kaputt.json", b'{"format": "smart-flashcards-backup", '))
    expect(failure).to_be_focused()
    expect(failure).to_contain_text("Nichts wiederhergestellt")
    expect(failure).to_contain_text("Die Datei ist keine Sicherung von Smart Flashcards")
    panel_shot(page, "b06-restore-broken-file")
    # A stack's export is no account backup.
    restore_file(page, upload("Englisch.json", stack_export))
    expect(failure).to_contain_text("Die Datei enthält nur Stapel, keine Sicherung eines Kontos. Stapel lassen sich importieren.")
    # From a newer version (the server names it), and a card that breaks a rule (the server says where).
    restore_file(page, upload("neu.json", too_new))
    expect(failure).to_contain_text("Die Sicherung stammt aus einer neueren Version (99)")
    restore_file(page, upload("leer.json", json.dumps(empty_back).encode()))
    expect(failure).to_contain_text("Stapel 1 („Englisch“): Karte 1: Die Rückseite ist leer.")
    # Not a backup at all: refused at upload (415) with the server's reason.
    restore_file(page, upload("notizen.txt", b"Hallo Welt", "text/plain"))
    expect(failure).to_contain_text("Die Datei ist keine Sicherung von Smart Flashcards")
    # An empty file is not sent.
    page.locator("#restore-file").set_input_files(upload("leer.zip", b"", "application/zip"))
    expect(page.locator("#restore-file-error")).to_have_text("Die Datei ist leer.")
    expect(failure).to_be_hidden()
    assert stacks_of(page, fresh["token"]) == []

    # English: the reason from the problem's code.
    en = make_page(locale="en-US")
    sign_in_storage(en, signup_via_api(en, name="New"))
    en.goto("/app/settings")
    expect(en.get_by_role("heading", name="Data & backup")).to_be_visible()
    expect(en.get_by_role("button", name="Download backup")).to_be_visible()
    restore = en.get_by_role("button", name="Restore backup")
    en.locator("#restore-file").set_input_files(upload("new.json", too_new))
    restore.click()
    en_failure = en.locator("#restore-error")
    expect(en_failure).to_contain_text("Nothing restored")
    expect(en_failure).to_contain_text("The backup comes from a newer version of Smart Flashcards that this server cannot read yet.")
    en.locator("#restore-file").set_input_files(upload("empty-back.json", json.dumps(empty_back).encode()))
    restore.click()
    expect(en_failure).to_contain_text("A card of the backup: The back is empty.")
    en.locator("#restore-file").set_input_files(upload("notes.txt", b"Hello", "text/plain"))
    restore.click()
    expect(en_failure).to_contain_text("The file is not a Smart Flashcards backup.")
    panel_shot(en, "b07-restore-english")


def test_a_failed_check_can_be_retried(page: Page):
    account = signup_via_api(page, name="Wackelig")
    sign_in_storage(page, account)
    failing = {"left": 1}

    def stacks_once(route):
        if failing["left"] and route.request.method == "GET":
            failing["left"] -= 1
            route.fulfill(status=500, content_type="application/json",
                          body=json.dumps({"code": "internal", "message": "Fehler"}))
        else:
            route.continue_()

    page.route(re.compile(r".*/api/v1/stacks$"), stacks_once)
    page.goto("/app/settings")
    body = page.locator("#restore-body")
    expect(body.get_by_role("alert")).to_contain_text(
        "Es ließ sich nicht prüfen, ob eine Sicherung wiederhergestellt werden kann.")
    body.get_by_role("button", name="Erneut versuchen").click()
    expect(page.locator("#restore-form")).to_be_visible()


# --- a stack's backup in the import -------------------------------------------------------------

def test_stack_json_export_and_import_as_a_copy(page: Page):
    account = signup_via_api(page, name="Mara")
    token = account["token"]
    stack = make_stack(page, token, "Vokabeln", 3)
    rate(page, token, stack, stack["cards"][0])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}")
    page.get_by_text("Exportieren", exact=True).click()
    menu = page.locator("#export-menu .menu-list")
    expect(menu.get_by_role("button")).to_have_text(
        ["CSV (Excel)", "TSV (Quizlet, Anki)", "Anki (.apkg, mit Verlauf)", "JSON (Sicherung mit Verlauf)"])
    with page.expect_download() as info:
        page.get_by_role("button", name="JSON (Sicherung mit Verlauf)").click()
    assert info.value.suggested_filename == "Vokabeln.json"
    data = open(info.value.path(), "rb").read()
    document = json.loads(data)
    assert document["format"] == "smart-flashcards-backup" and document["scope"] == "stacks"
    [saved] = document["stacks"]
    assert saved["name"] == "Vokabeln" and len(saved["cards"]) == 3 and len(saved["reviews"]) == 1

    page.get_by_role("link", name="Karten importieren").click()
    expect(page).to_have_url(re.compile(rf"/app/import\?stack={stack['id']}$"))
    expect(page.locator("#import-file")).to_have_attribute("accept", re.compile(r"\.json"))
    expect(page.locator("#import-file-help")).to_contain_text("eine Sicherung von Smart Flashcards (.json oder .zip)")
    expect(page.locator("#tips")).to_contain_text("„Exportieren → JSON (Sicherung mit Verlauf)“")
    choose(page, upload("Vokabeln.json", data))
    expect(page.locator(".import-facts div")).to_have_text(
        ["FormatSicherung von Smart Flashcards", "Stapel1", "Karten3", "Wiederholungen1"])
    decks = page.locator(".import-decks")
    expect(decks.locator("caption")).to_have_text("Der Stapel der Sicherung")
    expect(decks.locator("thead th")).to_have_text(["Stapel", "Karten", "Wiederholungen"])
    expect(decks.locator("tbody tr")).to_have_text(["Vokabeln 3 1"], use_inner_text=True)
    expect(page.locator("#preview .import-notes li")).to_have_text(
        ["Der Lernverlauf (1 Wiederholung) kommt mit: Jede Karte lernt dort weiter, wo sie stand."])
    expect(page.locator(".import-qa caption")).to_have_text("Alle 3 Karten der Sicherung")
    expect(page.locator(".import-qa tbody tr").first).to_contain_text("Vokabeln Frage 1")
    expect(page.locator(".import-count")).to_have_text("3 Karten werden importiert")
    # A backup brings its own stacks: as a copy (also under a new name), never into an existing stack,
    # even when the page came from one.
    copy = page.get_by_role("radio", name=re.compile("^Als Kopie anlegen"))
    expect(copy).to_be_checked()
    expect(page.get_by_text("Ein neuer Stapel „Vokabeln“ mit Einstellungen, Karten und Lernverlauf")).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile("^Vorhandener Stapel"))).to_have_count(0)
    expect(page.get_by_label("Name des neuen Stapels")).to_be_hidden()
    page.get_by_role("radio", name=re.compile("^Als Kopie unter neuem Namen")).check()
    name = page.get_by_label("Name des neuen Stapels")
    expect(name).to_have_value("Vokabeln")
    name.fill("Vokabeln (Kopie)")
    shot(page, "b08-import-stack-backup")

    page.get_by_role("button", name="Importieren", exact=True).click()
    expect(page.get_by_role("heading", name="3 Karten importiert")).to_be_focused()
    expect(page.get_by_text("Der neue Stapel „Vokabeln (Kopie)“ ist bereit.")).to_be_visible()
    expect(page.locator("#done .import-notes li")).to_have_text(["1 Wiederholung aus dem Lernverlauf übernommen"])
    stacks = {s["name"]: s for s in stacks_of(page, token)}
    assert set(stacks) == {"Vokabeln", "Vokabeln (Kopie)"}
    original, copied = cards_of(page, token, stack["id"]), cards_of(page, token, stacks["Vokabeln (Kopie)"]["id"])
    # The copy has new ids and the same cards with the same schedules (the rated card is not due now).
    assert [(c["question"], c["answer"], c["dueAt"]) for c in copied] == \
        [(c["question"], c["answer"], c["dueAt"]) for c in original]
    assert not {c["id"] for c in copied} & {c["id"] for c in original}
    page.get_by_role("link", name="Zum Stapel").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Vokabeln (Kopie)")


def test_account_backup_stacks_as_copies_and_a_refused_backup_in_the_import(page: Page):
    source = account_with_stacks(page)
    data = download(page, source["token"], "/me/backup?format=zip")
    account = signup_via_api(page, name="Sammler")
    make_stack(page, account["token"], "Schon da", 1)
    sign_in_storage(page, account)
    page.goto("/app/import")
    choose(page, upload("Sicherung.zip", data, "application/zip"))
    expect(page.locator(".import-decks caption")).to_have_text("Die 2 Stapel der Sicherung")
    expect(page.locator(".import-decks tbody tr")).to_have_text(["Englisch 3 1", "Biologie <Zellen> 2 0"],
                                                                use_inner_text=True)
    expect(page.locator(".import-count")).to_have_text("5 Karten werden importiert")
    copies = page.get_by_role("radio", name=re.compile("^Jeder Stapel wird eine Kopie"))
    expect(copies).to_be_checked()
    expect(page.get_by_role("radio")).to_have_count(1)  # no rename for several stacks, no existing stack
    expect(page.get_by_text("2 neue Stapel mit ihren Einstellungen, Karten und Lernverläufen")).to_be_visible()
    page.get_by_role("button", name="Importieren", exact=True).click()
    expect(page.get_by_role("heading", name="5 Karten importiert")).to_be_focused()
    expect(page.locator("#done")).to_contain_text("2 Stapel sind bereit:")
    expect(page.locator("#done .import-stacks li")).to_have_text(["Englisch 3 Karten", "Biologie <Zellen> 2 Karten"],
                                                                 use_inner_text=True)
    assert sorted(s["name"] for s in stacks_of(page, account["token"])) == ["Biologie <Zellen>", "Englisch", "Schon da"]

    # A backup from a newer version: the server's reason, the import refused.
    page.get_by_role("button", name="Weitere Datei importieren").click()
    too_new = json.dumps({**backup_document(data), "version": 99}).encode()
    choose(page, upload("neu.json", too_new))
    problems = page.locator("#problems")
    expect(problems.locator("strong")).to_have_text("Die Sicherung kann so nicht importiert werden")
    expect(problems.locator("li")).to_contain_text(["Die Sicherung stammt aus einer neueren Version (99)"])
    expect(problems).to_contain_text("Eine Sicherung wird nur ganz übernommen.")
    expect(page.get_by_role("button", name="Importieren", exact=True)).to_have_attribute("aria-disabled", "true")
    expect(page.get_by_text("Neue Stapel mit ihren Einstellungen, Karten und Lernverläufen")).to_be_visible()  # none read
    shot(page, "b09-import-backup-refused")
    assert len(stacks_of(page, account["token"])) == 3


# --- phone --------------------------------------------------------------------------------------

def test_backup_panel_on_a_phone_light_and_dark(make_page):
    for scheme in ("light", "dark"):
        page = make_page(**PHONE, color_scheme=scheme)
        account = signup_via_api(page, name="Handy")
        open_settings(page, account)
        expect(page.locator("#restore-form")).to_be_visible()
        page.locator("#restore-file").set_input_files(upload("kaputt.json", b"{}"))
        page.get_by_role("button", name="Sicherung wiederherstellen").tap()
        expect(page.locator("#restore-error")).to_contain_text("Die Datei ist keine Sicherung von Smart Flashcards")
        page.wait_for_timeout(200)
        assert page.evaluate(NO_OVERFLOW), "the settings fit the phone"
        assert_touch_targets(page)
        panel_shot(page, f"b10-phone-backup-{scheme}")
        make_stack(page, account["token"], "Unterwegs", 1)
        page.reload()
        expect(page.locator("#restore-not-empty")).to_be_visible()
        assert page.evaluate(NO_OVERFLOW)
        assert_touch_targets(page)
        panel_shot(page, f"b11-phone-backup-stacks-{scheme}")

"""Images on rich cards (issue 20) in the web app: uploaded from the card form's picker, pasted or
dropped into a text field, shown through rich-text.js (fetched with the viewer's rights, shown
from a blob: URL) while learning, in the feed, the cards table and on a shared stack's page
signed out; refused files with the server's words; another learner and a revoked link get
nothing; and no description or stray markup ever runs a script."""

from __future__ import annotations

import re
import struct
import zlib

from playwright.sync_api import Page, expect

from conftest import BASE_URL, api, shot, sign_in_storage, signup_via_api

IMAGE_MARKDOWN = re.compile(r"!\[([^\]]*)\]\(image:([0-9a-f-]{36})\)")
MISSING_ID = "00000000-0000-4000-8000-000000000000"
PAYLOAD = '"><img src=x onerror=window.__pwned=1>'


def png(width: int = 24, height: int = 16, rgb: tuple[int, int, int] = (200, 40, 40)) -> bytes:
    """A small truecolour PNG, written by hand (zlib and struct only)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def upload(page: Page, token: str, data: bytes | None = None) -> dict:
    """Uploads an image through the API (multipart), returns the answer."""
    response = page.request.post(
        f"{BASE_URL}/api/v1/images", headers={"Authorization": f"Bearer {token}"},
        multipart={"file": {"name": "bild.png", "mimeType": "image/png", "buffer": data or png()}})
    assert response.status == 201, response.text()
    return response.json()


def stack_with(page: Page, token: str, cards: list[dict], name: str = "Tiere") -> dict:
    status, stack = api(page, "POST", "/stacks", {"name": name, "color": "#059669"}, token=token)
    assert status == 201, stack
    for card in cards:
        status, body = api(page, "POST", f"/stacks/{stack['id']}/cards", {"format": "markdown", **card}, token=token)
        assert status == 201, body
    return stack


def wait_loaded(page: Page, selector: str) -> None:
    """Waits until the first image matching `selector` shows its picture from a blob: URL."""
    page.wait_for_function(
        """(selector) => { const image = document.querySelector(selector);
            return image && image.naturalWidth > 0 && image.complete && image.src.startsWith('blob:')
              && !image.hasAttribute('aria-busy'); }""",
        arg=selector)


def intercept_choosers(page: Page) -> None:
    """Turns on Playwright's file chooser interception before the first picker opens (enabling it
    inside expect_file_chooser can come too late for a click right after it)."""
    page.on("filechooser", lambda chooser: None)


def fetch_status(page: Page, path: str, token: str | None = None) -> int:
    return page.evaluate(
        """async ([path, token]) => (await fetch(path, { cache: 'no-store', headers: token ? { Authorization: `Bearer ${token}` } : {} })).status""",
        [path, token])


def test_picker_upload_by_keyboard_then_learn_feed_and_table(page: Page):
    account = signup_via_api(page)
    stack = stack_with(page, account["token"], [])
    sign_in_storage(page, account)
    intercept_choosers(page)
    page.goto(f"/app/stacks/{stack['id']}/cards/new")
    question = page.locator("#question")
    question.fill("Welches Tier ist das?")
    expect(page.locator("#rich")).not_to_be_checked()
    page.get_by_label("Bildbeschreibung (optional)").fill("Ein roter [Fuchs]")
    # The buttons are reached by keyboard; the question stays the field the image goes into.
    button = page.get_by_role("button", name="Bild einfügen")
    button.focus()
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Enter")
    assert chooser.value.element.get_attribute("accept") == "image/*"
    chooser.value.set_files({"name": "fuchs.png", "mimeType": "image/png", "buffer": png()})
    expect(page.locator("#image-status")).to_contain_text("Bild eingefügt.")
    expect(page.locator("#image-status")).to_contain_text("„Formatierung und Formeln“ ist jetzt eingeschaltet")
    expect(page.locator("#rich")).to_be_checked()
    expect(question).to_have_value(re.compile(r"^Welches Tier ist das\? !\[Ein roter \\\[Fuchs\\\]\]\(image:[0-9a-f-]{36}\)$"))
    image_id = re.search(r"image:([0-9a-f-]{36})", question.input_value()).group(1)
    # The preview shows it at once.
    wait_loaded(page, "#preview-question img.card-image")
    expect(page.locator("#preview-question img.card-image")).to_have_attribute("alt", "Ein roter [Fuchs]")
    page.locator("#answer").fill("Ein **Fuchs**")
    shot(page, "card-image-form")
    page.get_by_role("button", name="Speichern").click()
    expect(page.locator("#saved")).to_be_visible()
    _, cards = api(page, "GET", f"/stacks/{stack['id']}/cards", token=account["token"])
    card = cards["items"][0]
    assert card["format"] == "markdown" and image_id in card["question"]

    # Learning: the picture is there (its natural width > 0), with its description as alt.
    page.goto(f"/app/stacks/{stack['id']}/study")
    page.get_by_role("button", name="Los geht’s").click()
    selector = "flip-card [data-question] img.card-image"
    wait_loaded(page, selector)
    assert page.eval_on_selector(selector, "image => image.naturalWidth") == 24
    expect(page.locator(selector)).to_have_attribute("alt", "Ein roter [Fuchs]")
    shot(page, "card-image-learning")
    page.keyboard.press("Space")
    expect(page.locator("flip-card [data-answer] strong")).to_have_text("Fuchs")
    page.keyboard.press("4")
    expect(page.get_by_role("heading", name="Toll gemacht!")).to_be_visible()

    # The feed and the cards table show it too.
    page.goto(f"/app/stacks/{stack['id']}/feed")
    wait_loaded(page, "#feed-question img.card-image")
    page.goto(f"/app/stacks/{stack['id']}")
    wait_loaded(page, ".cards-table .card-images img.card-image")
    expect(page.locator(".cards-table .col-front .truncate")).to_have_text("Welches Tier ist das? Ein roter [Fuchs]")
    shot(page, "card-image-table")


def test_paste_and_drop_into_text_fields(page: Page):
    account = signup_via_api(page)
    stack = stack_with(page, account["token"], [])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/cards/new")
    page.locator("#question").fill("Farbe?")
    answer = page.locator("#answer")
    answer.fill("Rot: ")
    answer.focus()
    # The upload is held until the form has shown its progress and disabled saving.
    held = []
    page.route("**/api/v1/images", lambda route: held.append(route))
    page.evaluate(
        """(bytes) => {
            const data = new DataTransfer();
            data.items.add(new File([new Uint8Array(bytes)], 'bild.png', { type: 'image/png' }));
            const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
            document.querySelector('#answer').dispatchEvent(event);
        }""",
        list(png(rgb=(20, 90, 220))))
    expect(page.locator("#image-status")).to_have_text("Bild wird hochgeladen …")
    expect(page.get_by_role("button", name="Speichern")).to_be_disabled()
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("#image-status")).to_contain_text("Bild eingefügt.")
    expect(page.get_by_role("button", name="Speichern")).to_be_enabled()
    page.unroute("**/api/v1/images")
    expect(answer).to_have_value(re.compile(r"^Rot: !\[\]\(image:[0-9a-f-]{36}\)$"))
    expect(page.locator("#rich")).to_be_checked()
    wait_loaded(page, "#preview-answer img.card-image")

    # A file dropped onto the hint goes there.
    page.evaluate(
        """(bytes) => {
            const data = new DataTransfer();
            data.items.add(new File([new Uint8Array(bytes)], 'hinweis.png', { type: 'image/png' }));
            const hint = document.querySelector('#hint');
            hint.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
            hint.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
        }""",
        list(png(rgb=(240, 200, 10))))
    expect(page.locator("#hint")).to_have_value(IMAGE_MARKDOWN)
    # Text is still pasted as text.
    page.locator("#question").focus()
    page.evaluate(
        """() => {
            const data = new DataTransfer();
            data.setData('text/plain', 'x');
            document.querySelector('#question').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
        }""")
    expect(page.locator("#question")).to_have_value("Farbe?")
    page.get_by_role("button", name="Speichern").click()
    expect(page.locator("#saved")).to_be_visible()
    _, cards = api(page, "GET", f"/stacks/{stack['id']}/cards", token=account["token"])
    card = cards["items"][0]
    assert card["format"] == "markdown"
    assert IMAGE_MARKDOWN.search(card["answer"]) and IMAGE_MARKDOWN.search(card["hint"])


def test_refused_files_say_why(page: Page):
    account = signup_via_api(page)
    stack = stack_with(page, account["token"], [])
    sign_in_storage(page, account)
    intercept_choosers(page)
    page.goto(f"/app/stacks/{stack['id']}/cards/new")
    uploads = []
    page.on("request", lambda request: uploads.append(request) if request.url.endswith("/api/v1/images") else None)
    error = page.locator("#image-error")

    # Not an image: the server's German reason (415).
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Bild einfügen").click()
    chooser.value.set_files({"name": "notizen.txt", "mimeType": "text/plain", "buffer": b"Nur Text, kein Bild."})
    expect(error).to_have_text("Es werden nur Bilder im Format JPEG, PNG, GIF oder WebP angenommen.")
    expect(page.locator("#question")).to_have_value("")
    expect(page.locator("#rich")).not_to_be_checked()
    assert len(uploads) == 1

    # A broken PNG: the server's reason (400).
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Bild einfügen").click()
    chooser.value.set_files({"name": "kaputt.png", "mimeType": "image/png", "buffer": png()[:40]})
    expect(error).to_have_text(re.compile(r"Das Bild ist beschädigt"))

    # Too large: refused before sending, in the server's words.
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Bild einfügen").click()
    chooser.value.set_files({"name": "riesig.png", "mimeType": "image/png", "buffer": png() + b"\0" * (10 * 1024 * 1024)})
    expect(error).to_have_text("Bilder dürfen höchstens 10 MB groß sein.")
    assert len(uploads) == 2
    expect(page.get_by_role("button", name="Speichern")).to_be_enabled()
    shot(page, "card-image-error")


def test_refused_file_in_english(make_page):
    page = make_page(locale="en-US")
    account = signup_via_api(page)
    stack = stack_with(page, account["token"], [])
    sign_in_storage(page, account)
    intercept_choosers(page)
    page.goto(f"/app/stacks/{stack['id']}/cards/new")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Insert image").click()
    chooser.value.set_files({"name": "notes.txt", "mimeType": "text/plain", "buffer": b"just text"})
    expect(page.locator("#image-error")).to_have_text("Only JPEG, PNG, GIF or WebP images are accepted.")


def test_unavailable_image_does_not_break_study(page: Page):
    account = signup_via_api(page)
    image = upload(page, account["token"])
    stack = stack_with(page, account["token"], [
        {"question": f"Was zeigt ![Ein Apfel](image:{image['id']})?", "answer": "Obst"}])
    sign_in_storage(page, account)
    # No network for images (as offline): the description and why stand in, studying goes on.
    page.route("**/api/v1/images/**", lambda route: route.abort())
    page.goto(f"/app/stacks/{stack['id']}/study")
    page.get_by_role("button", name="Los geht’s").click()
    missing = page.locator("flip-card [data-question] .card-image-missing")
    expect(missing).to_have_text("Ein Apfel (Bild nicht verfügbar)")
    expect(page.locator("flip-card [data-question]")).to_contain_text("Was zeigt")
    page.keyboard.press("Space")
    expect(page.locator("flip-card [data-answer]")).to_have_text("Obst")
    page.keyboard.press("4")
    expect(page.get_by_role("heading", name="Toll gemacht!")).to_be_visible()

    # An id nobody may show (the editor's preview renders it): the same note.
    page.unroute("**/api/v1/images/**")
    page.goto(f"/app/stacks/{stack['id']}/cards/new")
    page.locator("#rich").check()
    page.locator("#question").fill(f"![Katze](image:{MISSING_ID})")
    expect(page.locator("#preview-question .card-image-missing")).to_have_text("Katze (Bild nicht verfügbar)")


def test_shared_image_signed_out_until_revoked(make_page):
    owner_page = make_page()
    owner = signup_via_api(owner_page)
    image = upload(owner_page, owner["token"], png(rgb=(10, 160, 60)))
    stack = stack_with(owner_page, owner["token"], [
        {"question": f"![Grünes Feld](image:{image['id']})", "answer": "Grün"}], name="Farben")
    status, link = api(owner_page, "POST", f"/stacks/{stack['id']}/share", token=owner["token"])
    assert status == 201
    token = link["path"].rsplit("/", 1)[1]

    visitor = make_page()  # signed out
    image_requests = []
    visitor.on("request", lambda request: image_requests.append(request) if "/api/v1/images/" in request.url else None)
    visitor.goto(link["path"])
    wait_loaded(visitor, ".shared-question img.card-image")
    expect(visitor.locator(".shared-question img.card-image")).to_have_attribute("alt", "Grünes Feld")
    assert image_requests and all(f"share={token}" in r.url for r in image_requests)
    assert all("authorization" not in r.headers for r in image_requests)
    shot(visitor, "card-image-shared")
    # Without the link's token the image is nobody's business.
    assert fetch_status(visitor, f"/api/v1/images/{image['id']}") == 404

    status, _ = api(owner_page, "DELETE", f"/stacks/{stack['id']}/share", token=owner["token"])
    assert status in (200, 204)
    assert fetch_status(visitor, f"/api/v1/images/{image['id']}?share={token}") == 404
    visitor.reload()
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Dieser Link gilt nicht (mehr)")
    expect(visitor.locator("img.card-image, .shared-card")).to_have_count(0)


def test_another_learner_cannot_load_an_image(make_page):
    owner_page = make_page()
    owner = signup_via_api(owner_page)
    image = upload(owner_page, owner["token"])
    owner_page.goto("/")
    other_page = make_page()
    other = signup_via_api(other_page)
    sign_in_storage(other_page, other)
    path = f"/api/v1/images/{image['id']}"
    assert fetch_status(other_page, path, other["token"]) == 404
    assert fetch_status(other_page, path) == 404
    assert fetch_status(owner_page, path, owner["token"]) == 200
    # Nor can they put it on a card of theirs.
    stack = stack_with(other_page, other["token"], [])
    status, body = api(other_page, "POST", f"/stacks/{stack['id']}/cards",
                       {"question": f"![x](image:{image['id']})", "answer": "a", "format": "markdown"},
                       token=other["token"])
    assert status == 400 and body["code"] == "unknown_image"


def test_descriptions_and_stray_markup_never_run(make_page):
    page = make_page()
    account = signup_via_api(page)
    image = upload(page, account["token"])
    image_id = image["id"]
    stack = stack_with(page, account["token"], [
        {"question": f"![{PAYLOAD}](image:{image_id})", "answer": f"![x](image:{image_id})\" onerror=\"window.__pwned=2",
         "hint": f'<img class="card-image" data-image="{image_id}" src=x onerror="window.__pwned=3">'},
        {"question": f"![' onload='window.__pwned=4](image:{image_id})", "answer": "![a](javascript:window.__pwned=5)"},
    ], name=PAYLOAD)
    sign_in_storage(page, account)
    intercept_choosers(page)

    # The card form: a payload as the description of an uploaded image.
    page.goto(f"/app/stacks/{stack['id']}/cards/new")
    page.locator("#question").focus()
    page.get_by_label("Bildbeschreibung (optional)").fill(PAYLOAD + "<svg onload=window.__pwned=6>")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Bild einfügen").click()
    chooser.value.set_files({"name": "x.png", "mimeType": "image/png", "buffer": png()})
    expect(page.locator("#image-status")).to_contain_text("Bild eingefügt.")
    wait_loaded(page, "#preview-question img.card-image")
    expect(page.locator("#preview-question img.card-image")).to_have_attribute("alt", PAYLOAD + "<svg onload=window.__pwned=6>")
    page.locator("#answer").fill("a")
    page.get_by_role("button", name="Speichern").click()
    expect(page.locator("#saved")).to_be_visible()

    status, link = api(page, "POST", f"/stacks/{stack['id']}/share", token=account["token"])
    assert status == 201
    for path in (f"/app/stacks/{stack['id']}", f"/app/stacks/{stack['id']}/feed", link["path"]):
        page.goto(path)
        page.wait_for_function("() => document.querySelector('img.card-image[src^=\"blob:\"]')")
    page.goto(f"/app/stacks/{stack['id']}/study")
    page.get_by_role("button", name="Los geht’s").click()
    for n in (1, 2, 3):
        expect(page.locator("#position")).to_have_text(f"Karte {n} von 3")
        wait_loaded(page, "flip-card [data-question] img.card-image")
        hint = page.get_by_role("button", name="Hinweis anzeigen")
        if hint.is_visible():
            hint.click()
        page.keyboard.press("Space")
        expect(page.locator("flip-card")).to_have_class(re.compile(r"is-flipped"))
        page.keyboard.press("4")
    expect(page.get_by_role("heading", name="Toll gemacht!")).to_be_visible()

    # The sanitiser itself, given HTML the server never writes: only our image with an id and a
    # description survives, with nothing but those attributes. (No inline handlers here: Chromium
    # reports them to the console under the CSP even in an inert template, where nothing runs.)
    result = page.evaluate(
        """async (id) => {
            const { setRichHTML } = await import('/assets/js/rich-text.js');
            const el = document.createElement('div');
            document.body.append(el);
            setRichHTML(el, `<p><img class="card-image" data-image="${id}" alt="gut" src="/api/v1/me" srcset="x 2x" width="9999" data-x="1">`
              + `<img src="/api/v1/me"><img class="card-image" data-image="../../me" alt="falsch">`
              + `<img class="card-image evil" data-image="${id}" alt="zwei Klassen"></p>`);
            const images = [...el.querySelectorAll('img')];
            const attributes = images[0].getAttributeNames().filter((name) => name !== 'src').sort();
            return { count: images.length, attributes, src: images[0].getAttribute('src'), text: el.textContent };
        }""",
        image_id)
    assert result["count"] == 1, result
    assert set(result["attributes"]) <= {"alt", "aria-busy", "class", "data-image", "draggable"}, result
    assert result["src"] is None or result["src"].startswith("blob:"), result
    assert "falsch" in result["text"] and "zwei Klassen" in result["text"]
    page.wait_for_timeout(300)
    assert page.evaluate("window.__pwned") is None


def test_image_seen_online_still_shows_offline(make_page):
    """An image is served with `Cache-Control: private, max-age=…, immutable`: once a card showed it
    with a connection, the browser keeps it, so studying offline still shows the picture."""
    from test_offline import go_online_first

    page = make_page()
    account = signup_via_api(page)
    image = upload(page, account["token"], png(30, 20, (20, 90, 200)))
    stack = stack_with(page, account["token"], [
        {"question": f"Welche Farbe? ![Ein Quadrat](image:{image['id']})", "answer": "Blau"}], name="Farben")
    go_online_first(page, account, cards=1)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=flashcards&size=all")
    wait_loaded(page, "flip-card [data-question] img.card-image")

    page.context.set_offline(True)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=flashcards&size=all")
    expect(page.locator("#net-status")).to_contain_text("Offline")
    wait_loaded(page, "flip-card [data-question] img.card-image")
    assert page.evaluate("document.querySelector('flip-card [data-question] img.card-image').naturalWidth") == 30
    expect(page.locator("flip-card [data-question] .card-image-missing")).to_have_count(0)
    page.context.set_offline(False)


def test_typed_answer_leaves_the_answers_image_out_online_and_offline(make_page):
    """An answer that also shows a picture is typed as its words: the server and the offline check
    in the browser both leave the image (and its description) out."""
    from test_offline import go_online_first

    page = make_page()
    account = signup_via_api(page)
    image = upload(page, account["token"])
    answer = f"Anaphase ![Bild der Phase](image:{image['id']})"
    stack = stack_with(page, account["token"], [
        {"question": "Welche Phase zeigt das?", "answer": answer},
        {"question": "Und danach?", "answer": f"Telophase ![Zweites Bild](image:{image['id']})"}], name="Mitose")
    go_online_first(page, account, cards=2)
    for offline in (False, True):
        page.context.set_offline(offline)
        page.goto(f"/app/stacks/{stack['id']}/learn?mode=write&size=all")
        question = page.locator("flip-card [data-question]").inner_text()
        page.get_by_label("Deine Antwort").fill("Anaphase" if "Welche" in question else "Telophase")
        page.keyboard.press("Enter")
        expect(page.locator(".verdict")).to_have_text("Richtig!")
    page.context.set_offline(False)

"""Settings → "KI-Assistenten und Zugangstokens" (docs/mcp.md) in the browser: the empty state,
creating a read-only and a read-write token by keyboard (the empty name refused inline and
announced), the secret shown once with its copy button, the MCP address and Claude Desktop's
configuration, and gone after a reload while the prefix stays; the secrets against the API
(reading works, a read-only token may not write, a token may not manage tokens), a token's activity
(empty, then the write it made, paged by "Mehr laden"), revoking through the dialog (cancelled
first, the focus back on its button) after which the token gets 401; the loading, error and retry
states and the refusal of one token too many; English on a phone in dark mode without overflow;
axe on desktop and phone."""

from __future__ import annotations

import json
import re

import requests
from playwright.sync_api import Page, expect

from conftest import BASE_URL, SCREENSHOTS, sign_in_storage, signup_via_api
from test_accessibility import _axe
from test_mobile import PHONE, assert_touch_targets

CLIPBOARD = ["clipboard-read", "clipboard-write"]
NO_OVERFLOW = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


# --- helpers ------------------------------------------------------------------------------------

def with_token(secret: str, method: str, path: str, body=None) -> requests.Response:
    """A request to /api/v1 with a personal access token, as an assistant would send it."""
    return requests.request(method, f"{BASE_URL}/api/v1{path}", json=body, timeout=10,
                            headers={"Authorization": f"Bearer {secret}", "Accept": "application/json"})


def open_tokens(page: Page, account: dict, title: str = "KI-Assistenten und Zugangstokens"):
    """The settings, signed in, and their tokens section once its list has loaded."""
    sign_in_storage(page, account)
    page.goto("/app/settings")
    section = page.get_by_role("region", name=title)
    expect(section).to_be_visible()
    expect(section.locator(".state-loading")).to_have_count(0)
    return section


def item(section, name: str):
    """A token of the list by its name."""
    return section.locator(".token-item").filter(has=section.page.get_by_role("heading", name=name, exact=True))


def create(section, name: str, permission: str, expiry: str) -> str:
    """Fills the form by keyboard, creates the token and returns its secret (shown this once)."""
    page = section.page
    field = section.get_by_label("Bezeichnung")
    field.focus()
    page.keyboard.type(name)
    page.keyboard.press("Tab")  # to the chosen permission; the arrow keys choose the other
    expect(section.get_by_role("radio", name="Nur lesen")).to_be_focused()
    if permission == "Lesen und schreiben":
        page.keyboard.press("ArrowDown")
    expect(section.get_by_role("radio", name=permission)).to_be_checked()
    section.get_by_label("Gültigkeit").select_option(label=expiry)
    field.focus()
    page.keyboard.press("Enter")
    created = section.get_by_role("heading", name=f"Token „{name}“ ist erstellt")
    expect(created).to_be_focused()
    secret = section.get_by_label("Dein Zugangstoken").input_value()
    assert re.fullmatch(r"fcpat_[A-Za-z0-9_-]{20,}", secret), secret
    return secret


def panel_shot(page: Page, name: str) -> None:
    """The tokens section as artifacts/screenshots/<name>.png (cut from the full page scrolled to
    the top, so the sticky header does not cover it)."""
    page.wait_for_timeout(150)
    page.evaluate("scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, clip=page.locator("#tokens").bounding_box())


def assert_axe_clean(page: Page, where: str) -> None:
    result = _axe(page)
    assert not result["blocking"], f"{where}:\n" + "\n".join(result["blocking"])


# --- the journey --------------------------------------------------------------------------------

def test_tokens_created_once_used_watched_and_revoked(make_page):
    page = make_page(permissions=CLIPBOARD)
    account = signup_via_api(page, name="Mara Token")
    section = open_tokens(page, account)
    expect(section).to_contain_text("Verbinde deinen eigenen KI-Assistenten (Claude, ChatGPT, LM Studio …) über MCP "
                                     "mit deinen Karten. Er sieht nur, was das Token erlaubt.")
    expect(section.locator("#token-empty")).to_have_text("Noch keine Zugangstokens.")
    name_field = section.get_by_label("Bezeichnung")
    # The defaults: read only, 90 days.
    expect(section.get_by_role("radio", name="Nur lesen")).to_be_checked()
    expect(section.get_by_label("Gültigkeit")).to_have_value("90")
    assert section.get_by_label("Gültigkeit").locator("option").all_inner_texts() == ["Nie", "30 Tage", "90 Tage", "1 Jahr"]

    # An empty name is refused where it is typed, and said (role=alert), with nothing sent.
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/me/tokens" in r.url else None)
    name_field.focus()
    page.keyboard.type("   ")
    page.keyboard.press("Enter")
    error = section.locator("#token-name-error")
    expect(error).to_have_text("Bitte gib dem Token einen Namen.")
    expect(error).to_have_attribute("role", "alert")
    expect(name_field).to_have_attribute("aria-invalid", "true")
    expect(name_field).to_have_attribute("aria-describedby", re.compile(r"\btoken-name-error\b"))
    expect(name_field).to_be_focused()
    assert posts == []
    name_field.fill("")

    # A read-only token that never expires: its secret this once, the MCP address, the configuration.
    reader = create(section, "Lese-Assistent", "Nur lesen", "Nie")
    expect(error).to_have_count(0)
    expect(name_field).to_have_value("")  # the form is ready for the next one
    expect(section.locator("#token-only-now")).to_contain_text("nur dieses eine Mal")
    url = f"{BASE_URL}/mcp"
    expect(section.get_by_label("MCP-Adresse (Streamable HTTP)")).to_have_value(url)
    config = json.loads(section.locator("#token-config").inner_text())
    server = config["mcpServers"]["smart-flashcards"]
    assert server["command"] == "npx"
    assert server["args"][:4] == ["mcp-remote", url, "--header", "Authorization: Bearer ${FLASHCARDS_TOKEN}"], server
    assert server["env"] == {"FLASHCARDS_TOKEN": reader}
    section.get_by_role("button", name="Kopieren", exact=True).click()
    expect(page.locator("#toasts")).to_have_text("Das Token ist in der Zwischenablage.")
    assert page.evaluate("navigator.clipboard.readText()") == reader
    section.get_by_role("button", name="Konfiguration kopieren").click()
    expect(page.locator("#toasts")).to_have_text("Die Konfiguration ist in der Zwischenablage.")
    assert json.loads(page.evaluate("navigator.clipboard.readText()")) == config
    assert_axe_clean(page, "desktop, a token just created")
    panel_shot(page, "tokens-desktop-created")
    page.screenshot(path="/tmp/tokens-desktop.png", full_page=True, clip=page.locator("#tokens").bounding_box())

    first = item(section, "Lese-Assistent")
    expect(first).to_contain_text("Nur lesen")
    expect(first).to_contain_text(f"{reader[:12]}…")
    expect(first).to_contain_text("Noch nie benutzt")
    expect(first).to_contain_text("Läuft nie ab")
    expect(first.locator(".token-status")).to_have_text("aktiv")
    # Its activity, before anything used it: the empty state.
    toggle = first.get_by_role("button", name="Aktivität")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(first.locator(".token-activity")).to_contain_text("Noch keine Aktivität.")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(first.locator(".token-activity")).to_be_hidden()

    # "Fertig": the secret leaves the page, the focus goes to the token in the list.
    section.get_by_role("button", name="Fertig, Token ist gesichert").click()
    expect(section.locator("#token-secret")).to_have_count(0)
    expect(first.get_by_role("heading", name="Lese-Assistent")).to_be_focused()
    assert reader not in page.content()

    # A read-write token for 30 days: newest first.
    writer = create(section, "Schreib-Assistent", "Lesen und schreiben", "30 Tage")
    expect(section.locator(".token-item h4")).to_have_text(["Schreib-Assistent", "Lese-Assistent"])
    second = item(section, "Schreib-Assistent")
    expect(second).to_contain_text("Lesen und schreiben")
    expect(second).not_to_contain_text("Läuft nie ab")

    # Shown once: after a reload neither secret is anywhere, the prefixes are.
    page.reload()
    expect(section.locator(".token-item")).to_have_count(2)
    expect(section.locator("#token-secret")).to_have_count(0)
    html_now = page.content()
    assert reader not in html_now and writer not in html_now
    expect(item(section, "Lese-Assistent")).to_contain_text(f"{reader[:12]}…")
    expect(item(section, "Schreib-Assistent")).to_contain_text(f"{writer[:12]}…")

    # The secrets against the API.
    for secret in (reader, writer):
        response = with_token(secret, "GET", "/stacks")
        assert response.status_code == 200, response.text
    refused = with_token(reader, "POST", "/stacks", {"name": "Darf nicht", "color": "#2563EB"})
    assert refused.status_code == 403, refused.text
    assert refused.json().get("code") == "token_read_only", refused.text
    made = with_token(writer, "POST", "/stacks", {"name": "Vom Assistenten", "color": "#2563EB"})
    assert made.status_code == 201, made.text
    managing = with_token(writer, "GET", "/me/tokens")
    assert managing.status_code == 403, managing.text
    assert managing.json().get("code") == "session_required", managing.text

    # The write shows in the writer's activity, and its last use.
    page.reload()
    second = item(section, "Schreib-Assistent")
    expect(second).not_to_contain_text("Noch nie benutzt")
    second.get_by_role("button", name="Aktivität").click()
    events = second.locator(".token-event")
    expect(events).to_have_count(1)
    expect(events.first).to_contain_text(re.compile(r"POST /api/v1/stacks"))
    expect(events.first).to_contain_text("über die API")
    expect(second.locator(".token-activity")).to_contain_text("1 von 1 Eintrag")
    expect(second.get_by_role("button", name="Mehr laden")).to_have_count(0)

    # Revoking asks first: cancelled, nothing happens and the focus is back on the button.
    first = item(section, "Lese-Assistent")
    revoke = first.get_by_role("button", name="Widerrufen")
    revoke.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Token „Lese-Assistent“ widerrufen?")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("sofort nicht mehr")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(revoke).to_be_focused()
    assert with_token(reader, "GET", "/stacks").status_code == 200
    # Confirmed: revoked, said, the focus on the token; its secret is refused from now on.
    page.keyboard.press("Enter")
    dialog.get_by_role("button", name="Widerrufen").click()
    expect(dialog).to_have_count(0)
    expect(first.locator(".token-status")).to_have_text("widerrufen")
    expect(first.get_by_role("button", name="Widerrufen")).to_have_count(0)
    expect(first.get_by_role("heading", name="Lese-Assistent")).to_be_focused()
    expect(page.locator("#toasts")).to_contain_text("Das Token „Lese-Assistent“ ist widerrufen.")
    gone = with_token(reader, "GET", "/stacks")
    assert gone.status_code == 401, gone.text
    assert with_token(writer, "GET", "/stacks").status_code == 200  # the other one is untouched
    page.reload()
    expect(item(section, "Lese-Assistent").locator(".token-status")).to_have_text("widerrufen")
    expect(page.get_by_role("heading", level=1)).to_be_visible()  # the session itself is untouched


def test_activity_pages_with_more(make_page):
    page = make_page()
    account = signup_via_api(page, name="Viel Betrieb")
    section = open_tokens(page, account)
    writer = create(section, "Fleißig", "Lesen und schreiben", "1 Jahr")
    for i in range(22):
        response = with_token(writer, "POST", "/stacks", {"name": f"Stapel {i + 1}", "color": "#059669"})
        assert response.status_code == 201, response.text
    page.reload()
    token = item(section, "Fleißig")
    token.get_by_role("button", name="Aktivität").click()
    events = token.locator(".token-event")
    expect(events).to_have_count(20)
    expect(token.locator(".token-activity")).to_contain_text("20 von 22 Einträgen")
    more = token.get_by_role("button", name="Mehr laden")
    more.focus()
    page.keyboard.press("Enter")
    expect(events).to_have_count(22)
    expect(events.nth(20)).to_be_focused()  # the first entry of the new page
    expect(more).to_have_count(0)
    expect(token.locator(".token-activity")).to_contain_text("22 von 22 Einträgen")


def test_loading_error_retry_and_one_token_too_many(make_page):
    page = make_page()
    account = signup_via_api(page, name="Geduld")
    sign_in_storage(page, account)
    held, failing = [], {"left": 1}

    def tokens_route(route):
        if route.request.method != "GET":
            route.continue_()
        elif not held:
            held.append(route)  # answered below, once the loading state was seen
        elif failing["left"]:
            failing["left"] -= 1
            route.fulfill(status=500, content_type="application/json",
                          body=json.dumps({"message": "Interner Fehler", "code": "internal"}))
        else:
            route.continue_()

    page.route(re.compile(r".*/api/v1/me/tokens$"), tokens_route)
    page.goto("/app/settings")
    section = page.get_by_role("region", name="KI-Assistenten und Zugangstokens")
    expect(section.get_by_role("status")).to_contain_text("Zugangstokens werden geladen…")
    held[0].continue_()
    expect(section.locator("#token-empty")).to_be_visible()
    page.reload()
    expect(section.get_by_role("alert")).to_contain_text("Die Zugangstokens konnten nicht geladen werden.")
    section.get_by_role("button", name="Erneut versuchen").click()
    expect(section.locator("#token-empty")).to_have_text("Noch keine Zugangstokens.")

    # One token too many: the server's 409 in words, under the form; nothing else changes.
    page.route(re.compile(r".*/api/v1/me/tokens$"), lambda route: route.fulfill(
        status=409, content_type="application/json",
        body=json.dumps({"message": "Du hast schon 50 aktive Zugangstokens. Widerrufe zuerst eines.",
                         "code": "too_many_tokens"})) if route.request.method == "POST" else route.fallback())
    section.get_by_label("Bezeichnung").fill("Noch eins")
    section.get_by_role("button", name="Token erstellen").click()
    expect(section.locator("#token-form-error")).to_have_text(
        "Du hast schon so viele Tokens, wie möglich sind. Widerrufe eines, das du nicht mehr brauchst.")
    expect(section.locator("#token-form-error")).to_have_attribute("role", "alert")
    expect(section.locator("#token-created")).to_be_hidden()
    expect(section.locator("#token-empty")).to_be_visible()


def test_english_on_a_phone_in_dark_mode(make_page):
    page = make_page(locale="en-US", color_scheme="dark", permissions=CLIPBOARD, **PHONE)
    account = signup_via_api(page, name="Alex Phone")
    section = open_tokens(page, account, title="AI assistants and access tokens")
    expect(section).to_contain_text("Connect your own AI assistant (Claude, ChatGPT, LM Studio …) to your cards over MCP.")
    expect(section.locator("#token-empty")).to_have_text("No access tokens yet.")
    assert section.get_by_label("Valid for").locator("option").all_inner_texts() == ["Never", "30 days", "90 days", "1 year"]
    section.get_by_role("button", name="Create token").tap()
    expect(section.locator("#token-name-error")).to_have_text("Please give the token a name.")
    section.get_by_label("Label", exact=True).fill("Claude on my phone <b>bold</b>")
    section.get_by_role("radio", name="Read and write").check()
    section.get_by_role("button", name="Create token").tap()
    expect(section.get_by_role("heading", name="Token “Claude on my phone <b>bold</b>” has been created")).to_be_focused()
    expect(section.locator("#token-only-now")).to_contain_text("it is shown only this once")
    section.get_by_role("button", name="Copy", exact=True).tap()
    expect(page.locator("#toasts")).to_have_text("The token is on the clipboard.")
    token = section.locator(".token-item").first
    expect(token.get_by_role("heading", level=4)).to_have_text("Claude on my phone <b>bold</b>")  # text, not markup
    expect(token).to_contain_text("Read and write")
    expect(token).to_contain_text("Never used")
    expect(token.locator(".token-status")).to_have_text("active")
    token.get_by_role("button", name="Activity").tap()
    expect(token.locator(".token-activity")).to_contain_text("No activity yet.")
    page.wait_for_timeout(200)
    assert page.evaluate(NO_OVERFLOW), "the settings fit the phone"
    assert_touch_targets(page)
    assert_axe_clean(page, "phone, dark, English")
    panel_shot(page, "tokens-phone-dark-en")
    page.screenshot(path="/tmp/tokens-phone.png", full_page=True, clip=page.locator("#tokens").bounding_box())
    # Revoked in English.
    token.get_by_role("button", name="Revoke").tap()
    dialog = page.get_by_role("dialog", name="Revoke token “Claude on my phone <b>bold</b>”?")
    dialog.get_by_role("button", name="Revoke").tap()
    expect(token.locator(".token-status")).to_have_text("revoked")
    assert page.evaluate(NO_OVERFLOW)

"""The OAuth consent page (/app/oauth/authorize, docs/mcp.md) in the browser, against the server's
OAuth routes: a client registered by dynamic registration (`POST /oauth/register`) sends the
learner here with a PKCE pair; "Erlauben" by keyboard (a refused first answer shown, the buttons
disabled while it was sent) comes back to the client's address with `code` and `state`, and the
code gives an access token (`POST /oauth/token`) that lists the MCP tools, shows up in the
settings' token list as "<client> (OAuth)" and cannot be spent twice; "Ablehnen" comes back with
`error=access_denied`; a redirect address the client did not register, an unknown client and an
incomplete request are refused on the page with no buttons (and never redirected); signed out, the
login comes back to this very address; English on a phone in dark mode (the client's name shown
as text), without overflow; axe on desktop and phone.

The client's redirect address is on the app server's own origin (`/oauth-test/callback`, which the
server does not know): the test answers it itself (page.route), since the browser tests fail on any
request to another host. The service worker is blocked, so that route sees the navigation.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

import requests
from playwright.sync_api import Page, expect

from conftest import BASE_URL, PASSWORD, fail_once, sign_in_storage, signup_via_api
from test_accessibility import _axe
from test_mobile import PHONE, assert_touch_targets

CALLBACK = f"{BASE_URL}/oauth-test/callback"
NO_OVERFLOW = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
TITLE_DE = "Zugriff erlauben"
REFUSED_DE = "Dieser Zugriff kann nicht erlaubt werden"


# --- helpers ------------------------------------------------------------------------------------

def register_client(name: str, redirect_uris: list[str] | None = None) -> str:
    """Dynamic client registration, as an MCP client does it; returns the client_id."""
    response = requests.post(f"{BASE_URL}/oauth/register", timeout=10,
                             json={"client_name": name, "redirect_uris": redirect_uris or [CALLBACK]})
    assert response.status_code == 201, (response.status_code, response.text[:300])
    return response.json()["client_id"]


def pkce() -> tuple[str, str]:
    """A verifier of 64 url-safe characters and its S256 challenge (base64url, no padding)."""
    verifier = secrets.token_urlsafe(48)[:64]
    assert len(verifier) == 64
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


def authorize_path(client_id: str, challenge: str, redirect_uri: str = CALLBACK, scope: str | None = "read write",
                   **changes) -> str:
    params = {"response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
              "code_challenge": challenge, "code_challenge_method": "S256", "state": "xyz",
              "resource": f"{BASE_URL}/mcp"}
    if scope is not None:
        params["scope"] = scope
    params.update(changes)
    return "/app/oauth/authorize?" + urlencode({k: v for k, v in params.items() if v is not None})


def answer_callback(page: Page) -> None:
    """The client's redirect address, answered by the test (the server has no such page)."""
    page.route(re.compile(r".*/oauth-test/callback(\?.*)?$"), lambda route: route.fulfill(
        status=200, content_type="text/html", body="<!doctype html><title>Callback</title><p>Zurück beim Client</p>"))


def callback_query(page: Page) -> dict:
    page.wait_for_url(re.compile(r".*/oauth-test/callback\?.*"))
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}


def exchange(code: str, verifier: str, client_id: str) -> requests.Response:
    return requests.post(f"{BASE_URL}/oauth/token", timeout=10, data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK,
        "client_id": client_id, "code_verifier": verifier})


def tools(access_token: str) -> list[str]:
    response = requests.post(f"{BASE_URL}/mcp", timeout=10, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                             headers={"Authorization": f"Bearer {access_token}", "MCP-Protocol-Version": "2025-11-25",
                                      "Accept": "application/json, text/event-stream"})
    assert response.status_code == 200, (response.status_code, response.text[:300])
    return [tool["name"] for tool in response.json()["result"]["tools"]]


def assert_axe_clean(page: Page, where: str) -> None:
    result = _axe(page)
    assert not result["blocking"], f"{where}:\n" + "\n".join(result["blocking"])


def consent_shot(page: Page, name: str) -> None:
    page.wait_for_timeout(150)
    page.evaluate("scrollTo(0, 0)")
    page.screenshot(path=f"/tmp/oauth-{name}.png", full_page=True)


def no_buttons(page: Page) -> None:
    for name in ("Erlauben", "Ablehnen", "Allow", "Deny"):
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(0)


# --- the tests ----------------------------------------------------------------------------------

def test_allow_by_keyboard_gives_a_working_token_once(make_page):
    page = make_page(service_workers="block")
    account = signup_via_api(page, name="Mara OAuth")
    client_id = register_client("Claude Test")
    verifier, challenge = pkce()
    answer_callback(page)
    sign_in_storage(page, account)
    path = authorize_path(client_id, challenge)
    page.goto(path)

    heading = page.get_by_role("heading", name=TITLE_DE, level=1)
    expect(heading).to_be_focused()
    card = page.locator("#consent")
    expect(card.locator(".consent-lead")).to_have_text("„Claude Test“ möchte auf deine Karten zugreifen.")
    expect(card.get_by_role("list", name="Das darf er dann").get_by_role("listitem")).to_have_text(
        ["Stapel, Karten und Statistiken lesen", "Stapel und Karten anlegen und Karten bewerten"])
    expect(card).to_contain_text(f"Danach geht es zurück zu {urlsplit(BASE_URL).netloc}.")
    expect(card).to_contain_text("Dafür wird ein Zugangstoken „Claude Test (OAuth)“ erstellt, das 90 Tage gilt.")
    link = card.get_by_role("link", name="Einstellungen → KI-Assistenten und Zugangstokens")
    expect(link).to_have_attribute("href", "/app/settings#tokens")
    expect(page).to_have_title(re.compile(r"^Zugriff erlauben"))
    assert_axe_clean(page, "desktop, German, consent")
    consent_shot(page, "consent-desktop-de")

    # The first answer is refused (400): said, the buttons were disabled meanwhile and are back.
    page.evaluate("""() => {
      window.__busy = false;
      const buttons = [...document.querySelectorAll('#consent button')];
      new MutationObserver(() => { if (buttons.every((b) => b.disabled)) window.__busy = true; })
        .observe(document.getElementById('consent'), { attributes: true, subtree: true });
    }""")
    failing = fail_once(page, re.compile(r".*/api/v1/oauth/authorize$"), status=400, code="invalid_request",
                        message="Die Anfrage ist ungültig.", method="POST")
    page.keyboard.press("Tab")
    expect(link).to_be_focused()
    page.keyboard.press("Tab")
    allow = page.get_by_role("button", name="Erlauben", exact=True)
    expect(allow).to_be_focused()
    page.keyboard.press("Enter")
    expect(card.get_by_role("alert")).to_have_text("Die Anfrage ist ungültig.")
    assert failing["left"] == 0
    assert page.evaluate("window.__busy") is True
    expect(allow).to_be_enabled()
    expect(page.get_by_role("button", name="Ablehnen", exact=True)).to_be_enabled()
    expect(allow).to_be_focused()
    consent_shot(page, "consent-refused-de")

    # Allowed: back at the client with the code and the state.
    page.keyboard.press("Enter")
    query = callback_query(page)
    assert query.get("state") == "xyz", query
    assert "error" not in query and query.get("code"), query

    response = exchange(query["code"], verifier, client_id)
    assert response.status_code == 200, (response.status_code, response.text[:300])
    token = response.json()
    assert token["access_token"].startswith("fcpat_"), token
    assert token["token_type"] == "Bearer" and token["expires_in"] == 90 * 86_400, token
    assert set(token["scope"].split()) == {"read", "write"}, token
    assert tools(token["access_token"]), "no MCP tools"

    again = exchange(query["code"], verifier, client_id)
    assert again.status_code == 400, (again.status_code, again.text[:300])
    assert again.json()["error"] == "invalid_grant", again.text

    # The token is in the settings' list, under the client's name.
    page.goto("/app/settings#tokens")
    section = page.get_by_role("region", name="KI-Assistenten und Zugangstokens")
    expect(section.locator(".state-loading")).to_have_count(0)
    item = section.locator(".token-item").filter(
        has=page.get_by_role("heading", name="Claude Test (OAuth)", exact=True))
    expect(item).to_have_count(1)
    expect(item).to_contain_text(token["access_token"][:12])


def test_deny_returns_access_denied(make_page):
    page = make_page(service_workers="block")
    account = signup_via_api(page, name="Mara Nein")
    client_id = register_client("Neugieriger Client")
    _, challenge = pkce()
    answer_callback(page)
    sign_in_storage(page, account)
    page.goto(authorize_path(client_id, challenge, scope=None))  # no scope: read only
    expect(page.get_by_role("heading", name=TITLE_DE, level=1)).to_be_focused()
    expect(page.locator(".consent-scopes li")).to_have_text(["Stapel, Karten und Statistiken lesen"])
    page.get_by_role("button", name="Ablehnen", exact=True).click()
    query = callback_query(page)
    assert query == {"error": "access_denied", "state": "xyz"}, query


def test_refused_requests_show_why_and_no_buttons(make_page):
    page = make_page(service_workers="block")
    account = signup_via_api(page, name="Mara Fremd")
    client_id = register_client("Ehrlicher Client")
    _, challenge = pkce()
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url) if frame == page.main_frame else None)
    sign_in_storage(page, account)

    # A redirect address the client did not register: the server's refusal, never a redirect there.
    elsewhere = f"{BASE_URL}/oauth-test/elsewhere"
    path = authorize_path(client_id, challenge, redirect_uri=elsewhere)
    page.goto(path)
    heading = page.get_by_role("heading", name="Zugriff nicht möglich", level=1)
    expect(heading).to_be_focused()
    expect(page.get_by_role("alert")).to_contain_text(REFUSED_DE)
    no_buttons(page)
    page.wait_for_timeout(300)
    assert page.url == BASE_URL + path
    assert not [url for url in navigations if "/oauth-test/" in url], navigations
    assert_axe_clean(page, "desktop, German, refused")
    consent_shot(page, "refused-redirect-de")

    # An unknown client.
    page.goto(authorize_path("kein-client", challenge))
    expect(page.get_by_role("alert")).to_contain_text(REFUSED_DE)
    no_buttons(page)

    # An incomplete or wrong request is refused before the server is asked.
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/api/v1/oauth/" in r.url else None)
    page.goto(authorize_path(client_id, None, response_type="token", code_challenge_method="plain"))
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Nur response_type=code wird unterstützt.")
    expect(alert).to_contain_text("Nur code_challenge_method=S256 wird unterstützt.")
    expect(alert).to_contain_text("Es fehlt: code_challenge.")
    no_buttons(page)
    page.goto(authorize_path(client_id, challenge, scope="read admin"))
    expect(page.get_by_role("alert")).to_contain_text("Unbekannte Berechtigung")
    no_buttons(page)
    assert asked == [], asked
    consent_shot(page, "invalid-request-de")


def test_signed_out_learner_signs_in_and_comes_back(make_page):
    page = make_page(service_workers="block")
    account = signup_via_api(page, name="Mara Später")
    client_id = register_client("Claude Später")
    _, challenge = pkce()
    path = authorize_path(client_id, challenge)
    page.goto(path)
    expect(page).to_have_url(re.compile(r"/app/login\?next="))
    assert parse_qs(urlsplit(page.url).query)["next"] == [path]
    expect(page.locator('a[href^="/app/register?next="]')).to_have_count(1)  # signing up comes back too
    page.get_by_label("E-Mail-Adresse").fill(account["mail"])
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden", exact=True).click()
    expect(page.get_by_role("heading", name=TITLE_DE, level=1)).to_be_visible()
    assert page.url == BASE_URL + path
    expect(page.locator(".consent-lead")).to_have_text("„Claude Später“ möchte auf deine Karten zugreifen.")
    expect(page.get_by_role("button", name="Erlauben", exact=True)).to_be_visible()


def test_english_on_a_phone_in_dark_mode(make_page):
    page = make_page(locale="en-US", color_scheme="dark", service_workers="block", **PHONE)
    account = signup_via_api(page, name="Mara Phone")
    name = 'Claude <b>Desktop</b> & "Co"'
    client_id = register_client(name)
    verifier, challenge = pkce()
    answer_callback(page)
    sign_in_storage(page, account)
    page.goto(authorize_path(client_id, challenge, scope="read"))
    expect(page.get_by_role("heading", name="Allow access", level=1)).to_be_focused()
    lead = page.locator(".consent-lead")
    expect(lead).to_have_text(f"“{name}” would like to access your cards.")
    expect(lead.locator("b")).to_have_count(0)
    expect(page.locator(".consent-scopes li")).to_have_text(["Read stacks, cards and statistics"])
    expect(page.locator("#consent")).to_contain_text(f"Afterwards you go back to {urlsplit(BASE_URL).netloc}.")
    expect(page.locator("#consent")).to_contain_text(f"This creates an access token “{name} (OAuth)” valid for 90 days.")
    expect(page.get_by_role("link", name="Settings → AI assistants and access tokens")).to_have_attribute(
        "href", "/app/settings#tokens")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.evaluate(NO_OVERFLOW), "horizontal overflow on a phone"
    assert_touch_targets(page)
    assert_axe_clean(page, "phone, dark, English")
    consent_shot(page, "consent-phone-dark-en")

    page.get_by_role("button", name="Allow", exact=True).click()
    query = callback_query(page)
    assert query.get("state") == "xyz" and query.get("code"), query
    response = exchange(query["code"], verifier, client_id)
    assert response.status_code == 200, (response.status_code, response.text[:300])
    assert response.json()["scope"] == "read", response.text

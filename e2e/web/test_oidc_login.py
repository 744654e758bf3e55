"""Sign-in with other accounts (OpenID Connect, docs/oidc.md) in the browser, against the real local
provider (e2e/oidc/provider.py, Authlib) and a second server that knows it twice, as "Schul-Login"
(RS256, query) and "Apple" (ES256, form_post, a signed client secret), like e2e/api/conftest.py's
`oidc` fixture. The server binary is FLASHCARDS_BIN (default .build/debug/flashcards).

Covered: the "Weiter mit …" buttons on the login and sign-up pages (none on a server without
providers, and no empty divider); a new learner signing in by keyboard (Tab + Enter) with `next`
carried through the provider, the code gone from the URL, the onboarding and the browser's time
zone for the account the provider made; the link form for an address that has an account (a wrong
password refused and kept, the right one links and signs in); a forged ID token, an unverified
address, a replayed callback, a spent code and a refusal without a known provider, each worded;
cancelling at the provider in English; the settings' "Anmeldung mit anderen Konten": unlinking
works with a password of its own and is refused with the way to set one without; axe on the login
page with its buttons."""

from __future__ import annotations

import json
import re
import sys

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import BASE_URL, PASSWORD, ROOT, SCREENSHOTS, _watch, api, daytime_zone, extra_server, free_port, shot
from test_accessibility import _axe

sys.path.insert(0, str(ROOT / "e2e" / "oidc"))
from oidc_harness import ProviderProcess, ensure_apple_client_key  # noqa: E402

SCHOOL = "flashcards-school"
APPLE = "org.example.flashcards.signin"
VERIFY_DE = ("Die Anmeldung bei Schul-Login konnte nicht bestätigt werden. Zu deiner Sicherheit haben wir "
             "sie abgebrochen. Bitte versuche es noch einmal.")
EXPIRED_DE = "Diese Anmeldung ist abgelaufen oder wurde schon verwendet. Bitte melde dich noch einmal an."


class OidcSetup:
    """The provider and the server that knows it."""

    def __init__(self, base: str, provider: ProviderProcess):
        self.base = base
        self.provider = provider


@pytest.fixture(scope="module")
def oidc():
    """The local OpenID provider and `flashcards serve` with FLASHCARDS_OIDC_* for it (school and
    Apple-style), on free ports with a fresh data directory."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    (ROOT / "artifacts").mkdir(exist_ok=True)
    provider = ProviderProcess(
        redirect_uris={
            SCHOOL: f"{base}/api/v1/auth/oidc/school/callback",
            APPLE: f"{base}/api/v1/auth/oidc/apple/callback",
        },
        log_path=ROOT / "artifacts" / "web-oidc-provider.log",
    ).start()
    try:
        with extra_server("oidc", dict(
            FLASHCARDS_SIGNUPS_PER_HOUR="100000", FLASHCARDS_PUBLIC_URL=base,
            FLASHCARDS_OIDC_PROVIDERS="school,apple",
            FLASHCARDS_OIDC_SCHOOL_ISSUER=provider.issuer,
            FLASHCARDS_OIDC_SCHOOL_CLIENT_ID=SCHOOL,
            FLASHCARDS_OIDC_SCHOOL_CLIENT_SECRET="school-test-secret",
            FLASHCARDS_OIDC_SCHOOL_NAME="Schul-Login",
            FLASHCARDS_OIDC_APPLE_ISSUER=provider.issuer,
            FLASHCARDS_OIDC_APPLE_CLIENT_ID=APPLE,
            FLASHCARDS_OIDC_APPLE_NAME="Apple",
            FLASHCARDS_OIDC_APPLE_SCOPES="openid name email",
            FLASHCARDS_OIDC_APPLE_RESPONSE_MODE="form_post",
            FLASHCARDS_OIDC_APPLE_APPLE_TEAM_ID="TEAM123456",
            FLASHCARDS_OIDC_APPLE_APPLE_KEY_ID="KEY1234567",
            FLASHCARDS_OIDC_APPLE_APPLE_PRIVATE_KEY_FILE=str(ensure_apple_client_key()),
        ), port=port) as served:
            assert served == base
            yield OidcSetup(base, provider)
    finally:
        provider.stop()


@pytest.fixture
def oidc_page(browser: Browser, oidc: OidcSetup):
    """Like conftest's make_page, on the OIDC server: fails on console errors and on requests to
    any host but the server and the provider (where the sign-in happens)."""
    opened = []

    def factory(locale="de-DE", **options) -> Page:
        options.setdefault("timezone_id", daytime_zone())
        options.setdefault("viewport", {"width": 1280, "height": 860})
        context = browser.new_context(
            base_url=oidc.base, locale=locale,
            extra_http_headers={"Accept-Language": f"{locale},{locale.split('-')[0]};q=0.9"}, **options,
        )
        context.set_default_timeout(10_000)
        page = context.new_page()
        opened.append((context, _watch(context, page, oidc.base)))
        return page

    yield factory
    problems = []
    for context, watch in opened:
        problems += watch.errors
        problems += [f"request to another host: {u}" for u in watch.foreign if not u.startswith(oidc.provider.base_url)]
        context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture(autouse=True)
def normal_provider(oidc: OidcSetup):
    oidc.provider.reset()
    yield
    oidc.provider.control(mode="normal")


def at_provider(page: Page, user: str) -> None:
    """The provider's login form: signs in as `user` (or cancels with "deny")."""
    expect(page).to_have_url(re.compile(r"^http://127\.0\.0\.1:\d+/authorize"))
    page.locator(f"#login-{user}" if user != "deny" else "#deny").click()


def no_code_in_history(page: Page) -> None:
    assert "oidc" not in page.url, page.url
    assert page.evaluate("sessionStorage.getItem('fc.oidc')") is None


def section_shot(page: Page, name: str) -> None:
    """The settings' section as artifacts/screenshots/<name>.png."""
    page.wait_for_timeout(150)
    page.evaluate("scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, clip=page.locator("#identities").bounding_box())


def assert_axe_clean(page: Page, where: str) -> None:
    result = _axe(page)
    assert not result["blocking"], f"{where}:\n" + "\n".join(result["blocking"])


def signup(page: Page, base: str, name: str, mail: str) -> dict:
    status, body = api(page, "POST", "/auth/signup",
                       {"name": name, "mail": mail, "password": PASSWORD, "timeZone": daytime_zone()}, base_url=base)
    assert status == 201, body
    return body


# --- the buttons ----------------------------------------------------------------------------------

def test_buttons_on_login_and_signup_only_with_providers(oidc_page, make_page):
    page = oidc_page()
    page.goto("/app/login")
    providers = page.get_by_role("group", name="Mit einem anderen Konto anmelden")
    expect(providers.get_by_role("button")).to_have_count(2)
    expect(providers.get_by_role("button", name="Weiter mit Schul-Login")).to_be_visible()
    expect(providers.get_by_role("button", name="Weiter mit Apple")).to_be_visible()
    # Under the form, after its "oder" divider, before the guest start.
    order = page.evaluate("""() => ['#auth-form', '.auth-or', '#auth-providers', '#guest-start']
        .map((s) => document.querySelector(s).getBoundingClientRect().top)""")
    assert order == sorted(order), order
    expect(page.get_by_label("E-Mail-Adresse")).to_be_focused()  # the buttons take no focus
    shot(page, "oidc-1-login-buttons")
    assert_axe_clean(page, "login with provider buttons")

    page.get_by_role("link", name="Registrieren").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Account erstellen")
    expect(page.get_by_role("button", name="Weiter mit Schul-Login")).to_be_visible()
    expect(page.get_by_role("button", name="Weiter mit Apple")).to_be_visible()
    shot(page, "oidc-2-register-buttons")

    # The run's own server has no providers: nothing extra, no second divider.
    plain = make_page()
    plain.goto(BASE_URL + "/app/login")
    expect(plain.get_by_role("button", name="Anmelden")).to_be_visible()
    expect(plain.get_by_role("button", name="Ohne Konto ausprobieren")).to_be_visible()
    plain.wait_for_load_state("networkidle")
    expect(plain.get_by_role("button", name=re.compile("^Weiter mit"))).to_have_count(0)
    expect(plain.locator("#auth-providers")).to_be_hidden()
    expect(plain.locator(".auth-or")).to_have_count(1)


# --- a new learner, by keyboard ---------------------------------------------------------------------

def test_new_learner_by_keyboard_with_next_then_unlink_refused(oidc_page, oidc):
    page = oidc_page()
    callbacks = []
    page.on("request", lambda r: callbacks.append(r.url) if "/auth/oidc/school/callback" in r.url else None)
    page.goto("/app/login?next=%2Fapp%2Fsettings")
    button = page.get_by_role("button", name="Weiter mit Schul-Login")
    expect(button).to_be_visible()
    expect(page.get_by_label("E-Mail-Adresse")).to_be_focused()
    # Mail → password → "Anmelden" → the first provider's button.
    for _ in range(3):
        page.keyboard.press("Tab")
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    at_provider(page, "anna")

    # The account the provider made: the onboarding first, then `next`.
    expect(page.get_by_role("button", name="Überspringen")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/app/welcome\?next=%2Fapp%2Fsettings$"))
    token = page.evaluate("localStorage.getItem('fc.token')")
    assert token
    no_code_in_history(page)
    status, me = api(page, "GET", "/me", token=token, base_url=oidc.base)
    assert status == 200 and me["mail"] == "anna@example.org" and me["name"] == "Anna Example", me
    assert me["timeZone"] == daytime_zone()  # the browser's zone, as a sign-up sends it
    page.get_by_role("button", name="Überspringen").click()
    expect(page).to_have_url(re.compile(r"/app/settings$"))

    # Settings: the provider listed, the note that a password comes first.
    section = page.get_by_role("region", name="Anmeldung mit anderen Konten")
    expect(section).to_be_visible()
    item = section.get_by_role("listitem")
    expect(item).to_have_count(1)
    expect(item.get_by_role("heading", name="Schul-Login")).to_be_visible()
    expect(item).to_contain_text("anna@example.org")
    expect(item).to_contain_text(re.compile(r"Verbunden am \d{1,2}\. \w+ \d{4}"))
    expect(section.locator("#identities-no-password")).to_contain_text("Dein Konto hat noch kein eigenes Passwort")
    section.get_by_role("button", name="Trennen").click()
    dialog = page.get_by_role("dialog", name="Schul-Login trennen?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Trennen").click()
    refused = section.get_by_role("alert")
    expect(refused).to_contain_text("Schul-Login kann noch nicht getrennt werden")
    expect(refused).to_contain_text("Lege zuerst eines fest.")
    expect(refused).to_be_focused()
    expect(item).to_have_count(1)
    section_shot(page, "oidc-3-settings-unlink-refused")

    # "Passwort festlegen" leads to the account section's form, which asks for no current password.
    refused.get_by_role("button", name="Passwort festlegen").click()
    own = page.get_by_label("Eigenes Passwort")
    expect(own).to_be_focused()
    account = page.get_by_role("region", name="Konto", exact=True)
    expect(account.get_by_label("Aktuelles Passwort")).to_have_count(0)
    expect(account).to_contain_text("Du meldest dich bisher nur über einen Anbieter an.")
    page.keyboard.type("kurz")
    page.keyboard.press("Enter")
    expect(own).to_have_attribute("aria-invalid", "true")
    # Over 10 minutes after signing in the server asks for a new sign-in (its answer stubbed here;
    # `V1StoryTests.firstPassword` waits the time out on the server's clock): the field says how.
    refusal = {"message": "Melde dich bitte erneut an.", "code": "reauthentication_required"}
    page.route("**/api/v1/me/password", lambda route: route.fulfill(
        status=403, content_type="application/json", body=json.dumps(refusal)))
    own.fill("eigenes Passwort 1")
    page.keyboard.press("Enter")
    expect(account).to_contain_text("nur in den ersten 10 Minuten nach der Anmeldung")
    expect(own).to_be_focused()
    page.evaluate("scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / "oidc-4-settings-set-password.png"), full_page=True,
                    clip=account.bounding_box())
    assert_axe_clean(page, "settings: a first password")
    page.unroute("**/api/v1/me/password")
    page.keyboard.press("Enter")
    expect(page.locator(".toast")).to_contain_text("Dein Passwort ist festgelegt.")
    # The page again: a password to change now, and the provider can go.
    account = page.get_by_role("region", name="Konto", exact=True)
    expect(account.get_by_label("Aktuelles Passwort")).to_be_visible()
    expect(account.get_by_role("button", name="Passwort ändern")).to_be_visible()
    section = page.get_by_role("region", name="Anmeldung mit anderen Konten")
    expect(section.locator("#identities-no-password")).to_have_count(0)
    section.get_by_role("button", name="Trennen").click()
    page.get_by_role("dialog", name="Schul-Login trennen?").get_by_role("button", name="Trennen").click()
    expect(section.locator("#identities-empty")).to_be_visible()
    # Signed in with the new password on another page.
    token = page.evaluate("localStorage.getItem('fc.token')")
    status, me = api(page, "GET", "/me", token=token, base_url=oidc.base)
    assert status == 200 and me["passwordSet"] is True, me
    other = oidc_page()
    status, _ = api(other, "POST", "/auth/login", body={"mail": "anna@example.org", "password": "eigenes Passwort 1"},
                    base_url=oidc.base)
    assert status == 200

    # The callback once more (Back, a reload, a copied link): the state is spent.
    assert callbacks, "the provider did not come back through the callback"
    replay = oidc_page()
    replay.goto(callbacks[0])
    alert = replay.get_by_role("alert")
    expect(alert).to_have_text(EXPIRED_DE)
    expect(replay).to_have_url(re.compile(r"/app/login$"))
    expect(replay.get_by_role("button", name="Weiter mit Schul-Login")).to_be_visible()


# --- an existing account: linked with its password ----------------------------------------------------

def test_existing_account_links_with_its_password_and_unlinks(oidc_page, oidc):
    page = oidc_page()
    owner = signup(page, oidc.base, "Dora Passwort", "dora@example.org")
    # The exchange takes a moment here, so that its state can be seen.
    page.add_init_script("""(() => {
      const fetch = window.fetch;
      window.fetch = (input, init) => (String(input).includes('/auth/oidc/session')
        ? new Promise((resolve) => setTimeout(resolve, 800)).then(() => fetch(input, init)) : fetch(input, init));
    })()""")
    page.goto("/app/login")
    page.get_by_role("button", name="Weiter mit Apple").click()
    at_provider(page, "dora")  # Apple-style: the provider form-posts back
    expect(page.get_by_role("status").filter(has_text="Anmeldung wird abgeschlossen…")).to_be_visible()
    no_code_in_history(page)

    expect(page.get_by_role("heading", level=1)).to_have_text("Mit bestehendem Konto verbinden")
    expect(page.get_by_text(re.compile(r"Es gibt schon ein Konto mit der Adresse dora@example\.org\..*Apple"))).to_be_visible()
    password = page.get_by_label("Passwort", exact=True)
    expect(password).to_be_focused()
    no_code_in_history(page)
    password.fill("ganz-falsch-123")
    password.press("Enter")
    expect(page.get_by_role("alert")).to_have_text("Das Passwort ist nicht richtig. Versuche es noch einmal.")
    expect(password).to_be_focused()
    expect(page.get_by_role("button", name="Verbinden und anmelden")).to_be_enabled()
    shot(page, "oidc-4-link-wrong-password")
    password.fill(PASSWORD)
    page.get_by_role("button", name="Verbinden und anmelden").click()
    expect(page).to_have_url(re.compile(r"/app/home$"))
    assert page.evaluate("JSON.parse(localStorage.getItem('fc.user')).id") == owner["user"]["id"]

    page.goto("/app/settings")
    section = page.get_by_role("region", name="Anmeldung mit anderen Konten")
    item = section.get_by_role("listitem")
    expect(item.get_by_role("heading", name="Apple")).to_be_visible()
    expect(item).to_contain_text("dora@example.org")
    expect(section.locator("#identities-no-password")).to_have_count(0)
    section_shot(page, "oidc-7-settings-linked")
    unlink = item.get_by_role("button", name="Trennen")
    unlink.click()
    page.get_by_role("dialog").get_by_role("button", name="Abbrechen").click()
    expect(unlink).to_be_focused()
    unlink.click()
    page.get_by_role("dialog", name="Apple trennen?").get_by_role("button", name="Trennen").click()
    expect(page.get_by_text("Apple ist getrennt.")).to_be_visible()
    expect(section.get_by_text("Noch keine Anmeldung verbunden.")).to_be_visible()
    expect(section.get_by_role("listitem")).to_have_count(0)
    status, body = api(page, "GET", "/me/identities", token=page.evaluate("localStorage.getItem('fc.token')"),
                       base_url=oidc.base)
    assert status == 200 and body["identities"] == [] and body["passwordSet"] is True, body


# --- refusals, worded -------------------------------------------------------------------------------

def test_forged_token_and_unverified_address_are_worded(oidc_page, oidc):
    page = oidc_page()
    oidc.provider.control(mode="forge_signature")
    page.goto("/app/login")
    page.get_by_role("button", name="Weiter mit Schul-Login").click()
    at_provider(page, "anna")
    alert = page.get_by_role("alert")
    expect(alert).to_have_text(VERIFY_DE)
    expect(alert).to_be_focused()
    expect(page).to_have_url(re.compile(r"/app/login$"))
    assert page.evaluate("localStorage.getItem('fc.token')") is None
    expect(page.get_by_role("button", name="Weiter mit Schul-Login")).to_be_enabled()
    shot(page, "oidc-5-forged-token")

    oidc.provider.control(mode="normal")
    page.get_by_role("button", name="Weiter mit Schul-Login").click()
    at_provider(page, "ben")
    expect(page.get_by_role("alert")).to_have_text(
        "Deine E-Mail-Adresse ist bei Schul-Login nicht bestätigt. Bestätige sie dort und versuche es dann noch einmal.")


def test_spent_code_and_unknown_provider_name(oidc_page):
    page = oidc_page()
    # A code nobody issued (or one used already): the exchange is refused with 401.
    page.goto("/app/login?oidc=" + "A" * 43)
    expect(page.get_by_role("alert")).to_have_text(EXPIRED_DE)
    expect(page).to_have_url(re.compile(r"/app/login$"))
    # A refusal this tab did not start: the provider is not named.
    page.goto("/app/login?oidcError=token_expired")
    expect(page.get_by_role("alert")).to_contain_text("Die Anmeldung bei deinem Anbieter konnte nicht bestätigt werden.")
    page.goto("/app/login?oidcError=provider_unknown")
    expect(page.get_by_role("alert")).to_have_text(
        "Diese Anmeldemöglichkeit gibt es auf diesem Server nicht. Melde dich mit deiner E-Mail-Adresse und deinem Passwort an.")


def test_cancelled_in_english_in_dark_mode_keeps_next(oidc_page):
    page = oidc_page(locale="en-US", color_scheme="dark")
    page.goto("/app/register?next=%2Fapp%2Fstats")
    expect(page.get_by_role("heading", level=1)).to_have_text("Create your account")
    page.get_by_role("button", name="Continue with Schul-Login").click()
    at_provider(page, "deny")
    alert = page.get_by_role("alert")
    expect(alert).to_have_text("The sign-in with Schul-Login was cancelled. You can try again at any time.")
    # Back on the page it started from, `next` kept for the next try.
    expect(page).to_have_url(re.compile(r"/app/register\?next=%2Fapp%2Fstats$"))
    expect(page.get_by_role("link", name="Sign in", exact=True)).to_have_attribute("href", "/app/login?next=%2Fapp%2Fstats")
    shot(page, "oidc-6-cancelled-en-dark")
    assert_axe_clean(page, "sign-up, English, dark, with a provider's refusal")

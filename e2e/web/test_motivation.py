"""Progress without pressure (issue 18): onboarding (completed, skipped, by keyboard only), the guest
start and "Konto sichern", logout that revokes the token, the home screen after ratings (goal ring,
a challenge, XP and level), the level-up celebration, the mystery box, the library (search, pills,
favourites, icon and description), the opt-in leaderboard with two learners, focus mode, settings
that persist, the in-app reminder, English, a phone, and a push message shown by the service
worker. Expected numbers come from the API's answers, never from the rules written again here."""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime, timedelta, timezone

from playwright.sync_api import Page, expect

from conftest import BASE_URL, PASSWORD, api, make_stack, shot, sign_in_storage, signup_via_api, unique_mail
from test_mobile import SMALL_TARGETS

# The German guest names' adjectives (the server's FlashcardsCore GuestNames).
GERMAN_ADJECTIVES = {"Neugieriger", "Fleißiger", "Kluger", "Mutiger", "Ruhiger", "Fröhlicher", "Wacher", "Schlauer",
                     "Freundlicher", "Geduldiger", "Munterer", "Flinker", "Heiterer", "Emsiger", "Wissbegieriger"}
GREETING = re.compile(r"^(Guten Morgen|Guten Tag|Guten Abend|Hallo), ")
NO_OVERFLOW = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


# --- helpers ------------------------------------------------------------------------------------

def rate(page: Page, token: str, stack: dict, card: dict, rating: str = "good") -> None:
    status, body = api(page, "POST", f"/stacks/{stack['id']}/study/rate",
                       {"cardId": card["id"], "rating": rating, "reviewId": str(uuid.uuid4())}, token=token)
    assert status == 200, body


def settings_of(page: Page, token: str) -> dict:
    status, body = api(page, "GET", "/me/settings", token=token)
    assert status == 200, body
    return body


def patch_settings(page: Page, token: str, changes: dict) -> dict:
    status, body = api(page, "PATCH", "/me/settings", changes, token=token)
    assert status == 200, body
    return body


def progress_of(page: Page, token: str) -> dict:
    status, body = api(page, "GET", "/me/progress", token=token)
    assert status == 200, body
    return body


def session_token(page: Page) -> str:
    return page.evaluate("localStorage.getItem('fc.token')")


def register_in_browser(page: Page, name: str = "Mia") -> str:
    """Signs up through the form; returns the mail address."""
    mail = unique_mail()
    page.goto("/app/register")
    page.get_by_label("Name").fill(name)
    page.get_by_label("E-Mail-Adresse").fill(mail)
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Registrieren").click()
    expect(page).to_have_url(re.compile(r"/app/welcome$"))
    return mail


def studied_before(page: Page, token: str, days: int = 1, name: str = "Gestern") -> dict:
    """A first day of learning that is over: a stack made `days` + 2 days ago with `days` cards, one
    reviewed on each of the last `days` days (easy, so none is due today). Game elements that wait
    for the first day of learning to be over then show."""
    created = (datetime.now(timezone.utc) - timedelta(days=days + 2)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    stack = make_stack(page, token, name, days, created_at=created)
    reviews = [{"id": str(uuid.uuid4()), "cardId": card["id"], "rating": "easy",
                "reviewedAt": (datetime.now(timezone.utc) - timedelta(days=days - i)).strftime("%Y-%m-%dT%H:%M:%S.000Z")}
               for i, card in enumerate(stack["cards"])]
    status, body = api(page, "POST", "/reviews", {"reviews": reviews}, token=token)
    assert status == 200, body
    return stack


def nav(page: Page):
    return page.get_by_role("navigation", name="Hauptnavigation")


def assert_touch_targets(page: Page) -> None:
    small = page.evaluate(SMALL_TARGETS)
    assert small == [], f"touch targets under 44 px on {page.url}: {small}"


# --- onboarding ---------------------------------------------------------------------------------

def test_onboarding_completed_sets_the_goal_and_can_be_changed(page: Page):
    register_in_browser(page, "Mia")
    token = session_token(page)
    dots = page.locator(".dots")
    expect(dots).to_have_attribute("aria-label", "Schritt 1 von 6")
    expect(page.get_by_role("heading", level=1)).to_have_text("Lernen, das bleibt")
    expect(page.get_by_role("navigation", name="Hauptnavigation")).to_have_count(0)  # the onboarding stands alone
    shot(page, "m01-welcome-intro")
    page.get_by_role("button", name="Weiter").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Karten aus deinem Material")
    expect(page.get_by_role("heading", level=1)).to_be_focused()
    page.get_by_role("button", name="Zurück").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lernen, das bleibt")
    page.get_by_role("button", name="Weiter").click()
    page.get_by_role("button", name="Weiter").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ohne Druck")
    page.get_by_role("button", name="Weiter").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Wofür lernst du?")
    expect(dots).to_have_attribute("aria-label", "Schritt 4 von 6")
    for label in ("Prüfung", "Sprache", "Neugier", "Beruf"):
        expect(page.get_by_role("radio", name=re.compile(f"^{label}"))).to_be_visible()
    page.get_by_role("radio", name=re.compile("^Sprache")).check()
    page.get_by_role("button", name="Weiter").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Wie viel Zeit möchtest du am Tag?")
    expect(page.get_by_role("radio", name=re.compile(r"^20\+ Minuten"))).to_be_visible()
    page.get_by_role("radio", name=re.compile("^10 Minuten")).check()
    page.get_by_role("button", name="Weiter").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Was interessiert dich?")
    chips = page.locator(".chip")
    expect(chips).to_have_count(12)
    page.get_by_role("button", name="Biologie", exact=True).click()
    expect(page.get_by_role("button", name="Biologie", exact=True)).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Chemie", exact=True).click()
    page.get_by_role("button", name="Chemie", exact=True).click()  # and off again
    page.get_by_label("Eigenes Thema").fill("Astronomie")
    page.get_by_label("Eigenes Thema").press("Enter")
    expect(page.get_by_role("button", name="Astronomie", exact=True)).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_text("2 von 12 Themen gewählt")).to_be_visible()
    shot(page, "m02-welcome-interests")
    page.get_by_role("button", name="Fertig").click()

    expect(page).to_have_url(re.compile(r"/app/home$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(GREETING)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Mia")
    expect(page.get_by_role("status").filter(has_text="Dein Tagesziel: 20 Karten")).to_be_visible()
    settings = settings_of(page, token)
    assert settings["onboarding"]["done"] is True
    assert settings["onboarding"]["purpose"] == "language"
    assert settings["onboarding"]["minutesPerDay"] == 10
    assert settings["onboarding"]["interests"] == ["Biologie", "Astronomie"]
    assert settings["dailyGoal"] == 20  # 10 minutes: two cards a minute (the server's rule)
    expect(page.locator(".goal-center")).to_have_text(re.compile(r"^0 / 20\s+Karten$"))

    # The answers can be changed later from the settings, and the flow returns there.
    nav(page).get_by_role("link", name="Einstellungen").click()
    expect(page.locator("#answer-purpose")).to_have_text("Sprache")
    expect(page.locator("#answer-minutes")).to_have_text("10 Minuten")
    expect(page.locator("#answer-interests")).to_have_text("Biologie, Astronomie")
    page.get_by_role("link", name="Antworten ändern").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Wofür lernst du?")
    expect(page.get_by_role("radio", name=re.compile("^Sprache"))).to_be_checked()
    page.get_by_role("radio", name=re.compile("^Beruf")).check()
    page.get_by_role("button", name="Weiter").click()
    expect(page.get_by_role("radio", name=re.compile("^10 Minuten"))).to_be_checked()
    page.get_by_role("radio", name=re.compile("^5 Minuten")).check()
    page.get_by_role("button", name="Weiter").click()
    expect(page.get_by_role("button", name="Astronomie", exact=True)).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Fertig").click()
    expect(page).to_have_url(re.compile(r"/app/settings$"))
    expect(page.locator("#answer-purpose")).to_have_text("Beruf")
    expect(page.locator("#answer-minutes")).to_have_text("5 Minuten")
    expect(page.get_by_label("Tagesziel")).to_have_value("10")


def test_onboarding_can_be_skipped_at_any_step(page: Page):
    page.goto("/")
    page.get_by_role("link", name="Jetzt loslegen").click()
    register_in_browser(page, "Jonas")
    token = session_token(page)
    page.get_by_role("button", name="Weiter").click()
    page.get_by_role("button", name="Überspringen").click()
    expect(page).to_have_url(re.compile(r"/app/home$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Jonas")
    onboarding = settings_of(page, token)["onboarding"]
    assert onboarding["done"] is True and onboarding["purpose"] is None
    # Neither the form nor the onboarding is in the history: Back goes to the landing page.
    page.go_back()
    expect(page).to_have_url(re.compile(r"/$"))


def test_onboarding_by_keyboard_only(page: Page):
    account = signup_via_api(page, name="Kai")
    sign_in_storage(page, account)
    page.goto("/app/home")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Kai")
    # From the settings' "Einführung noch einmal ansehen" link, by keyboard.
    page.goto("/app/settings")
    link = page.get_by_role("link", name="Einführung noch einmal ansehen")
    link.focus()
    page.keyboard.press("Enter")
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Lernen, das bleibt")
    expect(heading).to_be_focused()
    for step, title in enumerate(("Karten aus deinem Material", "Ohne Druck", "Wofür lernst du?")):
        page.keyboard.press("Tab")
        if step > 0:  # "Zurück" comes first, as on screen
            expect(page.get_by_role("button", name="Zurück")).to_be_focused()
            page.keyboard.press("Tab")
        expect(page.get_by_role("button", name="Weiter")).to_be_focused()
        page.keyboard.press("Enter")
        expect(heading).to_have_text(title)
        expect(heading).to_be_focused()
    # Radios: Tab into the group, arrows choose, Enter goes on.
    page.keyboard.press("Tab")
    expect(page.get_by_role("radio", name=re.compile("^Prüfung"))).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("radio", name=re.compile("^Neugier"))).to_be_checked()
    shot(page, "m03-welcome-keyboard")
    page.keyboard.press("Enter")
    expect(heading).to_have_text("Wie viel Zeit möchtest du am Tag?")
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("radio", name=re.compile("^15 Minuten"))).to_be_checked()
    page.keyboard.press("Enter")
    expect(heading).to_have_text("Was interessiert dich?")
    # Chips are toggle buttons: Tab to one, Space presses it.
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Sprachen", exact=True)).to_be_focused()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Biologie", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "own-topic":
            break
    page.keyboard.type("Segeln")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Segeln", exact=True)).to_have_attribute("aria-pressed", "true")
    for _ in range(5):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == "Fertig":
            break
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/app/settings$"))
    onboarding = settings_of(page, account["token"])["onboarding"]
    assert onboarding == {**onboarding, "done": True, "purpose": "curiosity", "minutesPerDay": 15,
                          "interests": ["Sprachen", "Biologie", "Segeln"]}
    assert settings_of(page, account["token"])["dailyGoal"] == 30


# --- guests, logout -----------------------------------------------------------------------------

def test_guest_start_then_secure_account_keeps_the_stacks(page: Page):
    page.goto("/app/login")
    page.get_by_role("button", name="Ohne Konto ausprobieren").click()
    expect(page).to_have_url(re.compile(r"/app/welcome$"))
    guest = page.evaluate("JSON.parse(localStorage.getItem('fc.user'))")
    assert guest["isGuest"] is True and guest["mail"] == ""
    assert re.fullmatch(r"[A-ZÄÖÜ][a-zäöüß]+[A-ZÄÖÜ][a-zäöüß]+\d{3}", guest["name"]), guest["name"]
    page.get_by_role("button", name="Überspringen").click()
    expect(page).to_have_url(re.compile(r"/app/home$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(guest["name"])
    guest_token = session_token(page)
    stack = make_stack(page, guest_token, "Gastvokabeln", 2)
    rate(page, guest_token, stack, stack["cards"][0], "good")

    secure = page.locator("app-header").get_by_role("button", name="Konto sichern")
    expect(secure).to_be_visible()
    shot(page, "m04-guest-home")
    secure.click()
    dialog = page.get_by_role("dialog", name="Konto sichern")
    expect(dialog).to_be_visible()
    mail = unique_mail("gast")
    dialog.get_by_label("E-Mail-Adresse").fill("keine-adresse")
    dialog.get_by_label("Passwort").fill("kurz")
    dialog.get_by_role("button", name="Konto sichern").click()
    expect(dialog.get_by_text("Gib eine gültige E-Mail-Adresse ein")).to_be_visible()
    expect(dialog.get_by_text("Das Passwort muss mindestens 8 Zeichen lang sein.")).to_be_visible()
    shot(page, "m05-guest-secure")
    dialog.get_by_label("Name (optional)").fill("Mia Gast")
    dialog.get_by_label("E-Mail-Adresse").fill(mail)
    dialog.get_by_label("Passwort").fill(PASSWORD)
    dialog.get_by_role("button", name="Konto sichern").click()
    expect(page.get_by_text("Dein Konto ist gesichert. Alle deine Stapel sind noch da.")).to_be_visible()
    expect(dialog).to_have_count(0)
    expect(secure).to_have_count(0)
    expect(page.locator("app-header")).to_contain_text("Mia Gast")

    token = session_token(page)
    assert token != guest_token
    status, me = api(page, "GET", "/me", token=token)
    assert status == 200 and me["isGuest"] is False and me["mail"] == mail and me["id"] == guest["id"]
    # Signing in with the new address finds the same stack and its review.
    status, auth = api(page, "POST", "/auth/login", {"mail": mail, "password": PASSWORD})
    assert status == 200, auth
    status, stacks = api(page, "GET", "/stacks", token=auth["token"])
    assert [s["name"] for s in stacks] == ["Gastvokabeln"] and stacks[0]["lastStudiedAt"]
    nav(page).get_by_role("link", name="Stapel").click()
    expect(page.locator("a.stack-card", has_text="Gastvokabeln")).to_be_visible()
    # A second upgrade is refused by the server ("not a guest").
    status, body = api(page, "POST", "/auth/upgrade", {"mail": unique_mail(), "password": PASSWORD}, token=token)
    assert status == 409 and body["code"] == "not_a_guest", body


def test_logout_revokes_the_token_and_asks_a_guest_first(make_page):
    page = make_page()
    account = signup_via_api(page)
    # A second session of the same account stays valid.
    status, other = api(page, "POST", "/auth/login", {"mail": account["mail"], "password": PASSWORD})
    assert status == 200
    sign_in_storage(page, account)
    page.goto("/app/home")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.get_by_role("button", name="Abmelden").click()
    expect(page).to_have_url(re.compile(r"/app/login$"))
    expect(page.get_by_text("Du hast dich abgemeldet.")).to_be_visible()
    assert session_token(page) is None
    status, _ = api(page, "GET", "/me", token=account["token"])
    assert status == 401
    status, _ = api(page, "GET", "/me", token=other["token"])
    assert status == 200

    # A guest is asked first; cancelling keeps the session.
    guest_page = make_page()
    guest_page.goto("/app/register")
    guest_page.get_by_role("button", name="Ohne Konto ausprobieren").click()
    guest_page.get_by_role("button", name="Überspringen").click()
    expect(guest_page).to_have_url(re.compile(r"/app/home$"))
    guest_token = session_token(guest_page)
    guest_page.get_by_role("button", name="Abmelden").click()
    dialog = guest_page.get_by_role("dialog")
    expect(dialog).to_contain_text("Nach dem Abmelden sind sie ohne Konto nicht mehr erreichbar.")
    shot(guest_page, "m06-guest-logout")
    dialog.get_by_role("button", name="Abbrechen").click()
    expect(guest_page).to_have_url(re.compile(r"/app/home$"))
    assert session_token(guest_page) == guest_token
    guest_page.get_by_role("button", name="Abmelden").click()
    guest_page.get_by_role("dialog").get_by_role("button", name="Trotzdem abmelden").click()
    expect(guest_page).to_have_url(re.compile(r"/app/login$"))
    status, _ = api(guest_page, "GET", "/me", token=guest_token)
    assert status == 401

    # Offline, logging out still ends the local session.
    offline = make_page()
    third = signup_via_api(offline)
    sign_in_storage(offline, third)
    offline.goto("/app/home")
    expect(offline.get_by_role("heading", level=1)).to_be_visible()
    offline.route(re.compile(r"/api/v1/auth/logout$"), lambda route: route.abort())
    offline.get_by_role("button", name="Abmelden").click()
    expect(offline).to_have_url(re.compile(r"/app/login$"))
    assert session_token(offline) is None


# --- home ---------------------------------------------------------------------------------------

def test_home_after_ratings_shows_goal_challenge_and_level(page: Page):
    account = signup_via_api(page, name="Mia")
    token = account["token"]
    studied_before(page, token)  # the first day of learning is over: every game element is earned
    stack = make_stack(page, token, "Biologie", 12)
    for card in stack["cards"][:8]:
        rate(page, token, stack, card, "good")
    progress = progress_of(page, token)
    assert progress["cardsToday"] == 8
    sign_in_storage(page, account)
    page.goto("/app/home")
    expect(page.get_by_role("heading", level=1)).to_have_text(GREETING)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Mia")
    goal = progress["dailyGoal"]
    expect(page.locator(".goal-center")).to_have_text(re.compile(rf"^8 / {goal}\s+Karten$"))
    expect(page.locator("#goal-summary")).to_have_text(f"Heute 8 von {goal} Karten gelernt")
    expect(page.get_by_text(f"Noch {goal - 8} Karten bis zu deinem Tagesziel.")).to_be_visible()
    start = page.get_by_role("link", name="Jetzt lernen", exact=True)
    expect(start).to_be_visible()
    expect(page.get_by_text(f"Heute sind {progress['dueCount']} Karten fällig.")).to_be_visible()

    # Challenges: a new topic is done; the others show their progress.
    challenges = page.locator(".challenge")
    expect(challenges).to_have_count(3)
    by_kind = {c["kind"]: c for c in progress["challenges"]}
    assert by_kind["newTopic"]["done"]
    expect(page.locator(".challenge[data-kind=newTopic]")).to_contain_text("Einen neuen Stapel beginnen")
    expect(page.locator(".challenge[data-kind=newTopic]")).to_contain_text("Geschafft")
    expect(page.locator(".challenge[data-kind=cardsStudied]")).to_contain_text(
        f"{by_kind['cardsStudied']['target']} Karten lernen")
    expect(page.locator(".challenge[data-kind=cardsStudied]")).to_contain_text(
        f"{by_kind['cardsStudied']['progress']} / {by_kind['cardsStudied']['target']}")
    expect(page.locator(".challenge[data-kind=cardsStudied] [role=progressbar]")).to_have_attribute(
        "aria-valuenow", str(by_kind["cardsStudied"]["progress"]))

    # XP and level as the server computed them.
    level = progress["level"]
    expect(page.locator("#level")).to_contain_text(f"Level {level['level']}")
    expect(page.locator("#level")).to_contain_text(f"{level['xpIntoLevel']} / {level['xpForNextLevel']} XP")
    expect(page.locator("#level [role=progressbar]")).to_have_attribute("aria-valuenow", str(level["xpIntoLevel"]))
    if progress["xpToday"]:
        expect(page.locator("#level")).to_contain_text(f"+{progress['xpToday']} XP heute")
    streak = progress["streak"]["current"]
    assert streak >= 1
    if streak >= 2:  # a calm line from two days on, never a count of one
        expect(page.locator("#streak")).to_contain_text(f"{streak} Tage in Folge")
    else:
        expect(page.locator("#main")).not_to_contain_text("in Folge")
    # The leaderboard is reached from the progress, not from the main navigation.
    expect(page.locator(".progress-panel").get_by_role("link", name="Rangliste")).to_be_visible()
    expect(nav(page).get_by_role("link", name="Rangliste")).to_have_count(0)
    # Achievements with German names and descriptions.
    expect(page.locator("#achievements")).to_contain_text("Erste Schritte")
    expect(page.locator("#achievements")).to_contain_text("Deine erste Karte gelernt.")
    # The calendar: today is active; nothing red anywhere.
    today = page.locator(f".calendar td[data-date='{progress['today']}']")
    expect(today).to_have_class(re.compile(r"\bcal-active\b"))
    expect(today).to_contain_text("gelernt")
    reds = page.evaluate("""() => [...document.querySelectorAll('#main *')].filter((el) => {
        const c = getComputedStyle(el); return [c.color, c.backgroundColor].some((v) => /rgb\\((2[0-5]\\d|1[5-9]\\d), ([0-6]?\\d), ([0-6]?\\d)\\)/.test(v));
      }).map((el) => el.className)""")
    assert reds == [], reds
    shot(page, "m07-home")

    # "Jetzt lernen" opens the session over every stack.
    start.click()
    expect(page).to_have_url(re.compile(r"/app/study$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Wie möchtest du lernen?")
    expect(page.locator("#study-lead")).to_contain_text("Alle Stapel")


def test_home_when_everything_is_learned_and_rest_days(page: Page):
    account = signup_via_api(page)
    token = account["token"]
    studied_before(page, token)  # rest days belong to the calendar, shown once a day of learning is over
    stack = make_stack(page, token, "Fertig", 1)
    sign_in_storage(page, account)
    # A rest day before studying: marked and taken back.
    page.goto("/app/home")
    mark = page.get_by_role("button", name="Heute als Ruhetag markieren")
    mark.click()
    undo = page.get_by_role("button", name="Ruhetag aufheben")
    expect(undo).to_be_focused()
    expect(undo).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#streak")).to_contain_text("Heute ist Ruhetag.")
    progress = progress_of(page, token)
    assert progress["streak"]["restToday"] is True and progress["today"] in progress["restDays"]
    expect(page.locator(f".calendar td[data-date='{progress['today']}']")).to_have_class(re.compile(r"\bcal-rest\b"))
    shot(page, "m08-home-rest-day")
    undo.click()
    expect(page.get_by_role("button", name="Heute als Ruhetag markieren")).to_be_visible()
    assert progress_of(page, token)["streak"]["restToday"] is False

    # Every card learned: a calm empty state instead of "Jetzt lernen".
    rate(page, token, stack, stack["cards"][0], "easy")
    assert progress_of(page, token)["dueCount"] == 0
    page.reload()
    expect(page.get_by_text("Für heute ist alles gelernt")).to_be_visible()
    expect(page.get_by_role("link", name="Jetzt lernen", exact=True)).to_have_count(0)
    expect(page.locator("#all-done").get_by_role("link", name="Zu deinen Stapeln")).to_be_visible()
    expect(page.locator("#all-done").get_by_role("link", name="Neuen Stapel anlegen")).to_be_visible()
    # Studied today: no rest-day button any more.
    expect(page.get_by_role("button", name="Heute als Ruhetag markieren")).to_have_count(0)


def test_level_up_is_celebrated_once(make_page):
    durations = {}
    for motion in ("no-preference", "reduce"):
        page = make_page(reduced_motion=motion)
        account = signup_via_api(page)
        token = account["token"]
        stack = make_stack(page, token, "Aufstieg", 6)
        sign_in_storage(page, account)
        page.goto("/app/home")
        expect(page.locator("#goal")).to_be_visible()
        expect(page.locator("#level")).to_have_count(0)  # no level before the first review
        rate(page, token, stack, stack["cards"][0], "again")  # some XP, still below level 2
        assert progress_of(page, token)["level"]["level"] == 1
        page.reload()
        expect(page.locator("#level")).to_contain_text("Level 1")
        expect(page.locator(".celebration")).to_have_count(0)
        for card in stack["cards"][1:]:
            rate(page, token, stack, card, "easy")
            if progress_of(page, token)["level"]["level"] >= 2:
                break
        level = progress_of(page, token)["level"]
        assert level["level"] >= 2 and level["totalXP"] >= 100
        page.reload()
        celebration = page.locator("#celebration")
        expect(celebration).to_have_attribute("role", "status")
        expect(celebration).to_contain_text(f"Level {level['level']} erreicht")
        durations[motion] = page.locator(".celebration-burst").evaluate("el => getComputedStyle(el).animationDuration")
        if motion == "no-preference":
            shot(page, "m09-level-up")
        page.get_by_role("button", name="Ausblenden").click()
        expect(page.locator(".celebration")).to_have_count(0)
        page.reload()
        expect(page.locator("#level")).to_contain_text(f"Level {level['level']}")
        expect(page.locator(".celebration")).to_have_count(0)  # once per level
    assert durations["no-preference"] == "0.9s"
    assert float(durations["reduce"].rstrip("s")) < 0.001  # no motion under prefers-reduced-motion


def test_mystery_box_after_all_three_challenges(page: Page):
    account = signup_via_api(page)
    token = account["token"]
    patch_settings(page, token, {"dailyGoal": 5})
    studied_before(page, token)  # the daily challenges show once the first day of learning is over
    stack = make_stack(page, token, "Neu", 6)
    sign_in_storage(page, account)
    page.goto("/app/home")
    expect(page.get_by_text("Noch 3 Aufgaben, dann wartet eine Überraschungsbox.")).to_be_visible()
    expect(page.get_by_role("button", name="Überraschungsbox öffnen")).to_have_count(0)
    status, body = api(page, "POST", "/me/mystery-box", token=token)
    assert status == 409 and body["code"] == "challenges_open", body
    expect(page.locator(".challenge[data-kind=perfectRun]")).to_contain_text("5 Karten am Stück gewusst")

    # Study the new stack in the browser: five cards known in a row.
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=flashcards&size=all")
    for i in range(5):
        expect(page.locator("#position")).to_have_text(re.compile(rf"^Karte {i + 1} von \d+$"))
        page.keyboard.press("Space")
        expect(page.locator("#ratings")).to_be_visible()
        page.keyboard.press("3")  # Gut
        expect(page.locator("#counter")).to_have_text(re.compile(rf"^{i + 1} Karten?, {i + 1} Wiederholung"))
    progress = progress_of(page, token)
    assert all(c["done"] for c in progress["challenges"]), progress["challenges"]
    assert progress["mysteryBox"]["available"] is True

    page.goto("/app/home")
    for kind in ("cardsStudied", "perfectRun", "newTopic"):
        expect(page.locator(f".challenge[data-kind={kind}]")).to_contain_text("Geschafft")
    box = page.get_by_role("button", name="Überraschungsbox öffnen")
    shot(page, "m10-box-ready")
    box.click()
    reveal = page.locator("#box-opened")
    expect(reveal).to_contain_text("In der Box:")
    expect(reveal).to_be_focused()
    status, again = api(page, "POST", "/me/mystery-box", token=token)  # the same box, every time
    assert status == 200, again
    rarity = {"common": "gewöhnlich", "rare": "selten", "epic": "episch", "legendary": "legendär"}[again["box"]["rarity"]]
    expect(reveal.locator(".rarity")).to_have_text(rarity)
    if again["box"]["theme"]:
        names = {"meadow": "Wiese", "dusk": "Abenddämmerung", "aurora": "Polarlicht", "ocean": "Ozean", "gold": "Gold"}
        expect(reveal).to_contain_text(f"Farbthema „{names[again['box']['theme']]}“")
        reveal.get_by_role("button", name="Verwenden").click()
        expect(page.locator("html")).to_have_attribute("data-theme", again["box"]["theme"])
        assert settings_of(page, token)["theme"] == again["box"]["theme"]
    else:
        expect(reveal).to_contain_text(f"+{again['box']['xp']} XP")
    expect(page.locator("#level")).to_contain_text(f"Level {again['level']['level']}")
    shot(page, "m11-box-opened")
    page.reload()
    expect(page.locator("#box-opened")).to_contain_text("Heutige Box geöffnet:")
    expect(page.get_by_role("button", name="Überraschungsbox öffnen")).to_have_count(0)


def test_in_app_reminder_shows_once_a_day(page: Page):
    account = signup_via_api(page)
    token = account["token"]
    make_stack(page, token, "Abend", 2)
    # Reminders on, the time long past today, nothing studied, no rest day.
    patch_settings(page, token, {"remindersEnabled": True, "reminderTime": "00:00"})
    sign_in_storage(page, account)
    page.goto("/app/home")
    note = page.locator(".reminder-note")
    expect(note).to_contain_text("Lust auf ein paar Karten?")
    expect(note).to_have_attribute("role", "status")
    text = note.inner_text()
    assert "!" not in text and "verpasst" not in text
    shot(page, "m12-reminder-note")
    note.get_by_role("button", name="Ausblenden").click()
    expect(note).to_have_count(0)
    page.reload()
    expect(page.locator("#goal")).to_be_visible()
    expect(page.locator(".reminder-note")).to_have_count(0)
    # Another learner with reminders off gets no note.
    other = signup_via_api(page)
    sign_in_storage(page, other)
    page.goto("/app/home")
    expect(page.locator("#goal")).to_be_visible()
    expect(page.locator(".reminder-note")).to_have_count(0)


# --- library ------------------------------------------------------------------------------------

def test_library_search_pills_favourites_icon_and_description(page: Page):
    account = signup_via_api(page)
    token = account["token"]
    bio = make_stack(page, token, "Biologie", 3, description="Zellen und Gewebe", icon="science")
    spanish = make_stack(page, token, "Spanisch", 2, description="Vokabeln aus Kapitel 3", icon="language")
    # Geschichte was studied two days ago (a synced review of a card made offline before), Biologie
    # and then Spanisch today.
    two_days_ago = (datetime.now(timezone.utc) - timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    three_days_ago = (datetime.now(timezone.utc) - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    history = make_stack(page, token, "Geschichte", 1, created_at=three_days_ago)
    status, body = api(page, "POST", "/reviews", {"reviews": [
        {"id": str(uuid.uuid4()), "cardId": history["cards"][0]["id"], "rating": "good", "reviewedAt": two_days_ago}]},
        token=token)
    assert status == 200, body
    rate(page, token, bio, bio["cards"][0], "good")
    for card in spanish["cards"]:
        rate(page, token, spanish, card, "easy")
    status, stacks = api(page, "GET", "/stacks", token=token)
    by_name = {s["name"]: s for s in stacks}
    assert by_name["Spanisch"]["reviewShare"] > 0

    sign_in_storage(page, account)
    page.goto("/app/home")
    nav(page).get_by_role("link", name="Stapel").click()
    expect(page).to_have_url(re.compile(r"/app/stacks$"))
    expect(nav(page).get_by_role("link", name="Stapel")).to_have_attribute("aria-current", "page")
    cards = page.locator("a.stack-card")
    expect(cards).to_have_count(3)
    spanish_card = cards.filter(has_text="Spanisch")
    expect(spanish_card).to_contain_text("Vokabeln aus Kapitel 3")
    expect(spanish_card.locator(".badge svg")).to_have_count(1)  # the icon instead of letters
    # A stack without an icon shows the standard one (a stack of cards), never cut letters.
    expect(cards.filter(has_text="Geschichte").locator(".badge svg")).to_have_count(1)
    expect(cards.filter(has_text="Geschichte").locator(".badge")).to_have_text("")
    share = round(by_name["Spanisch"]["reviewShare"] * 100)
    expect(spanish_card).to_contain_text(f"{share} % gefestigt")
    expect(cards.filter(has_text="Geschichte")).to_contain_text("zuletzt gelernt vor 2 Tagen")
    expect(spanish_card).to_contain_text("zuletzt gelernt")
    shot(page, "m13-library")

    # Search by name and description; the query is kept in the URL.
    search = page.get_by_role("searchbox", name="Stapel durchsuchen")
    search.fill("vokabeln")
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text("Spanisch")
    expect(page).to_have_url(re.compile(r"\?q=vokabeln$"))
    expect(page.locator("#library-status")).to_have_text("1 Stapel gefunden")
    search.fill("gewebe")
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text("Biologie")
    search.fill("xyz")
    expect(cards).to_have_count(0)
    expect(page.get_by_text("Keine Stapel gefunden für „xyz“.")).to_be_visible()
    search.fill("")
    expect(cards).to_have_count(3)

    # Pills: recently studied (latest first), favourites (empty, then one).
    page.get_by_role("radio", name="Zuletzt gelernt").check()
    expect(page).to_have_url(re.compile(r"\?filter=recent$"))
    expect(cards).to_have_count(3)
    names = [c.locator(".stack-card-name").inner_text() for c in cards.all()]
    assert names == ["Spanisch", "Biologie", "Geschichte"], names
    page.get_by_role("radio", name="Favoriten").check()
    expect(cards).to_have_count(0)
    expect(page.get_by_text("Noch keine Favoriten")).to_be_visible()
    shot(page, "m14-library-no-favourites")
    page.get_by_role("radio", name="Alle").check()
    star = page.get_by_role("button", name="Favorit: Geschichte")
    expect(star).to_have_attribute("aria-pressed", "false")
    star.click()
    expect(star).to_have_attribute("aria-pressed", "true")
    expect(star).to_be_focused()
    expect(page.locator("#library-status")).to_have_text("„Geschichte“ ist jetzt ein Favorit.")
    status, stacks = api(page, "GET", "/stacks", token=token)
    assert {s["name"]: s["favorite"] for s in stacks} == {"Biologie": False, "Spanisch": False, "Geschichte": True}
    page.get_by_role("radio", name="Favoriten").check()
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text("Geschichte")
    page.reload()  # the filter stays in the URL
    expect(page.get_by_role("radio", name="Favoriten")).to_be_checked()
    expect(cards).to_have_count(1)

    # The stack form: description and icon.
    page.goto(f"/app/stacks/{history['id']}/edit")
    page.get_by_label("Beschreibung (optional)").fill("Antike bis Neuzeit")
    page.get_by_role("radio", name="Geschichte").check()
    expect(page.locator("#preview-badge svg")).to_have_count(1)
    shot(page, "m15-stack-form-icon")
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Geschichte")
    status, saved = api(page, "GET", f"/stacks/{history['id']}", token=token)
    assert (saved["description"], saved["icon"]) == ("Antike bis Neuzeit", "history")
    page.goto(f"/app/stacks/{history['id']}/edit")
    expect(page.get_by_label("Beschreibung (optional)")).to_have_value("Antike bis Neuzeit")
    expect(page.get_by_role("radio", name="Geschichte")).to_be_checked()
    page.get_by_role("radio", name="Standard (Kartenstapel)").check()
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Geschichte")
    status, saved = api(page, "GET", f"/stacks/{history['id']}", token=token)
    assert saved["icon"] is None and saved["description"] == "Antike bis Neuzeit"


# --- leaderboard --------------------------------------------------------------------------------

def test_leaderboard_is_opt_in(make_page):
    setup = make_page()
    suffix = uuid.uuid4().hex[:6]
    anna = signup_via_api(setup, name=f"Anna {suffix}")
    ben = signup_via_api(setup, name=f"Ben {suffix}")
    for account, count in ((anna, 3), (ben, 5)):
        stack = make_stack(setup, account["token"], "Rennen", count)
        for card in stack["cards"]:
            rate(setup, account["token"], stack, card, "good")
    patch_settings(setup, ben["token"], {"leaderboardOptIn": True})

    page = make_page()
    sign_in_storage(page, anna)
    page.goto("/app/home")
    # Not in the main navigation: under the progress, from the statistics.
    expect(nav(page).get_by_role("link")).to_have_count(4)
    expect(nav(page).get_by_role("link", name="Rangliste")).to_have_count(0)
    page.goto("/app/stats")
    page.locator("#main").get_by_role("link", name="Rangliste").click()
    expect(page).to_have_url(re.compile(r"/app/leaderboard$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Rangliste")
    expect(nav(page).get_by_role("link", name="Stapel")).to_have_attribute("aria-current", "page")
    expect(page.get_by_role("navigation", name="Breadcrumb").get_by_role("link", name="Statistik")).to_be_visible()
    expect(page.get_by_text("Die Rangliste ist freiwillig.")).to_be_visible()
    expect(page.get_by_text(f"Andere sehen nur deinen Anzeigenamen „Anna {suffix}“")).to_be_visible()
    expect(page.locator(".board-table")).to_have_count(0)
    status, board = api(page, "GET", "/leaderboards/daily?metric=cards", token=anna["token"])
    assert board["optedIn"] is False and board["me"] is None
    assert not [e for e in board["entries"] if e["name"] == f"Anna {suffix}"]
    shot(page, "m16-leaderboard-join")
    page.get_by_role("button", name="Mitmachen").click()

    cards_tab = page.get_by_role("tab", name="Karten")
    expect(cards_tab).to_have_attribute("aria-selected", "true")
    expect(cards_tab).to_be_focused()
    assert settings_of(page, anna["token"])["leaderboardOptIn"] is True
    table = page.locator(".board-table")
    ben_row = table.locator("tr", has_text=f"Ben {suffix}")
    anna_row = table.locator("tr", has_text=f"Anna {suffix}")
    expect(ben_row.locator(".col-value")).to_have_text("5")
    expect(anna_row.locator(".col-value")).to_have_text("3")
    expect(anna_row).to_have_attribute("aria-current", "true")
    expect(anna_row).to_contain_text("du")
    expect(ben_row).not_to_have_attribute("aria-current", "true")
    status, board = api(page, "GET", "/leaderboards/daily?metric=cards", token=anna["token"])
    mine = next(e for e in board["entries"] if e["isMe"])
    expect(anna_row.locator(".col-rank")).to_have_text(str(mine["rank"]))
    assert board["me"]["value"] == 3
    shot(page, "m17-leaderboard")

    # Tabs by keyboard: → moves to "Themen" (stacks studied today).
    page.keyboard.press("ArrowRight")
    topics_tab = page.get_by_role("tab", name="Themen")
    expect(topics_tab).to_be_focused()
    expect(topics_tab).to_have_attribute("aria-selected", "true")
    expect(page).to_have_url(re.compile(r"\?metric=topics$"))
    expect(table.locator("tr", has_text=f"Anna {suffix}").locator(".col-value")).to_have_text("1")
    expect(table.locator("tr", has_text=f"Ben {suffix}").locator(".col-value")).to_have_text("1")
    expect(page.locator("th").filter(has_text="Themen")).to_be_visible()

    # Leaving is as easy as joining.
    page.get_by_role("button", name="Nicht mehr teilnehmen").click()
    expect(page.get_by_role("button", name="Mitmachen")).to_be_visible()
    assert settings_of(page, anna["token"])["leaderboardOptIn"] is False


# --- focus mode ---------------------------------------------------------------------------------

def test_focus_mode_hides_everything_gamified(page: Page):
    account = signup_via_api(page, name="Fokus")
    token = account["token"]
    studied_before(page, token)
    stack = make_stack(page, token, "Ruhig", 4)
    for card in stack["cards"][:2]:
        rate(page, token, stack, card, "good")
    sign_in_storage(page, account)
    page.goto("/app/settings")
    switch = page.get_by_role("switch", name="Fokus-Modus")
    expect(switch).not_to_be_checked()
    expect(page.get_by_role("switch", name="An der Rangliste teilnehmen")).to_be_visible()
    switch.focus()
    page.keyboard.press("Space")
    expect(page.get_by_text("Gespeichert.")).to_be_visible()
    expect(switch).to_be_checked()
    assert settings_of(page, token)["focusMode"] is True
    expect(page.get_by_role("switch", name="An der Rangliste teilnehmen")).to_be_hidden()  # gone from the settings

    page.goto("/app/home")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Fokus")
    expect(page.locator(".goal-center")).to_contain_text("2 / ")
    expect(page.get_by_role("link", name="Jetzt lernen", exact=True)).to_be_visible()
    expect(page.get_by_text("Fokus-Modus ist an: nur dein Tagesziel und deine Karten.")).to_be_visible()
    main = page.locator("#main")
    for word in ("XP", "Level", "Tagesaufgaben", "Erfolge", "Lerntag in Folge", "Überraschungsbox", "Ruhetag"):
        expect(main).not_to_contain_text(word)
    expect(page.locator(".gamified")).to_have_count(0)
    shot(page, "m18-home-focus")

    page.goto("/app/stacks")
    expect(page.locator("a.stack-card")).to_have_count(2)
    expect(main).not_to_contain_text("XP")
    expect(page.locator("app-header").get_by_text("Rangliste")).to_have_count(0)
    expect(page.locator(".gamified")).to_have_count(0)

    page.goto("/app/stats")
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistik")
    expect(page.locator("#main").get_by_role("link", name="Rangliste")).to_have_count(0)
    page.goto("/app/leaderboard")
    expect(page.get_by_text("Im Fokus-Modus gibt es keine Rangliste")).to_be_visible()
    expect(page.locator(".board-table")).to_have_count(0)

    # Off again, from the home screen itself: everything earned is back.
    page.goto("/app/home")
    page.get_by_role("button", name="Fokus-Modus ausschalten").click()
    expect(page.locator("#level")).to_be_visible()
    expect(page.get_by_role("button", name="Fokus-Modus einschalten")).to_be_focused()
    assert settings_of(page, token)["focusMode"] is False
    expect(page.locator(".challenge")).to_have_count(3)
    page.goto("/app/stats")
    expect(page.locator("#main").get_by_role("link", name="Rangliste")).to_be_visible()


# --- settings -----------------------------------------------------------------------------------

def test_settings_are_saved_and_survive_a_reload(make_page):
    page = make_page(timezone_id="Europe/Berlin")
    page.context.grant_permissions(["notifications"], origin=BASE_URL)
    account = signup_via_api(page, name="Mara", tz="Europe/Berlin")
    token = account["token"]
    sign_in_storage(page, account)
    page.goto("/app/home")
    nav(page).get_by_role("link", name="Einstellungen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Einstellungen")
    expect(page.get_by_role("heading", level=1)).to_be_focused()

    # Profile: name and time zone (PATCH /me); the header follows.
    page.get_by_label("Name").fill("Mara B.")
    page.get_by_label("Zeitzone").select_option("America/New_York")
    page.get_by_role("button", name="Profil speichern").click()
    expect(page.get_by_text("Gespeichert.")).to_be_visible()
    expect(page.locator("app-header")).to_contain_text("Mara B.")
    status, me = api(page, "GET", "/me", token=token)
    assert (me["name"], me["timeZone"]) == ("Mara B.", "America/New_York")

    # Daily goal: checked in the form, then saved.
    goal = page.get_by_label("Tagesziel")
    goal.fill("0")
    page.locator("#goal-form").get_by_role("button", name="Speichern").click()
    expect(page.get_by_text("Gib eine ganze Zahl von 1 bis 500 ein")).to_be_visible()
    expect(goal).to_have_attribute("aria-invalid", "true")
    goal.fill("35")
    page.locator("#goal-form").get_by_role("button", name="Speichern").click()
    expect(goal).not_to_have_attribute("aria-invalid", "true")
    page.wait_for_function("() => !document.querySelector('#goal-form button').disabled")

    # Reminders: turned on, the browser cannot subscribe (no push service in headless Chromium),
    # so they stay on with the in-app note and the page says so calmly.
    reminders = page.get_by_role("switch", name="Tägliche Erinnerung")
    expect(page.get_by_label("Uhrzeit")).to_be_disabled()
    reminders.click()
    status_line = page.locator("#push-status")
    expect(status_line).to_contain_text("erinnert dich die App", timeout=20_000)
    assert "!" not in status_line.inner_text()
    page.get_by_label("Uhrzeit").fill("07:30")
    page.get_by_label("Uhrzeit").dispatch_event("change")
    page.wait_for_function("() => !document.getElementById('reminder-time').disabled")

    # Leaderboard opt-in and the theme's standard choice.
    board = page.get_by_role("switch", name="An der Rangliste teilnehmen")
    board.click()
    expect(board).to_be_checked()
    expect(board).to_be_enabled()  # disabled while it saves
    expect(page.get_by_role("radio", name="Standard")).to_be_checked()
    expect(page.get_by_text("Weitere Farbthemen findest du in Überraschungsboxen.")).to_be_visible()
    shot(page, "m19-settings")

    settings = settings_of(page, token)
    assert settings["dailyGoal"] == 35
    assert settings["remindersEnabled"] is True and settings["reminderTime"] == "07:30"
    assert settings["leaderboardOptIn"] is True

    page.reload()
    expect(page.get_by_label("Name")).to_have_value("Mara B.")
    expect(page.get_by_label("Zeitzone")).to_have_value("America/New_York")
    expect(page.get_by_label("Tagesziel")).to_have_value("35")
    expect(page.get_by_role("switch", name="Tägliche Erinnerung")).to_be_checked()
    expect(page.get_by_label("Uhrzeit")).to_have_value("07:30")
    expect(page.get_by_role("switch", name="An der Rangliste teilnehmen")).to_be_checked()
    expect(page.get_by_role("switch", name="Fokus-Modus")).not_to_be_checked()

    # Language: English switches the whole UI and is saved for the reminders.
    page.get_by_role("radio", name="English").check()
    expect(page.get_by_role("heading", level=1)).to_have_text("Settings")
    expect(page.get_by_role("navigation", name="Main navigation")).to_be_visible()
    assert settings_of(page, token)["language"] == "en"
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Settings")
    page.get_by_role("radio", name="Deutsch").check()
    expect(page.get_by_role("heading", level=1)).to_have_text("Einstellungen")
    assert settings_of(page, token)["language"] == "de"

    # Password: the wrong current one is refused; a change keeps this browser signed in.
    page.get_by_label("Aktuelles Passwort").fill("falsch-falsch")
    page.get_by_label("Neues Passwort").fill("ganz-neu-und-lang")
    page.get_by_role("button", name="Passwort ändern").click()
    expect(page.get_by_text("Das Passwort stimmt nicht.")).to_be_visible()
    page.get_by_label("Aktuelles Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Passwort ändern").click()
    expect(page.get_by_text("Dein Passwort ist geändert.")).to_be_visible()
    status, _ = api(page, "POST", "/auth/login", {"mail": account["mail"], "password": "ganz-neu-und-lang"})
    assert status == 200
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Einstellungen")
    status, _ = api(page, "GET", "/me", token=session_token(page))
    assert status == 200

    # Delete the account: the password confirms it.
    page.get_by_role("button", name="Konto löschen").click()
    dialog = page.get_by_role("dialog", name="Konto endgültig löschen?")
    dialog.get_by_label("Passwort").fill("ganz-neu-und-lang")
    dialog.get_by_role("button", name="Konto löschen").click()
    expect(page).to_have_url(re.compile(r"/app/register$"))
    expect(page.get_by_text("Dein Konto wurde gelöscht.")).to_be_visible()
    status, _ = api(page, "POST", "/auth/login", {"mail": account["mail"], "password": "ganz-neu-und-lang"})
    assert status == 401  # user_not_found: the account is gone


def test_a_guest_deletes_the_account_without_a_password(page: Page):
    page.goto("/app/login")
    page.get_by_role("button", name="Ohne Konto ausprobieren").click()
    page.get_by_role("button", name="Überspringen").click()
    token = session_token(page)
    page.goto("/app/settings")
    expect(page.get_by_text("Du lernst als Gast.")).to_be_visible()
    expect(page.get_by_label("Aktuelles Passwort")).to_have_count(0)
    page.get_by_role("button", name="Konto löschen").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_label("Passwort")).to_have_count(0)
    dialog.get_by_role("button", name="Konto löschen").click()
    expect(page).to_have_url(re.compile(r"/app/register$"))
    status, _ = api(page, "GET", "/me", token=token)
    assert status == 401


# --- English, phone -----------------------------------------------------------------------------

def test_english_guest_onboarding_home_and_settings(make_page):
    page = make_page(locale="en-US")
    page.goto("/app/register")
    page.get_by_role("button", name="Try without an account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Learning that lasts")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Cards from your material")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("No pressure")
    page.get_by_role("button", name="Next").click()
    page.get_by_role("radio", name=re.compile("^Exam")).check()
    page.get_by_role("button", name="Next").click()
    page.get_by_role("radio", name=re.compile(r"^20\+ minutes")).check()
    page.get_by_role("button", name="Next").click()
    page.get_by_role("button", name="History", exact=True).click()
    page.get_by_role("button", name="Done").click()
    expect(page).to_have_url(re.compile(r"/app/home$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^(Good morning|Hello|Good evening|Hi), "))
    # The guest's name is English too (the guest start sends the interface language).
    name = page.evaluate("JSON.parse(localStorage.getItem('fc.user')).name")
    expect(page.get_by_role("heading", level=1)).to_contain_text(name)
    assert name.isascii() and not any(name.startswith(a) for a in GERMAN_ADJECTIVES), name
    token = session_token(page)
    settings = settings_of(page, token)
    assert settings["language"] == "en" and settings["dailyGoal"] == 40
    assert settings["onboarding"]["interests"] == ["History"]
    expect(page.locator(".goal-center")).to_have_text(re.compile(r"^0 / 40\s+cards$"))
    expect(page.get_by_text("No stacks yet")).to_be_visible()
    # A new learner: the goal and the first step, no game elements yet.
    expect(page.get_by_role("heading", name="Daily challenges")).to_have_count(0)
    expect(page.locator("#level")).to_have_count(0)
    expect(page.locator("#main")).not_to_contain_text("XP")
    header = page.locator("app-header")
    expect(header.get_by_role("button", name="Save account")).to_be_visible()
    main_nav = page.get_by_role("navigation", name="Main navigation")
    for label in ("Home", "Stacks", "Explore", "Settings"):
        expect(main_nav.get_by_role("link", name=label, exact=True)).to_be_visible()
    expect(main_nav.get_by_role("link", name="Leaderboard")).to_have_count(0)
    shot(page, "m20-en-home")
    page.goto("/app/leaderboard")
    expect(page.get_by_role("button", name="Join")).to_be_visible()
    main_nav.get_by_role("link", name="Settings", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Settings")
    expect(page.get_by_role("switch", name="Focus mode")).to_be_visible()
    expect(page.locator("#answer-purpose")).to_have_text("Exam")
    expect(page.locator("#answer-minutes")).to_have_text("20+ minutes")
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("dialog")).to_contain_text("Sign out as a guest?")
    page.get_by_role("dialog").get_by_role("button", name="Sign out anyway").click()
    expect(page).to_have_url(re.compile(r"/app/login$"))


def test_phone_layout(make_page):
    phone = dict(viewport={"width": 375, "height": 667}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = make_page(**phone, color_scheme="dark")
    account = signup_via_api(page, name="Handy")
    token = account["token"]
    stack = make_stack(page, token, "Unterwegs", 6, description="Für die Bahn", icon="globe")
    make_stack(page, token, "Zweiter Stapel", 1)
    for card in stack["cards"][:3]:
        rate(page, token, stack, card, "good")
    sign_in_storage(page, account)
    for path, name in (("/app/home", "m21-phone-home-dark"), ("/app/stacks", "m22-phone-library-dark"),
                       ("/app/settings", "m23-phone-settings-dark"), ("/app/leaderboard", "m24-phone-leaderboard-dark"),
                       ("/app/welcome", "m25-phone-welcome-dark")):
        page.goto(path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        page.wait_for_timeout(200)
        assert page.evaluate(NO_OVERFLOW), path
        assert_touch_targets(page)
        shot(page, name)
    # Four navigation entries share the row under the header.
    page.goto("/app/home")
    expect(nav(page).get_by_role("link")).to_have_count(4)
    # Measured in one pass inside the page: the header re-renders when the settings arrive, and a
    # link measured across that re-render has no box.
    page.wait_for_function("""() => {
        const boxes = [...document.querySelectorAll('.app-nav a')].map((a) => a.getBoundingClientRect());
        return boxes.length === 4 && new Set(boxes.map((b) => Math.round(b.y))).size === 1
            && boxes.every((b) => b.width > 0 && b.right <= 375.5);
    }""", timeout=5000)
    ring = page.locator(".goal-ring").bounding_box()
    assert ring["x"] >= 0 and ring["x"] + ring["width"] <= 375
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(11, 18, 32)"  # dark mode

    # A guest's header fits too: "Konto sichern" keeps its words, logout keeps its name.
    guest = make_page(**phone)
    guest.goto("/app/login")
    guest.get_by_role("button", name="Ohne Konto ausprobieren").tap()
    guest.get_by_role("button", name="Überspringen").tap()
    expect(guest).to_have_url(re.compile(r"/app/home$"))
    expect(guest.get_by_role("button", name="Konto sichern")).to_be_visible()
    expect(guest.get_by_role("button", name="Abmelden")).to_be_visible()
    assert guest.evaluate(NO_OVERFLOW)
    assert_touch_targets(guest)
    shot(guest, "m26-phone-guest-home")


# --- push ---------------------------------------------------------------------------------------

NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications()).map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}));
}"""


def test_push_message_is_shown_by_the_service_worker(make_page):
    page = make_page()
    page.context.grant_permissions(["notifications"], origin=BASE_URL)
    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.goto("/app/home")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => Boolean(r.active))")

    cdp = page.context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(100):
        if registrations:
            break
        page.wait_for_timeout(100)
    scope = f"{BASE_URL}/"
    registration = next(r for r in registrations if r["scopeURL"] == scope and not r.get("isDeleted"))

    def deliver(data: str) -> None:
        cdp.send("ServiceWorker.deliverPushMessage",
                 {"origin": scope, "registrationId": registration["registrationId"], "data": data})

    def shown_after(data: str, title: str) -> dict:
        """Delivers `data` and waits for the notification titled `title`; one more delivery after
        5 s, since CDP's delivery to a worker that is just starting can be lost."""
        for _attempt in range(2):
            deliver(data)
            for _ in range(50):
                found = [n for n in page.evaluate(NOTIFICATIONS) if n["title"] == title]
                if found:
                    return found[0]
                page.wait_for_timeout(100)
        raise AssertionError(f"no notification “{title}”: {page.evaluate(NOTIFICATIONS)}")

    # A payload that is not JSON shows a gentle German default (never the browser's own).
    fallback = shown_after("kein JSON", "Smart Flashcards")
    assert fallback["tag"] == "daily-reminder" and fallback["url"] == "/app/home"
    assert fallback["body"].startswith("Lust auf ein paar Karten?") and "!" not in fallback["body"]
    # The server's payload, with a tag of its own so that it does not replace the first one.
    shown = shown_after(json.dumps({"title": "Lust auf ein paar Karten?", "body": "Fünf Minuten reichen schon.",
                                    "url": "/app/home", "tag": "test-reminder"}), "Lust auf ein paar Karten?")
    assert shown == {"title": "Lust auf ein paar Karten?", "body": "Fünf Minuten reichen schon.",
                     "tag": "test-reminder", "url": "/app/home"}
    # A foreign URL in a payload is never opened: the worker keeps only same-origin targets.
    source = page.request.get(f"{BASE_URL}/sw.js").text()
    assert "notificationclick" in source and "sameOriginUrl" in source


def test_interests_suggest_topics_that_open_a_new_stack(page: Page):
    account = signup_via_api(page)
    token = account["token"]
    patch_settings(page, token, {"onboarding": {"done": True, "interests": ["Biologie", "Jazz & Blues"]}})
    make_stack(page, token, "biologie", 1)  # a stack of that name exists: no suggestion for it
    sign_in_storage(page, account)
    page.goto("/app/home")
    topics = page.locator("#topics")
    expect(topics.get_by_role("heading", name="Themen für dich")).to_be_visible()
    expect(topics.get_by_role("link")).to_have_count(1)
    topics.get_by_role("link", name="Jazz & Blues").click()
    expect(page).to_have_url(re.compile(r"/app/stacks/new\?name=Jazz%20%26%20Blues$"))
    expect(page.get_by_label("Name")).to_have_value("Jazz & Blues")
    page.get_by_role("button", name="Speichern").click()
    expect(page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}$"))  # the new stack opens
    expect(page.get_by_role("heading", level=1)).to_have_text("Jazz & Blues")
    status, stacks = api(page, "GET", "/stacks", token=token)
    assert status == 200 and sorted(s["name"] for s in stacks) == ["Jazz & Blues", "biologie"]
    page.goto("/app/home")
    expect(page.locator("#topics")).to_have_count(0)

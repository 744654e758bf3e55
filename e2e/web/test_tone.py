"""Issue 33, points 5–7. No pressure: a new learner's home shows the goal and "Jetzt lernen", each
game element once it is earned, a switch "Spielelemente" turns them off, focus mode is one click
from home, the leaderboard sits under the progress (not in the main navigation), and a wrong quiz
answer is shown calmly. English without German slips: a guest's name and account language follow
the interface, Explore opens on the learner's language (the others one click away), a streak
freeze is called that. Layout: library names wrap, stacks show icons (never cut letters), the feed
fits a 390 px phone, no bullets beside the interest chips, room beside the cards table's edit
column, and a new stack opens with its next steps. German and English, desktop (1280) and phone
(390). Expected numbers come from the API's answers."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from conftest import api, make_stack, shot, sign_in_storage, signup_via_api
from test_motivation import GERMAN_ADJECTIVES, progress_of, rate, settings_of, studied_before

PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
DESKTOP = dict(viewport={"width": 1280, "height": 900})
NO_OVERFLOW = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
# Guest names: an adjective and an animal with three digits ("EmsigerTiger440", "BraveFox553").
GUEST = re.compile(r"^([A-ZÄÖÜ][a-zäöüß]+)([A-ZÄÖÜ][a-zäöüß]+)\d{3}$")

# WCAG contrast of an element's text against the first opaque background behind it.
CONTRAST = """(el) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let node = el, bg = null;
  while (node) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] === 1)) { bg = c.slice(0, 3); break; }
    node = node.parentElement;
  }
  bg = bg || [255, 255, 255];
  const fg = rgb(getComputedStyle(el).color).slice(0, 3);
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""
# Whether a computed colour is an alarm red (red well above green and blue).
IS_RED = ("(c) => { const [r, g, b] = (c.match(/\\d+/g) || []).map(Number);"
          " return r > 120 && g < r * 0.5 && b < r * 0.5 && Math.abs(g - b) < 40; }")


def nav(page: Page, english: bool = False):
    return page.get_by_role("navigation", name="Main navigation" if english else "Hauptnavigation")


# --- point 5: game elements once earned -----------------------------------------------------------

@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_new_learner_sees_the_goal_and_game_elements_once_earned(make_page, lang):
    english = lang == "en"
    page = make_page(locale="en-US", **PHONE) if english else make_page(**DESKTOP)
    words = {
        "start": "Learn now" if english else "Jetzt lernen",
        "challenges": "Daily challenges" if english else "Tagesaufgaben",
        "streak": "{n} days in a row" if english else "{n} Tage in Folge",
        "first": "First steps" if english else "Erste Schritte",
    }
    account = signup_via_api(page, name="Neu")
    token = account["token"]
    if english:
        api(page, "PATCH", "/me/settings", {"language": "en"}, token=token)
    stack = make_stack(page, token, "Biologie", 5)
    sign_in_storage(page, account)

    # Day one, nothing studied: today's goal and the first step, no game element at all.
    page.goto("/app/home")
    expect(page.locator("#goal")).to_be_visible()
    expect(page.get_by_role("link", name=words["start"], exact=True)).to_be_visible()
    main = page.locator("#main")
    for selector in ("#level", ".progress-panel", ".challenge", ".calendar", "#achievements", "#streak", ".gamified"):
        expect(page.locator(selector)).to_have_count(0)
    for word in ("XP", "Level", words["challenges"]):
        expect(main).not_to_contain_text(word)
    expect(nav(page, english).get_by_role("link")).to_have_count(4)
    expect(nav(page, english).get_by_role("link", name="Leaderboard" if english else "Rangliste")).to_have_count(0)
    assert page.evaluate(NO_OVERFLOW)
    shot(page, f"t01-{lang}-home-new")

    # The first review earns level and XP; the rest waits for the first day to be over.
    rate(page, token, stack, stack["cards"][0], "good")
    page.reload()
    level = progress_of(page, token)["level"]
    expect(page.locator("#level")).to_contain_text(f"Level {level['level']}")
    expect(page.locator("#level")).to_contain_text(f"{level['xpIntoLevel']} / {level['xpForNextLevel']} XP")
    for selector in (".challenge", ".calendar", "#achievements", "#streak"):
        expect(page.locator(selector)).to_have_count(0)
    shot(page, f"t02-{lang}-home-first-review")

    # Two days before today: the streak line, the challenges, the calendar and the achievements.
    studied_before(page, token, days=2)
    progress = progress_of(page, token)
    page.reload()
    current = progress["streak"]["current"]
    assert current >= 2, progress["streak"]
    expect(page.locator("#streak")).to_contain_text(words["streak"].format(n=current))
    expect(page.locator(".challenge")).to_have_count(3)
    expect(page.get_by_role("heading", name=words["challenges"])).to_be_visible()
    expect(page.locator(".calendar")).to_be_visible()
    expect(page.locator("#achievements")).to_contain_text(words["first"])
    text = main.inner_text().lower()
    for loss in ("verpasst", "verloren", "lost", "missed", "!"):
        assert loss not in text, loss
    assert page.evaluate(NO_OVERFLOW)
    shot(page, f"t03-{lang}-home-earned")


def test_game_elements_switch_hides_them_everywhere(make_page):
    page = make_page()
    account = signup_via_api(page, name="Ruhe")
    token = account["token"]
    studied_before(page, token)
    stack = make_stack(page, token, "Heute", 3)
    rate(page, token, stack, stack["cards"][0], "good")
    sign_in_storage(page, account)
    page.goto("/app/settings")
    switch = page.get_by_role("switch", name="Spielelemente")
    expect(switch).to_be_checked()
    expect(switch).to_have_accessible_description(re.compile("erst, wenn du sie dir verdient hast"))
    # Focus mode sits right beside it.
    expect(page.get_by_role("switch", name="Fokus-Modus")).not_to_be_checked()
    switch.focus()
    page.keyboard.press("Space")
    expect(page.get_by_text("Gespeichert.")).to_be_visible()
    expect(switch).not_to_be_checked()
    assert settings_of(page, token)["gameElements"] is False
    expect(page.get_by_role("switch", name="An der Rangliste teilnehmen")).to_be_hidden()
    shot(page, "t04-settings-game-elements-off")

    page.goto("/app/home")
    expect(page.get_by_role("link", name="Jetzt lernen", exact=True)).to_be_visible()
    expect(page.locator(".gamified")).to_have_count(0)
    for word in ("XP", "Level", "Tagesaufgaben", "Erfolge", "in Folge"):
        expect(page.locator("#main")).not_to_contain_text(word)
    page.goto("/app/stats")
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistik")
    expect(page.locator("#main").get_by_role("link", name="Rangliste")).to_have_count(0)
    page.goto("/app/leaderboard")
    expect(page.get_by_text("Die Spielelemente sind ausgeschaltet")).to_be_visible()
    expect(page.get_by_role("button", name="Mitmachen")).to_have_count(0)

    # Back on: kept after a reload, and everything earned shows again.
    page.goto("/app/settings")
    expect(page.get_by_role("switch", name="Spielelemente")).not_to_be_checked()
    page.get_by_role("switch", name="Spielelemente").click()
    expect(page.get_by_role("switch", name="An der Rangliste teilnehmen")).to_be_visible()
    assert settings_of(page, token)["gameElements"] is True
    page.goto("/app/home")
    expect(page.locator("#level")).to_be_visible()
    expect(page.locator(".challenge")).to_have_count(3)


def test_game_elements_and_focus_mode_in_english_on_a_phone(make_page):
    page = make_page(locale="en-US", **PHONE)
    account = signup_via_api(page, name="Calm")
    token = account["token"]
    api(page, "PATCH", "/me/settings", {"language": "en"}, token=token)
    studied_before(page, token)
    stack = make_stack(page, token, "Today", 3)
    rate(page, token, stack, stack["cards"][0], "good")
    sign_in_storage(page, account)
    page.goto("/app/home")
    expect(page.locator("#level")).to_be_visible()
    # Focus mode from the home screen itself, and back.
    page.get_by_role("button", name="Turn on focus mode").tap()
    expect(page.get_by_text("Focus mode is on: just your daily goal and your cards.")).to_be_visible()
    expect(page.locator(".gamified")).to_have_count(0)
    assert settings_of(page, token)["focusMode"] is True
    shot(page, "t05-en-phone-home-focus")
    page.get_by_role("button", name="Turn off focus mode").tap()
    expect(page.locator("#level")).to_be_visible()
    assert settings_of(page, token)["focusMode"] is False

    page.goto("/app/settings")
    switch = page.get_by_role("switch", name="Game elements")
    expect(switch).to_be_checked()
    expect(switch).to_have_accessible_description(re.compile("only appear once you have earned them"))
    switch.tap()
    expect(switch).not_to_be_checked()
    assert settings_of(page, token)["gameElements"] is False
    page.goto("/app/home")
    expect(page.locator(".gamified")).to_have_count(0)
    expect(page.get_by_role("link", name="Learn now", exact=True)).to_be_visible()
    page.goto("/app/leaderboard")
    expect(page.get_by_text("Game elements are turned off")).to_be_visible()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_leaderboard_lives_under_the_progress(make_page, lang):
    english = lang == "en"
    page = make_page(locale="en-US", **PHONE) if english else make_page(**DESKTOP)
    account = signup_via_api(page)
    token = account["token"]
    stack = make_stack(page, token, "Rennen", 2)
    rate(page, token, stack, stack["cards"][0], "good")
    sign_in_storage(page, account)
    page.goto("/app/home")
    label = "Leaderboard" if english else "Rangliste"
    expect(nav(page, english).get_by_role("link", name=label)).to_have_count(0)
    # From the home screen's progress …
    page.locator(".progress-panel").get_by_role("link", name=label).click()
    expect(page).to_have_url(re.compile(r"/app/leaderboard$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(label)
    expect(nav(page, english).get_by_role("link", name="Stacks" if english else "Stapel")).to_have_attribute(
        "aria-current", "page")
    # … and back to the statistics, which link to it too.
    page.get_by_role("navigation", name="Breadcrumb").get_by_role("link", name="Statistics" if english else "Statistik").click()
    expect(page).to_have_url(re.compile(r"/app/stats$"))
    page.locator("#main").get_by_role("link", name=label).click()
    expect(page).to_have_url(re.compile(r"/app/leaderboard$"))
    assert page.evaluate(NO_OVERFLOW)
    shot(page, f"t06-{lang}-leaderboard-from-stats")


# --- point 5: calm quiz feedback ------------------------------------------------------------------

@pytest.mark.parametrize("lang,scheme", [("de", "light"), ("en", "dark")])
def test_a_wrong_quiz_answer_is_shown_calmly(make_page, lang, scheme):
    english = lang == "en"
    options = dict(locale="en-US", **PHONE) if english else dict(**DESKTOP)
    page = make_page(color_scheme=scheme, **options)
    account = signup_via_api(page)
    token = account["token"]
    pairs = [("Hauptstadt von Frankreich?", "Paris"), ("Hauptstadt von Italien?", "Rom"),
             ("Hauptstadt von Spanien?", "Madrid"), ("Hauptstadt von Polen?", "Warschau")]
    _, stack = api(page, "POST", "/stacks", {"name": "Hauptstädte", "color": "#2563EB"}, token=token)
    for question, answer in pairs:
        api(page, "POST", f"/stacks/{stack['id']}/cards", {"question": question, "answer": answer}, token=token)
    if english:
        api(page, "PATCH", "/me/settings", {"language": "en"}, token=token)
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=quiz&size=all")
    choices = page.locator("#choices .choice")
    expect(choices).to_have_count(4)
    answers = dict(pairs)
    question = page.locator("flip-card [data-question]").inner_text()
    texts = [c.locator(".choice-text").inner_text() for c in choices.all()]
    wrong = next(i for i, text in enumerate(texts) if text != answers[question])
    right = texts.index(answers[question])
    choices.nth(wrong).click()

    feedback = page.locator("#feedback")
    expected = (f"Not quite yet – here it is: {answers[question]}" if english
                else f"Noch nicht ganz – das war’s: {answers[question]}")
    expect(feedback).to_have_text(expected)
    # An icon besides the colour on both marked choices, and names that say what they are.
    expect(choices.nth(wrong).locator(".choice-mark svg")).to_have_count(1)
    expect(choices.nth(right).locator(".choice-mark svg")).to_have_count(1)
    mark = "your pick, not quite yet" if english else "deine Wahl, noch nicht ganz"
    expect(choices.nth(wrong)).to_have_attribute("aria-label", f"{texts[wrong]}: {mark}")
    # No alarm red anywhere on the screen, and the feedback reads at AA contrast.
    for target in (choices.nth(wrong), feedback):
        colours = target.evaluate("el => { const c = getComputedStyle(el); return [c.color, c.borderTopColor, c.backgroundColor]; }")
        assert not any(page.evaluate(IS_RED, c) for c in colours), colours
    reds = page.evaluate(f"""() => [...document.querySelectorAll('#main *')].filter((el) => {{
        if (!el.getClientRects().length) return false;
        const c = getComputedStyle(el); return [c.color, c.backgroundColor, c.borderTopColor].some({IS_RED});
      }}).map((el) => el.className.baseVal ?? el.className)""")
    assert reds == [], reds
    ratio = feedback.evaluate(CONTRAST)
    assert ratio >= 4.5, ratio
    wrong_ratio = choices.nth(wrong).locator(".choice-mark").evaluate(CONTRAST)
    assert wrong_ratio >= 3, wrong_ratio  # the icon: non-text contrast
    shot(page, f"t07-{lang}-{scheme}-quiz-wrong")


# --- point 6: English without German slips --------------------------------------------------------

def test_an_english_guest_gets_an_english_name_and_explore_in_english(make_page):
    page = make_page(locale="en-US", **PHONE)
    page.goto("/app/register")
    with page.expect_request(re.compile(r"/api/v1/auth/guest$")) as sent:
        page.get_by_role("button", name="Try without an account").tap()
    assert sent.value.post_data_json["language"] == "en"
    expect(page.get_by_role("heading", level=1)).to_have_text("Learning that lasts")
    guest = page.evaluate("JSON.parse(localStorage.getItem('fc.user'))")
    parts = GUEST.match(guest["name"])
    assert parts and guest["name"].isascii() and parts[1] not in GERMAN_ADJECTIVES, guest["name"]
    page.get_by_role("button", name="Skip").tap()
    expect(page).to_have_url(re.compile(r"/app/home$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(guest["name"])
    token = page.evaluate("localStorage.getItem('fc.token')")
    assert settings_of(page, token)["language"] == "en"
    shot(page, "t08-en-guest-home")

    # Explore opens on English stacks; every language is one tap away.
    nav(page, True).get_by_role("link", name="Explore").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Explore")
    expect(page.locator("#explore-language")).to_have_value("en")
    cards = page.locator(".explore-card")
    expect(cards.first).to_be_visible()
    languages = set(page.locator(".explore-card .pill-language").all_inner_texts())
    assert languages == {"English"}, languages
    expect(page.get_by_role("link", name="Physics Formulas")).to_be_visible()
    expect(page.get_by_role("link", name="Europäische Hauptstädte")).to_have_count(0)
    shot(page, "t09-en-phone-explore")
    page.get_by_role("button", name="Show all languages").tap()
    expect(page.get_by_role("link", name="Europäische Hauptstädte")).to_be_visible()
    expect(page.locator("#explore-language")).to_have_value("")
    expect(page.locator("#explore-language")).to_be_focused()
    expect(page).to_have_url(re.compile(r"[?&]language=all"))
    page.reload()
    expect(page.get_by_role("link", name="Europäische Hauptstädte")).to_be_visible()
    expect(page.locator("#explore-language")).to_have_value("")
    assert page.evaluate(NO_OVERFLOW)


def test_a_german_learner_gets_a_german_guest_name_and_explore_in_german(make_page):
    page = make_page(**DESKTOP)
    page.goto("/app/login")
    with page.expect_request(re.compile(r"/api/v1/auth/guest$")) as sent:
        page.get_by_role("button", name="Ohne Konto ausprobieren").click()
    assert sent.value.post_data_json["language"] == "de"
    expect(page).to_have_url(re.compile(r"/app/welcome$"))
    guest = page.evaluate("JSON.parse(localStorage.getItem('fc.user'))")
    parts = GUEST.match(guest["name"])
    assert parts and parts[1] in GERMAN_ADJECTIVES, guest["name"]
    token = page.evaluate("localStorage.getItem('fc.token')")
    assert settings_of(page, token)["language"] == "de"
    page.goto("/app/explore")
    expect(page.locator("#explore-language")).to_have_value("de")
    expect(page.get_by_role("link", name="Europäische Hauptstädte")).to_be_visible()
    languages = set(page.locator(".explore-card .pill-language").all_inner_texts())
    assert languages == {"Deutsch"}, languages
    page.locator("#explore-language").select_option("en")
    expect(page.get_by_role("link", name="Physics Formulas")).to_be_visible()
    expect(page).to_have_url(re.compile(r"[?&]language=en"))
    shot(page, "t10-de-explore-english-chosen")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_streak_freeze_has_a_natural_name(make_page, lang):
    english = lang == "en"
    page = make_page(locale="en-US", **PHONE) if english else make_page(**DESKTOP)
    account = signup_via_api(page)
    token = account["token"]
    if english:
        api(page, "PATCH", "/me/settings", {"language": "en"}, token=token)
    studied_before(page, token, days=8)  # 8 learning days in a row earn a freeze (one per 7)
    progress = progress_of(page, token)
    freezes = progress["streak"]["freezes"]
    assert freezes >= 1, progress["streak"]
    sign_in_storage(page, account)
    page.goto("/app/home")
    streak = page.locator("#streak")
    if english:
        expect(streak).to_contain_text(f"{freezes} streak freeze")
        expect(streak).to_contain_text(f"{progress['streak']['current']} days in a row")
        assert "joker" not in page.locator("#main").inner_text().lower()
    else:
        expect(streak).to_contain_text(f"{freezes} Joker für freie Tage")
        expect(streak).to_contain_text(f"{progress['streak']['current']} Tage in Folge")
    shot(page, f"t11-{lang}-home-freeze")


# --- point 7: layout ------------------------------------------------------------------------------

LINES = """(el) => { const lh = parseFloat(getComputedStyle(el).lineHeight); return {
  lines: Math.round(el.getBoundingClientRect().height / lh),
  clipped: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1 }; }"""
ICON_PATH = "(el) => el.querySelector('svg path')?.getAttribute('d') ?? null"


def test_library_names_wrap_and_every_stack_shows_an_icon(make_page):
    page = make_page(**DESKTOP)
    account = signup_via_api(page)
    token = account["token"]
    # Stacks as an import makes them (no icon), and one with an icon chosen.
    make_stack(page, token, "Biologie – Photosynthese", 2)
    make_stack(page, token, "Vokabeln – Unit 3 Englisch", 2)
    chosen = make_stack(page, token, "Chemie", 1, icon="science")
    make_stack(page, token, "Geschichte", 1)
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    cards = page.locator("a.stack-card")
    expect(cards).to_have_count(4)
    for name in ("Biologie – Photosynthese", "Vokabeln – Unit 3 Englisch"):
        label = cards.filter(has_text=name).locator(".stack-card-name")
        expect(label).to_have_text(name)
        shape = label.evaluate(LINES)
        assert shape["lines"] <= 2 and not shape["clipped"], (name, shape)
    # Badges: icons only, never the first letters of a name.
    for card in cards.all():
        expect(card.locator(".badge svg")).to_have_count(1)
        expect(card.locator(".badge")).to_have_text("")
    standard = cards.filter(has_text="Geschichte").locator(".badge").evaluate(ICON_PATH)
    science = cards.filter(has_text="Chemie").locator(".badge").evaluate(ICON_PATH)
    assert standard and science and standard != science
    shot(page, "t12-library-1280")

    # The stack's header shows the icon chosen, as the library does.
    cards.filter(has_text="Chemie").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Chemie")
    assert page.locator(".stack-title .badge").evaluate(ICON_PATH) == science
    expect(page.locator(".stack-title .badge")).to_have_text("")
    # The cards table: the edit column keeps its distance from the panel's edge.
    shot(page, "t13-stack-detail-1280")
    edit = page.locator(".cards-table .col-edit a").first
    panel = page.locator("section.panel", has=page.locator(".cards-table"))
    gap = panel.bounding_box()["x"] + panel.bounding_box()["width"] - (edit.bounding_box()["x"] + edit.bounding_box()["width"])
    assert gap >= 16, gap
    assert page.evaluate(NO_OVERFLOW)
    page.goto(f"/app/stacks/{chosen['id']}/edit")
    expect(page.locator("#preview-badge svg")).to_have_count(1)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_feed_fits_a_phone(make_page, lang):
    english = lang == "en"
    page = make_page(locale="en-US" if english else "de-DE", **PHONE)
    account = signup_via_api(page)
    token = account["token"]
    if english:
        api(page, "PATCH", "/me/settings", {"language": "en"}, token=token)
    stack = make_stack(page, token, "Unterwegs", 3)
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/feed?size=all")
    expect(page.locator("#feed-question")).to_have_text("Unterwegs Frage 1")
    good = page.locator("#feed-good")
    expect(good).to_contain_text("Understood" if english else "Verstanden")

    def check(label: str) -> None:
        fits = page.evaluate("""() => [...document.querySelectorAll('.feed-actions .btn')].map((b) => {
            const s = b.querySelector('span'), bb = b.getBoundingClientRect(), sb = s.getBoundingClientRect();
            if (sb.width <= 1) return { text: s.textContent, fits: b.getAttribute('aria-label') === null && bb.width >= 44, inside: bb.right <= innerWidth };
            return { text: s.textContent, fits: s.scrollWidth <= s.clientWidth + 1 && sb.left >= bb.left - 0.5 && sb.right <= bb.right + 0.5,
                     inside: bb.left >= 0 && bb.right <= innerWidth };
          })""")
        assert all(f["fits"] and f["inside"] for f in fits), (label, fits)
        card = page.locator("#feed-card").bounding_box()
        row = page.locator(".feed-actions").bounding_box()
        assert card["y"] + card["height"] <= row["y"] - 4, (label, card, row)

    shot(page, f"t14-{lang}-phone-feed")
    check("start")
    page.locator("#feed-bookmark").tap()  # the longest label: "Nicht mehr merken" / "Remove bookmark"
    expect(page.locator("#feed-bookmark")).to_have_attribute("aria-pressed", "true")
    check("bookmarked")
    page.locator("#feed-flip").tap()
    expect(page.locator("#feed-answer")).to_be_visible()
    check("flipped")
    assert page.evaluate(NO_OVERFLOW)
    shot(page, f"t15-{lang}-phone-feed-flipped")


def test_interest_chips_have_no_bullets(make_page):
    for options, lang in ((DESKTOP, "de"), (PHONE, "en")):
        page = make_page(locale="en-US" if lang == "en" else "de-DE", **options)
        account = signup_via_api(page)
        api(page, "PATCH", "/me/settings", {"language": lang, "onboarding": {"done": True, "interests": ["Jazz", "Segeln", "Chemie"]}},
            token=account["token"])
        sign_in_storage(page, account)
        page.goto("/app/home")
        chips = page.locator("#topics li")
        expect(chips).to_have_count(3)
        markers = page.evaluate("() => [...document.querySelectorAll('#topics li')].map((li) => getComputedStyle(li).listStyleType)")
        assert set(markers) == {"none"}, markers
        first = page.locator("#topics .chip").first.bounding_box()
        panel = page.locator("#topics").bounding_box()
        assert first["x"] - panel["x"] <= 32  # no indentation left for a bullet
        shot(page, f"t16-{lang}-home-chips")


def test_a_new_stack_opens_with_its_next_steps_in_english_on_a_phone(make_page):
    page = make_page(locale="en-US", **PHONE)
    account = signup_via_api(page)
    api(page, "PATCH", "/me/settings", {"language": "en"}, token=account["token"])
    sign_in_storage(page, account)
    page.goto("/app/stacks/new")
    page.get_by_label("Name *").fill(f"Rivers {uuid.uuid4().hex[:4]}")
    page.get_by_role("button", name="Save").tap()
    expect(page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}$"))
    steps = page.locator("#next-steps")
    expect(steps).to_contain_text("No cards in this stack yet")
    expect(steps.get_by_role("link", name="Add cards")).to_be_visible()
    expect(steps.get_by_role("link", name="Create automatically")).to_be_visible()
    assert page.evaluate(NO_OVERFLOW)
    shot(page, "t17-en-phone-new-stack")
    steps.get_by_role("link", name="Create automatically").tap()
    expect(page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}/create$"))
    page.go_back()
    steps.get_by_role("link", name="Add cards").tap()
    expect(page).to_have_url(re.compile(r"/app/stacks/[0-9a-f-]{36}/cards/new$"))

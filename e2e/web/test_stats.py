"""The statistics screen (/app/stats and /app/stacks/{id}/stats): the empty state, figures that
match the API's answer (today's heatmap cell, the forecast, card states; per stack and over all
stacks), English, dark mode on a phone without page overflow, the keyboard path, loading and
error with retry. Expected values are computed from GET …/stats, never written into the test."""

from __future__ import annotations

import re
import uuid
from datetime import date, datetime, timedelta, timezone

from playwright.sync_api import Page, expect

from conftest import api, make_stack, shot, sign_in_storage, signup_via_api
from test_mobile import PHONE, SMALL_TARGETS

MONTHS_DE = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
             "Oktober", "November", "Dezember"]


def day_de(text: str) -> str:
    """'2026-03-12' → '12. März' (what Intl's de-DE {day: numeric, month: long} gives)."""
    d = date.fromisoformat(text)
    return f"{d.day}. {MONTHS_DE[d.month - 1]}"


def day_en(text: str) -> str:
    """'2026-03-12' → 'March 12' (en-US)."""
    d = date.fromisoformat(text)
    return f"{d:%B} {d.day}"


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def rate(page: Page, token: str, stack: dict, card: dict, rating: str) -> None:
    status, body = api(page, "POST", f"/stacks/{stack['id']}/study/rate",
                       {"cardId": card["id"], "rating": rating, "reviewId": str(uuid.uuid4())}, token=token)
    assert status == 200, body


def assert_touch_targets(page: Page) -> None:
    """test_mobile's 44 px rule for the page's own content (the header is the shell's)."""
    script = SMALL_TARGETS.replace("document.querySelectorAll", "document.getElementById('main').querySelectorAll")
    assert script != SMALL_TARGETS
    small = page.evaluate(script)
    assert small == [], f"touch targets under 44 px on {page.url}: {small}"


def learner(page: Page) -> dict:
    """An account with two stacks: ratings today in both, and a history of past reviews (so
    that true retention has weeks) in the first."""
    account = signup_via_api(page)
    token = account["token"]
    made = iso(datetime.now(timezone.utc) - timedelta(days=60))
    bio = make_stack(page, token, "Biologie", 4, colour="#059669", scheduler="fsrs", created_at=made)
    spanish = make_stack(page, token, "Spanisch", 3, colour="#DC2626", scheduler="ladder")
    for card, rating in zip(bio["cards"][:3], ("good", "again", "easy")):
        rate(page, token, bio, card, rating)
    rate(page, token, spanish, spanish["cards"][0], "easy")
    rate(page, token, spanish, spanish["cards"][1], "hard")
    # Past reviews of the fourth card: 30, 20 and 9 days ago (two of them a day or more apart).
    now = datetime.now(timezone.utc)
    history = [{"id": str(uuid.uuid4()), "cardId": bio["cards"][3]["id"], "rating": rating,
                "reviewedAt": iso(now - timedelta(days=days))}
               for days, rating in ((30, "good"), (20, "again"), (9, "good"))]
    status, body = api(page, "POST", "/reviews", {"reviews": history}, token=token)
    assert status == 200 and body["inserted"] == 3, body
    account.update(bio=bio, spanish=spanish)
    return account


def stats_of(page: Page, token: str, stack: dict | None = None) -> dict:
    status, body = api(page, "GET", f"/stacks/{stack['id']}/stats" if stack else "/me/stats", token=token)
    assert status == 200, body
    return body


def expect_figures(page: Page, stats: dict, day=day_de, word=("Wiederholung", "Wiederholungen")) -> None:
    """The page shows what the API answered: today's heatmap cell, the summary, the forecast and
    the card states."""
    today = stats["reviewsPerDay"][-1]
    assert today["count"] > 0
    cell = page.locator(f'.heatmap rect[data-date="{today["date"]}"]')
    expect(cell).to_have_count(1)
    expect(cell).to_have_class(re.compile(r"\bhm-today\b"))
    noun = word[0] if today["count"] == 1 else word[1]
    expect(cell.locator("title")).to_have_text(f"{day(today['date'])}: {today['count']} {noun}")
    # 365 days, one cell each.
    expect(page.locator(".heatmap rect.hm-cell")).to_have_count(365)

    summary = page.locator(".stats-summary dd")
    total = sum(d["count"] for d in stats["reviewsPerDay"])
    learned = sum(1 for d in stats["reviewsPerDay"] if d["count"] > 0)
    expect(summary.nth(0)).to_have_text(str(today["count"]))
    expect(summary.nth(1)).to_have_text(str(total))
    expect(summary.nth(2)).to_have_text(str(learned))

    # Forecast: one table row per day with the API's count, one bar per day with cards due.
    forecast = stats["forecast"]
    cells = page.locator('section[aria-labelledby="stats-forecast"] tbody td')
    expect(cells).to_have_count(30)
    assert cells.all_inner_texts() == [str(d["count"]) for d in forecast]
    bars = page.locator('[data-chart="forecast"] rect.bar')
    expect(bars).to_have_count(sum(1 for d in forecast if d["count"] > 0))
    if forecast[0]["count"] > 0:
        expect(bars.first).to_have_class(re.compile(r"\bbar-today\b"))

    for state, count in stats["cardsByState"].items():
        expect(page.locator(f'.state-legend li[data-state="{state}"] .state-count')).to_have_text(str(count))


def test_empty_state(page: Page):
    account = signup_via_api(page)
    stack = make_stack(page, account["token"], "Leer", 2, colour="#7C3AED", scheduler="fsrs")
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    page.get_by_role("link", name="Statistik").click()
    expect(page).to_have_url(re.compile(r"/app/stats$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistik")
    expect(page.get_by_text("Noch keine Wiederholungen – lerne ein paar Karten, dann erscheint hier deine Statistik.")).to_be_visible()
    expect(page.locator(".heatmap")).to_have_count(0)
    expect(page.get_by_role("link", name="Zu deinen Stapeln")).to_be_visible()
    shot(page, "73-stats-empty")

    page.goto(f"/app/stacks/{stack['id']}")
    page.locator(".stack-header").get_by_role("link", name="Statistik").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}/stats$"))
    expect(page.get_by_text("Stapel „Leer“")).to_be_visible()
    expect(page.get_by_text(re.compile("^Noch keine Wiederholungen"))).to_be_visible()
    expect(page.locator(".stats-empty").get_by_role("link", name="Jetzt lernen")).to_have_attribute(
        "href", f"/app/stacks/{stack['id']}/study")


def test_figures_per_stack_and_overall(page: Page):
    account = learner(page)
    token = account["token"]
    overall = stats_of(page, token)
    bio = stats_of(page, token, account["bio"])
    spanish = stats_of(page, token, account["spanish"])
    # The overall figures are the sum of the stacks' (so the test can tell them apart).
    assert overall["reviewsPerDay"][-1]["count"] == bio["reviewsPerDay"][-1]["count"] + spanish["reviewsPerDay"][-1]["count"]
    assert bio["reviewsPerDay"][-1]["count"] != overall["reviewsPerDay"][-1]["count"]

    sign_in_storage(page, account)
    page.goto("/app/stats")
    expect(page.get_by_text("Über alle deine Stapel")).to_be_visible()
    expect_figures(page, overall)
    # True retention: the API's weeks with long-term reviews, as a line with a dot per week.
    weeks = [w for w in overall["retentionPerWeek"] if w["retention"] is not None]
    assert weeks, "the past reviews make at least one week with true retention"
    expect(page.locator('[data-chart="retention"] circle.dot')).to_have_count(len(weeks))
    share = sum(w["recalled"] for w in weeks) / sum(w["reviews"] for w in weeks)
    percent = page.evaluate("(x) => new Intl.NumberFormat('de-DE', {style: 'percent', maximumFractionDigits: 0}).format(x)", share)
    expect(page.locator(".stats-summary dd").nth(3)).to_have_text(percent)
    expect(page.get_by_text("Wahre Retention ist der Anteil der Wiederholungen")).to_be_visible()
    shot(page, "74-stats-overall")

    # Per stack: from the overall page's stack links; the figures are the stack's own.
    page.locator(".stats-stacks").get_by_role("link", name="Biologie").click()
    expect(page).to_have_url(re.compile(rf"/app/stacks/{account['bio']['id']}/stats$"))
    expect(page.get_by_text("Stapel „Biologie“")).to_be_visible()
    expect_figures(page, bio)
    # An FSRS stack shows its desired retention as the goal line.
    expect(page.locator('[data-chart="retention"] .target-label')).to_have_text(re.compile(r"^Ziel 90\s?%$"))
    shot(page, "75-stats-stack")

    page.get_by_role("link", name="Alle Stapel").click()
    expect(page).to_have_url(re.compile(r"/app/stats$"))
    expect_figures(page, overall)

    # The reviews chart: 30 days by default, 90 and 365 on request (one bar per day with reviews).
    bars = page.locator('[data-chart="reviews"] rect.bar')
    days = overall["reviewsPerDay"]
    expect(bars).to_have_count(sum(1 for d in days[-30:] if d["count"] > 0))
    expect(page.locator("#stats-reviews-summary")).to_contain_text("Letzte 30 Tage")
    page.get_by_role("radio", name="365 Tage").check()
    expect(bars).to_have_count(sum(1 for d in days if d["count"] > 0))
    expect(page.locator("#stats-reviews-summary")).to_contain_text("Letzte 365 Tage")


def test_english(make_page):
    page = make_page(locale="en-US")
    account = learner(page)
    overall = stats_of(page, account["token"])
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    page.get_by_role("link", name="Statistics").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistics")
    expect(page.get_by_role("heading", name="Cards due in the next 30 days")).to_be_visible()
    expect(page.get_by_text("True retention is the share of reviews")).to_be_visible()
    expect(page.locator(".hm-legend")).to_contain_text("less")
    expect(page.locator(".hm-legend")).to_contain_text("more")
    expect_figures(page, overall, day=day_en, word=("review", "reviews"))
    expect(page.locator('.state-legend li[data-state="relearning"]')).to_contain_text("Relearning")
    shot(page, "76-stats-en")


def test_dark_mode_on_a_phone(make_page):
    page = make_page(color_scheme="dark", **PHONE)
    account = learner(page)
    overall = stats_of(page, account["token"])
    sign_in_storage(page, account)
    page.goto("/app/stats")
    expect_figures(page, overall)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(11, 18, 32)"
    # Cells and bars take the dark theme's colours (not the light theme's emerald).
    assert page.evaluate("getComputedStyle(document.querySelector('.chart-svg .bar')).fill") == "rgb(16, 185, 129)"
    # No sideways scrolling of the page; the heatmap scrolls in its own box, today in view.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    scroller = page.locator(".heatmap-scroll")
    assert scroller.evaluate("(el) => el.scrollWidth > el.clientWidth && el.scrollLeft > 0")
    today = page.locator(".heatmap rect.hm-today")
    assert today.evaluate("(el) => { const r = el.getBoundingClientRect(), b = el.closest('.heatmap-scroll').getBoundingClientRect(); return r.left >= b.left && r.right <= b.right; }")
    assert_touch_targets(page)
    shot(page, "77-stats-dark-phone")

    page.goto(f"/app/stacks/{account['bio']['id']}")
    expect(page.locator(".stack-header").get_by_role("link", name="Statistik")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_touch_targets(page)

    # Turned sideways: the charts are drawn again for the wider containers.
    page.locator(".stack-header").get_by_role("link", name="Statistik").tap()
    expect(page.locator(".heatmap")).to_be_visible()
    page.set_viewport_size({"width": 844, "height": 390})
    # Charts still loading (workload, memory) have no drawing yet; every drawn one fits.
    fits = """() => { const drawn = [...document.querySelectorAll('.chart')].filter((host) => host.querySelector('svg'));
      return drawn.length >= 3 && drawn.every((host) =>
        Math.abs(Number(host.querySelector('svg').getAttribute('width')) - host.clientWidth) < 1); }"""
    page.wait_for_function(fits)
    assert page.evaluate("document.querySelector('.chart').clientWidth") > 600


def test_keyboard_path(page: Page):
    account = learner(page)
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    expect(page.locator("a.stack-card")).to_have_count(2)

    def tab_to(locator, limit=30):
        for _ in range(limit):
            page.keyboard.press("Tab")
            if locator.evaluate("(el) => el === document.activeElement"):
                # A visible focus ring (a radio of the period switch shows it on its label text).
                outline = page.evaluate("""(() => { const el = document.activeElement;
                  return getComputedStyle(el.type === 'radio' ? el.nextElementSibling : el).outlineStyle; })()""")
                assert outline != "none"
                return
        raise AssertionError(f"not reachable with Tab: {locator}")

    tab_to(page.get_by_role("link", name="Statistik"))
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistik")
    expect(page.get_by_role("heading", level=1)).to_be_focused()
    expect(page.locator(".heatmap")).to_be_visible()
    # The heatmap's scroll box takes focus (arrow keys scroll it), then the period switch.
    tab_to(page.locator(".heatmap-scroll"))
    tab_to(page.get_by_role("radio", name="30 Tage"))
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("radio", name="90 Tage")).to_be_checked()
    expect(page.locator("#stats-reviews-summary")).to_contain_text("Letzte 90 Tage")
    shot(page, "78-stats-keyboard")

    # Back up to the stack links, then into a stack's statistics and on to all stacks again.
    page.get_by_role("heading", level=1).focus()
    tab_to(page.locator(".stats-stacks").get_by_role("link", name="Spanisch"))
    page.keyboard.press("Enter")
    expect(page.get_by_text("Stapel „Spanisch“")).to_be_visible()
    tab_to(page.get_by_role("link", name="Alle Stapel"))
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/app/stats$"))


def test_loading_error_and_retry(page: Page):
    account = learner(page)
    sign_in_storage(page, account)
    calls = []

    def fail_first(route):
        calls.append(route.request.url)
        if len(calls) == 1:
            page.wait_for_timeout(300)  # long enough to see the loading state
            route.fulfill(status=500, content_type="application/json",
                          body='{"message": "Kaputt", "code": "internal"}')
        else:
            route.continue_()

    page.route("**/api/v1/me/stats", fail_first)
    page.goto("/app/stats")
    expect(page.get_by_role("alert")).to_contain_text("Die Statistik konnte nicht geladen werden.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistik")
    page.get_by_role("button", name="Erneut versuchen").click()
    expect(page.locator(".heatmap")).to_be_visible()
    assert len(calls) == 2

    # A slow answer shows the loading state first.
    page.unroute("**/api/v1/me/stats")
    page.route("**/api/v1/me/stats", lambda route: (page.wait_for_timeout(600), route.continue_()))
    page.goto("/app/stats")
    expect(page.get_by_role("status").filter(has_text="Statistik wird geladen…")).to_be_visible()
    expect(page.locator(".heatmap")).to_be_visible()

    # An unknown stack: the API's 404 as the error, with the retry button.
    page.unroute("**/api/v1/me/stats")
    page.goto(f"/app/stacks/{uuid.uuid4()}/stats")
    expect(page.get_by_role("alert")).to_contain_text("Das haben wir nicht gefunden.")
    expect(page.get_by_role("button", name="Erneut versuchen")).to_be_visible()

"""The workload forecast and the retention advice in the web app (issue 35): the statistics page of
a stack and of all stacks, the "what if" form with its error, the advice table and taking the
recommendation, the calm lines on the home screen and the stack page, a ladder stack, English, a
phone, the keyboard path and axe. Expected values come from the API's own answers."""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta, timezone

from playwright.sync_api import Page, expect

from conftest import api, make_stack, shot, sign_in_storage, signup_via_api
from test_accessibility import _axe
from test_mobile import PHONE
from test_stats import assert_touch_targets


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def learner(page: Page, minutes: int | None = 10) -> dict:
    """An account with an FSRS stack of 12 cards, 8 of them studied over the last month, a ladder
    stack, and (optionally) the minutes per day from onboarding."""
    account = signup_via_api(page)
    token = account["token"]
    made = iso(datetime.now(timezone.utc) - timedelta(days=60))
    physics = make_stack(page, token, "Physik", 12, colour="#059669", scheduler="fsrs", created_at=made)
    ladder = make_stack(page, token, "Vokabeln", 2, colour="#DC2626", scheduler="ladder")
    now = datetime.now(timezone.utc)
    history = [{"id": str(uuid.uuid4()), "cardId": card["id"], "rating": rating, "durationMs": 7000,
                "reviewedAt": iso(now - timedelta(days=days))}
               for card in physics["cards"][:8] for days, rating in ((30, "good"), (21, "good"), (6, "easy"))]
    status, body = api(page, "POST", "/reviews", {"reviews": history}, token=token)
    assert status == 200 and body["inserted"] == 24, body
    if minutes:
        status, body = api(page, "PATCH", "/me/settings", {"onboarding": {"minutesPerDay": minutes}}, token=token)
        assert status == 200, body
    account.update(physics=physics, ladder=ladder)
    return account


def minutes_text(minutes: float, decimal: str = ",") -> str:
    """What the page shows for minutes: one decimal under 10 ("0,4"), whole minutes above."""
    if minutes >= 10:
        return f"{minutes:.0f}"
    return f"{round(minutes, 1):g}".replace(".", decimal)


def workload_of(page: Page, token: str, stack: dict | None = None, days: int = 30) -> dict:
    path = f"/stacks/{stack['id']}/workload?days={days}" if stack else f"/me/workload?days={days}"
    status, body = api(page, "GET", path, token=token)
    assert status == 200, body
    return body


def test_stack_workload_what_if_and_advice(page: Page):
    account = learner(page)
    token, physics = account["token"], account["physics"]
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{physics['id']}/stats")
    panel = page.locator("#workload")
    expect(panel.get_by_role("heading", name="Dein Lernpensum")).to_be_visible()
    expected = workload_of(page, token, physics)
    minutes = minutes_text(expected["averageMinutes"])
    summary = page.locator("#workload-summary")
    expect(summary).to_contain_text("In den nächsten 30 Tagen")
    expect(summary).to_contain_text(f"etwa {minutes} Minuten")
    assert panel.locator("svg rect.bar").count() > 0
    # The table for screen readers holds every day.
    assert panel.locator("#workload-table tbody tr").count() == 30

    # What if: an invalid number is refused in words, then 0 new cards over 90 days.
    form = page.locator("#what-if")
    form.get_by_label("Neue Karten pro Tag").fill("-3")
    form.get_by_role("button", name="Durchrechnen").click()
    expect(page.locator("#what-if-error")).to_have_text("Neue Karten pro Tag: eine ganze Zahl von 0 bis 1000.")
    form.get_by_label("Neue Karten pro Tag").fill("0")
    form.get_by_label("Zeitraum").select_option("90")
    form.get_by_label("Zielquote").select_option("0.8")
    form.get_by_role("button", name="Durchrechnen").click()
    expect(summary).to_contain_text("In den nächsten 90 Tagen")
    expect(page.locator("#what-if-error")).to_have_text("")
    assert panel.locator("#workload-table tbody tr").count() == 90
    status, what_if = api(page, "POST", f"/stacks/{physics['id']}/workload/simulate",
                          {"days": 90, "newCardsPerDay": 0, "desiredRetention": 0.8}, token=token)
    assert status == 200
    expect(summary).to_contain_text(f"etwa {minutes_text(what_if['averageMinutes'])} Minuten")
    form.get_by_role("button", name="Zurücksetzen").click()
    expect(summary).to_contain_text("In den nächsten 30 Tagen")

    # The advice: a year at every retention, the recommendation marked, one sentence, take it.
    advice_panel = page.locator("#retention-advice")
    expect(advice_panel.get_by_role("heading", name="Welche Zielquote passt zu dir?")).to_be_visible()
    advice_panel.get_by_role("button", name="Zielquoten vergleichen").click()
    status, advice = api(page, "GET", f"/stacks/{physics['id']}/retention-advice", token=token)
    assert status == 200
    rows = advice_panel.locator("table.advice-table tbody tr")
    expect(rows).to_have_count(len(advice["options"]))
    recommended = re.compile(rf"{advice['recommended'] * 100:.0f}\s%")
    expect(advice_panel.locator("tr.is-recommended th")).to_contain_text(recommended)
    expect(advice_panel.locator("tr.is-recommended th")).to_contain_text("Empfohlen")
    sentence = advice_panel.locator(".advice-sentence")
    expect(sentence).to_contain_text(recommended)
    if advice["reason"] == "within_budget":
        expect(sentence).to_contain_text("deinen 10 Minuten am Tag")
    shot(page, "workload-advice-de")
    take = advice_panel.get_by_role("button", name=re.compile("Zielquote .* übernehmen"))
    if advice["recommended"] != advice["current"]:
        take.click()
        expect(page.locator("#toasts")).to_contain_text(
            re.compile(rf"Die Zielquote ist jetzt {advice['recommended'] * 100:.0f}\s%\."))
        status, stack = api(page, "GET", f"/stacks/{physics['id']}", token=token)
        assert stack["desiredRetention"] == advice["recommended"]
        expect(take).to_have_count(0)
    else:
        expect(take).to_have_count(0)
    # The FSRS figures under it: knowledge, the true-retention table, three distributions, buttons.
    status, memory = api(page, "GET", f"/stacks/{physics['id']}/stats/memory", token=token)
    assert status == 200 and memory["cards"] == 8
    memory_panel = page.locator("#memory")
    expect(memory_panel.get_by_role("heading", name="Gedächtnis laut FSRS")).to_be_visible()
    known = f"{memory['estimatedKnowledge']:.0f}"
    expect(memory_panel.locator(".chart-figure")).to_have_text(f"Du kannst jetzt etwa {known} von 8 Karten.")
    expect(memory_panel.locator("table.memory-table").first.locator("tbody tr")).to_have_count(5)
    expect(memory_panel.locator(".memory-distribution svg")).to_have_count(3)
    # The daily load and the reviews by hour (the learner's zone), as the API counts them.
    expect(memory_panel).to_contain_text("Tägliche Last: Auf Dauer fragen deine Karten etwa")
    expect(memory_panel.get_by_role("heading", name="Wiederholungen nach Uhrzeit (letztes Jahr)")).to_be_visible()
    expect(memory_panel.locator(".memory-hours svg")).to_be_visible()
    busiest = max(range(24), key=lambda h: memory["hours"][h]["reviews"])
    expect(memory_panel.locator(".memory-hours table")).to_contain_text(f"{busiest} Uhr: {memory['hours'][busiest]['reviews']} Wiederholung")
    mature_year = memory["trueRetention"][-1]["mature"]
    year_row = memory_panel.locator("table.memory-table").first.locator("tbody tr").last
    expect(year_row.locator("th")).to_have_text("Letztes Jahr")
    if mature_year["reviews"]:
        expect(year_row.locator("td").nth(1)).to_contain_text(f"({mature_year['reviews']})")
    result = _axe(page)
    assert result["blocking"] == [], result["blocking"]


def test_all_stacks_home_and_stack_page_lines(page: Page):
    account = learner(page, minutes=None)
    token, physics, ladder = account["token"], account["physics"], account["ladder"]
    sign_in_storage(page, account)
    page.goto("/app/stats")
    expected = workload_of(page, token)
    expect(page.locator("#workload-summary")).to_contain_text(f"etwa {minutes_text(expected['averageMinutes'])} Minuten")
    page.locator("#advice-run").click()
    expect(page.locator(".advice-sentence")).to_contain_text("merkst du dir pro Minute Lernzeit am meisten")
    # Over all stacks there is no stack to set a retention on.
    expect(page.get_by_role("button", name=re.compile("übernehmen"))).to_have_count(0)

    # A ladder stack (with a review, so that its statistics are not empty): the preview says why
    # there is none.
    status, body = api(page, "POST", f"/stacks/{ladder['id']}/study/rate",
                       {"cardId": ladder["cards"][0]["id"], "rating": "easy", "reviewId": str(uuid.uuid4())}, token=token)
    assert status == 200, body
    page.goto(f"/app/stacks/{ladder['id']}/stats")
    expect(page.locator("#workload-summary")).to_have_text("Die Vorschau rechnet mit FSRS; dieser Stapel nutzt die Lernstufen.")
    expect(page.locator("#retention-advice")).to_be_hidden()

    # The calm lines: the week on the home screen, the month on the stack page.
    week = round(workload_of(page, token, days=7)["averageMinutes"])
    page.goto("/app")
    line = page.locator("#home-workload")
    expect(line).to_be_visible()
    expect(line).to_have_text(f"Die nächsten 7 Tage: etwa {week} Minuten am Tag." if week > 1 else re.compile("Die nächsten 7 Tage"))
    line.get_by_role("link").click()
    expect(page).to_have_url(re.compile(r"/app/stats"))
    month = round(workload_of(page, token, physics)["averageMinutes"])
    page.goto(f"/app/stacks/{physics['id']}")
    expect(page.locator("#stack-workload")).to_contain_text("Die nächsten 30 Tage")
    if month > 1:
        expect(page.locator("#stack-workload")).to_have_text(f"Die nächsten 30 Tage: etwa {month} Minuten am Tag.")
    page.goto(f"/app/stacks/{ladder['id']}")
    expect(page.locator("#stack-stats")).to_be_visible()
    expect(page.locator("#stack-workload")).to_have_count(0)


def test_english_phone_and_keyboard(make_page):
    page = make_page(locale="en-US", **PHONE)
    account = learner(page)
    physics = account["physics"]
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{physics['id']}/stats")
    expect(page.get_by_role("heading", name="Your study load")).to_be_visible()
    expect(page.locator("#workload-summary")).to_contain_text("Over the next 30 days")
    expect(page.get_by_role("heading", name="Memory according to FSRS")).to_be_visible()
    expect(page.locator("#memory .chart-figure")).to_contain_text("You know about")
    # Keyboard only: to the comparison button and Enter.
    run = page.get_by_role("button", name="Compare retentions")
    run.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".advice-sentence")).to_contain_text(re.compile(r"At \d+ %|At \d+%"))
    expect(page.locator("#retention-advice table.advice-table thead")).to_contain_text("Minutes a day")
    # Nothing sticks out of a phone's width (the table scrolls inside its own box).
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone"
    assert_touch_targets(page)
    shot(page, "workload-advice-en-phone")


def test_fitting_the_parameters_in_settings(page: Page):
    """Settings → Zeitplan (FSRS): too short a history says so; with a history the parameters are
    fitted and the page says what changed; the defaults come back on request."""
    account = signup_via_api(page)
    token = account["token"]
    physics = make_stack(page, token, "Physik", 30, colour="#059669", scheduler="fsrs",
                         created_at=iso(datetime.now(timezone.utc) - timedelta(days=400)))
    sign_in_storage(page, account)
    page.goto("/app/settings")
    section = page.locator("#scheduler-panel")
    expect(section.get_by_role("heading", name="Zeitplan (FSRS)")).to_be_visible()
    expect(section.locator("#scheduler-status")).to_have_text("Deine FSRS-Stapel planen mit den Standard-Parametern von FSRS.")
    section.get_by_role("button", name="Jetzt anpassen").click()
    expect(section.get_by_role("alert")).to_contain_text("Noch zu wenige Wiederholungen")

    # A year of reviews of 30 cards: every card reviewed at growing intervals, some forgotten.
    now = datetime.now(timezone.utc)
    reviews = []
    for index, card in enumerate(physics["cards"]):
        day, interval = 360, 1
        while day > 0:
            rating = "again" if (index + day) % 7 == 0 else "good"
            reviews.append({"id": str(uuid.uuid4()), "cardId": card["id"], "rating": rating,
                            "reviewedAt": iso(now - timedelta(days=day, hours=index % 5))})
            interval = 1 if rating == "again" else min(interval * 2 + index % 3, 60)
            day -= interval
    for start in range(0, len(reviews), 1000):
        status, body = api(page, "POST", "/reviews", {"reviews": reviews[start:start + 1000]}, token=token)
        assert status == 200, body
    section.get_by_role("button", name="Jetzt anpassen").click()
    outcome = section.locator(".scheduler-outcome")
    expect(outcome).to_contain_text(re.compile(r"Neue Parameter|Deine Parameter bleiben"), timeout=30_000)
    shot(page, "scheduler-outcome")
    status, parameters = api(page, "GET", "/me/scheduler", token=token)
    assert status == 200
    print("\noptimization outcome:", outcome.inner_text())
    if "Neue Parameter" in outcome.inner_text():
        assert not parameters["isDefault"]
        expect(section.locator("#scheduler-status")).to_contain_text("Angepasst an deine Wiederholungen am")
        page.reload()
        section.get_by_role("button", name="Standard verwenden").click()
        expect(section.locator("#scheduler-status")).to_have_text(
            "Deine FSRS-Stapel planen mit den Standard-Parametern von FSRS.")
        status, parameters = api(page, "GET", "/me/scheduler", token=token)
        assert parameters["isDefault"]
    else:
        assert parameters["isDefault"]


def test_easy_days_and_load_balancing_in_settings(make_page):
    """Settings → Entspannte Tage: on by default with every weekday normal; by keyboard Sunday becomes
    "Kaum" and stays after a reload; switching the balancing off rests the weekdays (and the API says
    so); a wrong value from elsewhere is refused; English on a phone; axe finds nothing."""
    page = make_page()
    account = signup_via_api(page)
    token = account["token"]
    sign_in_storage(page, account)
    page.goto("/app/settings")
    section = page.locator("section[aria-labelledby=easy-days-title]")
    expect(section.get_by_role("heading", name="Entspannte Tage")).to_be_visible()
    switch = section.get_by_role("switch", name="Wiederholungen gleichmäßig verteilen")
    expect(switch).to_be_checked()
    sunday = section.get_by_label("Sonntag")
    expect(sunday).to_have_value("normal")
    expect(section.get_by_label("Montag")).to_be_enabled()
    # Keyboard only: focus Sunday's choice and pick "Kaum" with the arrow keys.
    sunday.focus()
    sunday.select_option("minimum")
    expect(page.locator(".toast").last).to_contain_text("Gespeichert")
    status, settings = api(page, "GET", "/me/settings", token=token)
    assert status == 200 and settings["easyDays"] == ["normal"] * 6 + ["minimum"], settings
    assert settings["loadBalancing"] is True
    page.reload()
    expect(page.locator("section[aria-labelledby=easy-days-title]").get_by_label("Sonntag")).to_have_value("minimum")

    # Off: the weekdays rest and say why.
    section = page.locator("section[aria-labelledby=easy-days-title]")
    switch = section.get_by_role("switch", name="Wiederholungen gleichmäßig verteilen")
    switch.focus()
    page.keyboard.press("Space")
    expect(switch).not_to_be_checked()
    expect(section.locator("#easy-days-help")).to_contain_text("sobald die Wiederholungen verteilt werden")
    expect(section.get_by_label("Sonntag")).to_be_disabled()
    status, settings = api(page, "GET", "/me/settings", token=token)
    assert settings["loadBalancing"] is False and settings["easyDays"][6] == "minimum"

    # What the page never sends is refused with a message, and nothing changes.
    status, body = api(page, "PATCH", "/me/settings", {"easyDays": ["normal"] * 5}, token=token)
    assert status == 400 and "easyDays" in body["message"], body
    status, settings = api(page, "GET", "/me/settings", token=token)
    assert settings["easyDays"][6] == "minimum"
    result = _axe(page)
    assert result["blocking"] == [], result["blocking"]

    phone = make_page(locale="en-US", **PHONE)
    sign_in_storage(phone, account)
    phone.goto("/app/settings")
    section = phone.locator("section[aria-labelledby=easy-days-title]")
    expect(section.get_by_role("heading", name="Easy days")).to_be_visible()
    expect(section.get_by_role("switch", name="Spread reviews evenly")).not_to_be_checked()
    expect(section.get_by_label("Sunday")).to_have_value("minimum")
    section.get_by_role("switch", name="Spread reviews evenly").tap()
    expect(section.get_by_label("Sunday")).to_be_enabled()
    expect(section.get_by_label("Sunday").locator("option:checked")).to_have_text("Hardly any")
    overflow = phone.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone"
    assert_touch_targets(phone)
    shot(phone, "easy-days-en-phone")


def test_break_and_backlog(make_page):
    """Statistics → "Pause planen": previewed, then planned (the days away are emptied and become
    rest days); the form's errors; the backlog moved by keyboard; no panel on a ladder stack; English
    on a phone; axe finds nothing."""
    page = make_page()
    account = learner(page)
    token = account["token"]
    # A stack whose cards fall due within the next weeks: Good two weeks ago and in the last days.
    now = datetime.now(timezone.utc)
    physics = make_stack(page, token, "Chemie", 10, colour="#0EA5E9", scheduler="fsrs",
                         created_at=iso(now - timedelta(days=60)))
    history = [{"id": str(uuid.uuid4()), "cardId": card["id"], "rating": rating, "reviewedAt": iso(now - timedelta(days=days))}
               for i, card in enumerate(physics["cards"]) for days, rating in ((14 + i, "good"), (i % 4, "good"))]
    status, body = api(page, "POST", "/reviews", {"reviews": history}, token=token)
    assert status == 200, body
    status, listing = api(page, "GET", f"/stacks/{physics['id']}/cards?perPage=50", token=token)
    due = sorted(c["dueAt"][:10] for c in listing["items"] if c["state"] == "review")
    today = datetime.now(timezone.utc).date()
    first = max(today + timedelta(days=1), datetime.fromisoformat(due[0]).date())
    last = min(first + timedelta(days=40), datetime.fromisoformat(due[-1]).date() + timedelta(days=1))
    assert (first - today).days < 60, due
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{physics['id']}/stats")
    panel = page.locator("#break")
    expect(panel.get_by_role("heading", name="Pause planen")).to_be_visible()

    # The form's own errors, said next to it.
    panel.get_by_label("Erster Tag weg").fill("")
    panel.get_by_role("button", name="Vorschau").click()
    expect(panel.locator("#break-error")).to_have_text("Wähle den ersten und den letzten Tag deiner Pause.")
    panel.get_by_label("Erster Tag weg").fill(last.isoformat())
    panel.get_by_label("Letzter Tag weg").fill(first.isoformat())
    panel.get_by_role("button", name="Vorschau").click()
    expect(panel.locator("#break-error")).to_have_text("Der letzte Tag liegt vor dem ersten.")

    # Keyboard: the dates, Enter for the preview, then the plan.
    panel.get_by_label("Erster Tag weg").fill(first.isoformat())
    panel.get_by_label("Letzter Tag weg").fill(last.isoformat())
    panel.get_by_label("Letzter Tag weg").press("Enter")
    expect(panel.locator("#break-result .advice-sentence")).to_contain_text(re.compile(r"kämen|käme"))
    expect(panel.locator("table.break-table tbody tr").first).to_be_visible()
    status, still = api(page, "GET", f"/stacks/{physics['id']}/cards?perPage=50", token=token)
    assert sorted(c["dueAt"] for c in still["items"]) == sorted(c["dueAt"] for c in listing["items"]), "a preview moved cards"
    apply = panel.get_by_role("button", name="Pause eintragen")
    apply.focus()
    page.keyboard.press("Enter")
    expect(panel.locator("#break-result .advice-sentence")).to_contain_text(re.compile(r"kommen|kommt"))
    expect(panel.locator("#break-result")).to_contain_text("Ruhetage")
    status, moved = api(page, "GET", f"/stacks/{physics['id']}/cards?perPage=50", token=token)
    away = {(first + timedelta(days=i)).isoformat() for i in range((last - first).days + 1)}
    assert not [c for c in moved["items"] if c["state"] == "review" and c["dueAt"][:10] in away], moved["items"]
    status, progress = api(page, "GET", "/me/progress", token=token)
    assert first.isoformat() in progress["restDays"]

    # The backlog: a wrong count, then two cards of the next days today.
    backlog = panel.locator("#backlog-form")
    backlog.get_by_label("Anzahl Karten").fill("0")
    backlog.get_by_role("button", name="Vorziehen").click()
    expect(panel.locator("#backlog-error")).to_have_text("Gib eine ganze Zahl von 1 bis 10000 ein.")
    backlog.get_by_label("Anzahl Karten").fill("2")
    backlog.get_by_role("button", name="Vorziehen").click()
    expect(panel.locator("#backlog-result")).to_have_text("2 Karten kommen früher dran.")
    result = _axe(page)
    assert result["blocking"] == [], result["blocking"]
    shot(page, "break-planned")

    page.goto(f"/app/stacks/{account['ladder']['id']}/stats")
    expect(page.locator("main h1")).to_have_text("Statistik")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#break")).to_have_count(0)

    phone = make_page(locale="en-US", **PHONE)
    sign_in_storage(phone, account)
    phone.goto("/app/stats")
    panel = phone.locator("#break")
    expect(panel.get_by_role("heading", name="Plan a break")).to_be_visible()
    panel.get_by_role("button", name="Preview").tap()
    expect(panel.locator("#break-result .advice-sentence")).to_be_visible()
    overflow = phone.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone"
    assert_touch_targets(phone)


def test_learning_steps_left_to_fsrs(make_page):
    """Stack settings → "Lernschritte FSRS überlassen": saved as no steps; "Nochmal" on a new card
    then brings it back the same day after FSRS's own interval (hours, not minutes); off again gives
    the default steps back. English on a phone."""
    page = make_page()
    account = signup_via_api(page)
    token = account["token"]
    stack = make_stack(page, token, "Chemie", 2, colour="#0EA5E9", scheduler="fsrs")
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/edit")
    switch = page.get_by_role("switch", name="Lernschritte FSRS überlassen")
    expect(switch).not_to_be_checked()
    switch.focus()
    page.keyboard.press("Space")
    expect(switch).to_be_checked()
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Chemie")
    status, saved = api(page, "GET", f"/stacks/{stack['id']}", token=token)
    assert saved["learningSteps"] == [] and saved["relearningSteps"] == [], saved

    # "Nochmal" on a new card: FSRS keeps it for later today, after its own interval.
    status, nxt = api(page, "GET", f"/stacks/{stack['id']}/study/next", token=token)
    again = next(o for o in nxt["options"] if o["rating"] == "again")
    assert 3600 < again["intervalSeconds"] < 86400, again
    status, rated = api(page, "POST", f"/stacks/{stack['id']}/study/rate",
                        {"cardId": nxt["card"]["id"], "rating": "again"}, token=token)
    assert status == 200 and rated["card"]["state"] == "learning", rated
    due = datetime.fromisoformat(rated["card"]["dueAt"].replace("Z", "+00:00"))
    assert timedelta(hours=1) < due - datetime.now(timezone.utc) < timedelta(days=1)

    phone = make_page(locale="en-US", **PHONE)
    sign_in_storage(phone, account)
    phone.goto(f"/app/stacks/{stack['id']}/edit")
    switch = phone.get_by_role("switch", name="Leave learning steps to FSRS")
    expect(switch).to_be_checked()
    switch.tap()
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Chemie")
    status, saved = api(page, "GET", f"/stacks/{stack['id']}", token=token)
    assert saved["learningSteps"] == [60, 600] and saved["relearningSteps"] == [600], saved

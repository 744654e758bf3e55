"""Speed figures measured in the browser: cold-load bytes of the dashboard, and a stack with
10,000 cards by default (search and paging through the API stay fast)."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Page, expect

from conftest import BASE_URL, METRICS, api, shot, sign_in_storage, signup_via_api

BUDGET_BYTES = 150 * 1024
# Cards in the big-stack test; lower it (FLASHCARDS_WEB_CARDS=2000) for a quicker local run.
BIG_STACK = int(os.environ.get("FLASHCARDS_WEB_CARDS", "10000"))


def test_dashboard_cold_load_bytes(make_page):
    setup = make_page()
    account = signup_via_api(setup)
    for name, colour in (("Biologie", "#059669"), ("Spanisch", "#DC2626"), ("Geschichte", "#7C3AED")):
        api(setup, "POST", "/stacks", {"name": name, "color": colour}, token=account["token"])

    # A new context: empty HTTP cache, no service worker. The session is put into localStorage
    # before any page script runs, so the first navigation is the dashboard itself.
    page = make_page(service_workers="block")
    page.add_init_script(
        f"localStorage.setItem('fc.token', {json.dumps(account['token'])});"
        f"localStorage.setItem('fc.user', {json.dumps(json.dumps(account['user']))});"
    )
    loaded = []
    page.on("requestfinished", lambda request: loaded.append(request))
    page.goto("/app/stacks", wait_until="networkidle")
    expect(page.locator("a.stack-card")).to_have_count(3)

    assets, api_bytes, files = 0, 0, {}
    for request in loaded:
        response = request.response()
        size = len(response.body()) if response else 0  # decoded body: uncompressed bytes
        path = request.url.removeprefix(BASE_URL)
        if path.startswith("/api/"):
            api_bytes += size
        else:
            assets += size
            files[path] = size
    METRICS["dashboardColdLoad"] = {
        "assetBytes": assets,
        "apiBytes": api_bytes,
        "requests": len(loaded),
        "budgetBytes": BUDGET_BYTES,
        "files": dict(sorted(files.items(), key=lambda kv: -kv[1])),
    }
    print(f"dashboard cold load: {assets} bytes of assets in {len(files)} files (+{api_bytes} bytes API)")
    assert "/app/stacks" in files and "/assets/js/app.js" in files and "/assets/i18n/de.js" in files
    assert "/assets/i18n/en.js" not in files, "only the current language's dictionary is loaded"
    assert assets + api_bytes < BUDGET_BYTES


def _post(url, token, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as response:
        return response.status


def test_big_stack_search_and_paging(page: Page):
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": "Riesig", "color": "#0891B2"}, token=account["token"])
    url = f"{BASE_URL}/api/v1/stacks/{stack['id']}/cards"
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(
            lambda i: _post(url, account["token"], {"question": f"Frage Nummer {i:05d}", "answer": f"Antwort {i}"}),
            range(1, BIG_STACK + 1)))
    seeding = time.perf_counter() - started
    assert set(statuses) == {201}

    sign_in_storage(page, account)
    started = time.perf_counter()
    page.goto(f"/app/stacks/{stack['id']}")
    total = f"{BIG_STACK:,}".replace(",", ".")
    expect(page.get_by_text(f"1–25 von {total}")).to_be_visible()
    first_page_ms = (time.perf_counter() - started) * 1000
    expect(page.locator(".cards-table tbody tr")).to_have_count(25)
    shot(page, "50-stack-10000-cards")

    started = time.perf_counter()
    page.get_by_role("button", name="Nächste Seite").click()
    expect(page.get_by_text(f"26–50 von {total}")).to_be_visible()
    next_page_ms = (time.perf_counter() - started) * 1000
    expect(page).to_have_url(f"{BASE_URL}/app/stacks/{stack['id']}?page=2")

    started = time.perf_counter()
    page.get_by_label("Karten durchsuchen").fill(f"Nummer {BIG_STACK - 1:05d}")
    expect(page.get_by_text("1–1 von 1")).to_be_visible()
    search_ms = (time.perf_counter() - started) * 1000  # includes the 200 ms typing debounce
    expect(page.locator(".cards-table tbody tr")).to_have_count(1)
    expect(page.locator(".cards-table")).to_contain_text(f"Frage Nummer {BIG_STACK - 1:05d}")
    shot(page, "51-stack-search")
    page.get_by_label("Karten durchsuchen").fill("gibt es nicht")
    expect(page.get_by_text("Keine Karten gefunden für „gibt es nicht“.")).to_be_visible()

    METRICS["bigStack"] = {
        "cards": BIG_STACK,
        "seedSeconds": round(seeding, 1),
        "firstPageMs": round(first_page_ms),
        "nextPageMs": round(next_page_ms),
        "searchMsIncluding200msDebounce": round(search_ms),
    }
    print(f"{BIG_STACK} cards:", METRICS["bigStack"])
    assert next_page_ms < 1500 and search_ms < 2000

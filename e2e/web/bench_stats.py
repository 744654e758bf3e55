"""Benchmark of the statistics screen with a year of history: prints figures, asserts nothing.

    python3 e2e/web/bench_stats.py [--reviews 100000] [--cards 2000] [--runs 7]

Starts `FLASHCARDS_BIN` (default .build/debug/flashcards; use .build/release/flashcards for
production figures) with `serve` on a free port and a fresh data directory, unless
FLASHCARDS_BASE_URL names a running server. Signs up, creates the cards (4 FSRS stacks) and writes
the reviews over the past 364 days through `POST /api/v1/reviews` in batches of 1,000 (each
batch holds every review of its cards, so each card is replayed once). Then, in Chromium:

- cold: `page.goto('/app/stats')` until the charts are painted (the last chart's SVG is in the
  page, then a frame: requestAnimationFrame + a task), on the page's clock, whose zero is the
  start of the navigation; so it includes the HTML, the modules, the API call and the drawing;
- in app: a click on the dashboard's "Statistik" link until the charts are painted;
- of the cold runs: the stats request (Resource Timing) and its response's end → painted (the
  client's own work: decoding, the page and the charts, a frame);
- the API call alone (`GET /api/v1/me/stats`, over loopback from Python), and the server's CPU
  time for it (from /proc, when the script started the server): on a busy machine the wall
  times grow with the load, the CPU time hardly.

Prints the median (and min/max) of `--runs` runs of each and adds them to
artifacts/web-metrics.json as `statsScreen`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
BATCH = 1000  # the largest batch POST /api/v1/reviews takes

# Resolves (once) with the page's clock when the charts are painted: the forecast is the last
# chart stats.js draws; a frame later (requestAnimationFrame, then a task) it is on screen.
PAINTED = """
window.__statsPainted = new Promise((resolve) => {
  const done = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
  const check = () => {
    if (document.querySelector('[data-chart="forecast"] svg')) { observer.disconnect(); done(); }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true });
});
"""

# In the running app: clicks the "Statistik" link and resolves with the milliseconds until the
# charts are painted.
CLICK_TO_PAINTED = """
() => new Promise((resolve) => {
  const t0 = performance.now();
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[data-chart="forecast"] svg')) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
  });
  observer.observe(document.getElementById('main'), { childList: true, subtree: true });
  document.querySelector('a[href="/app/stats"]').click();
})
"""


def call(base: str, method: str, path: str, body=None, token: str | None = None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"{base}/api/v1{path}", method=method, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(request, timeout=300) as response:
        text = response.read()
        return json.loads(text) if text else None


def start_server() -> tuple[str, subprocess.Popen, str]:
    binary = os.environ.get("FLASHCARDS_BIN", str(ROOT / ".build/debug/flashcards"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = tempfile.mkdtemp(prefix="flashcards-bench-stats.")
    env = dict(os.environ, FLASHCARDS_DATA_DIR=data, PORT=str(port), HOST="127.0.0.1",
               FLASHCARDS_PUBLIC_DIR=str(ROOT / "Public"), FLASHCARDS_BCRYPT_COST="4", LOG_LEVEL="warning")
    log = open(ROOT / "artifacts" / "bench-stats-server.log", "w")
    process = subprocess.Popen([binary, "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{base}/api/v1/health", timeout=1)
            print(f"server: {binary} on {base} (data: {data})")
            return base, process, data
        except OSError:
            if process.poll() is not None:
                sys.exit(f"the server exited early; see {log.name}")
            time.sleep(0.1)
    process.kill()
    sys.exit("no /api/v1/health answer after 30 s")


def seed(base: str, total_reviews: int, total_cards: int, seed_value: int = 16) -> dict:
    """An account whose cards have `total_reviews` reviews spread over the past 364 days."""
    rng = random.Random(seed_value)
    mail = f"bench-{uuid.uuid4().hex[:10]}@example.org"
    auth = call(base, "POST", "/auth/signup",
                {"name": "Bench", "mail": mail, "password": "richtig-geheim-42", "timeZone": "Europe/Berlin"})
    token = auth["token"]
    started = time.perf_counter()
    stacks = [call(base, "POST", "/stacks", {"name": f"Stapel {i + 1}", "color": "#059669"}, token) for i in range(4)]

    # The cards were made a year ago (offline), so that a year of history can be synced.
    made = (datetime.now(timezone.utc) - timedelta(days=366)).strftime("%Y-%m-%dT%H:%M:%S.000Z")

    def create(i):
        stack = stacks[i % len(stacks)]
        return call(base, "POST", f"/stacks/{stack['id']}/cards",
                    {"question": f"Frage {i}", "answer": f"Antwort {i}", "createdAt": made}, token)["id"]

    with ThreadPoolExecutor(max_workers=8) as pool:
        cards = list(pool.map(create, range(total_cards)))
    cards_seconds = time.perf_counter() - started

    # A learner's year: most days with reviews, fewer at weekends, some weeks off.
    weights = []
    for day in range(364):
        weight = 0.0 if rng.random() < 0.12 else rng.uniform(0.4, 1.6)
        if (day % 7) in (2, 3):
            weight *= 0.5
        if 120 <= day < 134:
            weight = 0.0  # a holiday
        weights.append(weight)
    now = datetime.now(timezone.utc)
    per_card, extra = divmod(total_reviews, len(cards))
    ratings = ["again", "hard", "good", "easy"]
    batches, batch = [], []
    for index, card in enumerate(cards):
        count = per_card + (1 if index < extra else 0)
        days = sorted(rng.choices(range(364), weights=weights, k=count), reverse=True)
        for day in days:
            moment = now - timedelta(days=day, hours=1 + rng.random() * 12)
            batch.append({"id": str(uuid.uuid4()), "cardId": card,
                          "rating": rng.choices(ratings, weights=[10, 15, 60, 15])[0],
                          "reviewedAt": moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"})
        # Every review of a card in one batch, so the card is replayed once.
        if len(batch) + per_card + 1 > BATCH:
            batches.append(batch)
            batch = []
    if batch:
        batches.append(batch)
    started = time.perf_counter()
    inserted = 0
    for body in batches:
        inserted += call(base, "POST", "/reviews", {"reviews": body}, token)["inserted"]
    reviews_seconds = time.perf_counter() - started
    assert inserted == total_reviews, inserted
    print(f"seeded {len(cards)} cards in {cards_seconds:.1f} s, {inserted} reviews in {len(batches)} batches "
          f"in {reviews_seconds:.1f} s")
    return {"token": token, "user": auth["user"], "seedSeconds": round(cards_seconds + reviews_seconds, 1)}


def spread(values: list[float]) -> dict:
    return {"median": round(statistics.median(values), 1), "min": round(min(values), 1),
            "max": round(max(values), 1), "runs": len(values)}


def cpu_ms(pid: int | None) -> float:
    """CPU time (user + system) the process has used so far, in ms (Linux /proc)."""
    if pid is None:
        return float("nan")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def measure(base: str, account: dict, runs: int, pid: int | None) -> dict:
    token = account["token"]
    api_ms, api_cpu = [], []
    for _ in range(runs):
        cpu = cpu_ms(pid)
        started = time.perf_counter()
        stats = call(base, "GET", "/me/stats", token=token)
        api_ms.append((time.perf_counter() - started) * 1000)
        api_cpu.append(cpu_ms(pid) - cpu)
    year = sum(d["count"] for d in stats["reviewsPerDay"])
    print(f"GET /api/v1/me/stats: {year} reviews in the year; median {statistics.median(api_ms):.1f} ms, "
          f"server CPU {statistics.median(api_cpu):.0f} ms")

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        context = browser.new_context(base_url=base, locale="de-DE", timezone_id="Europe/Berlin",
                                      viewport={"width": 1280, "height": 860}, service_workers="block")
        context.add_init_script(
            f"localStorage.setItem('fc.token', {json.dumps(token)});"
            f"localStorage.setItem('fc.user', {json.dumps(json.dumps(account['user']))});")
        context.add_init_script(PAINTED)
        errors = []
        cold, cold_api, drawing, in_app = [], [], [], []
        for run in range(runs + 1):  # the first run warms the HTTP cache and is not counted
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto("/app/stats", wait_until="commit")
            painted = page.evaluate("window.__statsPainted")
            request = page.evaluate("""performance.getEntriesByType('resource')
              .filter((e) => e.name.endsWith('/api/v1/me/stats')).map((e) => [e.duration, e.responseEnd])[0]""")
            assert page.locator(".heatmap rect.hm-cell").count() == 365
            if run:
                cold.append(painted)
                cold_api.append(request[0])
                drawing.append(painted - request[1])
            page.close()
        page = context.new_page()
        page.goto("/app/stacks")
        page.locator("a.stack-card").first.wait_for()
        for run in range(runs + 1):
            ms = page.evaluate(CLICK_TO_PAINTED)
            if run:
                in_app.append(ms)
            page.go_back()
            page.locator("a.stack-card").first.wait_for()
        browser.close()
    if errors:
        sys.exit(f"page errors: {errors}")
    return {
        "reviews": year,
        "coldNavigationToPaintedMs": spread(cold),
        "ofWhichStatsRequestMs": spread(cold_api),
        "responseToPaintedMs": spread(drawing),
        "inAppClickToPaintedMs": spread(in_app),
        "apiOnlyMs": spread(api_ms),
        # Robust to a busy machine: what one request costs the server (only when started here).
        "apiServerCpuMs": spread(api_cpu) if pid else None,
        "loadAverage": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, default=100_000)
    parser.add_argument("--cards", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    (ROOT / "artifacts").mkdir(exist_ok=True)
    base = os.environ.get("FLASHCARDS_BASE_URL", "").rstrip("/")
    process = None
    if not base:
        base, process, data = start_server()
    try:
        account = seed(base, args.reviews, args.cards)
        figures = measure(base, account, args.runs, process.pid if process else None)
    finally:
        if process:
            process.send_signal(2)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
            subprocess.run(["rm", "-rf", data], check=False)
    figures["seedSeconds"] = account["seedSeconds"]
    figures["server"] = os.environ.get("FLASHCARDS_BIN", ".build/debug/flashcards") if process else base
    print(json.dumps(figures, indent=2))
    path = ROOT / "artifacts" / "web-metrics.json"
    existing = json.loads(path.read_text()) if path.exists() else {}
    existing["statsScreen"] = figures
    path.write_text(json.dumps(existing, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

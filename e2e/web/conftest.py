"""Shared fixtures for the browser tests: Debian's Chromium driven by Playwright.

The server is started by scripts/test-web, which passes its address in FLASHCARDS_BASE_URL.
Every test gets a fresh browser context (no cookies, storage or service worker), fails on any
console error or uncaught exception (a CSP violation shows up as one), and fails when the page
talks to any host other than the app's own.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]


BIN = os.environ.get("FLASHCARDS_BIN") or str(ROOT / ".build" / "debug" / "flashcards")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def extra_server(name: str, settings: dict[str, str], port: int | None = None):
    """`flashcards serve` of its own (FLASHCARDS_BIN) with `settings` added to the environment, on a free
    loopback port with a fresh data folder, for the tests that need a server set up otherwise than the
    run's (a language model, OpenID providers); yields its base URL once /api/v1/health answers, and
    stops it afterwards. Its log goes to artifacts/web-server-<name>.log."""
    import shutil
    import signal
    import subprocess
    import tempfile
    import urllib.request

    if not (os.path.isfile(BIN) and os.access(BIN, os.X_OK)):
        pytest.fail(f"server binary {BIN!r} not found: build it or set FLASHCARDS_BIN", pytrace=False)
    port = port or free_port()
    data_dir = tempfile.mkdtemp(prefix=f"flashcards-web-{name}-")
    (ROOT / "artifacts").mkdir(exist_ok=True)
    log_path = ROOT / "artifacts" / f"web-server-{name}.log"
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "DATABASE_SCHEMA", "FLASHCARDS_JWT_SECRET")
           and not k.startswith(("FLASHCARDS_LLM_", "FLASHCARDS_SMTP_", "FLASHCARDS_OIDC_"))}
    env.update(
        FLASHCARDS_DATA_DIR=data_dir, PORT=str(port), HOST="127.0.0.1",
        FLASHCARDS_PUBLIC_DIR=str(ROOT / "Public"), FLASHCARDS_BCRYPT_COST="4",
    )
    env.update(settings)
    with open(log_path, "wb") as log:
        # The working directory is the empty data folder, so that no stray .env file is read.
        process = subprocess.Popen([BIN, "serve"], env=env, cwd=data_dir, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"

    def stop():
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        shutil.rmtree(data_dir, ignore_errors=True)

    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            stop()
            pytest.fail(f"the {name} server exited early:\n{log_path.read_text(errors='replace')[-3000:]}", pytrace=False)
        try:
            with urllib.request.urlopen(base + "/api/v1/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if time.monotonic() > deadline:
            stop()
            pytest.fail(f"the {name} server gave no /api/v1/health answer within 60 s", pytrace=False)
        time.sleep(0.1)
    try:
        yield base
    finally:
        stop()
ARTIFACTS = ROOT / "artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
BASE_URL = os.environ.get("FLASHCARDS_BASE_URL", "").rstrip("/")
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
PASSWORD = "richtig-geheim-42"

# Console messages that are the expected side effect of a tested error path, not a bug:
# Chromium logs every 4xx answer of fetch() as "Failed to load resource", and a push subscription
# in a test's browser context (which is incognito, where Chromium has no Push API and logs why;
# the page cannot detect it beforehand) as "Chrome currently does not support the Push API …".
EXPECTED_CONSOLE = ("Failed to load resource", "Chrome currently does not support the Push API in incognito mode")

METRICS: dict = {}


def pytest_configure(config):
    if not BASE_URL:
        raise pytest.UsageError("Set FLASHCARDS_BASE_URL (scripts/test-web does this).")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)


def pytest_sessionfinish(session, exitstatus):
    if not METRICS:
        return
    path = ARTIFACTS / "web-metrics.json"
    existing = {}
    if path.exists():
        try:
            existing = json.loads(path.read_text())
        except ValueError:
            existing = {}
    existing.update(METRICS)
    existing["measuredAt"] = datetime.now().astimezone().isoformat(timespec="seconds")
    path.write_text(json.dumps(existing, indent=2, ensure_ascii=False) + "\n")
    print("\nweb metrics:", json.dumps(METRICS, indent=2, ensure_ascii=False))


def daytime_zone() -> str:
    """A time zone where it is now between 07:00 and 19:00, so that a card rated "easy"
    (10 minutes) is certainly due again before the end of the learner's day."""
    candidates = ["Europe/Berlin", "America/New_York", "America/Los_Angeles", "Asia/Tokyo",
                  "Pacific/Auckland", "Asia/Kolkata", "Pacific/Honolulu", "Atlantic/Azores"]
    for name in candidates:
        if 7 <= datetime.now(ZoneInfo(name)).hour < 19:
            return name
    return "Europe/Berlin"


@pytest.fixture(scope="session")
def base_url() -> str:
    return BASE_URL


@pytest.fixture(scope="session")
def browser() -> Browser:
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        yield browser
        browser.close()


@dataclass
class Watch:
    """Problems seen while a test ran."""

    errors: list
    foreign: list


def _watch(context: BrowserContext, page: Page, base_url: str = BASE_URL) -> Watch:
    watch = Watch(errors=[], foreign=[])

    def on_console(msg):
        if msg.type == "error" and not msg.text.startswith(EXPECTED_CONSOLE):
            watch.errors.append(f"console: {msg.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: watch.errors.append(f"pageerror: {exc}"))

    def on_request(request):
        url = request.url
        if not (url.startswith(base_url) or url.startswith("data:") or url.startswith("blob:")):
            watch.foreign.append(url)

    context.on("request", on_request)
    return watch


@pytest.fixture
def make_page(browser: Browser):
    """Factory: a fresh context and page with the given locale, viewport and options (`base_url`:
    another server than the one of the run, e.g. one with a language model)."""
    opened = []

    def factory(locale="de-DE", viewport=None, base_url=BASE_URL, **options) -> Page:
        options.setdefault("timezone_id", daytime_zone())
        options.setdefault("viewport", viewport or {"width": 1280, "height": 860})
        context = browser.new_context(
            base_url=base_url,
            locale=locale,
            extra_http_headers={"Accept-Language": f"{locale},{locale.split('-')[0]};q=0.9"},
            **options,
        )
        context.set_default_timeout(10_000)
        page = context.new_page()
        watch = _watch(context, page, base_url)
        opened.append((context, page, watch))
        return page

    yield factory
    problems = []
    for context, _page, watch in opened:
        problems += watch.errors
        problems += [f"request to another host: {u}" for u in watch.foreign]
        context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def page(make_page) -> Page:
    return make_page()


def shot(page: Page, name: str) -> None:
    """Saves a full-page screenshot as artifacts/screenshots/<name>.png."""
    page.wait_for_timeout(120)  # let transitions settle so the image shows the final state
    page.evaluate("scrollTo(0, 0)")  # a sticky header would otherwise be painted mid-page
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def unique_mail(prefix: str = "lerner") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.org"


def api(page: Page, method: str, path: str, body=None, token: str | None = None, base_url: str | None = None):
    """Calls /api/v1 directly (for test setup), returns (status, json)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = page.request.fetch(f"{base_url or BASE_URL}/api/v1{path}", method=method, data=body, headers=headers)
    text = response.text()
    return response.status, (json.loads(text) if text else None)


def make_stack(page: Page, token: str, name: str, cards: int = 0, colour: str = "#2563EB",
               created_at: str | None = None, **extra) -> dict:
    """A stack made through the API with `cards` cards ("<name> Frage n" / "Antwort n"); the cards
    are in `stack["cards"]`. `extra` goes into the stack's body (e.g. `scheduler="ladder"`);
    `created_at` makes the cards as if made offline then (so that a history of that time can be
    synced: a review may not be older than its card)."""
    status, stack = api(page, "POST", "/stacks", {"name": name, "color": colour, **extra}, token=token)
    assert status == 201, stack
    stack["cards"] = []
    for i in range(cards):
        body = {"question": f"{name} Frage {i + 1}", "answer": f"Antwort {i + 1}"}
        if created_at:
            body["createdAt"] = created_at
        status, card = api(page, "POST", f"/stacks/{stack['id']}/cards", body, token=token)
        assert status == 201, card
        stack["cards"].append(card)
    return stack


def signup_via_api(page: Page, name: str = "Mara Beispiel", tz: str | None = None,
                   base_url: str | None = None) -> dict:
    """Creates an account and returns {mail, token, user}."""
    mail = unique_mail()
    status, body = api(page, "POST", "/auth/signup",
                       {"name": name, "mail": mail, "password": PASSWORD, "timeZone": tz or daytime_zone()},
                       base_url=base_url)
    assert status == 201, body
    return {"mail": mail, "token": body["token"], "user": body["user"]}


def sign_in_storage(page: Page, account: dict) -> None:
    """Puts the session into localStorage as the login page would."""
    page.goto("/")
    page.evaluate(
        "([t, u]) => { localStorage.setItem('fc.token', t); localStorage.setItem('fc.user', JSON.stringify(u)); }",
        [account["token"], account["user"]],
    )


def fail_once(page: Page, url: re.Pattern, status: int = 500, code: str = "internal",
              message: str = "Interner Fehler", method: str | None = None) -> dict:
    """Answers the first matching request (of `method`, when given) with an error, lets the rest
    through; returns the counter ({"left": 0} once the failure was served)."""
    failing = {"left": 1}

    def once(route):
        if failing["left"] and (method is None or route.request.method == method):
            failing["left"] -= 1
            route.fulfill(status=status, content_type="application/json",
                          body=json.dumps({"message": message, "code": code}))
        else:
            route.continue_()

    page.route(url, once)
    return failing


def now_ms() -> float:
    return time.perf_counter() * 1000

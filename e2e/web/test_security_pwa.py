"""User text is only ever text; the CSP is in force; the app is an installable PWA whose
service worker caches the shell but never API answers; dark mode; keyboard focus."""

from __future__ import annotations

import re
import struct

from playwright.sync_api import Page, expect

from conftest import api, shot, sign_in_storage, signup_via_api

EVIL = '<img src=x onerror="window.__pwned=1">"><script>window.__pwned=2</script>'


def test_user_text_is_rendered_as_text(page: Page):
    account = signup_via_api(page, name='<b id="evil-name">Mallory</b>')
    status, stack = api(page, "POST", "/stacks", {"name": EVIL, "color": "#DC2626"}, token=account["token"])
    assert status == 201
    api(page, "POST", f"/stacks/{stack['id']}/cards",
        {"question": EVIL, "answer": "<i>kursiv?</i>", "hint": "<u>Tipp</u>"}, token=account["token"])
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    expect(page.locator("a.stack-card")).to_contain_text(EVIL)
    expect(page.locator("app-header")).to_contain_text('<b id="evil-name">Mallory</b>')
    page.locator("a.stack-card").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(EVIL)
    expect(page.locator(".cards-table tbody")).to_contain_text(EVIL)
    page.get_by_role("link", name="Jetzt lernen").click()
    expect(page.locator("#study-lead")).to_contain_text(EVIL)
    page.get_by_role("button", name="Los geht’s").click()
    expect(page.locator("flip-card [data-question]")).to_have_text(EVIL)
    page.get_by_role("button", name="Hinweis anzeigen").click()
    expect(page.locator("[data-hint-text]")).to_have_text("<u>Tipp</u>")
    page.keyboard.press("Space")
    expect(page.locator("flip-card [data-answer]")).to_have_text("<i>kursiv?</i>")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#evil-name, flip-card img, flip-card i, main script").count() == 0


def test_csp_header_on_pages_and_assets(page: Page):
    for path in ("/", "/app/stacks", "/app/stacks/123/learn", "/assets/js/app.js", "/api/v1/health"):
        response = page.request.get(path)
        assert response.ok, path
        csp = response.headers.get("content-security-policy", "")
        assert "default-src 'self'" in csp, (path, csp)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, (path, csp)
    shell = page.request.get("/app/stacks/abc/cards/def")
    assert shell.ok and '<script type="module" src="/assets/js/app.js">' in shell.text()


def test_no_inline_scripts_styles_or_handlers_in_static_html(page: Page):
    for path in ("/", "/app/stacks"):
        html = page.request.get(path).text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), path
        assert not re.search(r"\son[a-z]+=", html), path
        assert " style=" not in html and "<style" not in html, path


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_manifest_and_icons(page: Page):
    page.goto("/app/login")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.request.get(href).json()
    assert manifest["display"] == "standalone"
    assert manifest["start_url"].startswith("/app")
    assert manifest["scope"] == "/"
    sizes = {}
    for icon in manifest["icons"]:
        data = page.request.get(icon["src"]).body()
        w, h = _png_size(data)
        assert icon["sizes"] == f"{w}x{h}"
        sizes.setdefault(icon.get("purpose", "any"), set()).add(w)
    assert {192, 512} <= sizes["any"] and {192, 512} <= sizes["maskable"]


def test_service_worker_caches_shell_not_api(page: Page):
    account = signup_via_api(page)
    api(page, "POST", "/stacks", {"name": "Offline", "color": "#059669"}, token=account["token"])
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    expect(page.locator("a.stack-card")).to_have_count(1)
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope.rstrip("/") == page.url.split("/app")[0]
    page.reload()  # now controlled by the worker
    expect(page.locator("a.stack-card")).to_have_count(1)
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    cached = page.evaluate("""async () => {
        const urls = [];
        for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
        }
        return urls;
    }""")
    assert "/app.html" in cached and "/assets/js/app.js" in cached
    assert not [u for u in cached if u.startswith("/api/")]
    # Offline, the shell still starts and says so, with a retry button (a stack without cards
    # leaves nothing to study offline; test_offline.py covers studying).
    page.context.set_offline(True)
    page.goto("/app/stacks")
    expect(page.get_by_role("heading", level=1)).to_have_text("Deine Stapel")
    expect(page.locator(".offline-overview")).to_contain_text("Offline –")
    expect(page.locator("#net-status")).to_contain_text("Offline")
    shot(page, "60-offline")
    expect(page.get_by_role("button", name="Erneut versuchen")).to_be_visible()
    # Back online, the library loads again by itself.
    page.context.set_offline(False)
    expect(page.locator("a.stack-card")).to_have_count(1)


def test_dark_mode(make_page):
    page = make_page(color_scheme="dark")
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": "Nachtschicht", "color": "#7C3AED"}, token=account["token"])
    api(page, "POST", f"/stacks/{stack['id']}/cards", {"question": "Dunkel?", "answer": "Ja."}, token=account["token"])
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    expect(page.locator("a.stack-card")).to_have_count(1)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(11, 18, 32)"
    shot(page, "61-dark-dashboard")
    page.goto(f"/app/stacks/{stack['id']}/learn")
    expect(page.locator("flip-card [data-question]")).to_have_text("Dunkel?")
    page.keyboard.press("Space")
    expect(page.locator("#ratings")).to_be_visible()
    page.wait_for_timeout(600)
    shot(page, "62-dark-learn")


def test_keyboard_only_with_visible_focus(page: Page):
    account = signup_via_api(page)
    api(page, "POST", "/stacks", {"name": "Tastatur", "color": "#2563EB"}, token=account["token"])
    sign_in_storage(page, account)
    # Every answer is in (the header renders once more when the settings arrive, which would move
    # the focus away in the middle of the walk).
    page.goto("/app/stacks", wait_until="networkidle")
    expect(page.locator("a.stack-card")).to_have_count(1)
    page.keyboard.press("Tab")
    expect(page.locator(".skip-link")).to_be_focused()
    expect(page.locator(".skip-link")).to_be_visible()
    # Tab through the page until the stack card has focus; every stop shows a focus outline.
    for _ in range(12):
        page.keyboard.press("Tab")
        outline = page.evaluate("(() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]; })()")
        assert outline[0] != "none" and outline[1] != "0px", page.evaluate("document.activeElement.outerHTML")
        if page.evaluate("document.activeElement.matches('a.stack-card')"):
            break
    else:
        raise AssertionError("the stack card was not reachable with Tab")
    shot(page, "63-keyboard-focus")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Tastatur")
    expect(page.get_by_role("heading", level=1)).to_be_focused()  # focus moves to the new page


def test_flip_respects_reduced_motion(make_page):
    transforms = {}
    for motion in ("no-preference", "reduce"):
        page = make_page(reduced_motion=motion)
        account = signup_via_api(page)
        status, stack = api(page, "POST", "/stacks", {"name": "Bewegung", "color": "#059669"}, token=account["token"])
        api(page, "POST", f"/stacks/{stack['id']}/cards", {"question": "Q", "answer": "A"}, token=account["token"])
        sign_in_storage(page, account)
        page.goto(f"/app/stacks/{stack['id']}/learn")
        expect(page.locator("flip-card [data-question]")).to_have_text("Q")
        page.keyboard.press("Space")
        expect(page.locator("flip-card [data-answer]")).to_have_text("A")
        page.wait_for_timeout(700)
        transforms[motion] = page.locator("flip-card .flip-inner").evaluate("el => getComputedStyle(el).transform")
        expect(page.locator("flip-card .face-back")).to_be_visible()
    assert transforms["no-preference"].startswith("matrix3d")  # rotated by the flip
    assert transforms["reduce"] == "none"  # cross-fade only

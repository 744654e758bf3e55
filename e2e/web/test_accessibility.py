"""WCAG 2.2 AA: axe-core on every screen, and what axe cannot check.

One browser context per viewport (desktop 1280 px, phone 390 px) and appearance (the system's
light and dark scheme through the context's `color_scheme`, and the dark "Glas") walks every
screen of the app, signed out and in, with a session's answer revealed in each mode; axe-core
(axe-playwright-python) runs on each and no critical or serious violation may be left. The counts
per screen go to artifacts/web-metrics.json ("axe"). The accent themes are checked through their
colour pairs in every appearance and with axe on the screens that show the accent most.

By hand, as tests: 2.4.11 a focused element is never hidden under the sticky header, 2.5.8 every
target is at least 24 × 24 px (or an inline link in text), 2.5.7 the feed and the match game work
without dragging, 3.3.8 password fields take paste and say what they hold (autocomplete).
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from conftest import METRICS, api, shot, signup_via_api, sign_in_storage

AXE = Axe()
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
BLOCKING = ("critical", "serious")
THEMES = ["meadow", "dusk", "aurora", "ocean", "gold"]


def _ready(page: Page) -> None:
    """The screen is drawn: a heading, no loading state, fonts and transitions settled."""
    expect(page.locator("h1").first).to_be_visible()
    expect(page.locator("main .state-loading, main .skeleton")).to_have_count(0)
    page.evaluate("document.fonts.ready")
    # Transitions (0.3 s at most) settle; with reduced motion they take 0.01 ms.
    if not page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches"):
        page.wait_for_timeout(300)


def _axe(page: Page) -> dict:
    """Runs axe-core on the page: counts per impact, and the blocking violations in words."""
    # Every rule axe runs by default (WCAG 2.0-2.2 A/AA and best practices), and 2.5.8's
    # target-size, which it leaves off by default.
    results = AXE.run(page, options={"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}).response
    counts = {impact: 0 for impact in ("critical", "serious", "moderate", "minor")}
    blocking, others = [], []
    for violation in results["violations"]:
        impact = violation.get("impact") or "minor"
        counts[impact] = counts.get(impact, 0) + len(violation["nodes"])
        others.append(f"{violation['id']} ({impact})")
        if impact in BLOCKING:
            for node in violation["nodes"][:4]:
                blocking.append(f"{violation['id']} ({impact}) {node['target']}: {node.get('failureSummary', '')[:160]}")
    return {"counts": counts, "blocking": blocking, "ids": others}


# Interactive elements smaller than 24 × 24 px (WCAG 2.5.8), unless inline in a sentence, or a
# control whose label wraps it and is large enough (the label is the target then), or hidden.
SMALL_TARGETS = """
() => {
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [tabindex]:not([tabindex="-1"])';
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.closest('[inert], [hidden], .visually-hidden') || el.matches('.skip-link')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    let r = el.getBoundingClientRect();
    // A stretched link (its ::after covers the card around it) is as large as that card.
    const after = getComputedStyle(el, '::after');
    if (after.content !== 'none' && after.position === 'absolute' && el.offsetParent) r = el.offsetParent.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (style.display === 'inline' && el.matches('a') && el.parentElement && /^(P|LI|SPAN|TD|DD)$/.test(el.parentElement.tagName)) continue;
    const label = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
    if (label && el.matches('input')) {
      const l = label.getBoundingClientRect();
      if (l.width >= 24 && l.height >= 24) continue;
    }
    if (r.width + 0.5 < 24 || r.height + 0.5 < 24) {
      out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${[...el.classList].join('.')} ${Math.round(r.width)}×${Math.round(r.height)} "${(el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30)}"`);
    }
  }
  return out;
}
"""


def _setup(page: Page) -> dict:
    """An account with a stack of six cards with hints, a share link, and a reviewed card
    (so statistics have something to draw)."""
    account = signup_via_api(page, name="Alex Barriere")
    token = account["token"]
    status, stack = api(page, "POST", "/stacks", {"name": "Biologie", "color": "#059669"}, token=token)
    assert status == 201, stack
    cards = [("Was ist Osmose?", "Diffusion durch eine Membran", "Denk an Wasser"),
             ("Was ist ein Enzym?", "Ein Biokatalysator", "Es beschleunigt"),
             ("Was ist DNA?", "Träger der Erbinformation", "Doppelhelix"),
             ("Was ist ATP?", "Energieträger der Zelle", "Adenosin"),
             ("Was ist ein Ribosom?", "Ort der Proteinsynthese", "Proteine"),
             ("Was ist Mitose?", "Kernteilung", "Zellteilung")]
    for question, answer, hint in cards:
        body = {"question": question, "answer": answer}
        if hint:
            body["hint"] = hint
        status, card = api(page, "POST", f"/stacks/{stack['id']}/cards", body, token=token)
        assert status == 201, card
    status, link = api(page, "POST", f"/stacks/{stack['id']}/share", token=token)
    assert status == 201, link
    return {"account": account, "stack": stack, "shared": link["path"]}


def _screens(page: Page, data: dict):
    """Yields (name) once each screen is ready, signed out first, then signed in."""
    sid = data["stack"]["id"]
    page.goto("/")
    expect(page.locator("h1")).to_be_visible()
    yield "landing"
    for path, name in (("/app/login", "login"), ("/app/register", "register"), ("/app/forgot", "forgot"),
                       (data["shared"], "shared")):
        page.goto(path)
        _ready(page)
        yield name
    sign_in_storage(page, data["account"])
    for path, name in (("/app/welcome", "welcome"), ("/app/home", "home"), ("/app/stacks", "library"),
                       ("/app/stacks/new", "stack-new"), (f"/app/stacks/{sid}/edit", "stack-edit"),
                       (f"/app/stacks/{sid}", "stack-detail"), (f"/app/stacks/{sid}/cards/new", "card-form"),
                       (f"/app/stacks/{sid}/study", "study-setup")):
        page.goto(path)
        _ready(page)
        yield name
    # Flashcards: the hint shown, then the answer revealed (the front with its hint button hidden).
    page.goto(f"/app/stacks/{sid}/learn?mode=flashcards&size=all")
    _ready(page)
    expect(page.locator("flip-card [data-question]")).not_to_be_empty()
    expect(page.locator("flip-card [data-hint]")).to_be_visible()
    yield "learn-flashcards-question"
    page.keyboard.press("Space")
    expect(page.locator("#ratings")).to_be_visible()
    page.wait_for_timeout(600)  # the flip's 0.5 s
    yield "learn-flashcards-answer"
    page.goto(f"/app/stacks/{sid}/learn?mode=quiz&size=all")
    _ready(page)
    page.locator("#choices .choice").first.click()
    expect(page.locator(".choice.is-correct")).to_have_count(1)
    yield "learn-quiz-answer"
    page.goto(f"/app/stacks/{sid}/learn?mode=write&size=all")
    _ready(page)
    page.locator("#answer-input").fill("Zellkern")
    page.keyboard.press("Enter")
    expect(page.locator(".write-result")).to_be_visible()
    yield "learn-write-answer"
    page.goto(f"/app/stacks/{sid}/feed?size=all")
    _ready(page)
    page.locator("#feed-flip").click()
    expect(page.locator("#feed-answer")).to_be_visible()
    yield "feed"
    page.goto(f"/app/stacks/{sid}/match")
    _ready(page)
    yield "match-intro"
    page.locator("#match-start").click()
    expect(page.locator("#board .tile").first).to_be_visible()
    page.locator("#board .tile").first.click()
    yield "match-board"
    for path, name in ((f"/app/stacks/{sid}/create", "create"), ("/app/import", "import"),
                       ("/app/stats", "stats"), (f"/app/stacks/{sid}/stats", "stack-stats"),
                       ("/app/settings", "settings"), ("/app/leaderboard", "leaderboard"),
                       ("/app/explore", "explore"), ("/app/does-not-exist", "not-found")):
        page.goto(path)
        _ready(page)
        yield name


COMBOS = [
    ("desktop", "light", None), ("desktop", "dark", None), ("desktop", "dark", "glass"),
    ("phone", "light", None), ("phone", "dark", None), ("phone", "dark", "glass"),
]


@pytest.mark.parametrize("viewport,scheme,appearance", COMBOS,
                         ids=[f"{v}-{appearance or scheme}" for v, scheme, appearance in COMBOS])
def test_axe_finds_nothing_serious_on_any_screen(make_page, viewport, scheme, appearance):
    # The phone walks ask for reduced motion (the flip card cross-fades), the desktop ones do not
    # (it turns in 3-D, its hidden face still laid out).
    page = make_page(viewport=DESKTOP if viewport == "desktop" else PHONE, color_scheme=scheme,
                     reduced_motion="reduce" if viewport == "phone" else "no-preference")
    data = _setup(page)
    if appearance:
        page.goto("/")
        page.evaluate("(a) => localStorage.setItem('fc.appearance', a)", appearance)
    key = f"{viewport}-{appearance or scheme}"
    counts, problems, small = {}, [], []
    for screen in _screens(page, data):
        if appearance:
            assert page.evaluate("document.documentElement.dataset.appearance") == appearance, screen
        result = _axe(page)
        counts[screen] = result["counts"]
        if result["ids"]:
            print(f"\naxe {key} {screen}: {', '.join(result['ids'])}")
        problems += [f"{screen}: {line}" for line in result["blocking"]]
        if not appearance:
            small += [f"{screen}: {line}" for line in page.evaluate(SMALL_TARGETS)]
        if screen in ("home", "learn-flashcards-answer", "stack-detail", "settings") and viewport == "phone":
            shot(page, f"a11y-{key}-{screen}")
    METRICS.setdefault("axe", {})[key] = counts
    print(f"\naxe {key}: " + ", ".join(f"{s} {c['critical']}/{c['serious']}/{c['moderate']}/{c['minor']}"
                                         for s, c in counts.items()))
    assert len(counts) >= 28, counts.keys()
    assert not problems, "\n".join(problems)
    assert not small, "targets under 24 × 24 px:\n" + "\n".join(small)


# --- colour pairs of every appearance and accent theme -----------------------------------------

RESOLVE = """
(names) => {
  const probe = document.createElement('span');
  document.body.append(probe);
  const out = {};
  for (const name of names) {
    probe.style.color = `var(${name})`;
    out[name] = getComputedStyle(probe).color;
  }
  probe.remove();
  return out;
}
"""

TOKENS = ["--primary", "--primary-hover", "--primary-text", "--primary-soft", "--on-primary", "--magic", "--magic-hover",
          "--on-magic", "--danger", "--danger-text", "--danger-soft", "--on-danger", "--success", "--success-soft",
          "--info-soft", "--info-text", "--bg", "--surface", "--surface-2", "--surface-3", "--text", "--text-2", "--muted"]

# (text, background, minimum): the pairs the screens use for text.
PAIRS = [
    ("--on-primary", "--primary", 4.5), ("--on-primary", "--primary-hover", 4.5), ("--on-magic", "--magic", 4.5),
    ("--on-danger", "--danger", 4.5), ("--primary-text", "--surface", 4.5), ("--primary-text", "--bg", 4.5),
    ("--primary-text", "--primary-soft", 4.5), ("--magic-hover", "--surface", 4.5), ("--danger-text", "--danger-soft", 4.5),
    ("--danger-text", "--surface", 4.5), ("--success", "--success-soft", 4.5), ("--success", "--surface", 4.5),
    ("--info-text", "--info-soft", 4.5), ("--text", "--surface", 4.5), ("--text-2", "--surface", 4.5),
    ("--text-2", "--surface-2", 4.5), ("--muted", "--surface", 4.5), ("--muted", "--surface-2", 4.5), ("--muted", "--bg", 4.5),
    ("--text-2", "--surface-3", 4.5), ("--primary", "--surface", 3.0),  # the accent as a border or icon
]

# One layer of the Glas mesh as the browser reports it (body::before's background-image).
MESH_LAYER = re.compile(r"radial-gradient\(([\d.]+)vmax at ([\d.]+)% ([\d.]+)%, rgba\((\d+), (\d+), (\d+), ([\d.]+)\), rgba\([^)]*, 0\)\)")


def _mesh_layers(page: Page) -> list:
    """The mesh's layers, top first: (r, g, b, alpha at the centre, radius in vmax, x %, y %);
    each one's alpha falls linearly to 0 at its radius."""
    image = page.evaluate("getComputedStyle(document.body, '::before').backgroundImage")
    layers = [(int(r), int(g), int(b), float(a), float(radius), float(x), float(y))
              for radius, x, y, r, g, b, a in MESH_LAYER.findall(image)]
    assert len(layers) == 3 and image.count("radial-gradient") == 3, image
    return layers


def _mesh_brightest(mesh: list, width: int, height: int) -> tuple:
    """The brightest colour of the mesh anywhere in a viewport (sampled every 10 px)."""
    best, best_lum = (0.0, 0.0, 0.0, 1.0), -1.0
    vmax = max(width, height) / 100
    for x in range(0, width + 1, 10):
        for y in range(0, height + 1, 10):
            colour = (0.0, 0.0, 0.0, 1.0)
            for r, g, b, alpha, radius, cx, cy in reversed(mesh):
                d = ((x - cx * width / 100) ** 2 + (y - cy * height / 100) ** 2) ** 0.5
                colour = _over((r, g, b, alpha * max(0.0, 1 - d / (radius * vmax))), colour)
            if _lum(colour) > best_lum:
                best, best_lum = colour, _lum(colour)
    return best


def _rgba(text: str) -> tuple:
    numbers = [float(n) for n in re.findall(r"[\d.]+", text)]
    if text.startswith("color(srgb"):
        numbers = [n * 255 for n in numbers[:3]] + numbers[3:]
    return (*numbers[:3], numbers[3] if len(numbers) > 3 else 1.0)


def _over(top: tuple, below: tuple) -> tuple:
    a = top[3]
    return tuple(top[i] * a + below[i] * (1 - a) for i in range(3)) + (1.0,)


def _lum(c: tuple) -> float:
    def ch(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])


def _contrast(a: tuple, b: tuple) -> float:
    hi, lo = sorted((_lum(a), _lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_colour_pairs_pass_in_every_appearance_and_theme(make_page):
    page = make_page(color_scheme="light")
    page.goto("/")
    failures, checked = [], 0
    page.evaluate("localStorage.setItem('fc.appearance', 'glass')")
    page.reload()
    layers = _mesh_layers(page)
    meshes = [_mesh_brightest(layers, **DESKTOP), _mesh_brightest(layers, **PHONE)]
    assert all(_lum(m) > 0.02 for m in meshes)  # the mesh is there: brighter than black
    for appearance in ("light", "dark", "glass"):
        for theme in [None, *THEMES]:
            page.evaluate("""([a, t]) => {
                window.fcAppearance(a);  // as the settings do (Glas brings glass.css)
                if (t) document.documentElement.dataset.theme = t; else delete document.documentElement.dataset.theme;
                return Promise.all(['/assets/css/themes.css', '/assets/css/glass.css'].map((href) => {
                  let l = document.querySelector(`link[href="${href}"]`);
                  if (l && l.sheet) return null;
                  if (!l) { l = document.createElement('link'); l.rel = 'stylesheet'; l.href = href; document.head.append(l); }
                  return new Promise((r) => l.addEventListener('load', r));
                }));
            }""", [appearance, theme])
            colours = {k: _rgba(v) for k, v in page.evaluate(RESOLVE, TOKENS).items()}
            # What a panel sits on: the page's background, and in Glas also the mesh at its peak.
            backdrops = [colours["--bg"]] + (meshes if appearance == "glass" else [])
            for backdrop in backdrops:
                surface = _over(colours["--surface"], backdrop)

                def background(name):
                    if name == "--bg":
                        return backdrop
                    colour = colours[name]
                    if name.startswith("--surface"):
                        return _over(colour, backdrop)
                    return _over(colour, surface) if colour[3] < 1 else colour

                for fg, bg, minimum in PAIRS:
                    under = background(bg)
                    text = colours[fg]
                    ratio = _contrast(_over(text, under) if text[3] < 1 else text, under)
                    checked += 1
                    if ratio < minimum:
                        failures.append(f"{appearance}/{theme or 'standard'}: {fg} on {bg} {ratio:.2f} < {minimum}")
    METRICS["colourPairsChecked"] = checked
    assert checked > 300
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("scheme,appearance", [("light", None), ("dark", None), ("dark", "glass")])
def test_accent_themes_pass_axe(make_page, scheme, appearance):
    """The five accent themes on the screens that show the accent most (a stack's page with its
    buttons and due pill, the study setup's chosen mode): no critical or serious violation."""
    page = make_page(color_scheme=scheme, reduced_motion="reduce")
    data = _setup(page)
    sign_in_storage(page, data["account"])
    if appearance:
        page.evaluate("(a) => localStorage.setItem('fc.appearance', a)", appearance)
    sid = data["stack"]["id"]
    problems, counts = [], {}
    for theme in THEMES:
        for path in (f"/app/stacks/{sid}", f"/app/stacks/{sid}/study"):
            page.goto(path)
            _ready(page)
            page.evaluate("(t) => import('/assets/js/account.js').then((m) => m.applyTheme(t))", theme)
            expect(page.locator("html")).to_have_attribute("data-theme", theme)
            page.wait_for_timeout(100)
            result = _axe(page)
            counts[f"{theme} {path.split('/')[-1]}"] = result["counts"]["serious"] + result["counts"]["critical"]
            problems += [f"{theme} {path}: {line}" for line in result["blocking"]]
    METRICS.setdefault("axeThemes", {})[appearance or scheme] = counts
    assert not problems, "\n".join(problems)


# --- 2.4.11 focus not obscured -------------------------------------------------------------------

FOCUS_CLEAR = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body || el.matches('.skip-link')) return null;  // the skip link lies above the header
  const header = document.querySelector('app-header');
  if (header.contains(el)) return null;
  const r = el.getBoundingClientRect();
  const h = header.getBoundingClientRect();
  const sticky = getComputedStyle(header).position === 'sticky';
  return {name: (el.getAttribute('aria-label') || el.textContent || el.id || el.tagName).trim().slice(0, 40),
          top: r.top, bottom: r.bottom, headerBottom: sticky ? h.bottom : 0, height: innerHeight};
}
"""


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 640}, {"width": 390, "height": 700}], ids=["desktop", "phone"])
def test_focus_is_never_hidden_under_the_sticky_header(make_page, viewport):
    page = make_page(viewport=viewport)
    data = _setup(page)
    sign_in_storage(page, data["account"])
    sid = data["stack"]["id"]
    for path in ("/app/settings", f"/app/stacks/{sid}/edit"):
        page.goto(path)
        _ready(page)
        seen = 0
        # Forward to the end of the page, then back up (Shift+Tab brings each element in from above,
        # where the sticky header is).
        for key in ["Tab"] * 60 + ["Shift+Tab"] * 60:
            page.keyboard.press(key)
            box = page.evaluate(FOCUS_CLEAR)
            if not box:
                continue
            seen += 1
            assert box["top"] >= box["headerBottom"] - 1, f"{path} {key}: {box}"
            assert box["bottom"] <= box["height"] + 1, f"{path} {key}: {box}"
        assert seen > 30


# --- 2.5.7 dragging: the feed and the match game without a drag -------------------------------

def test_feed_and_match_work_without_dragging(make_page):
    page = make_page(viewport=PHONE, has_touch=True, is_mobile=True)
    data = _setup(page)
    sign_in_storage(page, data["account"])
    sid = data["stack"]["id"]
    token = data["account"]["token"]
    # Feed: every swipe has a button (flip, bookmark, understood, next, back).
    page.goto(f"/app/stacks/{sid}/feed?size=all")
    _ready(page)
    first = page.locator("#feed-question").inner_text()
    page.locator("#feed-bookmark").tap()
    expect(page.locator("#feed-bookmark")).to_have_attribute("aria-pressed", "true")
    page.locator("#feed-flip").tap()
    expect(page.locator("#feed-answer")).to_be_visible()
    page.locator("#feed-good").tap()
    expect(page.locator("#feed-question")).not_to_have_text(first)
    page.locator("#feed-prev").tap()
    expect(page.locator("#feed-question")).to_have_text(first)
    page.locator("#feed-next").tap()
    expect(page.locator("#feed-question")).not_to_have_text(first)
    status, cards = api(page, "GET", f"/stacks/{sid}/cards?bookmarked=true", token=token)
    assert status == 200
    items = cards["items"] if isinstance(cards, dict) else cards
    assert [c["question"] for c in items] == [first]
    # Match: tiles are buttons; the keyboard alone clears the board.
    page.goto(f"/app/stacks/{sid}/match")
    _ready(page)
    page.locator("#match-start").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#board .tile").first).to_be_focused()
    tiles = page.locator("#board .tile")
    answers = {q: a for q, a, *_ in [("Was ist Osmose?", "Diffusion durch eine Membran"), ("Was ist ein Enzym?", "Ein Biokatalysator"),
                                     ("Was ist DNA?", "Träger der Erbinformation"), ("Was ist ATP?", "Energieträger der Zelle"),
                                     ("Was ist ein Ribosom?", "Ort der Proteinsynthese"), ("Was ist Mitose?", "Kernteilung")]}
    for _ in range(12):
        if not page.locator("#board .tile:not([disabled])").count():
            break
        labels = [tiles.nth(i).get_attribute("aria-label") for i in range(tiles.count())]
        enabled = [tiles.nth(i).is_enabled() for i in range(tiles.count())]
        q = next(i for i, label in enumerate(labels) if enabled[i] and any(label.endswith(": " + k) for k in answers))
        question = labels[q].split(": ", 1)[1]
        a = next(i for i, label in enumerate(labels) if enabled[i] and label.endswith(": " + answers[question]))
        for index in (q, a):
            tiles.nth(index).focus()
            page.keyboard.press("Enter")
    expect(page.locator(".match-result")).to_be_visible()


# --- 3.3.8 accessible authentication -------------------------------------------------------------

PASTE = """
(el) => {
  const data = new DataTransfer();
  data.setData('text/plain', 'aus-dem-passwortmanager');
  const event = new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true});
  return el.dispatchEvent(event);  // false when a handler refused the paste
}
"""


def test_password_fields_take_paste_and_name_their_purpose(make_page):
    page = make_page()
    expected = {"/app/login": {"#mail": "username", "#password": "current-password"},
                "/app/register": {"#mail": "email", "#password": "new-password", "#name": "name"},
                "/app/reset?token=" + "x" * 43: {"#password": "new-password", "#repeat": "new-password"}}
    for path, fields in expected.items():
        page.goto(path)
        _ready(page)
        for selector, purpose in fields.items():
            field = page.locator(selector)
            expect(field).to_have_attribute("autocomplete", purpose)
            assert field.evaluate(PASTE), f"{path} {selector} refuses paste"
            field.focus()
            page.keyboard.insert_text("eingefügt-123")  # what a paste types
            assert "eingefügt-123" in field.input_value()
    # Signed in: changing the password takes the current one from a password manager too.
    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.goto("/app/settings")
    _ready(page)
    for selector, purpose in (("#current-password", "current-password"), ("#new-password", "new-password")):
        expect(page.locator(selector)).to_have_attribute("autocomplete", purpose)
        assert page.locator(selector).evaluate(PASTE)
    assert page.locator("input[autocomplete=username]").count() == 1

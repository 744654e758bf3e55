"""Settings "Darstellung" (Hell / Dunkel / System / Glas): chosen by keyboard, shown at once,
kept per device across reloads and applied before the first paint, System following the browser's
colour scheme, the Glas look (black, the mesh, blurred translucent panels) with opaque panels
under prefers-reduced-transparency, the accent themes alongside, English labels."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from conftest import shot, signup_via_api, sign_in_storage

LIGHT_BG = "rgb(245, 247, 246)"
DARK_BG = "rgb(11, 18, 32)"
BLACK = "rgb(0, 0, 0)"

# Records <html data-appearance> when <body> first appears, i.e. before any module script ran and
# before the first paint.
AT_FIRST_BODY = """
window.__appearanceAtBody = 'not seen';
new MutationObserver((records, observer) => {
  if (!document.body) return;
  window.__appearanceAtBody = document.documentElement.getAttribute('data-appearance');
  window.__glassSheetAtBody = Boolean(document.querySelector('link[href="/assets/css/glass.css"][blocking=render]'));
  observer.disconnect();
}).observe(document, {childList: true, subtree: true});
"""


PRIMARY_IS = """(colour) => {
  const probe = document.createElement('span');
  probe.style.color = 'var(--primary)';
  document.body.append(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value === colour;
}"""


def background(page: Page, expected: str | None = None) -> str:
    """The body's computed background (waiting for `expected`: a stylesheet may still load)."""
    if expected:
        page.wait_for_function("(c) => getComputedStyle(document.body).backgroundColor === c", arg=expected)
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def radio(page: Page, name: str):
    return page.get_by_role("group", name="Darstellung").get_by_role("radio", name=name, exact=True)


def open_settings(page: Page) -> None:
    page.goto("/app/settings")
    expect(page.get_by_role("heading", name="Darstellung")).to_be_visible()


def test_appearance_by_keyboard_persists_and_applies_before_the_first_paint(make_page):
    page = make_page(color_scheme="light")
    page.context.add_init_script(AT_FIRST_BODY)
    account = signup_via_api(page)
    sign_in_storage(page, account)
    open_settings(page)
    for name in ("Hell", "Dunkel", "System", "Glas"):
        expect(radio(page, name)).to_be_visible()
    expect(radio(page, "System")).to_be_checked()
    assert background(page, LIGHT_BG) == LIGHT_BG

    # Keyboard: Tab reaches the checked option, the arrow keys choose.
    radio(page, "System").focus()
    page.keyboard.press("ArrowLeft")
    expect(radio(page, "Dunkel")).to_be_checked()
    expect(page.locator("html")).to_have_attribute("data-appearance", "dark")
    assert background(page, DARK_BG) == DARK_BG
    page.reload()
    expect(radio(page, "Dunkel")).to_be_checked()
    assert background(page, DARK_BG) == DARK_BG
    assert page.evaluate("window.__appearanceAtBody") == "dark"
    shot(page, "appearance-dark-settings")

    radio(page, "Dunkel").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(radio(page, "Glas")).to_be_checked()
    assert background(page, BLACK) == BLACK
    page.reload()
    expect(radio(page, "Glas")).to_be_checked()
    assert page.evaluate("window.__appearanceAtBody") == "glass"
    assert page.evaluate("window.__glassSheetAtBody")  # glass.css holds the first paint back
    assert background(page, BLACK) == BLACK
    # The mesh behind everything and panels that blur it.
    mesh = page.evaluate("getComputedStyle(document.body, '::before').backgroundImage")
    assert mesh.count("radial-gradient") == 3, mesh
    for colour in ("191, 90, 242", "10, 132, 255", "255, 55, 95"):
        assert colour in mesh, mesh
    panel = page.locator(".panel").first
    assert "blur" in panel.evaluate("el => getComputedStyle(el).backdropFilter")
    assert panel.evaluate("el => getComputedStyle(el).backgroundColor").startswith("rgba(")
    # The purple accent.
    expect(page.locator(".theme-option:has(input:checked)").first).to_have_css("border-color", "rgb(191, 90, 242)")
    shot(page, "appearance-glass-settings")

    # Every page of this device, the landing page too.
    page.goto("/")
    assert background(page, BLACK) == BLACK
    page.goto("/app/home")
    expect(page.locator("h1")).to_be_visible()
    assert background(page, BLACK) == BLACK
    shot(page, "appearance-glass-home")

    # Hell over a dark system.
    page.emulate_media(color_scheme="dark")
    open_settings(page)
    radio(page, "Hell").check()
    assert background(page, LIGHT_BG) == LIGHT_BG
    page.reload()
    expect(radio(page, "Hell")).to_be_checked()
    assert background(page, LIGHT_BG) == LIGHT_BG


def test_system_follows_the_browser_and_other_tabs_follow(make_page):
    page = make_page(color_scheme="dark")
    account = signup_via_api(page)
    sign_in_storage(page, account)
    open_settings(page)
    expect(radio(page, "System")).to_be_checked()
    assert background(page, DARK_BG) == DARK_BG
    page.emulate_media(color_scheme="light")
    assert background(page, LIGHT_BG) == LIGHT_BG
    page.emulate_media(color_scheme="dark")
    assert background(page, DARK_BG) == DARK_BG
    radio(page, "Hell").check()
    assert background(page, LIGHT_BG) == LIGHT_BG
    radio(page, "System").check()
    assert background(page, DARK_BG) == DARK_BG
    assert page.evaluate("localStorage.getItem('fc.appearance')") is None

    # A second tab of the same browser takes the choice without a reload.
    other = page.context.new_page()
    other.emulate_media(color_scheme="dark")
    other.goto("/app/home")
    expect(other.locator("h1")).to_be_visible()
    assert background(other, DARK_BG) == DARK_BG
    radio(page, "Glas").check()
    expect(other.locator("html")).to_have_attribute("data-appearance", "glass")
    assert background(other, BLACK) == BLACK
    other.close()


def test_glass_is_opaque_with_reduced_transparency_and_still_with_reduced_motion(make_page):
    page = make_page(color_scheme="dark", reduced_motion="reduce")
    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.evaluate("localStorage.setItem('fc.appearance', 'glass')")
    open_settings(page)
    panel = page.locator(".panel").first
    assert "blur" in panel.evaluate("el => getComputedStyle(el).backdropFilter")
    # Reduced motion: nothing in the glass look moves.
    assert page.evaluate("getComputedStyle(document.body, '::before').animationName") == "none"
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-transparency", "value": "reduce"}]})
    assert page.evaluate("matchMedia('(prefers-reduced-transparency: reduce)').matches")
    # (Chromium's emulation does not restyle the open page's descendants: the page is loaded again
    # as on a device with the preference.)
    open_settings(page)
    panel = page.locator(".panel").first
    assert panel.evaluate("el => getComputedStyle(el).backdropFilter") == "none"
    assert panel.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(28, 28, 30)"
    assert page.evaluate("getComputedStyle(document.body, '::before').display") == "none"
    assert background(page, BLACK) == BLACK
    shot(page, "appearance-glass-opaque")


def test_accent_theme_works_alongside_each_appearance(make_page):
    page = make_page(color_scheme="light")
    account = signup_via_api(page)
    sign_in_storage(page, account)
    open_settings(page)
    page.evaluate("import('/assets/js/account.js').then((m) => m.applyTheme('dusk'))")
    expect(page.locator("html")).to_have_attribute("data-theme", "dusk")
    expected = {"Hell": "rgb(124, 58, 237)", "Dunkel": "rgb(167, 139, 250)", "Glas": "rgb(167, 139, 250)"}
    for name, colour in expected.items():
        radio(page, name).check()
        page.wait_for_function(PRIMARY_IS, arg=colour)
    # Without the theme, Glas has its purple.
    page.evaluate("import('/assets/js/account.js').then((m) => m.applyTheme(null))")
    page.wait_for_function(PRIMARY_IS, arg="rgb(191, 90, 242)")


def test_english_labels(make_page):
    page = make_page(locale="en-US")
    account = signup_via_api(page)
    sign_in_storage(page, account)
    page.goto("/app/settings")
    group = page.get_by_role("group", name="Appearance")
    expect(page.get_by_role("heading", name="Appearance")).to_be_visible()
    for name in ("Light", "Dark", "System", "Glass"):
        expect(group.get_by_role("radio", name=name, exact=True)).to_be_visible()
    group.get_by_role("radio", name="Glass", exact=True).check()
    assert background(page, BLACK) == BLACK

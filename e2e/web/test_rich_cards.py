"""Rich cards (issue 20): Markdown and formulas rendered in learning and in the editor's preview,
KaTeX served by our server, and no script from a card ever running, whatever its fields hold."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from conftest import api, shot, sign_in_storage, signup_via_api

RICH = {
    "question": "Was besagt das **2. Newtonsche Gesetz**?",
    "answer": "Kraft ist Masse mal Beschleunigung: $F = m \\cdot a$\n\n| Größe | Einheit |\n|---|---|\n| F | N |\n\n- gilt für *konstante* Masse",
    "hint": "Denk an `F`",
    "format": "markdown",
}
# Every field, rich and plain, in Markdown and in LaTeX: whatever runs sets window.__pwned.
PAYLOADS = [
    '<img src=x onerror="window.__pwned=1">',
    '"><script>window.__pwned=2</script>',
    "**<svg onload=\"window.__pwned=3\">**",
    "$\\href{javascript:window.__pwned=4}{klick}$",
    "$\\htmlId{pwned}{x}$ $\\url{javascript:window.__pwned=5}$",
    "| <iframe src=\"javascript:window.__pwned=6\"> |\n|---|\n| x |",
    "```\n</code></pre><script>window.__pwned=7</script>\n```",
    "[klick](javascript:window.__pwned=8)",
]


def _stack_with(page: Page, token: str, cards: list[dict], name: str = "Physik") -> dict:
    status, stack = api(page, "POST", "/stacks", {"name": name, "color": "#2563EB"}, token=token)
    assert status == 201
    for card in cards:
        status, _ = api(page, "POST", f"/stacks/{stack['id']}/cards", card, token=token)
        assert status == 201, card
    return stack


def test_rich_card_is_rendered_while_learning_with_katex(page: Page):
    account = signup_via_api(page)
    stack = _stack_with(page, account["token"], [RICH])
    sign_in_storage(page, account)
    katex = []
    page.on("requestfinished", lambda request: katex.append(request.url) if "/vendor/katex/" in request.url else None)
    page.goto(f"/app/stacks/{stack['id']}/study")
    page.get_by_role("button", name="Los geht’s").click()
    question = page.locator("flip-card [data-question]")
    expect(question.locator("strong")).to_have_text("2. Newtonsche Gesetz")
    page.get_by_role("button", name="Hinweis anzeigen").click()
    expect(page.locator("[data-hint-text] code")).to_have_text("F")
    page.keyboard.press("Space")
    answer = page.locator("flip-card [data-answer]")
    # The formula is typeset by KaTeX (MathML: no inline styles under the CSP), its LaTeX kept.
    expect(answer.locator(".math math")).to_have_count(1)
    expect(answer.locator(".math")).to_have_attribute("data-latex", "F = m \\cdot a")
    expect(answer.locator("table th")).to_have_text(["Größe", "Einheit"])
    expect(answer.locator("li em")).to_have_text("konstante")
    assert any(url.endswith("/assets/vendor/katex/katex.min.js") for url in katex), katex
    shot(page, "rich-card-answer")
    # Rating still works from the keyboard.
    page.keyboard.press("4")
    expect(page.get_by_role("heading", name="Toll gemacht!")).to_be_visible()


def test_no_card_field_ever_runs_a_script(page: Page):
    account = signup_via_api(page)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    cards = []
    for payload in PAYLOADS:
        for format in ("markdown", "plain"):
            cards.append({"question": payload, "answer": payload, "hint": payload, "format": format})
    stack = _stack_with(page, account["token"], cards, name=PAYLOADS[0])
    sign_in_storage(page, account)

    page.goto(f"/app/stacks/{stack['id']}")
    expect(page.locator(".cards-table tbody tr")).to_have_count(len(cards))
    page.goto(f"/app/stacks/{stack['id']}/study")
    page.get_by_role("button", name="Los geht’s").click()
    for _ in range(len(cards)):
        card = page.locator("flip-card")
        expect(card.locator("[data-question]")).not_to_be_empty()
        if page.get_by_role("button", name="Hinweis anzeigen").is_visible():
            page.get_by_role("button", name="Hinweis anzeigen").click()
        card.locator("[data-question]").click()  # reveals
        expect(card.locator("[data-answer]")).not_to_be_empty()
        page.wait_for_timeout(50)  # KaTeX typesets after the text is in
        assert page.evaluate("window.__pwned") is None
        texts = card.locator(":is([data-question], [data-answer], [data-hint-text])")
        assert texts.locator(":is(img, svg, iframe, script, a, [id=pwned], [onerror], [onload])").count() == 0
        page.keyboard.press("4")
    expect(page.get_by_role("heading", name="Toll gemacht!")).to_be_visible()

    # The feed shows them too; the editor shows the sources as they were written.
    page.goto(f"/app/stacks/{stack['id']}/feed")
    expect(page.locator("#feed-question")).not_to_be_empty()
    _, listed = api(page, "GET", f"/stacks/{stack['id']}/cards?perPage=100", token=account["token"])
    first = listed["items"][0]
    page.goto(f"/app/stacks/{stack['id']}/cards/{first['id']}")
    expect(page.get_by_label("Vorderseite")).to_have_value(first["question"])
    page.wait_for_timeout(400)  # the preview has rendered
    assert page.evaluate("window.__pwned") is None and dialogs == []
    assert page.locator("#preview img, #preview svg, #preview iframe, #preview script, #preview a").count() == 0


def test_editor_writes_a_rich_card_with_a_preview_by_keyboard(page: Page):
    account = signup_via_api(page)
    stack = _stack_with(page, account["token"], [])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/cards/new")
    preview = page.locator("#preview")
    expect(preview).to_be_hidden()
    page.get_by_label("Vorderseite").fill("Was ist **Mitose**?")
    page.get_by_label("Rückseite").fill("Kernteilung: $2n \\to 2n$\n\n- Prophase\n- Metaphase")
    # The option by keyboard: Tab to it, Space ticks it.
    page.get_by_label("Hinweis (optional)").focus()
    page.keyboard.press("Tab")
    expect(page.get_by_label("Formatierung und Formeln")).to_be_focused()
    page.keyboard.press("Space")
    expect(preview).to_be_visible()
    expect(preview.get_by_text("Vorschau")).to_be_visible()
    expect(page.locator("#preview-question strong")).to_have_text("Mitose")
    expect(page.locator("#preview-answer li")).to_have_text(["Prophase", "Metaphase"])
    expect(page.locator("#preview-answer .math math")).to_have_count(1)
    shot(page, "rich-card-editor")
    page.get_by_label("Vorderseite").press("Enter")
    expect(page.get_by_role("status").filter(has_text="Karteikarte gespeichert")).to_be_visible()
    _, listed = api(page, "GET", f"/stacks/{stack['id']}/cards", token=account["token"])
    card = listed["items"][0]
    assert card["format"] == "markdown" and card["question"] == "Was ist **Mitose**?"
    # The next card is written the same way; editing keeps the option and can switch it off.
    expect(page.get_by_label("Formatierung und Formeln")).to_be_checked()
    page.goto(f"/app/stacks/{stack['id']}/cards/{card['id']}")
    expect(page.get_by_label("Formatierung und Formeln")).to_be_checked()
    page.get_by_label("Formatierung und Formeln").uncheck()
    expect(preview).to_be_hidden()
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_role("status").filter(has_text="Karteikarte gespeichert")).to_be_visible()
    _, again = api(page, "GET", f"/stacks/{stack['id']}/cards/{card['id']}", token=account["token"])
    assert again["format"] == "plain" and again["rendered"] is None


def test_editor_preview_in_english_and_when_it_fails(make_page):
    page = make_page(locale="en-US")
    account = signup_via_api(page)
    stack = _stack_with(page, account["token"], [])
    sign_in_storage(page, account)
    page.evaluate("localStorage.setItem('fc.lang', 'en')")
    page.route("**/api/v1/render", lambda route: route.fulfill(status=503, body="{}", content_type="application/json"))
    page.goto(f"/app/stacks/{stack['id']}/cards/new")
    page.get_by_label("Formatting and formulas").check()
    expect(page.locator("#preview-status")).to_have_text("Your card appears here as you write.")
    page.get_by_label("Front").fill("**x**")
    expect(page.locator("#preview-status")).to_have_text(
        "The preview is not available right now. Saving still works.")


def test_leaving_the_editor_while_typing_stops_its_preview(page: Page):
    """The router's clean-up contract, also after a retry of the page: the preview waits for a pause
    in typing; a learner who leaves within that pause leaves no timer behind that would still ask the
    server to render the card."""
    from conftest import fail_once
    import re

    account = signup_via_api(page)
    stack = _stack_with(page, account["token"], [])
    sign_in_storage(page, account)
    # From the stack's page (so that going back to it needs nothing new from the network), into the
    # form, whose first load fails: "Erneut versuchen" mounts it again.
    page.goto(f"/app/stacks/{stack['id']}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Physik")
    fail_once(page, re.compile(rf".*/api/v1/stacks/{stack['id']}$"), method="GET")
    page.locator(f"a[href='/app/stacks/{stack['id']}/cards/new']").first.click()
    page.get_by_role("button", name="Erneut versuchen").click()
    page.get_by_label("Formatierung und Formeln").check()
    expect(page.locator("#preview-status")).to_have_text("Hier erscheint deine Karte, sobald du schreibst.")
    renders: list[str] = []
    page.on("request", lambda request: renders.append(request.url) if request.url.endswith("/api/v1/render") else None)
    # Type and leave in the same task: the preview's pause (250 ms) has not passed yet.
    page.evaluate("""(url) => {
        const field = document.getElementById('question');
        field.value = 'Was ist **Mitose**?';
        field.dispatchEvent(new Event('input', { bubbles: true }));
        document.querySelector(`.breadcrumb a[href="${url}"]`).click();
    }""", f"/app/stacks/{stack['id']}")
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"))
    page.wait_for_timeout(1000)
    assert renders == [], renders

"""Formulas and Markdown wherever a card appears (issue 33, point 3): quiz choices, match tiles, the
feed, the cards table and its search results, Explore's previews and entry page, a shared page and
write mode's right answer show a rich card rendered (formulas typeset by KaTeX, on one line where
the place is compact); labels, titles and announcements get clean words (no LaTeX source)."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from conftest import api, shot, sign_in_storage, signup_via_api
from test_offline import local, wait_until

# Four rich cards: formulas in every answer and in three questions, one answer a formula and a list.
PHYSICS = [
    {"question": "Formel der kinetischen Energie $E_{kin}$?", "answer": "$E_{kin}=\\frac{1}{2}mv^2$"},
    {"question": "Was sagt **Einstein**?", "answer": "$E=mc^2$\n\n- E: Energie\n- m: Masse"},
    {"question": "Zweites Newtonsches Gesetz für $F$?", "answer": "$F = m \\cdot a$"},
    {"question": "Impuls $p$?", "answer": "$p = m \\cdot v$"},
]
EINSTEIN_LINE = "E=mc² · E: Energie · m: Masse"


def _physics(page: Page, token: str, name: str = "Physik") -> dict:
    status, stack = api(page, "POST", "/stacks", {"name": name, "color": "#2563EB"}, token=token)
    assert status == 201
    for card in PHYSICS:
        status, _ = api(page, "POST", f"/stacks/{stack['id']}/cards", {**card, "format": "markdown"}, token=token)
        assert status == 201
    return stack


def _inner_texts(page: Page, selector: str) -> list[str]:
    """What the learner reads (innerText: a formula's LaTeX annotation is not shown)."""
    return page.eval_on_selector_all(selector, "els => els.map((el) => el.innerText)")


def _no_latex(texts: list[str]) -> None:
    for text in texts:
        assert "\\" not in text and "$" not in text and "^" not in text and "{" not in text, text


def _wait_for_local_copy(page: Page, cards: int) -> None:
    """The library refreshes the local copy a moment after it is shown."""
    page.goto("/app/stacks")
    wait_until(lambda: local(page, "if (!store || !(await store.meta('refreshedAt'))) return 0; let n = 0; "
                                   "for (const s of await store.stacks()) n += (await store.cards(s.id)).length; "
                                   "return n;") == cards, what="the local copy")


def test_quiz_choices_show_formulas_rendered(make_page):
    page = make_page()
    account = signup_via_api(page)
    stack = _physics(page, account["token"])
    sign_in_storage(page, account)
    _wait_for_local_copy(page, len(PHYSICS))
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=quiz&size=all")
    choices = page.locator("#choices .choice-text")
    expect(choices).to_have_count(4)
    # Every choice is a rich card's answer: typeset (MathML), never its LaTeX source.
    expect(page.locator("#choices .choice-text.rich-line math")).to_have_count(4)
    _no_latex(_inner_texts(page, "#choices .choice-text"))
    assert any("E: Energie · m: Masse" in text for text in _inner_texts(page, "#choices .choice-text"))
    # Compact: each choice stays a button of a few lines at most.
    for box in [c.bounding_box() for c in page.locator("#choices .choice").all()]:
        assert box["height"] < 120, box
    shot(page, "rich-quiz-choices")

    # A wrong pick: the right answer is named in clean words, the buttons' labels too.
    _, quiz = api(page, "GET", f"/stacks/{stack['id']}/study/quiz", token=account["token"])
    wrong = (quiz["correctIndex"] + 1) % 4
    page.locator("#choices .choice").nth(wrong).click()
    feedback = page.locator("#feedback")
    expect(feedback).not_to_be_empty()
    labels = [page.locator("#choices .choice").nth(i).get_attribute("aria-label") for i in (wrong, quiz["correctIndex"])]
    _no_latex([feedback.inner_text(), *labels])
    assert re.search(r"(Eₖᵢₙ=1/2 mv²|E=mc²|F = m · a|p = m · v)", feedback.inner_text()), feedback.inner_text()


def test_quiz_in_english_on_a_phone(make_page):
    page = make_page(locale="en-US", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    account = signup_via_api(page)
    stack = _physics(page, account["token"], name="Physics")
    sign_in_storage(page, account)
    _wait_for_local_copy(page, len(PHYSICS))
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=quiz&size=all")
    expect(page.locator("#choices .choice-text.rich-line math")).to_have_count(4)
    _no_latex(_inner_texts(page, "#choices .choice-text"))
    width = page.evaluate("document.documentElement.clientWidth")
    for box in [c.bounding_box() for c in page.locator("#choices .choice").all()]:
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box
    page.locator("#choices .choice").first.click()
    expect(page.get_by_role("button", name="Continue")).to_be_visible()
    shot(page, "rich-quiz-choices-phone-en")


def test_match_tiles_show_formulas_and_clean_labels(page: Page):
    account = signup_via_api(page)
    stack = _physics(page, account["token"])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/match")
    page.get_by_role("button", name="Start").click()
    tiles = page.locator("#board .tile")
    expect(tiles).to_have_count(8)
    # Seven sides hold a formula (all answers, three questions): each tile shows it typeset.
    expect(page.locator("#board .tile-text math")).to_have_count(7)
    _no_latex(_inner_texts(page, "#board .tile-text"))
    labels = [tile.get_attribute("aria-label") for tile in tiles.all()]
    _no_latex(labels)
    assert f"Antwort: {EINSTEIN_LINE}" in labels, labels
    assert "Frage: Was sagt Einstein?" in labels, labels
    for tile in tiles.all():
        assert tile.bounding_box()["height"] < 140
    shot(page, "rich-match-tiles")


def test_cards_table_and_its_search_render_a_formula_and_a_list(page: Page):
    account = signup_via_api(page)
    stack = _physics(page, account["token"])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}")
    rows = page.locator(".cards-table tbody tr")
    expect(rows).to_have_count(4)
    einstein = rows.filter(has_text="Einstein")
    back = einstein.locator(".col-back .truncate")
    # The formula typeset, the list's items after it, each set apart (not "E=mc^2E: Energiem: Masse").
    expect(back.locator("math")).to_have_count(1)
    expect(back).to_contain_text(" · E: Energie · m: Masse")
    expect(back).to_have_attribute("title", EINSTEIN_LINE)
    expect(einstein.locator(".col-front strong")).to_have_text("Einstein")
    expect(page.locator(".cards-table .col-back math")).to_have_count(4)
    _no_latex(_inner_texts(page, ".cards-table td.col-back, .cards-table td.col-front"))
    # One line per cell; the edit link's label in clean words.
    assert back.bounding_box()["height"] < 40
    expect(einstein.get_by_role("link")).to_have_attribute("aria-label", re.compile(r"Einstein"))
    _no_latex([link.get_attribute("aria-label") for link in page.locator(".cards-table .col-edit a").all()])
    shot(page, "rich-cards-table")

    # Search results are rendered the same way.
    page.locator("#card-search").fill("Impuls")
    expect(rows).to_have_count(1)
    expect(rows.locator(".col-back math")).to_have_count(1)
    expect(rows.locator(".col-front math")).to_have_count(1)
    _no_latex(_inner_texts(page, ".cards-table td.col-back"))


def test_feed_renders_and_labels_in_clean_words(page: Page):
    account = signup_via_api(page)
    stack = _physics(page, account["token"])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/feed")
    expect(page.locator("#feed-question")).not_to_be_empty()
    expect(page.locator("#feed-answer math")).to_have_count(1)
    label = page.locator("#feed-card").get_attribute("aria-label")
    _no_latex([label])
    page.keyboard.press("Space")  # flips: the answer is announced in clean words
    expect(page.locator("#feed-answer")).to_be_visible()
    expect(page.locator("#announce")).to_contain_text(re.compile(r"(Eₖᵢₙ=1/2 mv²|E=mc²|F = m · a|p = m · v)"))
    _no_latex([page.locator("#announce").inner_text()])


def test_explore_previews_entry_and_shared_page_render(make_page):
    tag = uuid.uuid4().hex[:8]
    owner_page = make_page()
    owner = signup_via_api(owner_page)
    stack = _physics(owner_page, owner["token"], name=f"Physik {tag}")
    status, _ = api(owner_page, "PUT", f"/stacks/{stack['id']}/publication",
                    {"category": "science", "language": "de"}, token=owner["token"])
    assert status in (200, 201), status
    status, link = api(owner_page, "POST", f"/stacks/{stack['id']}/share", token=owner["token"])
    assert status == 201

    learner_page = make_page(locale="en-US")
    learner = signup_via_api(learner_page, name="Jonas")
    sign_in_storage(learner_page, learner)
    learner_page.goto(f"/app/explore?q=physik+{tag}&language=all")  # a German stack, an English learner
    card = learner_page.locator(".explore-card")
    expect(card).to_have_count(1)
    preview = card.locator(".explore-preview li")
    expect(preview).to_have_count(3)
    # The preview lines show the questions' formulas typeset and Markdown as formatting.
    expect(card.locator(".explore-preview li math").first).to_be_visible()
    _no_latex(_inner_texts(learner_page, ".explore-preview li"))
    expect(card.locator(".explore-preview strong")).to_have_text("Einstein")
    shot(learner_page, "rich-explore-preview")
    card.get_by_role("link", name=f"Physik {tag}").click()
    expect(learner_page.locator(".shared-card")).to_have_count(4)
    expect(learner_page.locator(".shared-card .shared-answer math")).to_have_count(4)
    expect(learner_page.locator(".shared-card .shared-answer li")).to_have_text(["E: Energie", "m: Masse"])

    visitor = make_page()
    visitor.goto(link["path"])
    expect(visitor.locator(".shared-card")).to_have_count(4)
    expect(visitor.locator(".shared-card .shared-answer math")).to_have_count(4)
    expect(visitor.locator(".shared-card .shared-question strong")).to_have_text("Einstein")
    _no_latex(_inner_texts(visitor, ".shared-card"))


def test_write_mode_shows_the_right_answer_rendered(page: Page):
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": "Physik", "color": "#2563EB"}, token=account["token"])
    api(page, "POST", f"/stacks/{stack['id']}/cards", {**PHYSICS[1], "format": "markdown"}, token=account["token"])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=write&size=all")
    page.get_by_label("Deine Antwort").fill("Relativitätstheorie")
    page.keyboard.press("Enter")
    right = page.locator("#write-expected")
    expect(right.locator("math")).to_have_count(1)
    expect(right).to_contain_text(" · E: Energie · m: Masse")
    _no_latex(_inner_texts(page, "#write-expected"))
    shot(page, "rich-write-expected")

    # "Weiß ich nicht" shows it rendered too, never its Markdown source.
    page.get_by_role("button", name="Weiter").click()
    expect(page.get_by_label("Deine Antwort")).to_be_visible()
    page.get_by_role("button", name="Weiß ich nicht").click()
    expect(page.locator("#write-expected math")).to_have_count(1)
    expect(page.locator("#write-expected")).to_contain_text(" · E: Energie · m: Masse")
    _no_latex(_inner_texts(page, "#write-expected"))


def test_a_rich_multiple_choice_cards_own_choices_are_rendered(page: Page):
    account = signup_via_api(page)
    status, stack = api(page, "POST", "/stacks", {"name": "Analysis", "color": "#2563EB"}, token=account["token"])
    status, card = api(page, "POST", f"/stacks/{stack['id']}/cards", {
        "question": "Ableitung von $\\frac{x^3}{3}$?", "answer": "$x^2$", "format": "markdown",
        "kind": "multipleChoice", "choices": ["$x^3$", "$\\frac{x^2}{2}$", "**keine**"],
    }, token=account["token"])
    assert status == 201, card
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=quiz&size=all")
    expect(page.locator("#choices .choice-text")).to_have_count(4)
    # The right answer and the formulas among its own choices typeset, the bold word bold.
    expect(page.locator("#choices .choice-text math")).to_have_count(3)
    expect(page.locator("#choices .choice-text strong")).to_have_text("keine")
    texts = _inner_texts(page, "#choices .choice-text")
    _no_latex(texts)
    assert not any("*" in text for text in texts), texts

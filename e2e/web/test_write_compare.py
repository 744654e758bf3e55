"""Write mode when the answer is far off (issue 33, point 4): a near miss (the check's typo
tolerance, verdict "close") shows the character diff; an answer far off shows the learner's answer
and the right one one above the other, each named in words (not by colour alone), for screen
readers as a description list. German and English, desktop and phone, light and dark."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from conftest import api, shot, sign_in_storage, signup_via_api

STRINGS = {
    "de": {"label": "Deine Antwort", "yours": "Deine Antwort", "right": "Richtige Antwort",
           "compared": "Deine Antwort im Vergleich:", "expected": "Richtige Antwort:"},
    "en": {"label": "Your answer", "yours": "Your answer", "right": "Correct answer",
           "compared": "Your answer compared:", "expected": "The answer:"},
}


def _one_card_session(page: Page, account: dict, question: str, answer: str) -> None:
    status, stack = api(page, "POST", "/stacks", {"name": "Biologie", "color": "#059669"}, token=account["token"])
    assert status == 201
    status, _ = api(page, "POST", f"/stacks/{stack['id']}/cards", {"question": question, "answer": answer},
                    token=account["token"])
    assert status == 201
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=write&size=all")


def _answer(page: Page, lang: str, typed: str) -> None:
    box = page.get_by_label(STRINGS[lang]["label"], exact=True)
    expect(box).to_be_focused()
    box.fill(typed)
    page.keyboard.press("Enter")


@pytest.mark.parametrize("lang,locale,viewport,scheme", [
    ("de", "de-DE", {"width": 1280, "height": 860}, "light"),
    ("en", "en-US", {"width": 390, "height": 844}, "dark"),
])
def test_an_answer_far_off_is_shown_above_the_right_one(make_page, lang, locale, viewport, scheme):
    page = make_page(locale=locale, viewport=viewport, color_scheme=scheme)
    account = signup_via_api(page)
    sign_in_storage(page, account)
    _one_card_session(page, account, "Wie heißt der Vorgang, in dem Pflanzen Zucker bilden?", "Photosynthese")
    _answer(page, lang, "Chloroplasten")

    expect(page.locator(".verdict-wrong")).to_be_visible()
    # No character diff ("CPhlortoplasynthense"): the two answers, each named, one above the other.
    expect(page.locator("#write-result .diff")).to_have_count(0)
    compare = page.locator("#write-compare")
    expect(compare.get_by_role("term")).to_have_text([STRINGS[lang]["yours"], STRINGS[lang]["right"]])
    expect(compare.get_by_role("definition")).to_have_text(["Chloroplasten", "Photosynthese"])
    yours, right = (row.bounding_box() for row in compare.locator(".compare-row").all())
    assert right["y"] >= yours["y"] + yours["height"] - 1, (yours, right)
    assert abs(right["x"] - yours["x"]) < 1
    # Screen readers read the name before each answer, in order; the learner's text has no language
    # of ours (it is what was typed).
    reading = page.evaluate("""() => [...document.querySelectorAll('#write-compare :is(dt, dd)')]
        .map((el) => el.textContent.trim())""")
    assert reading == [STRINGS[lang]["yours"], "Chloroplasten", STRINGS[lang]["right"], "Photosynthese"]
    expect(compare.locator(".compare-yours dd")).to_have_attribute("lang", "")
    # Not colour alone: each row has its icon (hidden from screen readers) beside its words.
    expect(compare.locator("dt svg[aria-hidden='true']")).to_have_count(2)
    # Going on still works from the keyboard, and the override stays offered.
    expect(page.locator("#override")).to_be_visible()
    expect(page.locator("#continue")).to_be_focused()
    shot(page, f"write-far-off-{lang}-{scheme}")


@pytest.mark.parametrize("lang,locale", [("de", "de-DE"), ("en", "en-US")])
def test_a_near_miss_shows_the_character_diff(make_page, lang, locale):
    page = make_page(locale=locale)
    account = signup_via_api(page)
    sign_in_storage(page, account)
    _one_card_session(page, account, "Wie heißt der Vorgang, in dem Pflanzen Zucker bilden?", "Photosynthese")
    # One letter missing of 13: within the check's tolerance (one edit per five letters).
    _answer(page, lang, "Photosyntese")

    expect(page.locator(".verdict-close")).to_be_visible()
    expect(page.locator("#write-compare")).to_have_count(0)
    expect(page.locator(".diff-label")).to_have_text(STRINGS[lang]["compared"])
    expect(page.locator(".diff .diff-missing")).to_have_text(
        ("fehlt: " if lang == "de" else "missing: ") + "h")
    expect(page.locator("#write-expected")).to_have_text("Photosynthese")
    shot(page, f"write-near-miss-{lang}")


def test_i_dont_know_and_a_right_answer_show_no_comparison(page: Page):
    account = signup_via_api(page)
    sign_in_storage(page, account)
    _one_card_session(page, account, "Hauptstadt von Ungarn?", "Budapest")
    page.get_by_role("button", name="Weiß ich nicht").click()
    expect(page.locator("#write-compare")).to_have_count(0)
    expect(page.locator(".diff")).to_have_count(0)
    expect(page.locator("#write-expected")).to_have_text("Budapest")

"""Card kinds (issue 20): made in the card form (with the keyboard), listed, learned in flashcards,
quiz and write mode, and no script from any of their fields ever running."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import api, shot, sign_in_storage, signup_via_api
from learning import reveal, start_session

XSS = '<img src=x onerror="window.__pwned=1">'


def _stack(page: Page, token: str, name: str = "Biologie") -> dict:
    status, stack = api(page, "POST", "/stacks", {"name": name, "color": "#059669"}, token=token)
    assert status == 201
    return stack


def _cards(page: Page, token: str, stack: dict) -> list[dict]:
    status, body = api(page, "GET", f"/stacks/{stack['id']}/cards?perPage=100", token=token)
    assert status == 200
    return body["items"]


def test_card_form_makes_each_kind_and_checks_it_first(page: Page):
    account = signup_via_api(page)
    stack = _stack(page, account["token"])
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/cards/new")

    # A cloze, its gap made from a selection with Ctrl+Shift+C.
    page.get_by_label("Kartenart").select_option("cloze")
    question = page.get_by_label("Text mit Lücken *")
    expect(page.get_by_text("Lücken schreibst du so", exact=False)).to_be_visible()
    question.fill("Die Mitochondrien sind die Kraftwerke der Zelle.")
    save = page.get_by_role("button", name="Speichern")
    save.click()
    expect(page.locator("#form-error")).to_have_text("Ein Lückentext braucht mindestens eine Lücke wie {{c1::Antwort}}.")
    expect(question).to_be_focused()
    question.evaluate("el => el.setSelectionRange(4, 17)")  # "Mitochondrien"
    page.keyboard.press("Control+Shift+C")
    expect(question).to_have_value("Die {{c1::Mitochondrien}} sind die Kraftwerke der Zelle.")
    question.evaluate("el => el.setSelectionRange(el.value.indexOf('Zelle'), el.value.indexOf('Zelle') + 5)")
    page.get_by_role("button", name="Markierung zur Lücke machen").click()
    expect(question).to_have_value("Die {{c1::Mitochondrien}} sind die Kraftwerke der {{c2::Zelle}}.")
    save.click()
    expect(page.get_by_role("heading", name="Karte gespeichert")).to_be_visible()
    # The next card is of the same kind: change to true/false and judge the statement false.
    expect(page.get_by_label("Kartenart")).to_have_value("cloze")
    page.get_by_label("Kartenart").select_option("trueFalse")
    page.get_by_label("Aussage *").fill("Wale sind Fische.")
    expect(page.get_by_label("Rückseite", exact=True)).to_be_hidden()
    page.get_by_role("radio", name="Falsch").check()
    save.click()
    expect(page.get_by_role("heading", name="Karte gespeichert")).to_be_visible()

    # Multiple choice: the wrong answers one per line; none is said first.
    page.get_by_label("Kartenart").select_option("multipleChoice")
    page.get_by_label("Frage *").fill("Welches Organ pumpt Blut?")
    page.get_by_label("Richtige Antwort *").fill("Herz")
    save.click()
    expect(page.locator("#form-error")).to_have_text("Bitte gib 1 bis 7 falsche Antworten an, eine pro Zeile.")
    page.get_by_label("Falsche Antworten *").fill(f"Lunge\n\nLeber\n{XSS}")
    save.click()
    expect(page.get_by_role("heading", name="Karte gespeichert")).to_be_visible()
    # A wrong answer equal to the right one is said before sending (the server refuses it too).
    page.get_by_label("Frage *").fill("2 + 2?")
    page.get_by_label("Richtige Antwort *").fill("4")
    page.get_by_label("Falsche Antworten *").fill("4")
    save.click()
    expect(page.locator("#form-error")).to_have_text("Jede Antwort darf nur einmal vorkommen.")

    # Fill in the blank needs its blank.
    page.get_by_label("Kartenart").select_option("fillBlank")
    page.get_by_label("Satz mit Lücke *").fill("Pflanzen betreiben Photosynthese.")
    page.get_by_label("Was in die Lücke gehört *").fill("Photosynthese")
    save.click()
    expect(page.locator("#form-error")).to_have_text("Markiere die Lücke mit drei Unterstrichen (___).")
    page.get_by_label("Satz mit Lücke *").fill("Pflanzen betreiben ___ mit Licht.")
    save.click()
    expect(page.get_by_role("heading", name="Karte gespeichert")).to_be_visible()
    shot(page, "card-kinds-form")

    cards = _cards(page, account["token"], stack)
    assert sorted((c["kind"], c["variant"]) for c in cards) == [
        ("cloze", 1), ("cloze", 2), ("fillBlank", 0), ("multipleChoice", 0), ("trueFalse", 0)]
    assert next(c for c in cards if c["kind"] == "trueFalse")["answer"] == "false"
    assert next(c for c in cards if c["kind"] == "multipleChoice")["choices"] == ["Lunge", "Leber", XSS]

    # The list shows each card as it is learned, with its kind named; the kind cannot change.
    page.goto(f"/app/stacks/{stack['id']}")
    expect(page.locator(".pill-kind")).to_have_count(5)
    expect(page.locator(".col-front").filter(has_text="Die […] sind die Kraftwerke der Zelle.")).to_have_count(1)
    cloze = next(c for c in cards if c["kind"] == "cloze" and c["variant"] == 2)
    page.goto(f"/app/stacks/{stack['id']}/cards/{cloze['id']}")
    expect(page.get_by_label("Kartenart")).to_be_disabled()
    expect(page.get_by_text("Die Kartenart lässt sich nach dem Anlegen nicht mehr ändern.", exact=False)).to_be_visible()
    assert page.evaluate("window.__pwned") is None


def test_kinds_are_learned_in_flashcards_quiz_and_write(page: Page):
    account = signup_via_api(page)
    token = account["token"]
    stack = _stack(page, token)
    for card in [
        {"question": "Die {{c1::Mitochondrien}} sind die Kraftwerke der Zelle.", "answer": "", "kind": "cloze"},
    ]:
        assert api(page, "POST", f"/stacks/{stack['id']}/cards", card, token=token)[0] == 201
    sign_in_storage(page, account)

    # Flashcards: the gap hidden on the front, filled on the back.
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=flashcards&size=all")
    expect(page.locator("flip-card [data-question]")).to_have_text("Die […] sind die Kraftwerke der Zelle.")
    reveal(page)
    expect(page.locator("flip-card [data-answer]")).to_have_text("Die Mitochondrien sind die Kraftwerke der Zelle.")

    # Write: the gap is what is typed.
    other = _stack(page, token, "Schreiben")
    for card in [
        {"question": "Pflanzen betreiben ___ mit Licht.", "answer": "Photosynthese", "kind": "fillBlank"},
    ]:
        assert api(page, "POST", f"/stacks/{other['id']}/cards", card, token=token)[0] == 201
    page.goto(f"/app/stacks/{other['id']}/learn?mode=write&size=all")
    box = page.get_by_label("Deine Antwort")
    box.fill("photosynthese")
    page.keyboard.press("Enter")
    expect(page.locator(".verdict")).to_have_text("Richtig!")
    expect(page.locator("flip-card [data-answer]")).to_have_text("Pflanzen betreiben Photosynthese mit Licht.")

    # Quiz: a true/false card offers its two words, a multiple-choice card its own options.
    quiz = _stack(page, token, "Quiz")
    assert api(page, "POST", f"/stacks/{quiz['id']}/cards",
               {"question": "Wale sind Fische.", "answer": "false", "kind": "trueFalse"}, token=token)[0] == 201
    page.goto(f"/app/stacks/{quiz['id']}/learn?mode=quiz&size=all")
    choices = page.locator("#choices .choice .choice-text")
    expect(choices).to_have_text(["Wahr", "Falsch"])
    expect(page.locator("#fewer")).to_be_hidden()
    page.keyboard.press("2")
    expect(page.locator("#feedback")).to_have_text("Richtig!")
    shot(page, "card-kinds-quiz-true-false")

    mc = _stack(page, token, "Auswahl")
    assert api(page, "POST", f"/stacks/{mc['id']}/cards", {
        "question": "Welches Organ pumpt Blut?", "answer": "Herz", "kind": "multipleChoice",
        "choices": ["Lunge", XSS, "Niere"]}, token=token)[0] == 201
    page.goto(f"/app/stacks/{mc['id']}/learn?mode=quiz&size=all")
    expect(choices).to_have_count(4)
    texts = choices.all_inner_texts()
    assert sorted(texts) == sorted(["Herz", "Lunge", XSS, "Niere"]), texts
    page.keyboard.press(str(texts.index(XSS) + 1))
    expect(page.locator("#feedback")).to_have_text("Noch nicht ganz – das war’s: Herz")
    assert page.evaluate("window.__pwned") is None


def test_true_false_in_english(make_page):
    page = make_page(locale="en-US")
    account = signup_via_api(page)
    stack = _stack(page, account["token"], "Quiz")
    assert api(page, "POST", f"/stacks/{stack['id']}/cards",
               {"question": "Whales are fish.", "answer": "false", "kind": "trueFalse"}, token=account["token"])[0] == 201
    sign_in_storage(page, account)
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=quiz&size=all")
    expect(page.locator("#choices .choice .choice-text")).to_have_text(["True", "False"])
    page.goto(f"/app/stacks/{stack['id']}/learn?mode=flashcards&size=all")
    page.get_by_role("button", name="Show answer").click()
    expect(page.locator("flip-card [data-answer]")).to_have_text("False")


def test_sides_computed_offline_match_the_servers(page: Page):
    """An offline edit shows the sides the browser computes (offline/sides.js): they must equal the
    server's for every kind, variant and format."""
    account = signup_via_api(page)
    token = account["token"]
    stack = _stack(page, token, "Seiten")
    made = [
        {"question": "Hund", "answer": "dog", "kind": "reversed"},
        {"question": "{{c1::Paris}} liegt an der {{c2::Seine::Fluss}}, {{c1::seit 52 v. Chr.}}.", "answer": "", "kind": "cloze"},
        {"question": "{{c1::a {{b}} c}} und {{c3::**fett**}}", "answer": "Extra *kursiv*", "kind": "cloze", "format": "markdown"},
        {"question": "Wale sind Fische.", "answer": "false", "kind": "trueFalse"},
        {"question": "Sonne ist ein Stern.", "answer": "true", "kind": "trueFalse"},
        {"question": "2 + 2?", "answer": "4", "kind": "multipleChoice", "choices": ["3", "5"]},
        {"question": "Wasser kocht bei _____ °C.", "answer": "100", "kind": "fillBlank"},
        {"question": "Die ___ ist rund.", "answer": "Erde", "kind": "fillBlank", "format": "markdown"},
        {"question": "Einfach", "answer": "basic"},
    ]
    for card in made:
        assert api(page, "POST", f"/stacks/{stack['id']}/cards", card, token=token)[0] == 201, card
    cards = _cards(page, token, stack)
    assert len(cards) == 12
    sign_in_storage(page, account)
    page.goto("/app/stacks")
    computed = page.evaluate(
        """async (cards) => {
          const { cardSides } = await import('/assets/js/offline/sides.js');
          return cards.map((card) => cardSides(card));
        }""",
        cards,
    )
    for card, sides in zip(cards, computed):
        if card["kind"] == "basic":
            assert sides is None and card["shown"] is None
            continue
        assert sides["question"] == card["shown"]["question"], (card, sides)
        assert sides["answer"] == card["shown"]["answer"], (card, sides)
        if card["format"] == "plain":
            assert sides["expected"] == card["shown"]["expected"], (card, sides)

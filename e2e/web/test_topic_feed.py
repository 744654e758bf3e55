"""Topics with a language model: the endless topic feed (issue 17).

A second server runs with FLASHCARDS_LLM_BASE_URL/FLASHCARDS_LLM_MODEL pointing at a fake
OpenAI-compatible model (fake_llm.py, in this process), so that the page words itself after the
model, offers topics and "Weiter vertiefen", and each batch really goes through the server's model
client, its JSON schema and its duplicate checks. The server binary is FLASHCARDS_BIN (default
.build/debug/flashcards), started like e2e/api/conftest.py does.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from conftest import api, extra_server, shot, sign_in_storage, signup_via_api
from fake_llm import MODEL, FakeLLM

@pytest.fixture(scope="module")
def fake_llm():
    with FakeLLM() as llm:
        yield llm


@pytest.fixture(scope="module")
def model_server(fake_llm) -> str:
    """`flashcards serve` with the fake model; yields its base URL."""
    with extra_server("model", {
        "FLASHCARDS_LLM_BASE_URL": fake_llm.base_url, "FLASHCARDS_LLM_MODEL": MODEL,
        "FLASHCARDS_LLM_MAX_RETRIES": "0",
    }) as base:
        yield base


def _signed_in(make_page, base: str, locale: str = "de-DE"):
    page = make_page(locale=locale, base_url=base)
    account = signup_via_api(page, base_url=base)
    status, stack = api(page, "POST", "/stacks", {"name": "Biologie", "color": "#059669"},
                        token=account["token"], base_url=base)
    assert status == 201, stack
    sign_in_storage(page, account)
    return page, account, stack


def test_the_model_is_named_and_topics_are_offered(make_page, model_server):
    page, account, stack = _signed_in(make_page, model_server)
    status, info = api(page, "GET", "/generation", base_url=model_server)
    assert status == 200 and info["generator"] == "model" and info["model"] == MODEL and info["topics"] is True
    page.goto(f"/app/stacks/{stack['id']}/create")
    expect(page.locator("#magic-lead")).to_have_text(
        f"Lade eine Datei hoch, füge Text ein oder nenne ein Thema. Daraus erstellt das Sprachmodell {MODEL} "
        "Karteikarten – du prüfst sie, bevor sie in deinen Stapel kommen.")
    # A model follows instructions: the field is there.
    expect(page.get_by_label("Eigene Anweisungen (optional)")).to_be_visible()
    page.get_by_role("radio", name="Thema").check()
    expect(page.get_by_label("Thema *")).to_be_visible()
    expect(page.locator("#topic-help")).to_have_text(
        f"Das Sprachmodell {MODEL} erstellt 15 Karten zu deinem Thema. Mit „Weiter vertiefen“ kommen jeweils "
        "15 neue dazu, ohne Wiederholungen.")
    expect(page.locator("#topic-off")).to_have_count(0)
    shot(page, "78-magic-topic-model")


def test_the_topic_feed_goes_deeper_without_repeating_a_question(make_page, model_server, fake_llm):
    page, account, stack = _signed_in(make_page, model_server)
    page.goto(f"/app/stacks/{stack['id']}/create")
    page.get_by_role("radio", name="Thema").check()
    page.get_by_label("Thema *").fill("Zellatmung")
    before = len(fake_llm.card_requests())
    page.get_by_role("button", name="Karten erstellen").click()
    expect(page.locator("#gen-summary")).to_have_text("15 Vorschläge.", timeout=60_000)
    expect(page.locator(".draft")).to_have_count(15)
    expect(page.locator("#drafts-title")).to_be_focused()
    first_batch = page.locator(".draft [data-field=question]").evaluate_all("els => els.map((e) => e.value)")
    assert all("Zellatmung" in q for q in first_batch), first_batch  # the questions follow the request

    # The user's choices in the first batch stay as they are while the next one comes.
    page.get_by_label("Vorschlag 2: Vorderseite").fill("Meine Frage zur Zellatmung?")
    page.get_by_role("checkbox", name="Vorschlag 3 übernehmen").uncheck()
    deeper = page.get_by_role("button", name="Weiter vertiefen (15 neue Karten)")
    expect(deeper).to_be_visible()
    deeper.click()
    expect(page.locator(".draft")).to_have_count(30, timeout=60_000)
    expect(page.locator("#gen-summary")).to_have_text("15 neue Vorschläge.")
    expect(page.locator("#progress-live")).to_have_text("15 neue Vorschläge angefügt.")
    expect(page.get_by_label("Vorschlag 2: Vorderseite")).to_have_value("Meine Frage zur Zellatmung?")
    expect(page.get_by_role("checkbox", name="Vorschlag 3 übernehmen")).not_to_be_checked()
    expect(page.get_by_role("checkbox", name="Vorschlag 16 übernehmen")).to_be_checked()
    questions = page.locator(".draft [data-field=question]").evaluate_all("els => els.map((e) => e.value)")
    assert questions[15:] and not set(questions[15:]) & set(first_batch), questions
    assert len(set(questions)) == 30

    # The second request asked for level 2 and listed the questions made before.
    requests = fake_llm.card_requests()[before:]
    assert len(requests) == 2, len(requests)
    prompt = "\n".join(m["content"] for m in requests[1]["messages"])
    assert "Stufe 2" in prompt and first_batch[0] in prompt

    # And once more: level 3, appended again.
    deeper.click()
    expect(page.locator(".draft")).to_have_count(45, timeout=60_000)
    all_questions = page.locator(".draft [data-field=question]").evaluate_all("els => els.map((e) => e.value)")
    assert len(set(all_questions)) == 45
    shot(page, "79-magic-topic-feed")

    page.locator("#accept").click()  # 44: all but the unchecked one
    expect(page).to_have_url(re.compile(rf"/app/stacks/{stack['id']}$"), timeout=30_000)
    status, cards = api(page, "GET", f"/stacks/{stack['id']}/cards?perPage=100", token=account["token"],
                        base_url=model_server)
    assert status == 200 and cards["total"] == 44, cards["total"]
    stored = {c["question"] for c in cards["items"]}
    assert "Meine Frage zur Zellatmung?" in stored
    assert first_batch[2] not in stored

"""Helpers for driving a learning session in the browser."""

from __future__ import annotations

from playwright.sync_api import Page, expect

# Clicks a rating button inside the page and resolves when the next card's question has been
# written and a frame has been painted (or the completion dialog opened): the user-visible
# latency from click to next card, measured with the page's own clock.
RATE_AND_TIME = """
(index) => new Promise((resolve) => {
  const question = document.querySelector('flip-card [data-question]');
  const dialog = document.getElementById('done');
  const t0 = performance.now();
  const finish = (kind) => { a.disconnect(); b.disconnect();
    requestAnimationFrame(() => {
      const ms = performance.now() - t0;
      // How much of it was the HTTP request (Resource Timing of the rating POST).
      const entry = performance.getEntriesByType('resource').filter((e) => e.name.includes('/study/rate')).pop();
      resolve({kind, ms, requestMs: entry ? entry.duration : null});
    }); };
  const a = new MutationObserver(() => finish('card'));
  const b = new MutationObserver(() => { if (dialog.open) finish('done'); });
  a.observe(question, {childList: true, characterData: true, subtree: true});
  b.observe(dialog, {attributes: true, attributeFilter: ['open']});
  const buttons = document.querySelectorAll('#ratings button');
  buttons[index < 0 ? buttons.length + index : index].click();
})
"""


def start_session(page: Page, mode: str | None = None, size: str | None = None) -> None:
    """On the study setup page (after "Jetzt lernen"): picks the mode and size by their German
    labels when given, and starts the session."""
    expect(page.get_by_role("heading", level=1)).to_have_text("Wie möchtest du lernen?")
    if mode:
        page.get_by_role("radio", name=mode).check()
    if size:
        page.get_by_role("radio", name=size).check()
    page.get_by_role("button", name="Los geht’s").click()


def current_question(page: Page) -> str:
    return page.locator("flip-card [data-question]").inner_text()


def reveal(page: Page) -> None:
    page.keyboard.press("Space")
    expect(page.locator("#ratings")).to_be_visible()


def rate_timed(page: Page, index: int) -> dict:
    """Rates the revealed card with option `index` (0 = first, the worst answer; -1 = last, the
    best), returns {kind, ms, requestMs}."""
    expect(page.locator("#ratings button").nth(index)).to_be_enabled()
    return page.evaluate(RATE_AND_TIME, index)


def learn_until_done(page: Page, max_reviews: int = 80, rating_index: int = -1) -> dict:
    """Reveals and rates every card until the completion dialog opens.
    Returns the questions seen in order and the click-to-next-card latencies."""
    seen, latencies = [], []
    for _ in range(max_reviews):
        if page.locator("#done[open]").count():
            break
        seen.append(current_question(page))
        reveal(page)
        result = rate_timed(page, rating_index)
        if result["kind"] == "done":
            break
        latencies.append(result)
    expect(page.locator("#done")).to_be_visible()
    return {"seen": seen, "latencies": latencies}

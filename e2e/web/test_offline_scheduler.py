"""The browser's scheduler (Public/assets/js/offline/scheduler.js) against the server's.

Cards are rated through `POST /api/v1/reviews` in many seeded random sequences (every rating of
both schedulers, learning and relearning steps, lapses, reviews minutes and many days apart via
`reviewedAt`, in time zones with daylight saving), and after every review the card the server
answers with (its replay of the log) is compared with what the browser module computes from the
card's previous state: `dueAt`, `state`, `step`, `level`, `reviewCount` exactly, `stability` and
`difficulty` to 1e-9 relative (V8's and glibc's `pow`/`exp` may differ in the last bits; no other
tolerance). The rating buttons' intervals (`study/next` options) and the queue (which card is next,
the due count, also in `GET /stacks`) are compared too.
"""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta, timezone

from playwright.sync_api import Page

from conftest import BASE_URL, METRICS, api, signup_via_api

RELATIVE = 1e-9


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def numeric_ids(page: Page, token: str, stack_id: str) -> dict:
    """The cards' numbers (the fuzz seed), as /api/v1 shows them; the original API's stack document
    shows the same ones as `id`."""
    response = page.request.get(f"{BASE_URL}/api/v1/stacks/{stack_id}/cards?perPage=200",
                                headers={"Authorization": f"Bearer {token}"})
    assert response.ok
    numbers = {c["id"]: c["number"] for c in response.json()["items"]}
    original = page.request.get(f"{BASE_URL}/stack/{stack_id}", headers={"Authorization": f"Bearer {token}"})
    assert {c["uniqueId"]: c["id"] for c in original.json()["cards"]} == numbers
    return numbers


def load_module(page: Page) -> None:
    page.goto("/")
    page.evaluate("async () => { window.S = await import('/assets/js/offline/scheduler.js'); }")


COMPUTE = """
([stack, zone, cases]) => cases.map(([card, rating, at, number]) => {
  const scheduler = new S.CardScheduler(stack, { zone });
  return scheduler.apply(card, rating, new Date(at).getTime(), number);
})
"""

FIELDS_EXACT = ("dueAt", "state", "level", "reviewCount", "lastReviewedAt", "firstReviewedAt")


def close(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= RELATIVE * max(abs(a), abs(b))


def compare(server: dict, local: dict) -> list[str]:
    problems = []
    for field in FIELDS_EXACT:
        if server.get(field) != local.get(field):
            problems.append(f"{field}: server {server.get(field)!r}, browser {local.get(field)!r}")
    if server.get("step") != local.get("step"):
        problems.append(f"step: server {server.get('step')!r}, browser {local.get('step')!r}")
    for field in ("stability", "difficulty"):
        if not close(server.get(field), local.get(field)):
            problems.append(f"{field}: server {server.get(field)!r}, browser {local.get(field)!r}")
    return problems


STACKS = [
    ("FSRS Standard", {"scheduler": "fsrs"}),
    ("FSRS drei Schritte", {"scheduler": "fsrs", "learningSteps": [30, 300, 3600], "relearningSteps": [120, 1200],
                            "desiredRetention": 0.8}),
    ("FSRS ein Schritt", {"scheduler": "fsrs", "learningSteps": [600], "relearningSteps": [], "desiredRetention": 0.95}),
    ("FSRS ohne Schritte", {"scheduler": "fsrs", "learningSteps": [], "relearningSteps": [300],
                            "desiredRetention": 0.7}),
    ("Leiter", {"scheduler": "ladder"}),
]


def gaps(rng: random.Random, due: datetime, at: datetime) -> datetime:
    """The next review moment: soon (a learning step), at or after the due time, early, or weeks later."""
    kind = rng.random()
    if kind < 0.3:
        return at + timedelta(seconds=rng.randint(20, 3 * 3600))
    if kind < 0.7:
        return max(due, at) + timedelta(seconds=rng.randint(0, 36 * 3600))
    if kind < 0.85:
        return at + timedelta(days=rng.randint(1, 4), seconds=rng.randint(0, 86_399))
    return at + timedelta(days=rng.randint(10, 90), seconds=rng.randint(0, 86_399))


def run_sequences(page: Page, zone: str, seed: int, cards_per_stack: int) -> dict:
    rng = random.Random(seed)
    account = signup_via_api(page, tz=zone)
    token = account["token"]
    now = datetime.now(timezone.utc)
    created = now - timedelta(days=400)
    compared, problems = 0, []
    for name, settings in STACKS:
        status, stack = api(page, "POST", "/stacks", {"name": name, "color": "#2563EB", **settings}, token=token)
        assert status == 201, stack
        cards = []
        for i in range(cards_per_stack):
            status, card = api(page, "POST", f"/stacks/{stack['id']}/cards",
                               {"question": f"{name} {i}", "answer": f"A {i}", "createdAt": iso(created)}, token=token)
            assert status == 201, card
            cards.append(card)
        numbers = numeric_ids(page, token, stack["id"])
        ratings = ["hard", "medium", "easy"] if settings["scheduler"] == "ladder" else ["again", "hard", "good", "easy"]
        cases, answers = [], []
        for card in cards:
            at = created + timedelta(minutes=rng.randint(1, 600))
            previous = card
            for _ in range(rng.randint(6, 16)):
                if at > now:
                    break
                # Lapses and hard answers often enough to walk through relearning.
                rating = rng.choices(ratings, weights=[3, 2, 4, 2][: len(ratings)])[0]
                status, body = api(page, "POST", "/reviews", {"reviews": [{
                    "id": str(uuid.uuid4()), "cardId": card["id"], "rating": rating,
                    "reviewedAt": iso(at)}]}, token=token)
                assert status == 200, body
                after = body["cards"][0]
                cases.append([previous, rating, iso(at), numbers[card["id"]]])
                answers.append(after)
                previous = after
                at = gaps(rng, parse(after["dueAt"]), at)
        results = page.evaluate(COMPUTE, [stack, zone, cases])
        for (before, rating, at, _), server, local in zip(cases, answers, results):
            compared += 1
            found = compare(server, local)
            if found:
                problems.append(f"{zone} {name} {rating} at {at} from {before.get('state')}/{before.get('step')}: "
                                + "; ".join(found))
        # The rating buttons of the card study/next shows, and the queue, against the server's.
        problems += check_queue(page, token, stack, zone, numbers)
    return {"compared": compared, "problems": problems}


QUEUE = """
([stack, zone, cards, everyCard, now]) => {
  const scheduler = new S.CardScheduler(stack, { zone });
  const at = new Date(now).getTime();
  const picked = scheduler.select(cards, at);
  // The buttons name the load balancer's days (on by default), from every card of the learner.
  const load = picked.card && stack.scheduler !== 'ladder' ? S.dayLoad(everyCard, picked.card, at, { zone }) : null;
  return { id: picked.card && picked.card.id, dueCount: picked.dueCount, nextDueAt: picked.nextDueAt,
           options: picked.card ? scheduler.options(picked.card, at, picked.card.number, load) : [] };
}
"""


def check_queue(page: Page, token: str, stack: dict, zone: str, numbers: dict) -> list[str]:
    problems = []
    _, listing = api(page, "GET", f"/stacks/{stack['id']}/cards?perPage=200", token=token)
    cards = [{**c, "number": numbers[c["id"]]} for c in listing["items"]]
    before = datetime.now(timezone.utc)
    _, nxt = api(page, "GET", f"/stacks/{stack['id']}/study/next", token=token)
    _, stacks = api(page, "GET", "/stacks", token=token)
    mine = next(s for s in stacks if s["id"] == stack["id"])
    every = [c for s in stacks for c in api(page, "GET", f"/stacks/{s['id']}/cards?perPage=200", token=token)[1]["items"]]
    local = page.evaluate(QUEUE, [stack, zone, cards, every, iso(before)])
    server_id = nxt["card"]["id"] if nxt["card"] else None
    if local["id"] != server_id:
        problems.append(f"{stack['name']}: next card server {server_id}, browser {local['id']}")
    if local["dueCount"] != nxt["dueCount"] or mine["dueCount"] != local["dueCount"]:
        problems.append(f"{stack['name']}: due count server {nxt['dueCount']}/{mine['dueCount']}, browser {local['dueCount']}")
    if not nxt["card"] and local["nextDueAt"] != nxt["nextDueAt"]:
        problems.append(f"{stack['name']}: nextDueAt server {nxt['nextDueAt']}, browser {local['nextDueAt']}")
    # The server's "now" lies between our two moments; a second or two apart at most.
    for server, browser in zip(nxt["options"], local["options"]):
        if server["rating"] != browser["rating"] or abs(server["intervalSeconds"] - browser["intervalSeconds"]) > 3:
            problems.append(f"{stack['name']}: option server {server['rating']} {server['intervalSeconds']} s, "
                            f"browser {browser['rating']} {browser['intervalSeconds']} s")
    return problems


def test_browser_scheduler_matches_the_server(page: Page):
    load_module(page)
    total, problems = 0, []
    for zone, seed in (("Europe/Berlin", 7), ("America/Santiago", 11), ("Asia/Kolkata", 23)):
        result = run_sequences(page, zone, seed, cards_per_stack=6)
        total += result["compared"]
        problems += result["problems"]
    METRICS["offlineScheduler"] = {"reviewsCompared": total, "problems": len(problems)}
    print(f"scheduler: {total} reviews compared, {len(problems)} differences")
    assert not problems, "\n".join(problems[:40])
    assert total > 300

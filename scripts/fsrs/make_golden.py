#!/usr/bin/env python3
"""Generate Tests/FlashcardsCoreTests/Fixtures/fsrs-golden.json, the golden vectors for FSRSScheduler.

Reference implementations (exact versions the committed fixture was made with):
    fsrs            == 6.3.2   (py-fsrs, the state machine, steps and due times; float64)
    fsrs-rs-python  == 0.9.3   (fsrs-rs 6.x; memory states in float32, stability capped at 36500)

    python3 -m venv /tmp/fsrs-venv
    /tmp/fsrs-venv/bin/pip install fsrs==6.3.2 fsrs-rs-python==0.9.3
    /tmp/fsrs-venv/bin/python scripts/fsrs/make_golden.py   # run from the repository root

Each sequence starts from a new card and is reviewed with fuzz off. Review times are given
relative to the previous review or to the card's due time, resolved here against py-fsrs' schedule
and written out as absolute times, so the Swift test only replays (rating, time) pairs.

For every review the fixture holds py-fsrs' state, step, stability, difficulty and due, plus the
stability and difficulty fsrs-rs computes for the same (rating, elapsed days) history. py-fsrs does
not cap stability; where its stability exceeds 36500 days the sequence is marked and the expected
stability (and due times from then on) come from fsrs-rs instead.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta, timezone
from importlib.metadata import version
from pathlib import Path

import fsrs
from fsrs import Card, Rating, Scheduler, State
from fsrs_rs_python import FSRS, MemoryState

CAP = 36500.0
START = datetime(2024, 1, 1, 12, 0, 0, tzinfo=timezone.utc)
STATE_NAMES = {State.Learning: "learning", State.Review: "review", State.Relearning: "relearning"}

# A valid non-default parameter vector (roughly what an optimizer returns for a real collection).
CUSTOM_PARAMETERS = [
    0.3, 1.1, 3.2, 10.5, 6.8, 0.6, 2.2, 0.02, 1.6, 0.2, 1.1,
    1.7, 0.08, 0.3, 1.9, 0.45, 2.4, 0.7, 0.2, 0.12, 0.25,
]


def iso(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%S.%f") + "+00:00"


def review_time(card: Card, when) -> datetime:
    """`when`: ("due",) | ("due+", seconds) | ("last+", seconds) | ("ivl", factor) — the latter scales
    the time from the last review to the due time (0.5 = early, 3 = overdue)."""
    if card.last_review is None:
        return START
    kind = when[0]
    if kind == "due":
        return card.due
    if kind == "due+":
        return card.due + timedelta(seconds=when[1])
    if kind == "last+":
        return card.last_review + timedelta(seconds=when[1])
    if kind == "ivl":
        return card.last_review + (card.due - card.last_review) * when[1]
    raise ValueError(when)


def run_sequence(spec: dict) -> dict:
    config = {
        "parameters": list(spec.get("parameters", fsrs.scheduler.DEFAULT_PARAMETERS)),
        "desired_retention": spec.get("retention", 0.9),
        "learning_steps": spec.get("learning_steps", [60, 600]),
        "relearning_steps": spec.get("relearning_steps", [600]),
        "maximum_interval": spec.get("maximum_interval", 36500),
    }
    scheduler = Scheduler(
        parameters=config["parameters"],
        desired_retention=config["desired_retention"],
        learning_steps=[timedelta(seconds=s) for s in config["learning_steps"]],
        relearning_steps=[timedelta(seconds=s) for s in config["relearning_steps"]],
        maximum_interval=config["maximum_interval"],
        enable_fuzzing=False,
    )
    rs = FSRS(config["parameters"])
    card = Card(card_id=1, due=START)
    memory = None
    capped = False
    reviews = []
    for rating_value, when in spec["reviews"]:
        now = review_time(card, when)
        elapsed = (now - card.last_review).days if card.last_review else 0
        rs_states = rs.next_states(memory, config["desired_retention"], max(elapsed, 0))
        chosen = [rs_states.again, rs_states.hard, rs_states.good, rs_states.easy][rating_value - 1]
        memory = MemoryState(chosen.memory.stability, chosen.memory.difficulty)
        card, _ = scheduler.review_card(card, Rating(rating_value), review_datetime=now)
        if card.stability > CAP:
            capped = True
        reviews.append(
            {
                "rating": rating_value,
                "time": iso(now),
                "elapsed_days": elapsed,
                "state": STATE_NAMES[card.state],
                "step": card.step,
                "stability": card.stability,
                "difficulty": card.difficulty,
                "due": iso(card.due),
                "rs_stability": memory.stability,
                "rs_difficulty": memory.difficulty,
            }
        )
    if capped:
        # From the first review where py-fsrs leaves the cap behind, its later stabilities and
        # intervals follow an uncapped history; take fsrs-rs' (capped) values and intervals instead.
        rs_card_due = None
        beyond = False
        for i, r in enumerate(reviews):
            if r["stability"] > CAP:
                beyond = True
            if beyond and r["state"] == "review":
                days = round(r["rs_stability"] / scheduler._FACTOR * (config["desired_retention"] ** (1 / scheduler._DECAY) - 1))
                days = min(max(days, 1), config["maximum_interval"])
                t = datetime.fromisoformat(r["time"])
                r["due"] = iso(t + timedelta(days=days))
                r["due_source"] = "fsrs-rs"
    return {
        "name": spec["name"],
        "config": config,
        "stability_reference": "fsrs-rs" if capped else "py-fsrs",
        "reviews": reviews,
    }


def chain(*parts):
    out = []
    for p in parts:
        out.extend(p)
    return out


G = lambda when=("due",): (3, when)  # noqa: E731
A = lambda when=("due",): (1, when)  # noqa: E731
H = lambda when=("due",): (2, when)  # noqa: E731
E = lambda when=("due",): (4, when)  # noqa: E731


def specs() -> list[dict]:
    out = []
    # Every rating from every state (learning step 0 and 1, review, relearning), then two Goods.
    prefixes = {
        "learning-step0": [],
        "learning-step1": [G()],
        "review": [G(), G(), G()],
        "relearning": [G(), G(), G(), A()],
    }
    names = {1: "again", 2: "hard", 3: "good", 4: "easy"}
    for state, prefix in prefixes.items():
        for rating in (1, 2, 3, 4):
            first = [(rating, ("due",))]
            out.append({"name": f"{names[rating]}-from-{state}", "reviews": prefix + first + [G(), G()]})
    out += [
        {"name": "same-day-reviews-in-review", "reviews": [G(), G(), G(), G(("last+", 3600)), H(("last+", 7200)), E(("last+", 600)), G()]},
        {"name": "same-day-again-in-review", "reviews": [E(), A(("last+", 60)), G(), G()]},
        {"name": "early-reviews", "reviews": [G(), G(), G(("ivl", 0.5)), G(("ivl", 0.3)), E(("ivl", 0.6)), H(("ivl", 0.5))]},
        {"name": "overdue-reviews", "reviews": [G(), G(), G(("ivl", 3)), G(("ivl", 10)), H(("ivl", 2.5)), A(("ivl", 4)), G()]},
        {"name": "lapses", "reviews": [G(), G(), G(), A(), G(), G(), A(), A(), G(), H(), G(), A(), E()]},
        {"name": "easy-streak-first", "reviews": [E()] + [E() for _ in range(5)]},
        {"name": "easy-streak-to-cap", "reviews": [E() for _ in range(12)] + [A(), G(), G()]},
        {"name": "again-streak", "reviews": [A() for _ in range(10)] + [G(), G(), G(), G()]},
        {"name": "again-streak-long-term", "reviews": [G(), G(), G()] + [A(("last+", 86400 * 2)) for _ in range(6)] + [G(), G()]},
        {"name": "hard-streak", "reviews": [H() for _ in range(10)]},
        {"name": "learning-hard-then-good-late", "reviews": [H(), H(("last+", 3 * 86400)), G(), G(), G()]},
        {"name": "learning-again-after-days", "reviews": [G(), A(("last+", 5 * 86400)), G(), G(), G()]},
        {"name": "one-learning-step-hard", "learning_steps": [300], "reviews": [H(), H(), G(), G(), G()]},
        {"name": "three-learning-steps", "learning_steps": [60, 600, 3600], "reviews": [G(), H(), G(), H(), A(), G(), G(), G(), G()]},
        {"name": "no-learning-steps", "learning_steps": [], "reviews": [A(), G(), H(), G(), E()]},
        {"name": "no-relearning-steps", "relearning_steps": [], "reviews": [G(), G(), G(), A(), A(), G(), G()]},
        {"name": "two-relearning-steps", "relearning_steps": [300, 3600], "reviews": [E(), G(), A(), H(), G(), A(), G(), A(), G(), G(), G()]},
        {"name": "one-relearning-step-hard", "relearning_steps": [1200], "reviews": [G(), G(), G(), A(), H(), H(), G(), G()]},
        {"name": "retention-0.8", "retention": 0.8, "reviews": [G(), G(), G(), G(), H(), A(), G(), G(), E()]},
        {"name": "retention-0.95", "retention": 0.95, "reviews": [G(), G(), G(), G(), H(), A(), G(), G(), E()]},
        {"name": "retention-0.7-overdue", "retention": 0.7, "reviews": [E(), G(("ivl", 2)), G(("ivl", 0.5)), A(), G(), G()]},
        {"name": "maximum-interval-30", "maximum_interval": 30, "reviews": [E(), E(), E(), E(), G(), G(), A(), G(), G()]},
        {"name": "custom-parameters", "parameters": CUSTOM_PARAMETERS, "reviews": [A(), H(), G(), G(), G(("ivl", 2)), A(), G(), E(), G(("last+", 1800)), G()]},
        {"name": "custom-parameters-custom-steps", "parameters": CUSTOM_PARAMETERS, "retention": 0.85, "learning_steps": [30, 300, 1800], "relearning_steps": [120, 900], "reviews": [G(), G(), H(), G(), G(), A(), G(), H(), G(), G(), E()]},
        {"name": "due-plus-seconds", "reviews": [G(), G(("due+", 59)), G(("due+", 86399)), G(("due+", -1)), G(("due+", 1))]},
        {"name": "mixed-long-history", "reviews": [G(), G(), H(), G(("ivl", 1.4)), E(), A(("ivl", 0.7)), G(), G(("ivl", 2)), H(), G(), A(), G(), G(), E(), G(("ivl", 0.2)), G()]},
    ]
    return out


def main() -> int:
    sequences = [run_sequence(s) for s in specs()]
    # Sanity check: where no cap applies, fsrs-rs (float32) and py-fsrs (float64) must agree closely.
    worst = 0.0
    for seq in sequences:
        if seq["stability_reference"] != "py-fsrs":
            continue
        for r in seq["reviews"]:
            for a, b in ((r["stability"], r["rs_stability"]), (r["difficulty"], r["rs_difficulty"])):
                worst = max(worst, abs(a - b) / abs(a))
    fixture = {
        "generator": "scripts/fsrs/make_golden.py",
        "versions": {"fsrs": version("fsrs"), "fsrs-rs-python": version("fsrs-rs-python")},
        "note": "Times are ISO-8601 UTC with microseconds. Fuzz off, days counted as 24-hour periods (py-fsrs).",
        "max_relative_difference_py_vs_rs": worst,
        "sequences": sequences,
    }
    path = Path("Tests/FlashcardsCoreTests/Fixtures/fsrs-golden.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(fixture, indent=1) + "\n")
    reviews = sum(len(s["reviews"]) for s in sequences)
    capped = sum(1 for s in sequences if s["stability_reference"] == "fsrs-rs")
    print(f"{len(sequences)} sequences, {reviews} reviews, {capped} capped; py vs rs max rel diff {worst:.2e} -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Write a realistic FSRS scenario (the JSON read by anki_reference.py and by our Swift tools).

    python3 scripts/fsrs/make_scenario.py --cards 300 --new 100 --seed 42 > scripts/fsrs/scenarios/small.json
    python3 scripts/fsrs/make_scenario.py --cards 10000 --new 1000 --seed 7 -o /tmp/big.json

Only the standard library; the same arguments always give the same file.

Review cards:
- stability: log-normal (median 20 d, sigma 1.1), clipped to [1, 365] days, 2 decimals;
- difficulty: normal(5.5, 2.0) clipped to [1, 10], 2 decimals;
- interval (last review -> due): about the stability (x 0.7 .. 1.3, at least 1 day), as FSRS gives
  at retention 0.9; dueInDays: 15 % overdue (-1 .. -14), the rest spread over 0 .. 60 days
  (triangular, more in the first weeks) but never beyond the interval;
  lastReviewDaysAgo = interval - dueInDays (>= 1);
- notes: about 30 % of the notes have two cards (siblings, e.g. Basic (and reversed card)), the
  others one. `note` numbers run from 1; new cards are separate one-card notes in every tool.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys

DEFAULT_PARAMETERS = [
    0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
    1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
]


def make(cards: int, new: int, seed: int, start: str, days: int) -> dict:
    rng = random.Random(seed)
    out = []
    note = 0
    while len(out) < cards:
        note += 1
        count = 2 if rng.random() < 0.3 and len(out) + 2 <= cards else 1
        for _ in range(count):
            s = min(365.0, max(1.0, math.exp(rng.gauss(math.log(20.0), 1.1))))
            d = min(10.0, max(1.0, rng.gauss(5.5, 2.0)))
            ivl = max(1, round(s * rng.uniform(0.7, 1.3)))
            if rng.random() < 0.15:
                due = -rng.randint(1, 14)
            else:
                due = min(int(rng.triangular(0, 60, 0)), ivl)
            last = ivl - due
            if last < 1:
                last = 1
            out.append({"note": note, "stability": round(s, 2), "difficulty": round(d, 2),
                        "lastReviewDaysAgo": last, "dueInDays": due})
    return {
        "seed": seed,
        "startDate": start,
        "parameters": DEFAULT_PARAMETERS,
        "desiredRetention": 0.9,
        "days": days,
        "newCardsPerDay": 10,
        "maxReviewsPerDay": 9999,
        "maxInterval": 36500,
        "learningSteps": [1, 10],
        "relearningSteps": [10],
        "easyDays": [1, 1, 1, 1, 1, 1, 1],
        "newCards": new,
        "cards": out,
        "ratings": [3, 3, 2, 3, 1, 3, 4, 3],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cards", type=int, required=True, help="review cards")
    ap.add_argument("--new", type=int, required=True, help="new (never studied) cards")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--start", default="2026-12-07", help="day 0 (a Monday)")
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("-o", "--output", help="file (default: stdout)")
    args = ap.parse_args()
    scenario = make(args.cards, args.new, args.seed, args.start, args.days)
    # one key per line, one card per line: diffable, still compact
    lines = ["{"]
    for key, value in scenario.items():
        if key == "cards":
            lines.append('  "cards": [')
            for i, c in enumerate(value):
                lines.append("    " + json.dumps(c) + ("," if i + 1 < len(value) else ""))
            lines.append("  ],")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines[-1] = lines[-1].rstrip(",")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    json.loads(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""PostgreSQL/SQLite ratios of two `flashcards-bench server` outputs from the same sitting.

    scripts/bench-ratios.py SQLITE_OUTPUT POSTGRES_OUTPUT

Each file is a run's whole output; the JSON array it ends with holds one entry per stack size with
one loop per scheduler. Prints, per size and scheduler, next+rate p50 and p99 on both databases and
PostgreSQL's ratio to SQLite (latencies: lower is better; round trips/s of the concurrent clients:
higher is better), and whether issue 38's goal holds: p99 under 10 ms, p50 at most 2x SQLite's,
throughput at least 60 % of SQLite's. Where the runs measured `--learners` (one client per learner,
each on their own stack), their round trips/s and share follow on the line.
"""
import json
import sys


def loops(path):
    text = open(path, encoding="utf-8").read()
    start = text.rfind("\n[")
    results = json.loads(text[start + 1 if start >= 0 else text.index("["):])
    return {(r["cards"], loop["scheduler"]): loop for r in results for loop in r["loops"]}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sqlite, postgres = loops(sys.argv[1]), loops(sys.argv[2])
    print("==> PostgreSQL / SQLite (same sitting)")
    print(f"{'cards':>7} {'sched':6} {'p50 ms PG/SQ':>15} {'ratio':>6} {'p99 ms PG/SQ':>15} {'ratio':>6}"
          f" {'rt/s PG/SQ':>13} {'share':>6}  goal")
    for key in sorted(set(sqlite) & set(postgres)):
        s, p = sqlite[key], postgres[key]
        p50 = p["nextRateP50ms"] / s["nextRateP50ms"]
        p99 = p["nextRateP99ms"] / s["nextRateP99ms"]
        share = p["roundTripsPerSecond"] / s["roundTripsPerSecond"]
        met = p["nextRateP99ms"] < 10 and p50 <= 2 and share >= 0.6
        print(f"{key[0]:>7} {key[1]:6} {p['nextRateP50ms']:7.2f}/{s['nextRateP50ms']:<7.2f} {p50:6.2f}"
              f" {p['nextRateP99ms']:7.2f}/{s['nextRateP99ms']:<7.2f} {p99:6.2f}"
              f" {p['roundTripsPerSecond']:6.0f}/{s['roundTripsPerSecond']:<6.0f} {share:6.0%}  {'met' if met else 'NOT met'}"
              + learners(s, p))


def learners(s, p):
    """The learners' round trips/s on both databases and PostgreSQL's share, when both measured them."""
    key = "learnersRoundTripsPerSecond"
    if not s.get(key) or not p.get(key):
        return ""
    return f"  | learners rt/s {p[key]:.0f}/{s[key]:.0f} {p[key] / s[key]:.0%}"


if __name__ == "__main__":
    main()

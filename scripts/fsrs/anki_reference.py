#!/usr/bin/env python3
"""Reference figures from the real Anki backend for our FSRS tools (simulator, retention advice,
easy days, load balancer, parameter evaluation).

Requirements: anki==26.9.3 (scripts/anki-venv.sh) and Debian's faketime (scripts/anki-venv.sh
--fixtures installs it).

    PY="$(scripts/anki-venv.sh --fixtures | tail -n 1)"
    "$PY" scripts/fsrs/anki_reference.py simulate scripts/fsrs/scenarios/small.json [--retention-sweep [--skip-optimal-retention]] [--no-load-balancer]
    "$PY" scripts/fsrs/anki_reference.py load-balance scripts/fsrs/scenarios/small.json [--easy-days 1,1,1,1,1,1,0] [--no-load-balancer] [--only]
    "$PY" scripts/fsrs/anki_reference.py evaluate /work/shared/data/review-log-sample.csv [--parameters p1,...,p21]

Each subcommand prints one JSON object on stdout; progress goes to stderr. The backend's parallel
parts (optimal retention, workload, evaluation) use rayon: RAYON_NUM_THREADS=1 keeps them on one core. The scenario format is
described in scripts/fsrs/README.md (make_scenario.py writes one).

Like scripts/anki-fixtures.py the script re-executes itself under libfaketime with a frozen clock
(TZ=UTC) that it moves itself, so "today" is the scenario's startDate and days pass by time travel.

Anki settings used everywhere
-----------------------------
- timezone UTC, "next day starts at" 4 (config `rollover` = 4): an Anki day runs 04:00-04:00 UTC;
- the collection is created 400 days before startDate (so no card has a negative due day); the
  clock is set to <day> 12:00:00 UTC while studying/simulating day <day>;
- FSRS on (config `fsrs`), one deck (Default) with the Default preset: fsrsParams6 = parameters,
  desiredRetention, new/day = newCardsPerDay, reviews/day = maxReviewsPerDay, maximum interval,
  learning/relearning steps, easyDaysPercentages = easyDays, burying of siblings OFF (new, review,
  interday learning), leech action "tag only", review order "due date, then random" (0),
  "new cards ignore review limit" off; load balancer on unless --no-load-balancer (Anki's default
  is on);
- cards: a scenario note with one card is a "Basic" note, with two cards a "Basic (and reversed
  card)" note; every new card is its own Basic note (due = position 1..newCards). Review cards
  are written straight into the cards table: type = queue = 2 (review), ivl = lastReviewDaysAgo +
  dueInDays, due = today + dueInDays, factor 2500, reps 1, lapses 0, and the card's data
  {"s": stability, "d": difficulty, "dr": desiredRetention, "decay": w20,
   "lrt": <startDate 12:00 UTC - lastReviewDaysAgo days>}. No revlog rows are written (so the
  simulator's costs/probabilities are fsrs-rs' defaults, see below).

1. simulate  (Collection.simulate_fsrs_review -> rslib simulate_request_to_config + fsrs-rs
   fsrs::simulate, fsrs 6.6.1)
   Request: params, desired_retention, deck_size = 0 (the new cards come from the collection),
   days_to_simulate = days, new_limit = newCardsPerDay, review_limit = maxReviewsPerDay,
   max_interval, search "" (all cards), easy_days_percentages, review_order 0 (due date),
   learning_step_count = len(learningSteps), relearning_step_count = len(relearningSteps),
   historical_retention 0.9 (unused: every card has a memory state), no suspend-after-lapses.
   What Anki does with it:
   - existing review cards become fsrs::Card{stability, difficulty, due = due - today (day index,
     may be negative), interval = ivl, last_date = min(due - today - ivl, 0)}: the last review
     day is derived from due and ivl, NOT from the stored last review time (lrt);
   - new cards are all (re)created by fsrs-rs: card i (0-based, in order) is introduced on day
     floor(i / newCardsPerDay) (Anki's own placeholders have stability 1e-8 and are dropped by
     fsrs-rs' `stability > 1e-9` filter; fsrs-rs recreates deck_size - existing of them);
   - cards are processed from a priority queue ordered by (due day, new-after-review, review
     order key); the day a card is reviewed is `due as usize` (saturating), so an overdue card
     (due < 0) is reviewed on day 0;
   - review of an existing/learned card: R = (1 + factor * (t - last_date) / S) ^ -w20 with
     factor = 0.9^(-1/w20) - 1 and t = the card's due field, NOT the review day: for an overdue
     card t stays its original (negative) due, so t - last_date = ivl and the overdue days are
     ignored (for a card pushed to the next day by the review limit, due is moved, so t is the
     day it is reviewed); forgot with probability 1 - R (one
     Bernoulli draw from StdRng seeded with 42); if recalled the rating is drawn from
     review_rating_prob over Hard/Good/Easy; Again -> S' = post-lapse stability, then
     relearning_step_count short-term steps whose ratings are drawn from
     relearning_step_transitions; cost = review cost of the rating + the relearning steps' costs
     (relearning state costs);
   - learning a new card: first rating drawn from first_rating_prob, S0 = w[rating-1],
     D0 = init_d, then up to learning_step_count short-term steps (ratings from
     learning_step_transitions); cost = the first rating's learning cost + every step's cost;
   - next interval = round(S/factor * (DR^(-1/w20) - 1)) clamped to [1, max_interval], no fuzz;
     if the load balancer is ON, Anki replaces it by its load-balancer pick in the fuzz range
     [constrained_fuzz_bounds] weighted by the simulated due counts and the easy days (no
     sibling weighting); the easy days only act through that, so with the load balancer OFF the
     simulator ignores easy days;
   - review limit: a card that does not fit in a day's limit moves to the next day.
   Output per day d (0 .. days-1):
   - reviews  = daily_review_count[d]: the number of review-state cards answered on day d (one
     per card and day; learning and relearning steps are NOT counted);
   - newLearned = daily_new_count[d]: cards learned for the first time that day;
   - timeSeconds = daily_time_cost[d]: sum of the costs above (learning steps included);
   - memorized = accumulated_knowledge_acquisition[d]: the sum over every card that has been
     studied (existing review cards and new cards learned on or before day d) of its
     retrievability on day d, R(d - last_date, S) with the memory state that was current for
     that day; a card reviewed (or learned) on day d counts with its new state, i.e. R = 1 on
     that day. New cards not yet introduced count 0.
   Totals: sums over the days; averages: totals / days; memorizedEnd = memorized[days-1].
   Also printed:
   - simulatorInputs = get_optimal_retention_parameters(""): the costs/probabilities the simulator
     used, from fsrs-rs extract_simulator_config over the revlog of the searched cards (mean
     answer time per (state, rating), first-answer and same-day step transition frequencies,
     each smoothed towards the defaults with weight n/(n+50)); with no revlog, as here, exactly
     fsrs-rs' SimulatorConfig defaults;
   - retentionSweep (--retention-sweep): the same simulation at DR 0.70 .. 0.97 (all cards use
     the swept DR); secondsPerMemorized = total time / memorized at the end;
   - computeOptimalRetention = compute_optimal_retention(request): fsrs-rs Brent search on
     [0.70, 0.95] minimising mean(total cost / memorized at the end) over 180 seeded simulations
     (days <= 30), clamped to [0.7, 0.95]. NOTE: the existing cards keep the request's DR in
     every simulation (only the new cards get the candidate DR), and with anki 26.9.3 it returned
     0.9367321 for every input tried (with and without existing or new cards, 30/100/365 days):
     exactly where this Brent search ends for a constant/NaN/decreasing objective. Do not
     reproduce it; use the sweep or the workload figures;
   - simulateFsrsWorkload = simulate_fsrs_workload(request) ("help me decide"): for DR 70..99 %
     one seeded simulation each with every card at that DR: memorizedEnd (memorized on the last
     day), timeSeconds (sum of daily time), reviewsPlusNew (reviews + new cards learned);
     reviewlessEndMemorized = sum over existing review cards of R(days + lastReviewDaysAgo, S)
     (no reviews at all, measured at day index `days`);
   - getRetentionWorkload = get_retention_workload(w, ""): for DR 70..99 %, fsrs-rs
     expected_workload_with_existing_cards: expected review seconds over `learn_span` = 365 days
     (SimulatorConfig default, not the scenario's days) from a dynamic program over a (S, D, t)
     grid, for the existing cards (their next review R(due - last_date)) plus
     deck_size - existing new cards (learn_limit default = unlimited -> all on day 0).

2. load-balance  (the real scheduler, v3, FSRS; no simulation)
   Day k = 0 .. days-1: the clock is set to startDate + k days, 12:00 UTC, the queue is rebuilt,
   and every card the queue gives is answered (no time passes per answer): a review card with
   ratings[(i + n) % len(ratings)] where i is the card's index in the scenario and n the number
   of times that card was answered as a review card before; a (re)learning card with Good (3).
   Relearning cards due later that day (10 min steps) are reached by moving the clock on by
   11 minutes and rebuilding the queue until nothing is due. New cards are not studied (new/day 0
   in this run). Recorded: reviews[k] = number of answers to review-queue cards on day k
   (relearning answers excluded, counted separately), the due-day histogram of the 30 days after
   the last day (cards with queue = review and due = today+days .. today+days+29), siblings =
   number of (day, note) pairs in which two cards of the same note were answered as reviews,
   weekday counts (Monday..Sunday, over all review answers). peakToMean = max / mean of the
   daily review counts over days 1 .. days-1 (day 0 holds the scenario's overdue backlog and is
   left out). siblingsSameDay is also given per day, after day 0, and as the number of pairs
   the scenario itself puts on one day (siblingsSameDayAsGiven: both due the same day, overdue =
   day 0); siblingsDueSameDay = per day, notes with >= 2 review cards due (today or overdue) when
   the day starts (after Anki's unburying).
   Five runs (unless --only): load balancer on with the scenario's easy days; off; on with
   --easy-days (default Sunday minimum 1,1,1,1,1,1,0); on and off with siblings buried (new,
   review and interday-learning burying on). easyDayShare = reviews (and next-30-day dues) on the
   minimum/reduced weekday(s) with those easy days / the same with the scenario's easy days.
   How Anki's load balancer picks the day (rslib scheduler/states/load_balancer.rs, fuzz.rs):
   - only for review intervals (the FSRS interval, truncated) <= 90 days and minimum <= 90; else
     ordinary fuzz; candidates are the fuzz range [lower, upper] = constrained_fuzz_bounds(ivl,
     min, max): delta = 0 below 2.5 d, else 1 + 0.15*(min(ivl,7)-2.5) + 0.1*(min(ivl,20)-7)+ +
     0.05*(ivl-20)+, lower/upper = round(ivl -/+ delta), widened to lower+1 if equal (and > 2);
   - per candidate day: n = cards of the same preset due that day (the balancer's own count,
     built from the cards due in the next 99 days when the queue is built and updated as cards
     are answered); weight = 1 if n == 0, else (1/n)^2.15 * (1/ivl)^3 * sibling * easy;
   - easy: Normal 1, Minimum 0.0001, Reduced: 0.0001 if n/0.5 > (reviews on the other candidate
     days)/(sum of the other days' modifiers) else 1; note an EMPTY day keeps weight 1 whatever
     its easy-day setting;
   - sibling (only when the preset buries review siblings): for each day d with a card of the same
     note, candidate days d-5..d+5 get x[1, .8, .6, .4, .2, 1e-6, .2, .4, .6, .8, 1];
   - one weighted random pick, StdRng seeded with the card's fuzz seed (card id + reps):
     deterministic for the same collection.
   Without the load balancer easy days have no effect on the real scheduler either.

3. evaluate  (Collection.evaluate_params_legacy / evaluate_params / compute_fsrs_params)
   The CSV (card_id, review_rating, review_time ISO UTC, review_duration ms) becomes one Basic
   note per card, whose card id is set to card_id, and one revlog row per line: id = review time
   in ms (made unique by +1 ms if needed), ease = rating, time = duration in ms capped at
   60,000 (Anki's default maxTaken; only the simulator's costs read it), type: a card's
   reviews on its first Anki day -> 0 (learning), later the first review of a day -> 1 (review),
   a further review that day -> 2 (relearning) after an Again that day, else 1; ivl/lastIvl =
   days to the next/from the previous review (-600 s for same-day). Days are Anki days with the
   04:00 UTC rollover (next_day_at of the day after the last review). Anki then builds FSRS items
   (every review with delta_t > 0 after the first of a card whose history starts with a
   learning entry; short-term reviews are in the history), and:
   - evaluate_params_legacy(params): fsrs-rs FSRS::evaluate over all items -> log loss, RMSE(bins);
   - evaluate_params (26.x "Evaluate"): no parameters in the request; fsrs-rs
     evaluate_with_time_series_splits (trains on earlier splits, predicts later ones);
   - compute_fsrs_params(current = defaults, 1 relearning step): Anki's optimizer (8 epochs); if
     the default parameters have a log loss <= the optimised ones Anki returns the defaults.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import glob
import json
import os
import shutil
import sys
import tempfile
import time

DEFAULT_PARAMETERS = [
    0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
    1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
]
ROLLOVER_HOUR = 4
STUDY_HOUR = 12
SWEEP = [0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 0.97]
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def log(*args) -> None:
    print("anki_reference:", *args, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# the clock (libfaketime, frozen, moved by writing FAKETIME_TIMESTAMP_FILE)


def _find_libfaketime() -> str | None:
    for pattern in ("/usr/lib/*/faketime/libfaketime.so.1", "/usr/lib/faketime/libfaketime.so.1",
                    "/usr/local/lib/faketime/libfaketime.so.1"):
        hits = sorted(glob.glob(pattern))
        if hits:
            return hits[0]
    return None


def _reexec_under_faketime(start: dt.datetime) -> None:
    if os.environ.get("ANKI_REF_CLOCK"):
        return
    lib = _find_libfaketime()
    if lib is None:
        sys.exit("anki_reference: libfaketime not found: apt-get install faketime "
                 "(scripts/anki-venv.sh --fixtures)")
    clock_file = tempfile.NamedTemporaryFile("w", prefix="anki-ref-clock.", delete=False)
    clock_file.write(start.strftime("%Y-%m-%d %H:%M:%S") + "\n")
    clock_file.close()
    env = dict(os.environ)
    env.update({
        "LD_PRELOAD": lib,
        "FAKETIME_TIMESTAMP_FILE": clock_file.name,
        "FAKETIME_NO_CACHE": "1",
        "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        "TZ": "UTC",
        "ANKI_REF_CLOCK": clock_file.name,
    })
    env.pop("FAKETIME", None)
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env)


class Clock:
    def __init__(self):
        self.path = os.environ["ANKI_REF_CLOCK"]

    def set(self, when: dt.datetime) -> None:
        with open(self.path, "w") as f:
            f.write(when.strftime("%Y-%m-%d %H:%M:%S") + "\n")
        got = dt.datetime.fromtimestamp(time.time(), dt.timezone.utc).replace(tzinfo=None)
        assert got == when, f"faketime did not take the new time: {got} != {when}"

    def cleanup(self) -> None:
        try:
            os.remove(self.path)
        except OSError:
            pass


def wall() -> float:
    """Real elapsed seconds: faketime freezes time.time() but, with FAKETIME_DONT_FAKE_MONOTONIC,
    not the monotonic clock."""
    return time.monotonic()


# ---------------------------------------------------------------------------------------------
# bulk SQL (the backend's executemany costs ~1.5 ms a row; literal multi-row statements do not)


def _lit(v) -> str:
    if isinstance(v, bool) or v is None:
        raise TypeError(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    return "'" + str(v).replace("'", "''") + "'"


def bulk_insert(col, table: str, columns: list[str], rows: list[tuple], batch: int = 500) -> None:
    for k in range(0, len(rows), batch):
        values = ",".join("(" + ",".join(_lit(v) for v in r) + ")" for r in rows[k:k + batch])
        col.db.execute(f"insert into {table} ({','.join(columns)}) values {values}")


def bulk_update(col, table: str, key: str, columns: list[str], rows: list[tuple]) -> None:
    """rows: (key, value1, value2, ...); sets table.columns from them."""
    col.db.execute("drop table if exists temp.bulk_upd")
    col.db.execute(f"create temp table bulk_upd (k integer primary key, {', '.join(f'v{i}' for i in range(len(columns)))})")
    bulk_insert(col, "temp.bulk_upd", ["k"] + [f"v{i}" for i in range(len(columns))], rows)
    sets = ", ".join(f"{c} = bulk_upd.v{i}" for i, c in enumerate(columns))
    col.db.execute(f"update {table} set {sets} from temp.bulk_upd where {table}.{key} = bulk_upd.k")
    col.db.execute("drop table temp.bulk_upd")


# ---------------------------------------------------------------------------------------------
# scenario -> collection


def load_scenario(path: str) -> dict:
    with open(path) as f:
        scn = json.load(f)
    for key in ("startDate", "parameters", "desiredRetention", "days", "cards"):
        if key not in scn:
            sys.exit(f"anki_reference: scenario lacks {key!r}")
    if len(scn["parameters"]) != 21:
        sys.exit("anki_reference: parameters must be 21 FSRS-6 weights")
    scn.setdefault("newCardsPerDay", 10)
    scn.setdefault("maxReviewsPerDay", 9999)
    scn.setdefault("maxInterval", 36500)
    scn.setdefault("learningSteps", [1, 10])
    scn.setdefault("relearningSteps", [10])
    scn.setdefault("easyDays", [1] * 7)
    scn.setdefault("newCards", 0)
    scn.setdefault("ratings", [3])
    return scn


def day_start(scn: dict, day: int = 0, hour: int = STUDY_HOUR, minute: int = 0) -> dt.datetime:
    d = dt.date.fromisoformat(scn["startDate"])
    return dt.datetime(d.year, d.month, d.day, hour, minute) + dt.timedelta(days=day)


def configure(col, scn: dict, *, load_balancer: bool, easy_days: list[float] | None = None,
              new_per_day: int | None = None, bury: bool = False) -> None:
    col.set_config("rollover", ROLLOVER_HOUR)
    col.set_config("fsrs", True)
    col.load_balancer_enabled = load_balancer
    conf = col.decks.get_config(1)
    conf["fsrsParams6"] = [float(x) for x in scn["parameters"]]
    conf["desiredRetention"] = float(scn["desiredRetention"])
    conf["new"]["perDay"] = int(scn["newCardsPerDay"] if new_per_day is None else new_per_day)
    conf["new"]["delays"] = [float(x) for x in scn["learningSteps"]]
    conf["new"]["bury"] = bury
    conf["rev"]["perDay"] = int(scn["maxReviewsPerDay"])
    conf["rev"]["maxIvl"] = int(scn["maxInterval"])
    conf["rev"]["bury"] = bury
    conf["buryInterdayLearning"] = bury
    conf["lapse"]["delays"] = [float(x) for x in scn["relearningSteps"]]
    conf["lapse"]["leechAction"] = 1  # tag only
    conf["reviewOrder"] = 0
    conf["easyDaysPercentages"] = [float(x) for x in (easy_days or scn["easyDays"])]
    col.decks.update_config(conf)


def build_collection(clock: Clock, workdir: str, scn: dict, *, load_balancer: bool,
                     easy_days: list[float] | None = None, new_cards: bool = True,
                     new_per_day: int | None = None, bury: bool = False):
    """Returns (col, card ids in scenario order, note id per scenario note number)."""
    from anki.collection import AddNoteRequest, Collection

    clock.set(day_start(scn, -400))
    col = Collection(os.path.join(workdir, "collection.anki2"))
    configure(col, scn, load_balancer=load_balancer, easy_days=easy_days, new_per_day=new_per_day,
              bury=bury)
    basic = col.models.by_name("Basic")
    reversed_ = col.models.by_name("Basic (and reversed card)")

    groups: dict[int, list[int]] = {}
    for i, c in enumerate(scn["cards"]):
        groups.setdefault(int(c["note"]), []).append(i)
    requests, order = [], []
    for number, members in groups.items():
        if len(members) > 2:
            sys.exit(f"anki_reference: note {number} has {len(members)} cards (at most 2)")
        note = col.new_note(basic if len(members) == 1 else reversed_)
        note.fields[0] = f"front {number}"
        note.fields[1] = f"back {number}"
        requests.append(AddNoteRequest(note=note, deck_id=1))
        order.append(number)
    if new_cards:
        for j in range(int(scn["newCards"])):
            note = col.new_note(basic)
            note.fields[0] = f"new front {j}"
            note.fields[1] = f"new back {j}"
            requests.append(AddNoteRequest(note=note, deck_id=1))
    if requests:
        col.add_notes(requests)
    note_ids = {number: int(requests[k].note.id) for k, number in enumerate(order)}

    clock.set(day_start(scn, 0))
    today = col.sched.today
    start_ts = int(day_start(scn, 0).replace(tzinfo=dt.timezone.utc).timestamp())
    decay = float(scn["parameters"][20])
    card_ids: list[int] = [0] * len(scn["cards"])
    rows = []
    for number, members in groups.items():
        cids = col.db.list("select id from cards where nid = ? order by ord", note_ids[number])
        for cid, i in zip(cids, members):
            c = scn["cards"][i]
            card_ids[i] = cid
            due = int(c["dueInDays"])
            last = int(c["lastReviewDaysAgo"])
            ivl = last + due
            if ivl < 1:
                sys.exit(f"anki_reference: card {i}: lastReviewDaysAgo + dueInDays < 1")
            data = {"s": float(c["stability"]), "d": float(c["difficulty"]),
                    "dr": float(scn["desiredRetention"]), "decay": decay,
                    "lrt": start_ts - last * 86400}
            rows.append((cid, 2, 2, ivl, today + due, 2500, 1, 0, 0,
                         json.dumps(data, separators=(",", ":"))))
    bulk_update(col, "cards", "id",
                ["type", "queue", "ivl", "due", "factor", "reps", "lapses", "left", "data"], rows)
    if new_cards:
        new_ids = col.db.list("select id from cards where type = 0 order by id")
        bulk_update(col, "cards", "id", ["due"], [(cid, k + 1) for k, cid in enumerate(new_ids)])
    return col, card_ids, note_ids


def settings_figure(scn: dict, load_balancer: bool, easy_days=None) -> dict:
    return {
        "timezone": "UTC", "nextDayStartsAt": ROLLOVER_HOUR, "studyTimeUTC": f"{STUDY_HOUR}:00",
        "today": scn["startDate"], "loadBalancer": load_balancer,
        "easyDays": easy_days or scn["easyDays"], "fsrs": True,
        "buryNew": False, "buryReviews": False, "buryInterdayLearning": False,
        "reviewOrder": "due date, then random (0)", "leechAction": "tag only",
    }


# ---------------------------------------------------------------------------------------------
# 1. simulate


def simulate_request(scn: dict, retention: float | None = None):
    from anki.scheduler_pb2 import SimulateFsrsReviewRequest
    return SimulateFsrsReviewRequest(
        params=[float(x) for x in scn["parameters"]],
        desired_retention=float(scn["desiredRetention"] if retention is None else retention),
        deck_size=0,
        days_to_simulate=int(scn["days"]),
        new_limit=int(scn["newCardsPerDay"]),
        review_limit=int(scn["maxReviewsPerDay"]),
        max_interval=int(scn["maxInterval"]),
        search="",
        new_cards_ignore_review_limit=False,
        easy_days_percentages=[float(x) for x in scn["easyDays"]],
        review_order=0,
        historical_retention=0.9,
        learning_step_count=len(scn["learningSteps"]),
        relearning_step_count=len(scn["relearningSteps"]),
    )


def summarize_sim(resp, days: int) -> dict:
    reviews = list(resp.daily_review_count)
    new = list(resp.daily_new_count)
    cost = [round(x, 4) for x in resp.daily_time_cost]
    mem = [round(x, 4) for x in resp.accumulated_knowledge_acquisition]
    return {
        "daily": [{"day": d, "reviews": reviews[d], "newLearned": new[d],
                   "timeSeconds": cost[d], "memorized": mem[d]} for d in range(len(reviews))],
        "totals": {"reviews": sum(reviews), "newLearned": sum(new),
                   "timeSeconds": round(sum(resp.daily_time_cost), 3),
                   "memorizedEnd": mem[-1] if mem else None},
        "averages": {"reviewsPerDay": round(sum(reviews) / days, 4),
                     "newPerDay": round(sum(new) / days, 4),
                     "secondsPerDay": round(sum(resp.daily_time_cost) / days, 4),
                     "memorizedPerDay": round(sum(resp.accumulated_knowledge_acquisition) / days, 4)},
    }


def cmd_simulate(args, clock: Clock) -> dict:
    scn = load_scenario(args.scenario)
    lb = not args.no_load_balancer
    work = tempfile.mkdtemp(prefix="anki-ref-sim.")
    out: dict = {"command": "simulate", "scenario": os.path.basename(args.scenario),
                 "anki": anki_version(), "settings": settings_figure(scn, lb),
                 "reviewCards": len(scn["cards"]), "newCards": int(scn["newCards"])}
    try:
        t0 = wall()
        col, _, _ = build_collection(clock, work, scn, load_balancer=lb)
        out["buildSeconds"] = round(wall() - t0, 2)
        clock.set(day_start(scn, 0))
        be = col._backend

        p = be.get_optimal_retention_parameters(search="")
        sc = list(p.state_rating_costs)
        out["simulatorInputs"] = {
            "source": "get_optimal_retention_parameters(search) = fsrs-rs extract_simulator_config"
                      "(revlog of the searched cards, next_day_at, smooth=true); no revlog -> "
                      "SimulatorConfig::default()",
            "firstRatingProb": [round(x, 6) for x in p.first_rating_prob],
            "reviewRatingProb(Hard,Good,Easy)": [round(x, 6) for x in p.review_rating_prob],
            "learnCosts(Again..Easy)": [round(x, 4) for x in sc[0:4]],
            "reviewCosts(Again..Easy)": [round(x, 4) for x in sc[4:8]],
            "relearnCosts(Again..Easy)": [round(x, 4) for x in sc[8:12]],
            "learningStepTransitions": [[round(x, 6) for x in p.learning_step_transitions[r * 4:r * 4 + 4]] for r in range(3)],
            "relearningStepTransitions": [[round(x, 6) for x in p.relearning_step_transitions[r * 4:r * 4 + 4]] for r in range(3)],
            "learningStepCountSent": len(scn["learningSteps"]),
            "relearningStepCountSent": len(scn["relearningSteps"]),
            "learningStepReviewsCountedAsReviews": False,
            "learningStepCostsInTimeCost": True,
            "maxCostPerDay": "f32::MAX (no time limit)",
        }

        req = simulate_request(scn)
        t0 = wall()
        resp = be.simulate_fsrs_review(req)
        out["simulateSeconds"] = round(wall() - t0, 3)
        resp2 = be.simulate_fsrs_review(req)
        out["deterministic"] = resp.SerializeToString() == resp2.SerializeToString()
        out.update(summarize_sim(resp, int(scn["days"])))
        log(f"simulate: {out['totals']} in {out['simulateSeconds']} s")

        if args.retention_sweep:
            sweep = []
            for r in SWEEP:
                res = be.simulate_fsrs_review(simulate_request(scn, r))
                s = summarize_sim(res, int(scn["days"]))
                sweep.append({"desiredRetention": r, **s["totals"],
                              "secondsPerMemorized": round(s["totals"]["timeSeconds"] / s["totals"]["memorizedEnd"], 4)
                              if s["totals"]["memorizedEnd"] else None})
            out["retentionSweep"] = sweep

            t0 = wall()
            try:
                if args.skip_optimal_retention:
                    raise RuntimeError("skipped (--skip-optimal-retention)")
                opt = be.compute_optimal_retention(req)
                out["computeOptimalRetention"] = {"value": round(opt, 4),
                                                  "seconds": round(wall() - t0, 2)}
            except Exception as e:  # noqa: BLE001 - report what the backend said
                out["computeOptimalRetention"] = {"error": str(e)}
            log(f"compute_optimal_retention: {out['computeOptimalRetention']}")

            t0 = wall()
            wl = be.simulate_fsrs_workload(req)
            out["simulateFsrsWorkload"] = {
                "reviewlessEndMemorized": round(wl.reviewless_end_memorized, 4),
                "byRetention": {str(k): {"memorizedEnd": round(wl.memorized[k], 4),
                                         "timeSeconds": round(wl.cost[k], 3),
                                         "reviewsPlusNew": wl.review_count[k]}
                                for k in sorted(wl.memorized)},
                "seconds": round(wall() - t0, 2),
            }
            t0 = wall()
            rw = be.get_retention_workload(w=[float(x) for x in scn["parameters"]], search="")
            out["getRetentionWorkload"] = {
                "byRetention": {str(k): round(v, 4) for k, v in sorted(rw.items())},
                "seconds": round(wall() - t0, 2),
            }
        col.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


# ---------------------------------------------------------------------------------------------
# 2. load-balance


def run_scheduler(clock: Clock, scn: dict, *, load_balancer: bool, easy_days: list[float],
                  bury: bool = False) -> dict:
    work = tempfile.mkdtemp(prefix="anki-ref-lb.")
    try:
        t0 = wall()
        col, card_ids, _ = build_collection(clock, work, scn, load_balancer=load_balancer,
                                            easy_days=easy_days, new_cards=False, new_per_day=0,
                                            bury=bury)
        index = {cid: i for i, cid in enumerate(card_ids)}
        note_of = {cid: int(scn["cards"][i]["note"]) for i, cid in enumerate(card_ids)}
        ratings = [int(r) for r in scn["ratings"]]
        answered = [0] * len(card_ids)
        days = int(scn["days"])
        reviews, relearn, learn_other = [], [], []
        weekday = [0] * 7
        sibling_days: list[int] = []
        # (day, note) pairs where the scenario itself has two siblings due the same day of the
        # run (overdue = day 0): the part of siblingsSameDay no scheduler decision caused
        given: dict[tuple[int, int], int] = {}
        for c in scn["cards"]:
            d0 = max(int(c["dueInDays"]), 0)
            if d0 < int(scn["days"]):
                given[(d0, int(c["note"]))] = given.get((d0, int(c["note"])), 0) + 1
        given_pairs = sum(1 for n in given.values() if n >= 2)
        ratings_used = {1: 0, 2: 0, 3: 0, 4: 0}
        today0 = None
        due_pairs: list[int] = []
        for k in range(days):
            minute = 0
            clock.set(day_start(scn, k, STUDY_HOUR, minute))
            if today0 is None:
                today0 = col.sched.today
            n_rev = n_relearn = n_other = 0
            notes_today: dict[int, int] = {}
            while True:
                col.decks.select(1)
                col.sched.get_queued_cards()  # builds the queue anew (the clock moved)
                if minute == 0:
                    # notes with two review cards due (today or overdue) at the start of the day
                    due_pairs.append(col.db.scalar(
                        "select count() from (select nid from cards where queue = 2 and due <= ? "
                        "group by nid having count() >= 2)", col.sched.today))
                got = 0
                while True:
                    card = col.sched.getCard()
                    if card is None:
                        break
                    got += 1
                    if card.queue == 2:  # review
                        i = index[card.id]
                        ease = ratings[(i + answered[i]) % len(ratings)]
                        answered[i] += 1
                        n_rev += 1
                        ratings_used[ease] += 1
                        nid = note_of[card.id]
                        notes_today[nid] = notes_today.get(nid, 0) + 1
                    else:
                        ease = 3
                        if card.type == 3:
                            n_relearn += 1
                        else:
                            n_other += 1
                    col.sched.answerCard(card, ease)
                if got == 0:
                    # anything still in (re)learning today? move on 11 minutes and look again
                    pending = col.db.scalar("select count() from cards where queue in (1, 3)")
                    if not pending:
                        break
                    minute += 11
                    if minute >= 15 * 60:
                        raise SystemExit("anki_reference: learning cards never came due")
                    clock.set(day_start(scn, k, STUDY_HOUR, 0) + dt.timedelta(minutes=minute))
            reviews.append(n_rev)
            relearn.append(n_relearn)
            learn_other.append(n_other)
            weekday[day_start(scn, k).weekday()] += n_rev
            sibling_days.append(sum(1 for n in notes_today.values() if n >= 2))
        clock.set(day_start(scn, days))
        end = col.sched.today
        hist = [0] * 30
        for (due,) in col.db.all("select due from cards where queue = 2 and due >= ? and due < ?",
                                 end, end + 30):
            hist[due - end] += 1
        hist_weekday = [0] * 7
        for j, n in enumerate(hist):
            hist_weekday[day_start(scn, days + j).weekday()] += n
        # Only the cards answered in the run: their due day is the scheduler's choice.
        placed_weekday = [0] * 7
        for (due,) in col.db.all("select due from cards where queue = 2 and due >= ? and due < ? "
                                 "and id in (select cid from revlog)", end, end + 30):
            placed_weekday[day_start(scn, days + due - end).weekday()] += 1
        overdue_after = col.db.scalar("select count() from cards where queue = 2 and due < ?", end)
        col.close()
        window = reviews[1:] if len(reviews) > 1 else reviews
        mean = sum(window) / len(window) if window else 0
        hmean = sum(hist) / len(hist)
        hsd = (sum((x - hmean) ** 2 for x in hist) / len(hist)) ** 0.5
        return {
            "settings": {"loadBalancer": load_balancer, "easyDays": easy_days,
                         "burySiblings": bury},
            "dailyReviews": reviews,
            "dailyRelearningAnswers": relearn,
            "dailyOtherLearningAnswers": learn_other,
            "totalReviews": sum(reviews),
            "peakToMean": round(max(window) / mean, 4) if mean else None,
            "peakToMeanDays": f"1..{days - 1}",
            "meanDailyReviews(days 1..)": round(mean, 4),
            "siblingsSameDay": sum(sibling_days),
            "siblingsSameDayByDay": sibling_days,
            "siblingsSameDayAfterDay0": sum(sibling_days[1:]),
            "siblingsSameDayAsGiven": given_pairs,
            "siblingsDueSameDay": sum(due_pairs),
            "siblingsDueSameDayByDay": due_pairs,
            "reviewsByWeekday": dict(zip(WEEKDAYS, weekday)),
            "ratingsUsed": ratings_used,
            "dueHistogramNext30": hist,
            "dueHistogramStartsAt": (day_start(scn, days)).date().isoformat(),
            "dueHistogramByWeekday": dict(zip(WEEKDAYS, hist_weekday)),
            "placedDueNext30ByWeekday": dict(zip(WEEKDAYS, placed_weekday)),
            "dueHistogramPeakToMean": round(max(hist) / hmean, 4) if hmean else None,
            "dueHistogramCV": round(hsd / hmean, 4) if hmean else None,
            "overdueAfterLastDay": overdue_after,
            "seconds": round(wall() - t0, 2),
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cmd_load_balance(args, clock: Clock) -> dict:
    scn = load_scenario(args.scenario)
    minimum_days = [float(x) for x in args.easy_days.split(",")] if args.easy_days else \
        [1, 1, 1, 1, 1, 1, 0]
    if len(minimum_days) != 7:
        sys.exit("anki_reference: --easy-days needs 7 values (Monday..Sunday)")
    out: dict = {"command": "load-balance", "scenario": os.path.basename(args.scenario),
                 "anki": anki_version(), "settings": settings_figure(scn, True),
                 "reviewCards": len(scn["cards"]), "days": int(scn["days"]),
                 "ratings": scn["ratings"]}
    if args.only:
        lb = not args.no_load_balancer
        ed = minimum_days if args.easy_days else [float(x) for x in scn["easyDays"]]
        out["run"] = run_scheduler(clock, scn, load_balancer=lb, easy_days=ed, bury=args.bury)
        return out
    runs = {}
    given = [float(x) for x in scn["easyDays"]]
    for name, lb, ed, bury in (("loadBalancerOn", True, given, False),
                               ("loadBalancerOff", False, given, False),
                               ("loadBalancerOnEasyDays", True, minimum_days, False),
                               ("loadBalancerOnBurySiblings", True, given, True),
                               ("loadBalancerOffBurySiblings", False, given, True)):
        log(f"load-balance: {name} ...")
        runs[name] = run_scheduler(clock, scn, load_balancer=lb, easy_days=ed, bury=bury)
        log(f"load-balance: {name}: total {runs[name]['totalReviews']}, "
            f"peak/mean {runs[name]['peakToMean']}, {runs[name]['seconds']} s")
    out["runs"] = runs
    minimum = [WEEKDAYS[i] for i, v in enumerate(minimum_days) if v == 0]
    reduced = [WEEKDAYS[i] for i, v in enumerate(minimum_days) if 0 < v < 1]
    share = {}
    for day in minimum + reduced:
        base = runs["loadBalancerOn"]["reviewsByWeekday"][day]
        got = runs["loadBalancerOnEasyDays"]["reviewsByWeekday"][day]
        hbase = runs["loadBalancerOn"]["dueHistogramByWeekday"][day]
        hgot = runs["loadBalancerOnEasyDays"]["dueHistogramByWeekday"][day]
        share[day] = {"reviewsWithEasyDays": got, "reviewsWithoutEasyDays": base,
                      "fraction": round(got / base, 4) if base else None,
                      "dueNext30WithEasyDays": hgot, "dueNext30WithoutEasyDays": hbase,
                      "dueNext30Fraction": round(hgot / hbase, 4) if hbase else None}
    out["easyDayShare"] = share
    return out


# ---------------------------------------------------------------------------------------------
# 3. evaluate


def parse_time(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s.replace("Z", "+00:00")).astimezone(dt.timezone.utc)


def anki_day(t: dt.datetime) -> int:
    """Days since the epoch, counted in Anki days that start at 04:00 UTC."""
    return int((t.timestamp() - ROLLOVER_HOUR * 3600) // 86400)


def cmd_evaluate(args, clock: Clock) -> dict:
    from anki.collection import AddNoteRequest, Collection

    rows = []
    with open(args.log) as f:
        for r in csv.DictReader(f):
            rows.append((int(r["card_id"]), int(r["review_rating"]), parse_time(r["review_time"]),
                         int(float(r["review_duration"]))))
    rows.sort(key=lambda r: (r[0], r[2]))
    by_card: dict[int, list] = {}
    for r in rows:
        by_card.setdefault(r[0], []).append(r)
    last = max(r[2] for r in rows)
    # "today": 12:00 UTC of the Anki day after the last review
    today_dt = dt.datetime.fromtimestamp((anki_day(last) + 1) * 86400 + ROLLOVER_HOUR * 3600,
                                         dt.timezone.utc).replace(tzinfo=None, hour=STUDY_HOUR)
    first = min(r[2] for r in rows)
    work = tempfile.mkdtemp(prefix="anki-ref-eval.")
    out: dict = {"command": "evaluate", "log": os.path.basename(args.log), "anki": anki_version(),
                 "reviews": len(rows), "cards": len(by_card),
                 "settings": {"timezone": "UTC", "nextDayStartsAt": ROLLOVER_HOUR,
                              "today": today_dt.isoformat() + "Z",
                              "revlogTypes": "first Anki day of a card -> learning (0); later: "
                                             "first review of a day -> review (1); later same "
                                             "day after an Again -> relearning (2), else 1",
                              "ignoreRevlogsBefore": 0}}
    try:
        clock.set(dt.datetime(first.year, first.month, first.day) - dt.timedelta(days=2))
        col = Collection(os.path.join(work, "collection.anki2"))
        col.set_config("rollover", ROLLOVER_HOUR)
        col.set_config("fsrs", True)
        basic = col.models.by_name("Basic")
        reqs = []
        for cid in by_card:
            note = col.new_note(basic)
            note.fields[0] = f"card {cid}"
            reqs.append(AddNoteRequest(note=note, deck_id=1))
        col.add_notes(reqs)
        # give each card the CSV's id (one card per note, notes in by_card order)
        updates = []
        for req, cid in zip(reqs, by_card):
            old = col.db.scalar("select id from cards where nid = ?", req.note.id)
            updates.append((cid, old))
        bulk_update(col, "cards", "id", ["id"], [(old, new) for new, old in updates])
        revlog = []
        used_ids: set[int] = set()
        for cid, revs in by_card.items():
            first_day = anki_day(revs[0][2])
            for j, (_, rating, t, ms) in enumerate(revs):
                day = anki_day(t)
                same_day_before = [r for r in revs[:j] if anki_day(r[2]) == day]
                if day == first_day:
                    kind = 0
                elif not same_day_before:
                    kind = 1
                else:
                    kind = 2 if any(r[1] == 1 for r in same_day_before) else 1
                nxt = revs[j + 1] if j + 1 < len(revs) else None
                ivl = (anki_day(nxt[2]) - day) if nxt else 1
                ivl = ivl if ivl > 0 else -600
                prev = revs[j - 1] if j else None
                last_ivl = (day - anki_day(prev[2])) if prev else 0
                last_ivl = last_ivl if last_ivl > 0 else -600
                rid = int(t.timestamp() * 1000)
                while rid in used_ids:
                    rid += 1
                used_ids.add(rid)
                revlog.append((rid, cid, -1, rating, ivl, last_ivl, 2500 if kind else 0,
                               min(ms, 60000), kind))
        bulk_insert(col, "revlog", ["id", "cid", "usn", "ease", "ivl", "lastIvl", "factor", "time",
                                    "type"], revlog)
        col.db.execute("update cards set type = 2, queue = 2, ivl = 1, due = 0")
        clock.set(today_dt)
        out["settings"]["revlogTimeCappedMs"] = 60000
        be = col._backend

        def legacy(params):
            t0 = wall()
            r = be.evaluate_params_legacy(params=params, search="", ignore_revlogs_before_ms=0)
            return {"logLoss": round(r.log_loss, 6), "rmseBins": round(r.rmse_bins, 6),
                    "seconds": round(wall() - t0, 3)}

        out["defaultParameters"] = {"parameters": DEFAULT_PARAMETERS, **legacy(DEFAULT_PARAMETERS)}
        if args.parameters:
            given = [float(x) for x in args.parameters.split(",")]
            out["givenParameters"] = {"parameters": given, **legacy(given)}
        t0 = wall()
        opt = be.compute_fsrs_params(search="", current_params=DEFAULT_PARAMETERS,
                                     ignore_revlogs_before_ms=0, num_of_relearning_steps=1,
                                     health_check=True)
        fitted = [round(x, 4) for x in opt.params]
        out["optimizer"] = {
            "parameters": fitted,
            "fsrsItems": opt.fsrs_items,
            "healthCheckPassed": opt.health_check_passed if opt.HasField("health_check_passed") else None,
            "returnedDefaults": fitted == [round(x, 4) for x in DEFAULT_PARAMETERS],
            "seconds": round(wall() - t0, 2),
            **{k: v for k, v in legacy(list(opt.params)).items() if k != "seconds"},
        }
        log(f"optimizer: {out['optimizer']}")
        t0 = wall()
        ts = be.evaluate_params(search="", ignore_revlogs_before_ms=0, num_of_relearning_steps=1)
        out["timeSeriesSplitEvaluation"] = {
            "what": "evaluate_params (Anki 26.x 'Evaluate'): fsrs-rs evaluate_with_time_series_splits, "
                    "trains on earlier splits and predicts the next; takes no parameters",
            "logLoss": round(ts.log_loss, 6), "rmseBins": round(ts.rmse_bins, 6),
            "seconds": round(wall() - t0, 2)}
        col.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


# ---------------------------------------------------------------------------------------------


def dumps(value, indent: int = 0) -> str:
    """JSON with objects indented and lists of scalars (or small objects) on one line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = ",\n".join(f"{pad}{json.dumps(str(k))}: {dumps(v, indent + 1)}" for k, v in value.items())
        return "{\n" + inner + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value) or \
                all(isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v) for v in value):
            return json.dumps(value)
        if all(isinstance(v, dict) and all(not isinstance(x, (dict, list)) for x in v.values()) for v in value):
            return "[\n" + ",\n".join(pad + json.dumps(v) for v in value) + "\n" + "  " * indent + "]"
        return "[\n" + ",\n".join(pad + dumps(v, indent + 1) for v in value) + "\n" + "  " * indent + "]"
    return json.dumps(value)


def anki_version() -> str:
    try:
        from anki.buildinfo import buildhash, version
        return f"{version} ({buildhash})"
    except Exception:  # noqa: BLE001
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("simulate", help="Anki's FSRS simulator on a scenario")
    p.add_argument("scenario")
    p.add_argument("--retention-sweep", action="store_true",
                   help="also DR 0.70..0.97, compute_optimal_retention, workload figures")
    p.add_argument("--no-load-balancer", action="store_true")
    p.add_argument("--skip-optimal-retention", action="store_true",
                   help="with --retention-sweep: leave out compute_optimal_retention (slow: "
                        "~15 x 180 simulations)")
    p = sub.add_parser("load-balance", help="Anki's real scheduler over the scenario's days")
    p.add_argument("scenario")
    p.add_argument("--easy-days", help="W1,...,W7 (Monday..Sunday) for the easy-days run")
    p.add_argument("--no-load-balancer", action="store_true", help="with --only")
    p.add_argument("--bury", action="store_true", help="with --only: bury siblings (new, review, "
                   "interday learning); the load balancer spreads siblings only then")
    p.add_argument("--only", action="store_true",
                   help="one run (load balancer per --no-load-balancer, easy days per --easy-days)")
    p = sub.add_parser("evaluate", help="Anki's parameter evaluation and optimizer on a review log")
    p.add_argument("log")
    p.add_argument("--parameters", help="21 comma-separated weights to evaluate too")
    args = ap.parse_args()

    _reexec_under_faketime(dt.datetime(2026, 12, 7, STUDY_HOUR))
    clock = Clock()
    try:
        t0 = wall()
        if args.cmd == "simulate":
            out = cmd_simulate(args, clock)
        elif args.cmd == "load-balance":
            out = cmd_load_balance(args, clock)
        else:
            out = cmd_evaluate(args, clock)
        out["secondsTotal"] = round(wall() - t0, 2)
    finally:
        clock.cleanup()
    sys.stdout.write(dumps(out) + "\n")


if __name__ == "__main__":
    main()
